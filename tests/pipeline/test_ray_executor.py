"""The Ray executor (docs/scale.md): same output as the local executor, retries, failed tasks.

One local Ray (2 CPUs) serves the whole module; `RayExecutor` uses a Ray already initialised in
the process, so each CLI run here costs its tasks, not a cluster start.
"""

from __future__ import annotations

import _thread
import contextlib
import json
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest
import yaml

from pipeline.cli import main
from pipeline.run.executors import TaskFailure

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")

from pipeline.run.ray_executor import RayExecutor  # noqa: E402  (after the skip: it needs ray)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample" / "sample.warc.gz"
DAMAGED = ROOT / "data" / "sample" / "damaged.warc.gz"


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    # The task functions below live in this test module, which workers cannot import.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield
    ray.shutdown()


@pytest.fixture(autouse=True)
def _without_report(no_report):
    """The report is not what these tests compare, and drawing it is most of a small run."""


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The local executor's output for a list of inputs (default params), made once per module."""
    made: dict[tuple[Path, ...], Path] = {}

    def run(*inputs: Path) -> Path:
        if inputs not in made:
            out = tmp_path_factory.mktemp("local")
            assert main(["run", *map(str, inputs), "--out", str(out), "--params", str(ROOT / "params.yaml")]) == 0
            made[inputs] = out
        return made[inputs]

    return run


def _params(tmp_path: Path, name: str, **changes: object) -> Path:
    """params.yaml with dotted-key changes."""
    data = yaml.safe_load((ROOT / "params.yaml").read_text())
    for dotted, value in changes.items():
        node = data
        *parents, last = dotted.split(".")
        for part in parents:
            node = node[part]
        node[last] = value
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def _run(out: Path, inputs: list[Path], params: Path, *extra: str) -> int:
    return main(["run", *map(str, inputs), "--out", str(out), "--params", str(params), *extra])


def _shards(out: Path) -> dict[str, bytes]:
    return {str(path.relative_to(out)): path.read_bytes()
            for path in sorted((out / "accepted").glob("*.parquet")) + sorted((out / "rejected").glob("*.parquet"))}


def _stats(out: Path) -> dict:
    """stats.json less what may differ between the runs compared: timings, and the params of how
    work was cut (partitions, task bytes, retries)."""
    stats = json.loads((out / "stats.json").read_text())
    stats.pop("timings")
    stats.pop("params")
    return stats


def _assert_same_output(local: Path, other: Path) -> None:
    assert _shards(local) and _shards(local) == _shards(other)
    assert _stats(local) == _stats(other)


def square(value: int) -> int:
    return value * value


def fail_on(value: int) -> int:
    if value == 2:
        raise ValueError(f"bad task {value}")
    return value


def fail_first_attempt(marker: str) -> str:
    try:
        Path(marker).touch(exist_ok=False)
    except FileExistsError:
        return "second attempt"
    raise RuntimeError("first attempt fails")


def sleep_forever(pid_file: str) -> None:
    Path(pid_file).write_text(str(os.getpid()))
    while True:
        time.sleep(1)


def test_an_interrupted_map_cancels_its_running_tasks(tmp_path):
    """Ctrl-C or SIGTERM on the driver (KeyboardInterrupt, `Terminated`) must not leave its tasks
    running on a cluster that outlives it."""
    pid_file = tmp_path / "task.pid"
    interrupted = threading.Event()

    def interrupt_once_the_task_runs() -> None:
        deadline = time.monotonic() + 60
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        _thread.interrupt_main()
        # Watchdog: an interrupt the driver never sees would leave `map` waiting on a task that sleeps
        # forever, and the suite hanging; ending the task makes `map` return, and the test fail instead.
        if not interrupted.wait(60) and pid_file.exists():
            with contextlib.suppress(OSError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)

    # A user's driver raises KeyboardInterrupt on SIGINT; a pytest-xdist worker ignores SIGINT (its
    # controller handles Ctrl-C), and `interrupt_main` then does nothing. The test's process is made
    # a user's driver for its length.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt_once_the_task_runs, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            RayExecutor(None, max_retries=0).map(sleep_forever, [str(pid_file)])
    finally:
        signal.signal(signal.SIGINT, previous)
    interrupted.set()
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 30
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{pid}").exists(), "the task's worker still runs after the driver was interrupted"


def test_map_returns_results_in_task_order():
    executor = RayExecutor(None, max_retries=0)
    assert executor.map(square, list(range(7)), "squares") == [n * n for n in range(7)]


def test_map_retries_a_task_that_raises_once(tmp_path):
    marker = str(tmp_path / "attempted")
    assert RayExecutor(None, max_retries=1).map(fail_first_attempt, [marker]) == ["second attempt"]
    assert RayExecutor(None, max_retries=0).map(fail_first_attempt, [str(tmp_path / "other")])[0] == \
        TaskFailure("RuntimeError: first attempt fails", 1)


def test_map_reports_a_task_failing_every_attempt_without_stopping_the_others():
    results = RayExecutor(None, max_retries=2).map(fail_on, [1, 2, 3])
    assert results[0] == 1 and results[2] == 3
    assert results[1] == TaskFailure("ValueError: bad task 2", 3)


@pytest.mark.parametrize("partitions", [1, 16])
def test_same_shards_as_local_on_the_sample(tmp_path, local_run, partitions):
    # Small byte-range tasks, so the sample is read as several Ray tasks and merged.
    params = _params(tmp_path, "p", **{"select.dedup.partitions": partitions, "extract.task_bytes": 16_000})
    assert _run(tmp_path / "ray", [SAMPLE, DAMAGED], params, "--executor", "ray") == 0
    _assert_same_output(local_run(SAMPLE, DAMAGED), tmp_path / "ray")


