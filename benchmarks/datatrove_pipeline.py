"""The FineWeb-style datatrove pipeline that `benchmarks/compare.py` measures ours against.

    .venv-datatrove/bin/python benchmarks/datatrove_pipeline.py WARC OUT --workers N

WarcReader -> Trafilatura(favour_precision) -> GopherRepetition -> GopherQuality -> C4Quality
(FineWeb's settings: no terminal-punctuation filter) -> FineWebQuality -> ParquetWriter, on one
machine (LocalPipelineExecutor, N tasks on N workers). Runs in its own environment (datatrove's
`processing` extra pins trafilatura < 1.12; see benchmarks/datatrove-requirements.txt), so it
imports nothing of ours. Prints one JSON line: documents read and documents written.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.extractors import Trafilatura
from datatrove.pipeline.filters import (
    C4QualityFilter,
    FineWebQualityFilter,
    GopherQualityFilter,
    GopherRepetitionFilter,
)
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import ParquetWriter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warc", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    warc = args.warc.resolve()
    executor = LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(warc.parent), glob_pattern=warc.name),
            Trafilatura(favour_precision=True),
            GopherRepetitionFilter(),
            GopherQualityFilter(),
            C4QualityFilter(filter_no_terminal_punct=False),
            FineWebQualityFilter(),
            ParquetWriter(str(args.out / "output")),
        ],
        tasks=args.workers,
        workers=args.workers,
        logging_dir=str(args.out / "logs"),
    )
    executor.run()
    stats = json.loads((args.out / "logs" / "stats.json").read_text())
    print(json.dumps({"read": _count(stats, "READER", "documents"), "written": _count(stats, "WRITER", "total")}))


def _count(stats: list[dict], kind: str, key: str) -> int | None:
    """The `key` total of the first pipeline step whose name holds `kind` (READER, WRITER)."""
    for step in stats:
        if kind in step.get("name", "").upper():
            value = step.get("stats", {}).get(key)
            if isinstance(value, dict):
                return int(value.get("total", 0))
            if value is not None:
                return int(value)
    return None


if __name__ == "__main__":
    main()
