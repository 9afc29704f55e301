"""Fault injection for tests: the one place where a test reaches into a running pipeline.

Named points on the production paths call `crash_point(NAME)` or `fail_point(NAME)`; outside the
tests a point costs one environment lookup. Tests set, in the environment of the process under
test (spawned workers and Ray tasks inherit it; `pipeline/run/ray_executor.py` forwards it):
* `PIPELINE_TEST_KILL_AT=NAME[:N]`: SIGKILL at the Nth time NAME is reached; with
  `PIPELINE_TEST_KILL_ONCE=PATH` only in the process that creates PATH (`tests/pipeline/test_crash.py`);
* `PIPELINE_TEST_FAIL=NAME[@PATH]`: raise `InjectedFailure` at NAME (with PATH: only where PATH can
  still be created, a retried task's first attempt; `tests/pipeline/test_ray_executor.py`);
* `PIPELINE_TEST_HANG=NAME@DIR`: write the pid into DIR and sleep forever at NAME
  (`tests/pipeline/test_cli.py`).
The environment, not a setting passed down: the processes killed are workers the tests do not call.
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path

_crash_counts: Counter[str] = Counter()


def crash_point(name: str) -> None:
    """Test hook: with PIPELINE_TEST_KILL_AT=NAME[:N], SIGKILL this process the Nth time
    (default: the first) it reaches the point NAME, counted per process. With
    PIPELINE_TEST_KILL_ONCE=PATH as well, only the process that creates PATH is killed (a retried
    task then runs to the end in its new worker).

    tests/pipeline/test_crash.py uses it to stop a run at an exact place and check what
    --resume does. Unset (always, outside those tests), a point costs one environment lookup.
    Points: `extract.batch` (a row group written to a file's temporary Parquet),
    `extract.published` (a file's Parquet renamed into place, its .json not yet written),
    `select.shard` (rows written to a temporary shard), `select.publish` (1st: every shard
    complete in staging, nothing replaced yet; then after each staged directory is swapped in),
    `select.upload` (a URL output, `publish_tree`: 1st: everything uploaded to staged keys,
    nothing replaced yet; then after each directory is replaced by its staged keys).
    """
    target = os.environ.get("PIPELINE_TEST_KILL_AT")
    if not target:
        return
    point, _, nth = target.partition(":")
    if point != name:
        return
    _crash_counts[name] += 1
    if _crash_counts[name] == int(nth or 1) and _first_to_claim(os.environ.get("PIPELINE_TEST_KILL_ONCE")):
        os.kill(os.getpid(), signal.SIGKILL)


class InjectedFailure(RuntimeError):
    """Raised by `fail_point` (tests only)."""


def fail_point(name: str) -> None:
    """Test hook: with PIPELINE_TEST_FAIL=NAME, raise `InjectedFailure` at the point NAME; with
    PIPELINE_TEST_FAIL=NAME@PATH, only where PATH can still be created (the first attempt of a
    task that is retried). tests/pipeline/test_ray_executor.py uses it for failing tasks.
    Point: `extract.task` (an extract task starts, after its resume check).

    With PIPELINE_TEST_HANG=NAME@DIR the process writes its pid into a file in DIR and sleeps
    instead, a task that never ends (tests/pipeline/test_cli.py terminates the run meanwhile)."""
    hang = os.environ.get("PIPELINE_TEST_HANG")
    if hang and hang.partition("@")[0] == name:
        directory = hang.partition("@")[2]
        written = Path(directory, f"{os.getpid()}.pid.part")
        written.write_text(str(os.getpid()))
        written.rename(written.with_suffix(""))  # whole: a reader never sees an empty pid file
        while True:
            time.sleep(1)
    target = os.environ.get("PIPELINE_TEST_FAIL")
    if not target:
        return
    point, _, marker = target.partition("@")
    if point == name and _first_to_claim(marker or None):
        raise InjectedFailure(f"injected failure at {name}")


def _first_to_claim(marker: str | None) -> bool:
    """True without a marker; else whether this call created the file `marker`."""
    if marker is None:
        return True
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True
