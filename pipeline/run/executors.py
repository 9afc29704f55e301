"""Executors run a function over tasks, in processes or in this process.

An executor knows nothing about stages or filters: it maps `fn` over `tasks` and returns the
results in task order, so the output never depends on which worker finished first.

One failure contract for every executor: a task whose function raises on every attempt (the
local executor makes one; Ray retries) gives a `TaskFailure` in its place, and the map goes on
with the others. A caller that can use partial results turns failures into rows (extract: one
`error.task` row per record); one that cannot calls `raise_failures`. What is not the task's
own failure stops the map instead, in every executor: an `OSError` (the machine: disk full,
permissions, I/O), a worker process that died in the local pool (its pool is broken), Ctrl-C
and SIGTERM.
`LocalExecutor` keeps its worker processes for all the maps of one run (extract tasks, then the
report's figures), so a run pays for starting them and importing the extractors once.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import importlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol, TypeVar

from tqdm import tqdm

T = TypeVar("T")


@dataclass(frozen=True)
class TaskFailure:
    """The result of a task that failed on every attempt, in place of its result."""

    error: str
    attempts: int

    @classmethod
    def of(cls, exc: BaseException, attempts: int) -> TaskFailure:
        return cls(f"{type(exc).__name__}: {one_line(str(exc))}", attempts)


class TasksFailed(RuntimeError):
    """Tasks failed on every attempt where every result is needed (`raise_failures`)."""


def raise_failures(results: Sequence[Any], what: str) -> list[Any]:
    """`results` when none is a `TaskFailure`; else raise `TasksFailed` naming the first."""
    failures = [result for result in results if isinstance(result, TaskFailure)]
    if failures:
        raise TasksFailed(f"{len(failures)} {what} task(s) failed on every attempt ({failures[0].attempts}); "
                          f"first: {failures[0].error}")
    return list(results)


def one_line(text: str) -> str:
    return " ".join(text.split())[:500]


class Executor(Protocol):
    def map(self, fn: Callable[[T], Any], tasks: Sequence[T], label: str = "files",
            weights: Sequence[int] | None = None) -> list[Any]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None: ...


class LocalExecutor:
    """Maps functions over tasks with `workers` processes (1: in this process)."""

    def __init__(self, workers: int, preload: Sequence[str] = (), apart: bool = False,
                 start: bool | None = None) -> None:
        """`preload`: modules each worker imports as it starts (those of the functions it will
        run), while the driver still prepares the tasks. `apart`: run the tasks in worker
        processes even with one worker, so that their memory is not added to this process's.
        `start`: start the worker processes on entering the `with` block (default: with
        several workers), else at the first map that needs them."""
        self.workers = workers
        self.preload = tuple(preload)
        self.apart = apart
        self.start = workers > 1 if start is None else start
        self._pool: ProcessPoolExecutor | None = None
        # `renew_when_idle`: the next pool's preload, and that pool once a map's tail started it
        self._next_preload: tuple[str, ...] | None = None
        self._next_pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> LocalExecutor:
        """Start the workers now (`start`): spawning a Python process and importing the extraction
        stack takes 1.5 s or so, which then overlaps the driver's planning instead of following it."""
        if self.start:
            self.start_workers()
        return self

    def import_now(self, modules: Sequence[str]) -> None:
        """Have each running worker import `modules` now, without waiting: the report's figures,
        drawn after select by the workers that extracted, then start with matplotlib loaded. An
        import that fails here fails again, with its error, in the task that needs it. Nothing
        when no worker runs (the tasks run in this process, or the pool never started), or when
        the workers preloaded them as they started."""
        if self._pool is None or set(modules) <= set(self.preload):
            return
        for _ in range(self.workers):  # idle workers take one each: an import outlasts a handover
            self._pool.submit(_import_modules, tuple(modules))

    def renew(self, preload: Sequence[str]) -> None:
        """Replace the running workers by new ones that import `preload` as they start, now (the
        old ones finish what they run first). Between a run's extraction and its select: what the
        extraction left in a worker's heap (300 MB and more after thousands of pages) is not added
        to select's peak. Nothing when no worker runs. A new worker that the last map's tail
        started (`renew_when_idle`) is one of the new ones."""
        if self._pool is None:
            return
        self._pool.shutdown(wait=True)
        self._pool = None
        self.preload = tuple(preload)
        if self._next_pool is not None and self._next_preload == self.preload:
            self._pool = self._next_pool  # its started worker is idle: it takes one `_ready`
        elif self._next_pool is not None:
            self._next_pool.shutdown(cancel_futures=True)
        self._next_pool, self._next_preload = None, None
        self._start_processes()

    def renew_when_idle(self, preload: Sequence[str]) -> None:
        """Prepare `renew(preload)`: in the next map over worker processes, once a worker is idle
        while others still run the last tasks, start one worker of the next pool on that core, so
        that it has imported `preload` when `renew` comes (at 2 workers the first select tasks
        waited ~0.6 s for the renewed workers' imports, docs/benchmarks.md). The old workers
        are ended by `renew`, as before."""
        self._next_preload = tuple(preload)

    def _start_next_worker(self) -> None:
        if self._next_preload is None or self._next_pool is not None:
            return
        self._next_pool = self._new_pool(self._next_preload)
        self._next_pool.submit(_ready)  # the pool starts one process for a task it cannot place

    def start_workers(self) -> None:
        """Start the worker processes now, so that they import `preload` while this process goes
        on, rather than at the first map. Nothing for a map that runs in this process."""
        if self._pool is None and (self.workers > 1 or self.apart):
            self._start_processes()

    def _start_processes(self) -> None:
        pool = self._processes()
        for _ in range(self.workers):  # the pool starts a process for each task no idle worker takes
            pool.submit(_ready)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close(stop_running=kind is not None)

    def close(self, stop_running: bool = False) -> None:
        """Shut the workers down; with `stop_running` (the run is failing or was interrupted or
        terminated) without waiting for the tasks they are running: a byte range can take
        minutes, and a worker left running after its driver is gone would hold a core and a
        temporary file for nothing (the next run removes such files)."""
        for pool in (self._next_pool, self._pool):
            if pool is None:
                continue
            if stop_running:
                # ProcessPoolExecutor has no public way to stop a running task before Python 3.14.
                workers = dict(getattr(pool, "_processes", None) or {})
                for process in workers.values():
                    process.terminate()
            pool.shutdown(cancel_futures=True)
        self._pool = self._next_pool = None

    def map(self, fn: Callable[[T], Any], tasks: Sequence[T], label: str = "files",
            weights: Sequence[int] | None = None) -> list[Any]:
        """`fn` over `tasks`, results in task order (progress: `TaskProgress`); a task that
        raises gives a `TaskFailure` (one attempt). On several workers the tasks start heaviest
        first (`largest_first`). A worker process that dies (killed, out of memory) breaks the
        pool: that stops the map, as Ctrl-C does."""
        results: list[Any] = [None] * len(tasks)
        with contextlib.closing(TaskProgress(label, len(tasks), weights)) as progress:
            if self._runs_here(len(tasks)):
                for index, task in enumerate(tasks):
                    results[index] = _result_here(fn, task)
                    progress.done(index, results[index])
                _return_free_memory()
                return results
            pool = self._processes()
            futures = {pool.submit(_in_worker, fn, tasks[index]): index
                       for index in largest_first(len(tasks), weights)}
            for finished, future in enumerate(as_completed(futures), start=1):
                index = futures[future]
                try:
                    results[index] = future.result()
                except (BrokenProcessPool, OSError):
                    raise
                except Exception as exc:
                    results[index] = TaskFailure.of(exc, 1)
                progress.done(index, results[index])
                if 0 < len(tasks) - finished < self.workers:  # a worker is idle: the map's tail
                    self._start_next_worker()
            return results

    def map_here_too(self, fn: Callable[[T], Any], tasks: Sequence[T], label: str = "files") -> list[Any]:
        """`map`, with this process drawing on the same queue as the workers: each of them and
        this process takes the next task as it finishes its last. For short tasks that this
        process would otherwise only wait for: a one-worker run's report figures, drawn by its
        report process and the driver together (docs/decisions.md). The same results and failure
        contract as `map`; without worker processes (one worker, not apart) it is `map`."""
        if self._runs_here(len(tasks)):
            return self.map(fn, tasks, label)
        pool = self._processes()
        results: list[Any] = [None] * len(tasks)
        queue = list(range(len(tasks)))[::-1]  # popped from the end: task order
        lock = threading.Lock()
        stopped: list[BaseException] = []  # what stops the map (a broken pool, an OSError)

        def take() -> int | None:
            with lock:
                return queue.pop() if queue and not stopped else None

        def finish(index: int, result: Any) -> None:
            with lock:
                results[index] = result
                progress.done(index, result)

        def feed() -> None:  # one thread per worker: hands it the next task when it returns one
            while (index := take()) is not None:
                try:
                    result = pool.submit(_in_worker, fn, tasks[index]).result()
                except Exception as exc:
                    if isinstance(exc, (BrokenProcessPool, OSError)):
                        with lock:
                            stopped.append(exc)
                        return
                    result = TaskFailure.of(exc, 1)
                except BaseException as exc:  # Ctrl-C reached the worker: this process stops too
                    with lock:
                        stopped.append(exc)
                    return
                finish(index, result)

        with contextlib.closing(TaskProgress(label, len(tasks), None)) as progress:
            feeders = [threading.Thread(target=feed, name=f"feed-{n}", daemon=True) for n in range(self.workers)]
            for feeder in feeders:
                feeder.start()
            try:
                while (index := take()) is not None:
                    finish(index, _result_here(fn, tasks[index]))
            finally:
                with lock:
                    queue.clear()  # on an error here, the workers take no further task
                for feeder in feeders:
                    feeder.join()
        if stopped:
            raise stopped[0]
        return results

    def _runs_here(self, tasks: int) -> bool:
        """Whether a map of `tasks` tasks runs in this process: one worker (not apart), or one task."""
        return (self.workers <= 1 or tasks <= 1) and not self.apart

    def _processes(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = self._new_pool(self.preload)
        return self._pool

    def _new_pool(self, preload: tuple[str, ...]) -> ProcessPoolExecutor:
        # spawn, not fork: polars and lxml hold threads and locks that fork does not copy safely.
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=_init_worker,
                                   initargs=(preload, os.getpid()))


