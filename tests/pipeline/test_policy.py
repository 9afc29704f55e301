"""The process policy (`pipeline.process_policy.ProcessPolicy`): each choice of how a run uses its
processes, made once from the options and the inputs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pipeline.params import Params
from pipeline.process_policy import APART_BYTES, EXTRACT_PRELOAD, SELECT_WORKERS_PRELOAD, ProcessPolicy
from pipeline.run.executors import LocalExecutor


def options(workers: int = 1, executor: str = "local") -> SimpleNamespace:
    return SimpleNamespace(executor=executor, workers=workers, ray_address=None)


def input_of(tmp_path, name: str, size: int) -> str:
    path = tmp_path / name
    with open(path, "wb") as file:
        file.truncate(size)  # sparse: the size is what the policy reads
    return str(path)


def test_one_small_input_is_one_task_read_in_this_process(tmp_path):
    policy = ProcessPolicy.for_run(options(), Params(), [input_of(tmp_path, "a.warc.gz", 1000)])
    assert policy.single and not policy.apart and not policy.renews and policy.record_bar


@pytest.mark.parametrize("workers", [1, 2])
def test_a_large_input_is_several_tasks_and_apart_only_at_one_local_worker(tmp_path, workers):
    large = input_of(tmp_path, "big.warc.gz", APART_BYTES + 1)
    policy = ProcessPolicy.for_run(options(workers), Params(), [large])
    assert not policy.single
    assert policy.apart == (workers == 1) and policy.here_too == (workers == 1)
    assert policy.renews == (workers == 2)  # several workers: renewed between extraction and select
    assert not policy.record_bar  # a process apart, like several workers, shows the map's bar
    on_ray = ProcessPolicy.for_run(options(workers, "ray"), Params(), [large])
    assert not on_ray.apart and not on_ray.renews


def test_inputs_are_summed_until_they_pass_the_limit_and_a_missing_one_counts_nothing(tmp_path):
    half = APART_BYTES // 2 + 1
    inputs = [input_of(tmp_path, f"{n}.warc.gz", half) for n in range(2)]
    assert ProcessPolicy.for_run(options(), Params(), inputs).apart
    assert not ProcessPolicy.for_run(options(), Params(), [inputs[0], str(tmp_path / "gone.warc.gz")]).apart


def test_the_executors_follow_the_choices(tmp_path):
    large = input_of(tmp_path, "big.warc.gz", APART_BYTES + 1)
    apart = ProcessPolicy.for_run(options(), Params(), [large])
    executor = apart.executor_for(EXTRACT_PRELOAD, apart.apart)
    assert isinstance(executor, LocalExecutor) and executor.apart and executor.start
    drawing = apart.report_executor(executor, early=apart.single, select_too=apart.apart)
    # the report's process runs select's tasks first: it imports them while the records are read
    assert isinstance(drawing, LocalExecutor) and drawing.preload == SELECT_WORKERS_PRELOAD and drawing.start
    with drawing:
        assert apart.select_executor(executor, drawing) is drawing and drawing._pool is not None  # started
    two = ProcessPolicy.for_run(options(2), Params(), [large])
    pool = two.executor_for()
    assert two.report_executor(pool).__enter__() is pool  # several workers draw themselves
    assert ProcessPolicy.of(options(1, "ray"), Params()).report_executor(pool).__enter__() is None


@pytest.mark.parametrize("workers", [1, 2])
def test_pipeline_select_draws_in_this_process_too_only_at_one_worker(workers):
    policy = ProcessPolicy.for_select(options(workers), Params())
    assert policy.here_too == (workers == 1) and not policy.apart and not policy.single
    assert not ProcessPolicy.of(options(workers), Params()).here_too  # `pipeline extract` draws nothing
