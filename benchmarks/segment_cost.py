"""What segmentation costs: `python benchmarks/segment_cost.py [WARC] [--repeat N]`.

1. **The step, page by page.** Every record of WARC (default wcxb-dev) through the extract stage
   (`record_to_row_within_budget`, default params), each with its own timings: the seconds of the
   `segments` step (finding the units, and each segment's text signals and de-duplication keys),
   as median, p90 and mean over all pages and over the pages that got segments, beside the whole
   record's. The first pass warms the models and is not counted; the figure is the best of
   `--repeat` passes per page.
2. **A whole run.** `pipeline run WARC --workers 1`, with default params and with `segment: null`,
   alternated `--repeat` times: wall seconds and the peak RSS of the largest process (the
   median of each), and the segments the run wrote.
"""

from __future__ import annotations

import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import ROOT, warc_and_repeat  # noqa: E402
from compare import measured  # noqa: E402

from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params  # noqa: E402
from pipeline.run.timings import Timings  # noqa: E402
from pipeline.stages.extract import record_to_row_within_budget, warm_up  # noqa: E402

DEFAULT_WARC = ROOT.parent / "shared" / "corpora" / "wcxb-dev.warc.gz"


def step_costs(warc: Path, repeat: int) -> tuple[list[float], list[float], list[int]]:
    """(segments step seconds, record seconds, segments found) per record, best of `repeat`."""
    params = Params()
    warm_up(params)
    records = list(read_file(str(warc), params.extract.read.max_payload_bytes, FileReport(str(warc))))
    best_step = [float("inf")] * len(records)
    best_record = [float("inf")] * len(records)
    found = [0] * len(records)
    for _ in range(repeat):
        for index, raw in enumerate(records):
            timings = Timings()
            row = record_to_row_within_budget(raw, params, timings)
            best_step[index] = min(best_step[index], timings.seconds.get("segments", 0.0))
            best_record[index] = min(best_record[index], sum(seconds for name, seconds in timings.seconds.items()
                                                             if "." not in name))
            found[index] = len(row["segments"] or [])
    return best_step, best_record, found


def describe(values: list[float]) -> str:
    if not values:
        return "no pages"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms, "
            f"mean {statistics.fmean(ordered) * 1000:.2f} ms ({len(ordered)} pages)")


def whole_runs(warc: Path, repeat: int, scratch: Path) -> None:
    pipeline = str(Path(sys.executable).with_name("pipeline"))
    off = scratch / "off.yaml"
    off.write_text("segment: null\n", encoding="utf-8")
    results: dict[str, list[tuple[float, float]]] = {"segments on": [], "segment: null": []}
    for _ in range(repeat):
        for name, extra in (("segments on", []), ("segment: null", ["--params", str(off)])):
            out = scratch / name.replace(" ", "_").replace(":", "")
            shutil.rmtree(out, ignore_errors=True)
            seconds, peak, _ = measured([pipeline, "run", str(warc), "--out", str(out), "--workers", "1", *extra])
            results[name].append((seconds, peak))
            if name == "segments on":
                segments = json.loads((out / "stats.json").read_text())["segments"]
    for name, runs in results.items():
        print(f"{name:14} wall {statistics.median(s for s, _ in runs):.1f} s, "
              f"peak RSS {statistics.median(p for _, p in runs):.0f} MB (median of {len(runs)})")
    print(f"segments written (last run with them on): {segments['segments_in']} in, {segments['accepted']} accepted")


def main() -> None:
    args = warc_and_repeat(__doc__, DEFAULT_WARC)
    warc = args.warc
    step, record, found = step_costs(warc, args.repeat)
    with_segments = [index for index, count in enumerate(found) if count]
    print(f"{warc.name}: {len(found)} records, {len(with_segments)} with segments ({sum(found)} segments)")
    print(f"segments step, all pages:           {describe(step)}")
    print(f"segments step, pages with segments: {describe([step[i] for i in with_segments])}")
    print(f"whole record, all pages:            {describe(record)}")
    print(f"segments step / record time, summed: {sum(step) / sum(record):.3f}")
    with tempfile.TemporaryDirectory() as scratch:
        whole_runs(warc, args.repeat, Path(scratch))


if __name__ == "__main__":
    main()
