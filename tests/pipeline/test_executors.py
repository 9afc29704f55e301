"""The local executor: task order, and Arrow's memory pool in the CLI's processes."""

from __future__ import annotations

import atexit
import functools
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, cli, shard_bytes, stats_without_timings
from pipeline.run.executors import LocalExecutor, TaskFailure, TasksFailed, largest_first, raise_failures

CHILD = """
import os, pyarrow as pa
from pipeline.run.executors import LocalExecutor, use_system_allocator

def backend(parent):
    import pyarrow as pa
    assert os.getpid() != parent  # a worker process, not the driver
    return pa.default_memory_pool().backend_name

if __name__ == "__main__":
    use_system_allocator()
    with LocalExecutor(2) as executor:
        workers = executor.map(backend, [os.getpid()] * 2)
    print(pa.default_memory_pool().backend_name, *workers)
"""


def run_child(tmp_path, environment: dict[str, str]) -> list[str]:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {key: value for key, value in os.environ.items() if key != "ARROW_DEFAULT_MEMORY_POOL"}
    env.update(environment, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120,
                          check=True)
    return done.stdout.split()


def test_the_driver_and_its_workers_use_the_system_pool(tmp_path):
    assert run_child(tmp_path, {}) == ["system", "system", "system"]


def test_a_pool_the_user_chose_is_kept(tmp_path):
    assert run_child(tmp_path, {"ARROW_DEFAULT_MEMORY_POOL": "jemalloc"}) == ["jemalloc"] * 3


def test_heaviest_tasks_start_first_ties_in_task_order():
    assert largest_first(5, [3, 9, 3, 1, 9]) == [1, 4, 0, 2, 3]
    assert largest_first(3, None) == [0, 1, 2]


def pid_and_value(value: int) -> tuple[int, int]:
    return os.getpid(), value * value


def test_results_come_back_in_task_order_whatever_the_start_order():
    values = list(range(12))
    with LocalExecutor(2) as executor:
        results = executor.map(pid_and_value, values, weights=[value % 5 for value in values])
    assert [square for _pid, square in results] == [value * value for value in values]
    assert os.getpid() not in {pid for pid, _square in results}


def halve(value: int) -> int:
    if value % 2:
        raise ValueError(f"odd {value}")
    return value // 2


@pytest.mark.parametrize("workers, apart", [(1, False), (2, True)])
def test_a_task_that_raises_is_a_failure_in_its_place_and_the_others_finish(workers, apart):
    """The failure contract every executor keeps (the Ray executor's test checks the same)."""
    with LocalExecutor(workers, apart=apart) as executor:
        results = executor.map(halve, [2, 3, 4])
    assert results[0] == 1 and results[2] == 2
    assert results[1] == TaskFailure("ValueError: odd 3", 1)
    with pytest.raises(TasksFailed, match="1 test task"):
        raise_failures(results, "test")
    assert raise_failures([1, 2], "test") == [1, 2]


def test_a_local_extract_task_that_fails_becomes_error_rows_and_exit_1(tmp_path, monkeypatch, capsys):
    """As with Ray: no record of a failed file is lost, and the run says it failed."""
    import polars as pl

    from conftest import cli

    monkeypatch.setenv("PIPELINE_TEST_FAIL", "extract.task")
    sample = ROOT / "data" / "sample" / "sample.warc.gz"
    assert cli("run", sample, "--out", tmp_path / "out") == 1
    assert "failed on every attempt" in capsys.readouterr().err
    rows = pl.read_parquet(tmp_path / "out" / "rejected")
    documents = rows.filter(~pl.col("reasons").list.contains("input.corrupt"))
    assert documents.height > 10 and documents["reasons"].list.contains("error.task").all()


def no_space(value: int) -> int:
    raise OSError(28, "No space left on device")


def test_an_os_error_is_the_machine_not_the_task_and_stops_the_map():
    with LocalExecutor(1) as executor, pytest.raises(OSError, match="No space left"):
        executor.map(no_space, [1, 2])


