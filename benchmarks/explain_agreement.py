"""Does `pipeline explain` say what select decided? `python benchmarks/explain_agreement.py INPUT RUN_DIR`.

RUN_DIR is the output of `pipeline run INPUT --out RUN_DIR` (or `pipeline select` of INPUT's work
directory) with the same params. For every record of INPUT whose id is in RUN_DIR's shards, this
runs `pipeline.explain.explain_row` and compares what explain shows with the row select wrote: the
page type, the article and kept-type probabilities, and the reasons other than de-duplication and
the dataset's (which need the whole run). It prints how many pages agree and each disagreement.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.explain import explain_row  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params, load_params  # noqa: E402

CORPUS_WIDE = ("dup.", "dataset.")


def own_reasons(codes: list[str]) -> list[str]:
    return [code for code in codes if not code.startswith(CORPUS_WIDE)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--params", type=Path, help="the params file of the run (default: built-in defaults)")
    args = parser.parse_args()
    params = load_params(args.params) if args.params else Params()
    shards = pl.read_parquet([*args.run_dir.glob("accepted/*.parquet"), *args.run_dir.glob("rejected/*.parquet")],
                             columns=["id", "url", "page_type", "article_probability", "signals", "reasons"])
    stored = {row["id"]: row for row in shards.iter_rows(named=True)}
    compared = agreed = 0
    differing: list[str] = []
    for raw in read_file(args.input, params.extract.read.max_payload_bytes, FileReport(args.input)):
        row, _ = explain_row(raw, params)
        written = stored.get(row["id"])
        if written is None:  # a repeated record id: select gave the copy an id of its own
            continue
        compared += 1
        found = (row["page_type"], row["article_probability"], row["signals"].get("kept_type_probability"),
                 own_reasons(row["reasons"]))
        wanted = (written["page_type"], written["article_probability"], written["signals"]["kept_type_probability"],
                  own_reasons(written["reasons"]))
        if found == wanted:
            agreed += 1
        else:
            differing.append(f"{row['url']}: explain {found[0]} {found[1]} {found[2]} {found[3]}; "
                             f"select {wanted[0]} {wanted[1]} {wanted[2]} {wanted[3]}")
    print(f"{agreed} of {compared} pages agree ({len(stored) - compared} rows of the run not compared)")
    for line in differing:
        print("  " + line)


if __name__ == "__main__":
    main()