def _result_here(fn: Callable[[T], Any], task: T) -> Any:
    """`fn(task)` in this process, or its `TaskFailure` (the one failure contract: a result, not an
    exception); an `OSError` is the machine's and propagates."""
    try:
        return fn(task)
    except OSError:
        raise
    except Exception as exc:
        return TaskFailure.of(exc, 1)


@dataclass
class ProgressSettings:
    """How maps report progress (`pipeline --quiet`, `--progress-every`): a tqdm bar on a terminal,
    else a plain line at most every `every_seconds` for a batch job's log; nothing when `quiet`."""

    quiet: bool = False
    every_seconds: float = 30.0


PROGRESS = ProgressSettings()


class TaskProgress:
    """A map's progress: a tqdm bar on a terminal, advancing by each finished task's weight (e.g.
    bytes) when `weights` are given, else by one task; without a terminal (a batch job), a plain
    line at most every `PROGRESS.every_seconds`, and one at the end: tasks, bytes, records (where
    a task's result counts them), rate and time left."""

    def __init__(self, label: str, count: int, weights: Sequence[int] | None) -> None:
        self._label, self._count, self._weights = label, count, weights
        self._total = sum(weights) if weights is not None else count
        terminal = sys.stderr.isatty()
        self._bar = tqdm(total=self._total, desc=label, unit="B" if weights is not None else "task",
                         unit_scale=True, disable=PROGRESS.quiet or not terminal, leave=False)
        self._lines = not PROGRESS.quiet and not terminal
        self._started = self._said = time.monotonic()
        self._finished = self._progress = self._records = 0

    def done(self, index: int, result: Any = None) -> None:
        step = self._weights[index] if self._weights is not None else 1
        self._bar.update(step)
        self._finished += 1
        self._progress += step
        # An extract task's summary counts its rows (one a record).
        rows = result.get("rows") if isinstance(result, dict) else None
        self._records += rows if isinstance(rows, int) else 0
        if self._lines and time.monotonic() - self._said >= PROGRESS.every_seconds:
            self._say()

    def close(self) -> None:
        self._bar.close()
        if self._lines and self._finished and time.monotonic() - self._started >= PROGRESS.every_seconds:
            self._say()

    def _say(self) -> None:
        now = time.monotonic()
        self._said = now
        elapsed = max(now - self._started, 1e-9)
        share = self._progress / self._total if self._total else 1.0
        left = elapsed * (1 - share) / share if share else None
        amount = (f"{self._progress / 1e6:,.1f} of {self._total / 1e6:,.1f} MB" if self._weights is not None
                  else f"{self._progress} of {self._total}")
        records = f", {self._records:,} records ({self._records / elapsed:,.0f}/s)" if self._records else ""
        rate = f", {self._progress / 1e6 / elapsed:,.2f} MB/s" if self._weights is not None else ""
        eta = f", about {duration_text(left)} left" if left is not None and share < 1 else ""
        sys.stderr.write(f"pipeline: {self._label}: {share:.0%} ({amount}; {self._finished} of {self._count} "
                         f"tasks{records}{rate}), {duration_text(elapsed)} so far{eta}\n")
        sys.stderr.flush()


