"""`pipeline run` against the FineWeb-style datatrove pipeline, on the same WARC, in one run.

    python benchmarks/compare.py [--input WARC ...] [--workers N ...] [--datatrove-python PATH] [--repeat R]

For each input and worker count, both pipelines run one after the other, each as its own process
tree on the same input with the same number of workers: records/s of each, our ratio to datatrove's,
the peak RSS of the largest process of each tree (a worker), and how many input records each
accounted for (ours: `records_in` of stats.json; datatrove: documents its WarcReader read).
Then ours at 1 worker against ours at each larger count (the scaling inside one file).

datatrove runs from its own environments (`make bench-env`): `.venv-datatrove-same`, datatrove
without its `processing` extra and trafilatura pinned to the version we call
(benchmarks/datatrove-same-trafilatura-requirements.txt), the comparison the targets are set on;
and `.venv-datatrove`, datatrove with that extra, which pins trafilatura < 1.12 (older, cheaper
extraction that flatters our ratio), printed beside it when present. Default inputs, side by side:
../shared/corpora/trafilatura-eval.warc.gz (article-heavy) and wcxb-dev.warc.gz (a modern mixed
crawl, 52 % articles). For our 1-worker runs it also prints, from stats.json, the fixed cost (wall
time less the records' steps; its parts: the extraction beyond its steps, select, and the rest:
start-up, the report and the summary) and our own code per page (the steps less trafilatura and
readability, lxml's parse and warcio's read; `text_filters` still holds py3langid).
Targets: at 1 worker ours >= 1.25x datatrove's records/s on trafilatura-eval and >= 2.3x on
wcxb-dev, datatrove on our trafilatura version; 2 workers >= 1.8x 1 worker on one file; peak RSS
per process < 500 MB; fixed cost <= 3 s; own code <= 7 ms a page on trafilatura-eval, <= 9 on
wcxb-dev (`benchmarks/own_code.py` measures it without py3langid and htmldate; here they count).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
DEFAULT_INPUTS = [CORPORA / "trafilatura-eval.warc.gz", CORPORA / "wcxb-dev.warc.gz"]
TARGETS = {"trafilatura-eval.warc.gz": 1.25, "wcxb-dev.warc.gz": 2.3}  # ours / datatrove at 1 worker
OWN_CODE_TARGETS = {"trafilatura-eval.warc.gz": 7, "wcxb-dev.warc.gz": 9}  # ms a page
FIXED_COST_TARGET = 3  # seconds a run
DEFAULT_DATATROVE_PYTHON = ROOT / ".venv-datatrove-same" / "bin" / "python"  # our trafilatura version
OLDER_DATATROVE_PYTHON = ROOT / ".venv-datatrove" / "bin" / "python"  # its `processing` extra: trafilatura < 1.12
# stats.json timings of a record's steps that are a library's, not our code (#46)
LIBRARY_STEPS = ("extract", "parse", "read")


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_rss_mb: float
    records: int | None
    fixed_seconds: float | None = None  # ours: wall less the records' steps
    own_ms_per_page: float | None = None  # ours: the steps less LIBRARY_STEPS, per record
    # ours, 1 worker: the fixed cost's parts (extraction beyond its steps, select, the rest)
    fixed_parts: tuple[float, float, float] | None = None


def measured(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB) of the largest process of the tree, and stdout of `command`,
    run through this script's `--child` mode so the RSS figure covers that command alone."""
    child = [sys.executable, __file__, "--child", "--", *command]
    done = subprocess.run(child, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-3000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["seconds"], report["peak_rss_mb"], report["stdout"]


def child(command: list[str]) -> None:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # ours exits 1 when some records are errors: still a run
        sys.stderr.write(done.stderr[-3000:])
        sys.exit(done.returncode)
    # ru_maxrss of waited-for descendants: the largest single process (KiB on Linux). This process
    # runs nothing else, so the figure is the command's own.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_rss_mb": peak, "stdout": done.stdout[-2000:]}))


def ours(warc: Path, workers: int, scratch: Path) -> Run:
    out = scratch / f"ours-{workers}"
    shutil.rmtree(out, ignore_errors=True)
    pipeline = str(Path(sys.executable).with_name("pipeline"))
    seconds, peak, _ = measured([pipeline, "run", str(warc), "--out", str(out), "--workers", str(workers)])
    stats = json.loads((out / "stats.json").read_text())
    records = stats.get("records_in")
    # a record's steps are the timings without a dot and outside select (extract.wall is the stage's wall)
    timings = stats.get("timings", {})
    steps = {name: value["seconds"] for name, value in timings.items()
             if "." not in name and not name.startswith("select")}
    own = sum(seconds for name, seconds in steps.items() if name not in LIBRARY_STEPS)
    extraction = timings.get("extract.wall", {}).get("seconds", 0.0)
    selection = timings.get("select", {}).get("seconds", 0.0)
    parts = (extraction - sum(steps.values()), selection, seconds - extraction - selection)
    return Run(seconds, peak, records, seconds - sum(steps.values()) if workers == 1 else None,
               1000 * own / records if records else None, parts if workers == 1 else None)


def trafilatura_version(python: Path) -> str:
    done = subprocess.run([str(python), "-c", "import trafilatura; print(trafilatura.__version__)"],
                          capture_output=True, text=True)
    return done.stdout.strip() or f"unknown ({done.stderr.strip()[-200:]})"


def datatrove(warc: Path, workers: int, scratch: Path, python: Path) -> Run:
    out = scratch / f"datatrove-{workers}"
    shutil.rmtree(out, ignore_errors=True)
    script = ROOT / "benchmarks" / "datatrove_pipeline.py"
    seconds, peak, stdout = measured([str(python), str(script), str(warc), str(out), "--workers", str(workers)])
    counts = json.loads(stdout.strip().splitlines()[-1])
    return Run(seconds, peak, counts.get("read"))


def rate(run: Run, records: int | None) -> float:
    return (records or 0) / run.seconds if run.seconds else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, nargs="+", default=DEFAULT_INPUTS)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--datatrove-python", type=Path, default=DEFAULT_DATATROVE_PYTHON,
                        help="datatrove's environment on our trafilatura version")
    parser.add_argument("--older-datatrove-python", type=Path, default=OLDER_DATATROVE_PYTHON,
                        help="datatrove with its `processing` extra (trafilatura < 1.12), run beside when present")
    parser.add_argument("--skip-datatrove", action="store_true", help="only our scaling and memory")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of every run, alternating; medians are reported (a shared machine is noisy)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("command", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.command)
        return
    missing = [str(path) for path in args.input if not path.exists()]
    if missing:
        sys.exit(f"no input at {', '.join(missing)} (pass --input WARC ...)")
    if not args.skip_datatrove and not args.datatrove_python.exists():
        sys.exit(f"no datatrove environment at {args.datatrove_python}: run `make bench-env` "
                 f"(or pass --skip-datatrove)")
    older = None if args.skip_datatrove or not args.older_datatrove_python.exists() else args.older_datatrove_python
    if not args.skip_datatrove:
        ours_version = trafilatura_version(Path(sys.executable))
        theirs_version = trafilatura_version(args.datatrove_python)
        print(f"trafilatura: ours {ours_version}, datatrove {theirs_version}"
              + ("" if ours_version == theirs_version else "  (DIFFERENT: not the comparison the targets are set on)")
              + (f", older datatrove {trafilatura_version(older)}" if older else ""))
    print("each run a fresh process tree, one after the other"
          + (f"; {args.repeat} rounds, figures below are medians" if args.repeat > 1 else ""))
    print(f"{'input':<26} {'workers':>7}  {'pipeline':<10} {'records':>8} {'seconds':>8} {'records/s':>10} "
          f"{'peak RSS MB':>12}")
    runs: dict[tuple[str, str, int], list[Run]] = {}
    with tempfile.TemporaryDirectory(prefix="compare-") as tmp:
        scratch = Path(tmp)
        for _round in range(args.repeat):
            for warc in args.input:
                for workers in args.workers:
                    key = (warc.name, "ours", workers)
                    show(key, runs.setdefault(key, []), ours(warc, workers, scratch))
                    if not args.skip_datatrove:
                        key = (warc.name, "datatrove", workers)
                        show(key, runs.setdefault(key, []), datatrove(warc, workers, scratch, args.datatrove_python))
                    if older:
                        key = (warc.name, "dt-older", workers)
                        show(key, runs.setdefault(key, []), datatrove(warc, workers, scratch, older))
    rates = {key: statistics.median(rate(run, run.records) for run in measured_runs)
             for key, measured_runs in runs.items()}
    if args.repeat > 1:
        print("medians:")
        for key, measured_runs in runs.items():
            seconds = statistics.median(run.seconds for run in measured_runs)
            peak = max(run.peak_rss_mb for run in measured_runs)
            print(f"{key[0]:<26} {key[2]:>7}  {key[1]:<10} {measured_runs[0].records!s:>8} {seconds:>8.1f} "
                  f"{rates[key]:>10.2f} {peak:>12.0f}")
    print("ratios, ours / datatrove records/s (datatrove on our trafilatura version; older trafilatura beside):")
    for warc in args.input:
        for workers in args.workers:
            theirs = rates.get((warc.name, "datatrove", workers))
            if theirs:
                target = TARGETS.get(warc.name)
                goal = f"  (target >= {target}x at 1 worker)" if target and workers == 1 else ""
                old = rates.get((warc.name, "dt-older", workers))
                beside = f"  older trafilatura: {rates[warc.name, 'ours', workers] / old:.2f}x" if old else ""
                print(f"{warc.name:<26} {workers:>7}  {rates[warc.name, 'ours', workers] / theirs:.2f}x{goal}{beside}")
    for warc in args.input:
        ones = runs.get((warc.name, "ours", 1), [])
        fixed = [run.fixed_seconds for run in ones if run.fixed_seconds is not None]
        own = [run.own_ms_per_page for run in ones if run.own_ms_per_page is not None]
        if fixed and own:
            own_goal = f" (target <= {OWN_CODE_TARGETS[warc.name]})" if warc.name in OWN_CODE_TARGETS else ""
            print(f"{warc.name:<26} ours, 1 worker: fixed cost {statistics.median(fixed):.2f} s (target <= "
                  f"{FIXED_COST_TARGET}), own code {statistics.median(own):.1f} ms a page{own_goal}")
        parts = [run.fixed_parts for run in ones if run.fixed_parts is not None]
        if parts:
            extraction, selection, rest = (statistics.median(part[i] for part in parts) for i in range(3))
            print(f"{'':<26} the fixed cost's parts: extraction beyond its steps {extraction:.2f} s, select "
                  f"{selection:.2f} s, the rest (start-up, the report, the summary) {rest:.2f} s")
    for warc in args.input:
        base = rates.get((warc.name, "ours", 1))
        for workers in args.workers:
            if base and workers > 1:
                print(f"{warc.name:<26} ours, {workers} workers / 1 worker: "
                      f"{rates[warc.name, 'ours', workers] / base:.2f}x  (target >= 1.8x at 2)")


def show(key: tuple[str, str, int], runs: list[Run], run: Run) -> None:
    runs.append(run)
    warc, name, workers = key
    print(f"{warc:<26} {workers:>7}  {name:<10} {run.records!s:>8} {run.seconds:>8.1f} "
          f"{rate(run, run.records):>10.2f} {run.peak_rss_mb:>12.0f}", flush=True)

if __name__ == "__main__":
    main()
