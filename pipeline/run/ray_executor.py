"""The Ray executor: the same maps as `LocalExecutor`, as Ray tasks on a local or remote cluster.

Each task of a map is one Ray task. A task that raises, or whose worker dies (killed, out of
memory), is retried by Ray up to `max_retries` times (`executor.max_retries` in params). A task
that fails every attempt does not stop the map: its result is a `TaskFailure`, and the caller
decides what its records become (the extract stage writes them as `error.task` rows, and the run
exits 1). Results come back in task order, so the output never depends on which worker finished
first, and a progress bar on the driver advances as tasks finish (`TaskProgress`, as `LocalExecutor`'s).

`ray` is imported only when this executor is chosen (the `ray` extra).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, TypeVar

from pipeline.run.executors import ARROW_POOL_VARIABLE, TaskFailure, TaskProgress, largest_first
from pipeline.store.storage import forwarded_environment

T = TypeVar("T")

# Test hooks (pipeline/faults.py: `crash_point` and friends) read these in the worker; a local
# Ray started before a test set them would not pass them on otherwise. The object-storage
# variables that are set (endpoint, credentials: `storage.forwarded_environment`) go with them,
# so a task reads and writes URLs as the driver does; so does Arrow's pool (`use_system_allocator`).
_FORWARDED_ENVIRONMENT = ("PIPELINE_TEST_KILL_AT", "PIPELINE_TEST_KILL_ONCE", "PIPELINE_TEST_FAIL",
                          ARROW_POOL_VARIABLE)


class RayUnavailable(Exception):
    """The `ray` package is not installed."""


class RayExecutor:
    """Maps functions over tasks as Ray tasks.

    `address`: None starts a local Ray with `num_cpus` CPUs (stopped again by `close`); "auto" or
    "ray://HOST:PORT" joins a running cluster. A Ray already initialised in this process (a
    notebook, the tests) is used as it is and left running.
    """

    def __init__(self, address: str | None, max_retries: int, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError as exc:
            raise RayUnavailable("the ray executor needs the ray extra: pip install 'corpus-filter[ray]'") from exc
        self._ray = ray
        self.max_retries = max_retries
        self._started = False
        if not ray.is_initialized():
            if address is None:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
            self._started = True

    def __enter__(self) -> RayExecutor:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False

    def map(self, fn: Callable[[T], Any], tasks: Sequence[T], label: str = "files",
            weights: Sequence[int] | None = None) -> list[Any]:
        """`fn` over `tasks` as Ray tasks, results in task order; a task that failed every
        attempt gives a `TaskFailure`."""
        ray = self._ray
        options: dict[str, Any] = {"max_retries": self.max_retries, "retry_exceptions": True}
        forwarded = {name: os.environ[name] for name in _FORWARDED_ENVIRONMENT if name in os.environ}
        forwarded.update(forwarded_environment())
        if forwarded:
            options["runtime_env"] = {"env_vars": forwarded}
        remote = ray.remote(fn).options(**options)
        order = largest_first(len(tasks), weights)
        references = [remote.remote(tasks[index]) for index in order]
        position = {reference: index for reference, index in zip(references, order, strict=True)}
        results: list[Any] = [None] * len(tasks)
        pending = list(references)
        try:
            with contextlib.closing(TaskProgress(label, len(tasks), weights)) as progress:
                while pending:
                    finished, pending = ray.wait(pending, num_returns=1)
                    for reference in finished:
                        index = position[reference]
                        results[index] = self._result(reference)
                        progress.done(index, results[index])
        except BaseException:
            # Interrupted or terminated (or a bug here): on a cluster that outlives this driver
            # the tasks would otherwise run on, for nobody.
            for reference in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(reference, force=True)
            raise
        return results

    def _result(self, reference: Any) -> Any:
        ray = self._ray
        try:
            return ray.get(reference)
        except ray.exceptions.RayTaskError as exc:
            cause = exc.cause if exc.cause is not None else exc
            if isinstance(cause, OSError):  # the machine, not the task (executors.py): stops the run
                raise cause from None
            return TaskFailure.of(cause, self.max_retries + 1)
        except ray.exceptions.RayError as exc:  # the worker died (killed, out of memory) on every attempt
            return TaskFailure.of(exc, self.max_retries + 1)