def slow_pid_and_value(value: int) -> tuple[int, int]:
    time.sleep(0.05)
    return pid_and_value(value)


def test_this_process_and_the_worker_share_the_tasks_of_map_here_too():
    values = list(range(16))
    with LocalExecutor(1, apart=True, start=True) as executor:
        executor.map(pid_and_value, [0])  # the worker is up: it takes tasks from the start
        results = executor.map_here_too(slow_pid_and_value, values)
    assert [square for _pid, square in results] == [value * value for value in values]
    pids = [pid for pid, _square in results]
    assert os.getpid() in pids and len(set(pids)) == 2
    # each took the next task as it finished one: neither ran them all, nor far more than half
    assert 4 <= pids.count(os.getpid()) <= 12


def test_map_here_too_keeps_the_failure_contract():
    with LocalExecutor(1, apart=True) as executor:
        results = executor.map_here_too(halve, [2, 3, 4, 5, 6, 7])
    assert results[0::2] == [1, 2, 3]
    assert results[1::2] == [TaskFailure(f"ValueError: odd {n}", 1) for n in (3, 5, 7)]
    with LocalExecutor(1, apart=True) as executor, pytest.raises(OSError, match="No space left"):
        executor.map_here_too(no_space, [1, 2, 3])


def interrupted_in_a_worker(value: int) -> int:
    if str(os.getpid()) != os.environ["TEST_DRIVER_PID"]:
        raise KeyboardInterrupt
    return value


def test_map_here_too_stops_with_a_ctrl_c_that_reached_a_worker(monkeypatch, capfd):
    monkeypatch.setenv("TEST_DRIVER_PID", str(os.getpid()))
    with LocalExecutor(1, apart=True) as executor, pytest.raises(KeyboardInterrupt):
        executor.map_here_too(interrupted_in_a_worker, list(range(8)))
    assert "Exception in thread" not in capfd.readouterr().err  # stopped, not a stray thread's traceback


def test_map_here_too_without_worker_processes_is_map_in_this_process():
    with LocalExecutor(1) as executor:
        results = executor.map_here_too(pid_and_value, [1, 2, 3])
    assert results == [(os.getpid(), 1), (os.getpid(), 4), (os.getpid(), 9)]


ORPHAN = """
import os, sys, time
from pipeline.run.executors import LocalExecutor

def pid(_):
    return os.getpid()

if __name__ == "__main__":
    with LocalExecutor(2) as executor:
        print(*executor.map(pid, [0, 1, 2, 3]), flush=True)
        time.sleep(300)  # killed here, with its workers idle in the pool
"""


