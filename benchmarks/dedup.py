"""Throughput of the content-defined chunkers behind the per-subdomain duplication rule.

    python benchmarks/dedup.py [WARC] [--random-mb N] [--repeat N]

Two inputs, one process, best of N:
(a) N MB of random bytes (fixed seed);
(b) text-like bytes: every HTML response of the WARC decoded as UTF-8 (errors="replace"), stripped
    of tags with lxml's ``text_content()`` after dropping <script>/<style>, with blank lines dropped
    and runs of spaces collapsed as extractors do (a cheap stand-in for extracted text),
    concatenated; then (b') the same pages chunked one call per page, as the select stage calls it
    (per-call overhead included).
For each input: Rabin CDC chunking alone (``rabin_boundaries``), Rabin chunking + chunk hashes
(``chunk_hashes``, what the select stage calls) and fastcdc's gear chunker + hashes
(``chunk_hashes(algorithm="fastcdc")``, 256-byte average), in MB/s per core, with mean chunk sizes.
Target: Rabin CDC >= 20 MB/s per core.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from filters.corpus.cdc import chunk_hashes, rabin_boundaries  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "corpora" / "trafilatura-eval.warc.gz"
TARGET_MB_PER_S = 20.0


def load_texts(path: Path) -> list[bytes]:
    """Tag-stripped UTF-8 text of every HTML response, one line per non-blank text line."""
    import lxml.html
    from lxml import etree
    from warcio.archiveiterator import ArchiveIterator

    texts = []
    with open(path, "rb") as fh:
        for record in ArchiveIterator(fh):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            if "html" not in (record.http_headers.get_header("Content-Type") or "").lower():
                continue
            payload = record.content_stream().read()
            if not payload.strip():
                continue
            try:
                tree = lxml.html.document_fromstring(payload.decode("utf-8", errors="replace"))
            except (etree.ParserError, ValueError):
                continue
            etree.strip_elements(tree, "script", "style", with_tail=False)
            lines = (" ".join(line.split()) for line in tree.text_content().splitlines())
            texts.append("\n".join(line for line in lines if line).encode("utf-8", errors="replace"))
    return texts


def best_of(repeat: int, fn: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def report(label: str, data: bytes, repeat: int) -> None:
    mb = len(data) / 1e6
    print(f"\n{label}: {mb:.1f} MB")
    cases = [
        ("rabin chunking", lambda: rabin_boundaries(data)),
        ("rabin chunking + hashes", lambda: chunk_hashes(data)),
        ("fastcdc (avg 256) + hashes", lambda: chunk_hashes(data, "fastcdc")),
    ]
    for name, fn in cases:
        seconds, result = best_of(repeat, fn)
        chunks = len(result) if isinstance(result, np.ndarray) else len(result.hashes)  # type: ignore[union-attr]
        mean = len(data) / chunks if chunks else 0.0
        flag = "" if not name.startswith("rabin") or mb / seconds >= TARGET_MB_PER_S else "  (below target)"
        print(f"  {name:<28} {mb / seconds:7.1f} MB/s  {chunks:>9,} chunks  mean {mean:6.1f} B{flag}")


def report_per_page(texts: list[bytes], repeat: int) -> None:
    mb = sum(map(len, texts)) / 1e6
    print(f"\n(b') the same {len(texts)} pages, one call per page: {mb:.1f} MB")
    for name, algorithm in (("rabin chunking + hashes", "rabin"), ("fastcdc (avg 256) + hashes", "fastcdc")):
        seconds, _ = best_of(repeat, lambda algorithm=algorithm: [chunk_hashes(t, algorithm) for t in texts])
        print(f"  {name:<28} {mb / seconds:7.1f} MB/s  {seconds / len(texts) * 1e6:7.1f} us/page")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warc", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--random-mb", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-stages", action="store_true", help="skip the extract/select wall-time comparison")
    parser.add_argument("--workers", type=int, default=1, help="extract workers for the stage comparison")
    args = parser.parse_args()

    print(f"target: Rabin CDC >= {TARGET_MB_PER_S:.0f} MB/s per core (single process, best of {args.repeat})")
    random_bytes = np.random.default_rng(0).integers(0, 256, args.random_mb << 20, dtype=np.uint8).tobytes()
    report(f"(a) random bytes (seed=0), {args.random_mb} MiB", random_bytes, args.repeat)
    del random_bytes

    if not args.warc.is_file():
        print(f"\n(b) skipped: {args.warc} is missing (the ../shared corpora are not in a fresh clone)")
    else:
        texts = load_texts(args.warc)
        report(f"(b) tag-stripped text of {len(texts)} HTML pages of {args.warc.name}", b"\n".join(texts), args.repeat)
        report_per_page(texts, args.repeat)

    if args.warc.is_file() and not args.skip_stages:
        select_stage_ratio(args.warc, args.workers)
    return 0


# --- select-stage integration -------------------------------------------------------------------
def select_stage_ratio(warc: Path, workers: int) -> None:
    """`pipeline select` wall time on the WARC's extract output, as a ratio to `pipeline extract`'s.

    Target: select <= 5 % of extract. Both run as the CLI would, in this process.
    """
    import tempfile
    import time

    from pipeline.cli import main as cli

    with tempfile.TemporaryDirectory() as tmp:
        work, out = Path(tmp) / "work", Path(tmp) / "out"
        started = time.perf_counter()
        assert cli(["extract", str(warc), "--out", str(work), "--workers", str(workers)]) == 0
        extract_seconds = time.perf_counter() - started
        started = time.perf_counter()
        assert cli(["select", str(work), "--out", str(out)]) == 0
        select_seconds = time.perf_counter() - started
        started = time.perf_counter()
        assert cli(["select", str(work), "--out", str(out)]) == 0
        reselect_seconds = time.perf_counter() - started
    print(f"\nextract stage: {extract_seconds:.1f} s ({workers} worker(s)); select stage: {select_seconds:.2f} s "
          f"(again: {reselect_seconds:.2f} s)")
    print(f"select / extract: {select_seconds / extract_seconds:.1%}  (target <= 5 %)")

if __name__ == "__main__":
    sys.exit(main())
