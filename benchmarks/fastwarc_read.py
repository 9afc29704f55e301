"""Reading a WARC with fastwarc against warcio, in one run: `python benchmarks/fastwarc_read.py [WARC] [--repeat 5]`.

fastwarc (ChatNoir's compiled WARC reader) is not a dependency: install it to measure
(`pip install fastwarc==2.0.1`, a manylinux wheel). Both readers go over every record of WARC
and read what the pipeline reads of each: the target URI, the HTTP Content-Type and the decoded
payload (warcio's `content_stream`; fastwarc with `parse_http` and `auto_decode="all"`). Runs
alternate; the median of `--repeat` is printed for each, a record at a time. The rule of
docs/decisions.md: fastwarc replaces warcio only where it saves 1 ms a record or more.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import warc_and_repeat  # noqa: E402


def with_warcio(path: str) -> tuple[int, int]:
    records = size = 0
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            record.rec_headers.get_header("WARC-Target-URI")
            if record.http_headers is not None:
                record.http_headers.get_header("Content-Type")
            size += len(record.content_stream().read())
            records += 1
    return records, size


def with_fastwarc(path: str) -> tuple[int, int]:
    from fastwarc.warc import ArchiveIterator as FastIterator

    records = size = 0
    for record in FastIterator(path, parse_http=True, auto_decode="all", fsspec_args=False):
        record.headers.get("WARC-Target-URI")
        if record.http_headers is not None:
            record.http_headers.get("Content-Type")
        size += len(record.reader.read())
        records += 1
    return records, size


def main() -> None:
    args = warc_and_repeat(__doc__ or "")
    path = str(args.warc)
    readers: dict[str, Callable[[str], tuple[int, int]]] = {"warcio": with_warcio, "fastwarc": with_fastwarc}
    seconds: dict[str, list[float]] = {name: [] for name in readers}
    counts: dict[str, tuple[int, int]] = {}
    for _ in range(args.repeat):
        for name, read in readers.items():
            started = time.perf_counter()
            counts[name] = read(path)
            seconds[name].append(time.perf_counter() - started)
    for name, (records, size) in counts.items():
        median = statistics.median(seconds[name])
        print(f"{name}: {records} records, {size:,} payload bytes, median {median:.3f} s, "
              f"{median / records * 1000:.3f} ms a record")
    saved = (statistics.median(seconds["warcio"]) - statistics.median(seconds["fastwarc"])) / counts["warcio"][0]
    print(f"fastwarc saves {saved * 1000:.3f} ms a record (the rule asks 1 ms)")


if __name__ == "__main__":
    main()