# The driver dies while its worker is still starting: the worker imports the driver's main module
# (as `__mp_main__`) before its initializer runs, and this one makes that take two seconds.
ORPHAN_AT_START = """
import os, sys, time
if __name__ == "__mp_main__":
    time.sleep(2)
from pipeline.run.executors import LocalExecutor

if __name__ == "__main__":
    executor = LocalExecutor(1, apart=True, start=True).__enter__()
    print(*executor._pool._processes, flush=True)
    time.sleep(300)  # killed here, before the worker's initializer ran
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as status:
            return "zombie" not in status.read()
    except FileNotFoundError:
        return False


def workers_left_by_a_killed_driver(tmp_path: Path, driver_script: str) -> list[int]:
    """Run `driver_script` (it prints its workers' pids, then sleeps), kill it with SIGKILL once it
    has printed them, and return those of its workers still alive 30 s later."""
    import signal

    script = tmp_path / "driver.py"
    script.write_text(driver_script)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    driver = subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        workers = {int(pid) for pid in driver.stdout.readline().split()}  # type: ignore[union-attr]
        assert workers and all(alive(pid) for pid in workers)
    finally:
        driver.send_signal(signal.SIGKILL)
        driver.wait()
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [pid for pid in workers if alive(pid)]


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_workers_of_a_killed_driver_do_not_outlive_it(tmp_path):
    """A driver killed with SIGKILL cannot stop its pool; its workers notice they are orphans."""
    assert workers_left_by_a_killed_driver(tmp_path, ORPHAN) == []


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_a_worker_whose_driver_died_while_it_started_does_not_outlive_it(tmp_path):
    """Killed before its worker's initializer ran, the driver leaves a worker already re-parented:
    it must still see that its driver is gone (it used to wait for tasks forever, and held the
    pipes of a `subprocess.run` that captured the driver's output)."""
    assert workers_left_by_a_killed_driver(tmp_path, ORPHAN_AT_START) == []


def register_exit_handler_and_write(marker: str) -> int:
    """A task that leaves an exit handler behind and unflushed text on its standard output."""
    atexit.register(Path(marker).write_text, "the task's exit handler ran", encoding="utf-8")
    sys.stdout.write("written by the task, no newline")
    return os.getpid()


def test_a_worker_skips_the_teardown_but_not_the_exit_handlers_or_its_output(tmp_path, capfd):
    # `_exit_now` ends a worker with os._exit: what the tasks registered still runs, and what they
    # wrote still comes out, before the process ends.
    marker = tmp_path / "marker"
    with LocalExecutor(1, apart=True) as executor:
        [worker] = executor.map(register_exit_handler_and_write, [str(marker)])
    assert worker != os.getpid()
    assert marker.read_text(encoding="utf-8") == "the task's exit handler ran"
    assert "written by the task, no newline" in capfd.readouterr().out


def test_workers_started_ahead_run_the_tasks_and_a_one_process_executor_starts_none():
    apart = LocalExecutor(1, apart=True, start=False)
    with apart:
        apart.start_workers()
        apart.start_workers()  # a second call starts no second pool
        [(worker, square)] = apart.map(pid_and_value, [3])
    assert worker != os.getpid() and square == 9
    local = LocalExecutor(1)
    with local:
        local.start_workers()
        [(worker, _square)] = local.map(pid_and_value, [3])
    assert worker == os.getpid()


def pid_and_loaded(module: str) -> tuple[int, bool]:
    return os.getpid(), module in sys.modules


def test_running_workers_import_modules_ahead_and_a_failing_import_is_left_to_the_task():
    module = "xml.dom.minidom"  # imported by nothing the workers import on their own
    with LocalExecutor(2) as executor:
        executor.import_now([module, "no_such_module_anywhere"])
        results = executor.map(pid_and_loaded, [module, module])
    # the imports were queued first: whichever worker takes a task has run one of them before it
    assert any(loaded for _pid, loaded in results)
    assert os.getpid() not in {pid for pid, _loaded in results}
    LocalExecutor(1).import_now([module])  # no worker runs: nothing to do, nothing raised


def modules_and_allocator(_: int) -> tuple[int, bool, str | None]:
    return os.getpid(), "json.tool" in sys.modules, os.environ.get("_RJEM_MALLOC_CONF")


def test_renewed_workers_are_new_processes_with_the_new_preload():
    """Between a run's extraction and its select the workers are replaced (`renew`): new
    processes, importing what select needs, with polars' allocator returning freed pages at once."""
    with LocalExecutor(2) as executor:
        before = executor.map(modules_and_allocator, [1, 2])
        executor.renew(("json.tool",))
        after = executor.map(modules_and_allocator, [1, 2])
    assert not {pid for pid, _, _ in before} & {pid for pid, _, _ in after}
    assert all(loaded for _, loaded, _ in after)
    assert {conf for _, _, conf in after} == {os.environ.get("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")}


def test_a_large_one_worker_run_extracts_in_a_process_apart(tmp_path, monkeypatch, no_report):
    """Above `APART_BYTES` of input a one-worker run extracts in a process of its own, which ends
    with the extraction, and runs select's tasks in the report's process: steps broken in this
    process do not run, and the shards are those of a run in this process."""
    import pipeline.process_policy
    from pipeline.stages import extract, page_types

    sample = ROOT / "data" / "sample"
    assert cli("run", sample, "--out", tmp_path / "here") == 0
    reference = shard_bytes(tmp_path / "here", "*ed/*")

    def broken(*args, **kwargs):
        raise RuntimeError("ran in the driver")

    monkeypatch.setattr(extract, "record_to_row_within_budget", broken)
    monkeypatch.setattr(page_types, "load_model", broken)
    # the patches bite in this process: a small run extracts here and its records fail
    assert cli("run", sample, "--out", tmp_path / "broken") != 0 \
        or shard_bytes(tmp_path / "broken", "*ed/*") != reference
    monkeypatch.setattr(pipeline.process_policy, "APART_BYTES", 0)
    assert cli("run", sample, "--out", tmp_path / "apart") == 0
    assert shard_bytes(tmp_path / "apart", "*ed/*") == reference
    assert stats_without_timings(tmp_path / "apart") == stats_without_timings(tmp_path / "here")


def sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def pid_once_marked(marks: str, seconds: float) -> int:
    """The tail task: runs until a mark appears in `marks` (a worker of the next pool imported its
    preload) or `seconds` pass, however slow the machine; then its worker's pid."""
    deadline = time.monotonic() + seconds
    while not os.listdir(marks) and time.monotonic() < deadline:
        time.sleep(0.05)
    return os.getpid()


def test_a_maps_tail_starts_a_worker_of_the_renewed_pool(tmp_path, monkeypatch):
    """`renew_when_idle`: while the last task still runs, a worker of the next pool starts on the
    idle core and imports its preload; `renew` then hands it the first task. The tail lasts until
    that import is seen (at most 60 s), and the wait for the other new worker until its import is
    (at most 120 s), so a loaded machine cannot fail the test."""
    marks = tmp_path / "marks"
    marks.mkdir()
    (tmp_path / "marks_its_import.py").write_text(
        "import os, pathlib\npathlib.Path(os.environ['IMPORT_MARKS'], str(os.getpid())).touch()\n")
    monkeypatch.syspath_prepend(str(tmp_path))  # spawned workers start with this sys.path
    monkeypatch.setenv("IMPORT_MARKS", str(marks))
    with LocalExecutor(2) as executor:
        executor.renew_when_idle(("marks_its_import",))
        old = set(executor.map(functools.partial(pid_once_marked, str(marks)), [0.0, 60.0]))  # the tail
        early = {int(path.name) for path in marks.iterdir()}
        assert len(early) == 1 and not early & old  # one new worker, started and imported in the tail
        executor.renew(("marks_its_import",))
        # the other new worker starts at `renew`, before any task; its start and import took over 30 s
        # once, on a fresh clone's suite with the other test process busy: the wait ends when it is seen
        deadline = time.monotonic() + 120
        while len(list(marks.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        started = {int(path.name) for path in marks.iterdir()}
        new = set(executor.map(sleep_then_pid, [0.0, 0.5]))
    assert len(started) == 2 and early < started
    assert early <= new <= started and not new & old


def test_modules_imported_in_background_arrive_and_a_failing_one_is_left_to_its_user(tmp_path, monkeypatch):
    from pipeline.run.executors import import_in_background

    (tmp_path / "imported_in_background.py").write_text("VALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "imported_in_background", raising=False)
    import_in_background(("no_such_module_here", "imported_in_background"))
    deadline = time.monotonic() + 30
    while "imported_in_background" not in sys.modules and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "imported_in_background" in sys.modules  # the thread imports it, not this test
    # the module is in sys.modules while it still runs: an import here waits for the thread's
    # (the module's import lock), as a user of the module does
    assert importlib.import_module("imported_in_background").VALUE == 7
    monkeypatch.delitem(sys.modules, "imported_in_background")
