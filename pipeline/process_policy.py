"""How a command uses its processes, decided once (`ProcessPolicy`): what runs in this process and
what in workers, when the workers start, import and are renewed, and who draws the report. Each
choice is made from the inputs and the options, with its reason beside it; `pipeline.cli` parses,
asks the policy for its executors at each point of a run and reports (docs/decisions.md, "One
process policy"). Processes change how fast a run is, never what it writes.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.params import Params
from pipeline.report.figures import REPORT_PRELOAD
from pipeline.run.executors import Executor, LocalExecutor, import_in_background
from pipeline.store.storage import input_size

# What an extract worker imports as it starts, while the driver plans: the stage and the
# extractors it calls (imported where they are called, so that select loads neither).
EXTRACT_PRELOAD = ("pipeline.stages.extract", "trafilatura", "readability")
# What select's tasks on the workers need: the page-type predictions and the partition passes.
SELECT_PRELOAD = ("pipeline.stages.page_types", "pipeline.stages.balance", "pipeline.stages.dedup")
# ... and of the workers that run select's tasks and then draw the report's figures
SELECT_WORKERS_PRELOAD = (*SELECT_PRELOAD, *REPORT_PRELOAD)

# Input bytes above which a one-worker `pipeline run` extracts in a process of its own, which ends
# with the extraction. What an extraction leaves in a process's heap grows with its pages (about 380
# MB after wcxb-dev's 1,355, 64 MB of input) and stayed under select's peak: 511 MB in all on
# wcxb-dev. A smaller run extracts in this process and spares a process's start.
APART_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class ProcessPolicy:
    """The processes of one command: `executor` ("local" or "ray"), `workers`, and for `pipeline
    run` the two choices its inputs decide (`for_run`)."""

    executor: str
    workers: int
    ray_address: str | None = None
    max_retries: int = 0
    # The extraction is one task (one input within `extract.task_bytes`), which `LocalExecutor.map`
    # runs in this process: the workers only run select's tasks and draw, and import both while the
    # records are read (select's de-duplication tasks waited 0.27 s for their imports in the
    # one-page run, docs/benchmarks.md "Fixed cost"); the report's process starts at once.
    single: bool = False
    # One local worker, several extract tasks over `APART_BYTES`: the extraction runs in a process
    # of its own that ends with it (its heap is not added to select's peak). The report's process
    # then runs select's tasks before it draws, and this process, idle meanwhile, draws too.
    apart: bool = False
    # This process draws report figures beside the report's process rather than wait for it
    # (`LocalExecutor.map_here_too`): after an extraction `apart`, and in `pipeline select` at one
    # worker (docs/decisions.md, "A one-worker run's driver draws report figures").
    here_too: bool = False

    @classmethod
    def of(cls, args: Any, params: Params) -> ProcessPolicy:
        """The policy of `pipeline extract`: the options alone."""
        return cls(args.executor, args.workers, getattr(args, "ray_address", None), params.executor.max_retries)

    @classmethod
    def for_select(cls, args: Any, params: Params) -> ProcessPolicy:
        """The policy of `pipeline select`: at one worker this process draws beside the report's."""
        return dataclasses.replace(cls.of(args, params), here_too=args.workers == 1)

    @classmethod
    def for_run(cls, args: Any, params: Params, inputs: Sequence[str]) -> ProcessPolicy:
        """The policy of `pipeline run` over `inputs`."""
        base = cls.of(args, params)
        single = _one_task(inputs, params)
        apart = base.local and base.workers == 1 and not single and _larger_than(inputs, APART_BYTES)
        return dataclasses.replace(base, single=single, apart=apart, here_too=apart)

    @property
    def local(self) -> bool:
        return self.executor != "ray"

    @property
    def renews(self) -> bool:
        """Whether the workers that extracted are renewed before select (several local workers, an
        extraction of several tasks): the extraction's heap is not added to select's peak, and the
        extraction's tail starts a worker of select's pool (`LocalExecutor.renew_when_idle`)."""
        return self.local and self.workers > 1 and not self.single

    def executor_for(self, preload: Sequence[str] = EXTRACT_PRELOAD, apart: bool = False) -> Executor:
        """`--executor local` (processes on this machine, each importing `preload` as it starts; with
        `apart`, even at one worker) or `ray` (a local Ray with `workers` CPUs, or the cluster at
        `ray_address`; `RayUnavailable` when it cannot start)."""
        if self.local:
            return LocalExecutor(self.workers, preload=preload, apart=apart, start=apart or None)
        from pipeline.run.ray_executor import RayExecutor

        return RayExecutor(self.ray_address, self.max_retries, num_cpus=self.workers)

    def report_executor(self, executor: Executor, early: bool = False,
                        select_too: bool = False) -> contextlib.AbstractContextManager[Any]:
        """Who draws the report's figures: the local workers; with one worker, a process of its own
        (plotting added about 100 MB on top of the ~400 MB extraction and select left in this
        process, a one-worker run's peak then ~500 MB), started now when `early` (a short run: it
        imports matplotlib while the records are read), else when select starts (a long run keeps
        no idle process through the extraction); on a cluster this process, since the workers may
        not see this machine's output directory. `select_too`: the process runs select's tasks
        first; it starts now and imports them while the records are read."""
        if not self.local:
            return contextlib.nullcontext(None)
        if self.workers > 1:
            return contextlib.nullcontext(executor)
        if select_too:
            return LocalExecutor(1, preload=SELECT_WORKERS_PRELOAD, apart=True, start=True)
        return LocalExecutor(1, preload=REPORT_PRELOAD, apart=True, start=early)

    @contextlib.contextmanager
    def run_executors(self) -> Iterator[tuple[Executor, Any]]:
        """`pipeline run`'s extraction executor and its report's (`report_executor`), for the run's
        length; the extraction's tail prepares select's workers where they are renewed."""
        preload = SELECT_WORKERS_PRELOAD if self.single else EXTRACT_PRELOAD
        with self.executor_for(preload, self.apart) as executor, \
                self.report_executor(executor, early=self.single, select_too=self.apart) as drawing:
            if self.renews and isinstance(executor, LocalExecutor):
                executor.renew_when_idle(SELECT_WORKERS_PRELOAD)
            yield executor, drawing

    def after_extraction(self, executor: Executor) -> None:
        """The extraction's own process ends with it (`apart`)."""
        if self.apart and isinstance(executor, LocalExecutor):
            executor.close()

    def select_executor(self, executor: Executor, drawing: Any) -> Executor:
        """Select's executor, its workers started: renewed ones (`renews`: they import select's
        tasks and matplotlib while select starts), or at one worker the report's process, which
        imports matplotlib while select runs (and runs select's tasks after an extraction `apart`,
        while this process imports matplotlib to draw beside it)."""
        if self.renews and isinstance(executor, LocalExecutor):
            executor.renew(SELECT_WORKERS_PRELOAD)
        elif isinstance(drawing, LocalExecutor):
            drawing.start_workers()
            drawing.import_now(REPORT_PRELOAD)  # nothing when it preloaded them
            if self.apart:
                import_in_background(REPORT_PRELOAD)
        return drawing if self.apart else executor

    @property
    def record_bar(self) -> bool:
        """Whether the extraction shows a bar of each file's records (`ExtractTask.progress`): one
        worker, not `apart` (a process apart, like several workers, shows the map's bar of tasks)."""
        return self.workers == 1 and not self.apart



def _one_task(inputs: Sequence[str], params: Params) -> bool:
    """Whether extraction is one task (one input file within `extract.task_bytes`)."""
    if len(inputs) != 1:
        return False
    try:
        return input_size(inputs[0]) <= params.extract.task_bytes
    except OSError:
        return False


def _larger_than(inputs: Sequence[str], limit: int) -> bool:
    """Whether `inputs` hold more than `limit` bytes (summed until they do; an unreadable input,
    which the extraction reports, counts nothing)."""
    total = 0
    for path in inputs:
        try:
            total += input_size(path)
        except OSError:
            continue
        if total > limit:
            return True
    return False