def duration_text(seconds: float) -> str:
    """`seconds` as H:MM:SS (progress lines, and each stage's end line in `pipeline.cli`)."""
    minutes, second = divmod(int(round(seconds)), 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02d}:{second:02d}"


ARROW_POOL_VARIABLE = "ARROW_DEFAULT_MEMORY_POOL"


def use_system_allocator() -> None:
    """Arrow's buffers from the C library's malloc, in this process and in the ones it starts.

    pyarrow's default pool is its bundled mimalloc, a second heap beside glibc's: the heap a
    process freed after extracting thousands of pages cannot serve Arrow's buffers, and merging a
    large file's byte ranges raised extract's peak (docs/decisions.md). A pool the user chose with
    the variable is kept.
    """
    import pyarrow as pa

    if ARROW_POOL_VARIABLE in os.environ:
        return
    os.environ[ARROW_POOL_VARIABLE] = "system"  # spawned workers read it when pyarrow loads
    pa.set_memory_pool(pa.system_memory_pool())


def _return_free_memory() -> None:
    """Give the heap freed by tasks run in this process back to the OS before the next stage.

    Thousands of parsed pages leave glibc's heap fragmented; `malloc_trim` returns what is free, so
    the select stage and the report do not add on top of it (docs/decisions.md). Elsewhere than
    glibc it is skipped.
    """
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


