"""Reader + decoder throughput against bare warcio iteration, measured in one run.

    python benchmarks/read.py [WARC] [--repeat N]

Baseline: `ArchiveIterator` over the file, reading every record's decoded content stream
(the least any reader must do). Ours: `pipeline.io.readers.read_file` (accounting, corruption
recovery, size cap, transfer/content decoding) plus media-type resolution and charset
decoding of every HTML payload. Runs alternate and the best of N is kept for each, so both
see the same machine state. Target: ours <= 1.3x the baseline's time.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import warc_and_repeat  # noqa: E402

from filters.page.content_type import is_html_media_type, resolve_media_type  # noqa: E402
from pipeline.io.decode import decode_html  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402


def bare_warcio(path: Path) -> int:
    records = 0
    with open(path, "rb") as fh:
        for record in ArchiveIterator(fh):
            record.content_stream().read()
            records += 1
    return records


def ours(path: Path) -> tuple[int, Counter[str]]:
    report = FileReport(str(path))
    sources: Counter[str] = Counter()
    rows = 0
    for raw in read_file(str(path), 5_000_000, report):
        rows += 1
        if raw.payload is None:
            continue
        declared = raw.warc_content_type if raw.record_type == "resource" else raw.http_content_type
        if is_html_media_type(resolve_media_type(declared, raw.identified_payload_type, raw.payload)):
            sources[decode_html(raw.payload, raw.http_content_type).source] += 1
    return rows + sum(v for k, v in report.record_types.items() if k not in ("response", "resource")), sources


def main() -> None:
    args = warc_and_repeat(__doc__)
    best = {"warcio": float("inf"), "ours": float("inf")}
    for _ in range(args.repeat):
        started = time.perf_counter()
        base_records = bare_warcio(args.warc)
        best["warcio"] = min(best["warcio"], time.perf_counter() - started)
        started = time.perf_counter()
        our_records, sources = ours(args.warc)
        best["ours"] = min(best["ours"], time.perf_counter() - started)
    print(f"file: {args.warc} ({args.warc.stat().st_size / 1e6:.1f} MB), best of {args.repeat}")
    print(f"bare warcio:      {base_records} records in {best['warcio']:.3f} s "
          f"= {base_records / best['warcio']:.0f} records/s")
    print(f"reader+decoder:   {our_records} records in {best['ours']:.3f} s "
          f"= {our_records / best['ours']:.0f} records/s")
    print(f"encoding sources: {dict(sorted(sources.items()))}")
    print(f"ratio (ours / warcio time): {best['ours'] / best['warcio']:.2f}x  (target <= 1.30x)")


if __name__ == "__main__":
    main()
