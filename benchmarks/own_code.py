"""Our own code per page, step by step: `python benchmarks/own_code.py [WARC] [--repeat N] [--profile STEP]`.

Every record of WARC (default trafilatura-eval) goes through the extract stage in this process
(`record_to_row_within_budget`, default params), `--repeat` times; each record keeps the best of
its passes, step by step (the first pass also warms the models). Printed, in ms a page over all
records as stats.json counts them: each step, the library steps (read, parse, trafilatura,
readability, py3langid, htmldate) apart, and the sum of ours. The extract step is split: its library
calls (`extract.trafilatura`, `extract.readability`) are the library's, the rest of it (consent
overlays, the cascade's own choice, the block statistics) is ours. py3langid's `classify`, called
by the text filters of a page and of each segment, and htmldate's `find_date`, called by the
metadata step where no tier declares a date, are timed on their own and taken from ours.
Target: ours <= 7 ms on trafilatura-eval, <= 9 on wcxb-dev. Each figure is printed twice: wall clock
and the thread's CPU time (`time.thread_time`), which other processes on a loaded machine cannot inflate.

`--profile STEP` runs one more pass under cProfile and prints the functions by own time inside
that step's calls (`all` for the whole record); `--dump FILE` keeps it for `pstats`.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import htmldate

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from filters.text import language_id  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params  # noqa: E402
from pipeline.run.timings import Timings  # noqa: E402
from pipeline.stages import steps as steps_module  # noqa: E402
from pipeline.stages.extract import record_to_row_within_budget, warm_up  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WARC = ROOT.parent / "shared" / "corpora" / "trafilatura-eval.warc.gz"
# The steps that are a library's: warcio's read, lxml's parse (benchmarks/compare.py counts the
# same), and the extractors' calls inside the extract step.
LIBRARY = ("read", "parse", "extract.trafilatura", "extract.readability")
LANGUAGE_ID = "py3langid"  # timed inside the text filters' and the segments' steps
HTMLDATE = "htmldate"  # timed inside the inferred_date step
TIMED_CALLS = (LANGUAGE_ID, HTMLDATE)  # library calls inside our steps, taken from ours
_current: list[Timings] = []  # the record being timed, for the wrappers


def timed(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    """`call`, timed under `name` into the current record's timings."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            if _current:
                _current[-1].add(name, started)
    return wrapper


def time_library_calls() -> None:
    """Time every `classify` of the language model and every htmldate `find_date` (looked up on
    the module at each call by `filters.metadata.dates.infer_date`). The language model takes no
    new attributes: a stand-in that times and hands on takes its place."""
    model = language_id._identifier()

    class Timed:
        classify = staticmethod(timed(LANGUAGE_ID, model.classify))

    language_id._model = Timed()
    htmldate.find_date = timed(HTMLDATE, htmldate.find_date)


def best_timings(records: list, params: Params, repeat: int) -> dict[str, float]:
    """Seconds per step summed over records, each record's best pass per step."""
    best: list[dict[str, float]] = [{} for _ in records]
    for _ in range(repeat):
        for index, raw in enumerate(records):
            timings = Timings()
            _current[:] = [timings]
            record_to_row_within_budget(raw, params, timings)
            for name, seconds in timings.seconds.items():
                best[index][name] = min(best[index].get(name, seconds), seconds)
    total: dict[str, float] = {}
    for per_record in best:
        for name, seconds in per_record.items():
            total[name] = total.get(name, 0.0) + seconds
    return total


def own_steps(total: dict[str, float]) -> dict[str, float]:
    """Our steps' seconds: every record step but the library's, the extract step less its library calls."""
    own = {name: seconds for name, seconds in total.items()
           if "." not in name and name not in LIBRARY and name not in TIMED_CALLS}
    if "extract" in own:
        own["extract"] -= sum(total.get(name, 0.0) for name in LIBRARY if name.startswith("extract."))
    return own


def profile(records: list, params: Params, step: str, dump: Path | None) -> None:
    profiler = cProfile.Profile()
    if step == "all":
        profiler.enable()
        for raw in records:
            record_to_row_within_budget(raw, params, Timings())
        profiler.disable()
    else:
        # each step runs under the profiler through its Step entry (steps.STEPS, by name)
        wrapped = []
        for entry in steps_module.STEPS:
            if entry.name == step:
                run = entry.run

                def profiled(record, run=run):
                    profiler.enable()
                    try:
                        return run(record)
                    finally:
                        profiler.disable()
                profiled.__name__ = run.__name__
                entry = type(entry)(profiled, entry.required, entry.when, entry.after_complete)
            wrapped.append(entry)
        original = steps_module.STEPS
        steps_module.STEPS = tuple(wrapped)
        import pipeline.stages.extract as extract_module
        extract_module.STEPS = steps_module.STEPS
        try:
            for raw in records:
                record_to_row_within_budget(raw, params, Timings())
        finally:
            steps_module.STEPS = extract_module.STEPS = original
    if dump is not None:
        profiler.dump_stats(dump)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warc", nargs="?", type=Path, default=DEFAULT_WARC)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", metavar="STEP", help="a step's name (steps.STEPS), or all")
    parser.add_argument("--dump", type=Path, help="with --profile: also write the profile (pstats) here")
    args = parser.parse_args()
    if not args.warc.is_file():
        sys.exit(f"no input at {args.warc} (pass a WARC file)")
    params = Params()
    warm_up(params)
    time_library_calls()
    records = list(read_file(str(args.warc), params.extract.read.max_payload_bytes, FileReport(str(args.warc))))
    if args.profile:
        best_timings(records, params, 1)  # warm every lazy load first
        profile(records, params, args.profile, args.dump)
        return
    wall = best_timings(records, params, args.repeat)
    cpu = with_clock(time.thread_time, lambda: best_timings(records, params, args.repeat))
    pages = len(records)
    own, own_cpu = own_steps(wall), own_steps(cpu)
    print(f"{args.warc.name}: {pages} records, best of {args.repeat} passes, ms a page: wall clock, and this "
          f"thread's CPU time (which a loaded machine does not inflate)")
    print(f"  {'step':16} {'wall':>7} {'cpu':>7}")
    for name, seconds in sorted(own.items(), key=lambda item: -item[1]):
        print(f"  {name:16} {1000 * seconds / pages:7.2f} {1000 * own_cpu.get(name, 0.0) / pages:7.2f}")
    ours = [sum(steps.values()) - sum(total.get(name, 0.0) for name in TIMED_CALLS)
            for steps, total in ((own, wall), (own_cpu, cpu))]
    print(f"  {'ours':16} {1000 * ours[0] / pages:7.2f} {1000 * ours[1] / pages:7.2f}   "
          f"(the steps less {' and '.join(TIMED_CALLS)})")
    for name in (*LIBRARY, *TIMED_CALLS):
        print(f"  {name:16} {1000 * wall.get(name, 0.0) / pages:7.2f} {1000 * cpu.get(name, 0.0) / pages:7.2f}   "
              "(library)")


def with_clock(clock: Callable[[], float], run: Callable[[], dict[str, float]]) -> dict[str, float]:
    """`run()` with every timing of the pipeline read from `clock` (`time.perf_counter`, which the
    steps, the cascade and `Timings` read at each call, replaced for its length)."""
    wall_clock = time.perf_counter
    time.perf_counter = clock
    try:
        return run()
    finally:
        time.perf_counter = wall_clock


if __name__ == "__main__":
    main()