# The function of the last task this worker ran (`_in_worker`).
_last_function: list[str] = []


def _in_worker(fn: Callable[[T], Any], task: T) -> Any:
    """`fn(task)` in a worker; the first task of another function than the last one (the run's
    next phase: select's tasks after the extraction, the report's figures after select) starts
    by returning the heap the last phase freed (`_return_free_memory`), so that the phases' peaks
    do not add up in one process."""
    name = f"{fn.__module__}.{getattr(fn, '__qualname__', '')}"
    if _last_function and _last_function[0] != name:
        _return_free_memory()
    _last_function[:] = [name]
    return fn(task)


def largest_first(count: int, weights: Sequence[int] | None) -> list[int]:
    """The order to start tasks in on several workers: the heaviest first (ties in task order),
    so that no large task (a file too small to cut, after a large file's ranges) starts last
    while the other workers idle. Without weights, task order."""
    if weights is None:
        return list(range(count))
    return sorted(range(count), key=lambda index: -weights[index])


# polars' allocator (jemalloc, which reads this variable when polars loads) in the workers: freed
# pages go back to the system at once instead of after ten seconds. A worker runs one short task
# after another (select's partitions, the report's figures) on top of what the extraction left,
# and the pages a task freed were not reused by the next one: on a crawl where each story has ten
# copies a select worker's peak went from 508 to 451 MB (docs/benchmarks.md, "Memory on a
# duplicate-heavy crawl"). The driver keeps the default: its select costs 9 % more with it.
WORKER_JEMALLOC = ("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")


def _init_worker(preload: Sequence[str], driver: int) -> None:
    """A worker's start. `driver`: the pid of the process that started it, given by that process:
    one killed while this worker was still starting (spawning Python and importing the driver's
    main module take a second or more under load) has left it re-parented already, and the worker's
    own `os.getppid()` would name its new parent."""
    os.environ.setdefault(*WORKER_JEMALLOC)  # before anything imports polars (a setting the user made is kept)
    # tqdm's default lock is a multiprocessing semaphore. A worker killed while it exists (the
    # OOM killer) leaves it to the resource tracker, whose multi-line warning at exit would follow
    # the CLI's one-line error. Workers draw no shared bars, so a thread lock is enough.
    tqdm.set_lock(threading.RLock())
    threading.Thread(target=_exit_with_parent, args=(driver,), name="exit-with-parent", daemon=True).start()
    atexit.register(_exit_now)  # registered first, so it runs after the handlers of what is imported next
    for module in preload:
        importlib.import_module(module)


def _exit_with_parent(parent: int, interval: float = 1.0) -> None:
    """A worker whose driver died without stopping it (`kill -9`, the OOM killer) would wait for
    tasks forever, holding its memory: it ends within `interval` of being orphaned (re-parented)."""
    while True:
        time.sleep(interval)
        if os.getppid() != parent:
            os._exit(1)


def _exit_now() -> None:
    """A worker's last exit handler: end the process without the interpreter's teardown.

    A spawned worker ends with `sys.exit`, and Python then tears down every module and object it
    holds: with matplotlib, polars and lxml loaded, 0.15 s that `ProcessPoolExecutor.shutdown`
    waits for at the end of every run (docs/benchmarks.md, "A one-page run"). A worker has nothing
    left to finish by then: its tasks wrote their files and returned, the other exit handlers have
    run. Its standard streams are flushed; the exit status is 0, as a worker that ends at shutdown
    has (one that dies during a task breaks the pool whatever its status)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def import_in_background(modules: Sequence[str]) -> None:
    """Import `modules` in a thread of this process, now, while it waits for its workers (a
    one-worker run's driver during select, before it draws report figures with its report
    process, `LocalExecutor.map_here_too`). An import that fails here fails again, with its
    error, where the module is needed; one still running there waits for this one."""
    threading.Thread(target=_import_modules, args=(tuple(modules),), name="import", daemon=True).start()


def _import_modules(modules: tuple[str, ...]) -> None:
    """The task behind `LocalExecutor.import_now` and `import_in_background`."""
    for module in modules:
        with contextlib.suppress(Exception):
            importlib.import_module(module)


def _ready() -> None:
    """The task that makes the pool start a worker (`LocalExecutor.__enter__`)."""
