"""Does `pipeline explain` say what a run decided? `python benchmarks/explain_agreement.py INPUT RUN_DIR`.

RUN_DIR is the output of `pipeline run INPUT --out RUN_DIR` (or `pipeline select` of INPUT's work
directory) with the same params. Explain judges a record as a run over its inputs does
(`pipeline.explain.judged_by_engine`, once here for every record); for every record of INPUT this
compares what explain shows (`explain_row` with `with_engine_verdict`) with the row the run wrote:
the page type, the article and kept-type probabilities, every reason (de-duplication and the
dataset's included), the split and era, and each segment's verdict. It prints how many pages and
segments agree and each disagreement.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.explain import explain_row, judged_by_engine, with_engine_verdict  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params, load_params  # noqa: E402


def _page_view(row: dict[str, Any]) -> tuple:
    return (row["page_type"], row["article_probability"], row["signals"].get("kept_type_probability"),
            row["reasons"], row["split"], row["era"])


def agreement(path: str, run_dir: Path, params: Params) -> tuple[int, int, int, int, list[str]]:
    """(pages compared, pages agreeing, segments compared, segments agreeing, each disagreement)."""
    shards = pl.read_parquet([*run_dir.glob("accepted/*.parquet"), *run_dir.glob("rejected/*.parquet")])
    stored = {row["id"]: row for row in shards.iter_rows(named=True)}
    segment_files = sorted(run_dir.glob("segments/*/*.parquet"))
    stored_segments: dict[tuple[str, int], tuple] = {}
    if segment_files:
        for segment in pl.read_parquet(segment_files).iter_rows(named=True):
            stored_segments[(segment["page_id"], segment["segment_index"])] = (segment["kept"], segment["reasons"])
    pages, segments = judged_by_engine([path], params)
    compared = agreed = segments_compared = segments_agreed = 0
    differing: list[str] = []
    for raw in read_file(path, params.extract.read.max_payload_bytes, FileReport(path)):
        row = with_engine_verdict(explain_row(raw, params)[0], pages, segments)
        written = stored.get(row["id"])
        if written is None:
            continue
        compared += 1
        found, wanted = _page_view(row), _page_view(written)
        if found == wanted:
            agreed += 1
        else:
            differing.append(f"{row['url']}: explain {found}; run {wanted}")
        for segment in row.get("segments") or []:
            want = stored_segments.get((row["id"], segment["segment_index"]))
            if want is None:
                continue
            segments_compared += 1
            if (segment.get("kept"), segment.get("reasons")) == want:
                segments_agreed += 1
            else:
                differing.append(f"{row['url']} #{segment['segment_index']}: explain "
                                 f"{segment.get('kept')} {segment.get('reasons')}; run {want}")
    return compared, agreed, segments_compared, segments_agreed, differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--params", type=Path, help="the params file of the run (default: built-in defaults)")
    args = parser.parse_args()
    params = load_params(args.params) if args.params else Params()
    compared, agreed, segments_compared, segments_agreed, differing = agreement(args.input, args.run_dir, params)
    print(f"{agreed} of {compared} pages agree; {segments_agreed} of {segments_compared} segments agree")
    for line in differing:
        print("  " + line)


if __name__ == "__main__":
    main()