@pytest.mark.parametrize("partitions", [1, 16])
def test_same_shards_as_local_on_warcio_testdata(tmp_path, shared_corpora, local_run, partitions):
    inputs = [shared_corpora / "warcio-testdata"]
    params = _params(tmp_path, "p", **{"select.dedup.partitions": partitions})
    assert _run(tmp_path / "ray", inputs, params, "--executor", "ray") == 0
    _assert_same_output(local_run(*inputs), tmp_path / "ray")


@pytest.fixture(scope="module")
def read_twice(tmp_path_factory) -> Path:
    """The sample WARC twice, under two names: every record is read twice."""
    folder = tmp_path_factory.mktemp("twice")
    for name in ("a.warc.gz", "b.warc.gz"):
        shutil.copyfile(SAMPLE, folder / name)
    return folder


@pytest.mark.parametrize("partitions", [1, 16])
def test_a_record_read_twice_is_kept_once_as_by_the_local_executor(tmp_path, local_run, read_twice, partitions):
    params = _params(tmp_path, "p", **{"select.dedup.partitions": partitions})
    assert _run(tmp_path / "ray", [read_twice], params, "--executor", "ray") == 0
    _assert_same_output(local_run(read_twice), tmp_path / "ray")
    accepted = pl.read_parquet(tmp_path / "ray" / "accepted")
    once = pl.read_parquet(local_run(SAMPLE) / "accepted")
    assert accepted.height == once.height and sorted(accepted["id"]) == sorted(once["id"])


def test_a_task_raising_once_is_retried_and_the_output_is_unchanged(tmp_path, local_run, monkeypatch):
    params = _params(tmp_path, "p", **{"extract.task_bytes": 16_000})
    marker = tmp_path / "failed-once"
    monkeypatch.setenv("PIPELINE_TEST_FAIL", f"extract.task@{marker}")
    assert _run(tmp_path / "ray", [SAMPLE], params, "--executor", "ray") == 0
    assert marker.exists()  # one task did fail
    _assert_same_output(local_run(SAMPLE), tmp_path / "ray")


def test_a_killed_worker_is_retried_and_the_output_is_unchanged(tmp_path, local_run, monkeypatch):
    params = _params(tmp_path, "p", **{"extract.rows_per_row_group": 4})
    marker = tmp_path / "killed-once"
    monkeypatch.setenv("PIPELINE_TEST_KILL_AT", "extract.batch:2")
    monkeypatch.setenv("PIPELINE_TEST_KILL_ONCE", str(marker))
    assert _run(tmp_path / "ray", [SAMPLE], params, "--executor", "ray") == 0
    assert marker.exists()  # a worker was killed in the middle of its task
    _assert_same_output(local_run(SAMPLE), tmp_path / "ray")


def test_a_task_failing_every_retry_becomes_error_rows_and_exit_1(tmp_path, local_run, monkeypatch, capsys):
    params = _params(tmp_path, "p", **{"executor.max_retries": 1, "extract.task_bytes": 16_000})
    local = local_run(SAMPLE, DAMAGED)
    monkeypatch.setenv("PIPELINE_TEST_FAIL", "extract.task")
    assert _run(tmp_path / "ray", [SAMPLE, DAMAGED], params, "--executor", "ray") == 1

    error_line = [line for line in capsys.readouterr().err.splitlines()
                  if line.startswith("pipeline:") and not line.startswith("pipeline: warning:")
                  and " finished in " not in line]  # the end lines of the stages that finished
    assert len(error_line) == 1 and "failed on every attempt" in error_line[0]
    local_stats, failed = _stats(local), _stats(tmp_path / "ray")
    assert failed["records_in"] == local_stats["records_in"] == failed["accepted"] + failed["rejected"]
    assert failed["accepted"] == 0
    tasks = failed["failed_tasks"]
    assert {task["path"] for task in tasks} == {str(SAMPLE), str(DAMAGED)}
    assert len(tasks) > 2 and all(task["attempts"] == 2 for task in tasks)  # sample in ranges

    rows = pl.read_parquet(tmp_path / "ray" / "rejected" / "*.parquet")
    local_rows = pl.concat([pl.read_parquet(local / name / "*.parquet") for name in ("accepted", "rejected")])
    assert sorted(rows["id"]) == sorted(local_rows["id"])  # every record is there, once
    documents = rows.filter(~pl.col("record_type").is_in(["corrupt", "unreadable"]))
    assert documents.height and all("error.task" in reasons for reasons in documents["reasons"])
    assert all("InjectedFailure" in error for error in documents["error"])


def test_resume_retries_the_tasks_that_failed(tmp_path, local_run, monkeypatch):
    params = _params(tmp_path, "p", **{"executor.max_retries": 0})
    monkeypatch.setenv("PIPELINE_TEST_FAIL", "extract.task")
    assert _run(tmp_path / "ray", [SAMPLE], params, "--executor", "ray") == 1
    monkeypatch.delenv("PIPELINE_TEST_FAIL")
    assert _run(tmp_path / "ray", [SAMPLE], params, "--executor", "ray", "--resume") == 0
    _assert_same_output(local_run(SAMPLE), tmp_path / "ray")


def test_without_the_ray_package_the_ray_executor_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    assert _run(tmp_path / "out", [SAMPLE], _params(tmp_path, "p"), "--executor", "ray") == 2
    assert "pip install 'corpus-filter[ray]'" in capsys.readouterr().err
