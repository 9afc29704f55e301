"""What the page-type model costs: load once, then per page, for both of its models.

    python benchmarks/page_model.py RUN_DIR [--model FILE] [--repeat R]

RUN_DIR is the output of `pipeline run` (its accepted and rejected shards: real pages with every
stored signal and text). Prints the model file's size and load time, and for the pre-extraction
model (`page`, one page at a time, as extract calls it) and the select model (`full`, slices of
1,000 rows, as select calls it) the milliseconds a page, features and trees apart, and of the
features the select model's text model (`filters.page_model.text_model`: hashing the words, its weights).
Target: under 1 ms a page before extraction, under 3 ms in select (a page's extraction takes about
40 ms), under 6 MB a file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from filters.page_model.features import PAGE_TYPES  # noqa: E402
from filters.page_model.model import DEFAULT_MODEL, load_model  # noqa: E402
from pipeline.stages.page_types import PARSED, ROW_FIELDS, SLICE_ROWS  # noqa: E402


def parsed_rows(run_dir: Path) -> list[dict]:
    files = sorted([*run_dir.glob("accepted/*.parquet"), *run_dir.glob("rejected/*.parquet")])
    if not files:
        raise SystemExit(f"{run_dir}: no accepted/ or rejected/ shards (the output of `pipeline run`)")
    frame = pl.concat([pl.read_parquet(path, columns=list(ROW_FIELDS)) for path in files], how="diagonal_relaxed")
    return frame.filter(PARSED).to_dicts()


def best_of(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    model = load_model(str(args.model))
    load_s = time.perf_counter() - start
    rows = parsed_rows(args.run_dir)
    print(f"model {args.model.name}: {args.model.stat().st_size / 1e6:.2f} MB, loaded in {load_s:.2f} s; "
          f"{len(rows)} parsed pages of {args.run_dir}")
    for name, stage, batch in (("page (one at a time)", model.page, 1), ("full (slices)", model.full, SLICE_ROWS)):
        features_s = best_of(args.repeat, lambda s=stage, b=batch: [
            s.matrix(rows[i:i + b]) for i in range(0, len(rows), b)])
        matrix = stage.matrix(rows)
        trees_s = best_of(args.repeat, lambda s=stage, m=matrix, b=batch: [
            s.booster.predict(m[i:i + b]) for i in range(0, len(m), b)])
        per_page = 1000 / len(rows)
        text = ""
        if stage.text is not None:
            text_s = best_of(args.repeat, lambda s=stage, b=batch: [
                s.text.feature(rows[i:i + b], 0, len(PAGE_TYPES)) for i in range(0, len(rows), b)])
            text = f" (text model {text_s * per_page:.3f} ms)"
        print(f"{name:22s} features {features_s * per_page:.3f} ms{text}  trees {trees_s * per_page:.3f} ms  "
              f"total {(features_s + trees_s) * per_page:.3f} ms a page")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
