"""Cost of scoring a page (URL rules + article score + page signals + metadata) against the
lxml parse of the same page, in one run; plus the score distribution.

    python benchmarks/score.py [WARC] [--repeat N]

Pages: every HTML response in the WARC, decoded once up front (decoding is not timed). For
each page the parse and the scoring are timed back to back, best of N, and summed over the
corpus. Target: scoring <= 2x the parse.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import warc_and_repeat  # noqa: E402

from filters.metadata.fields import extract_metadata, has_author, has_published_date  # noqa: E402
from filters.page.article_score import article_score  # noqa: E402
from filters.page.content_type import is_html_media_type, resolve_media_type  # noqa: E402
from filters.page.page_signals import classify, needs_js  # noqa: E402
from filters.page.url_rules import normalize_url, url_signals  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.parse.parsed import Page  # noqa: E402
from pipeline.io.decode import decode_html  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402


def load_pages(path: Path) -> list[tuple[str, object, object]]:
    """(url, Decoded, capture time) of every HTML page; decoding is not part of the timings."""
    pages = []
    for raw in read_file(str(path), 5_000_000, FileReport(str(path))):
        if raw.payload is None or raw.http_status not in (None, 200):
            continue
        if not is_html_media_type(resolve_media_type(raw.http_content_type, raw.identified_payload_type,
                                                     raw.payload)):
            continue
        pages.append((raw.url or "", decode_html(raw.payload, raw.http_content_type), raw.warc_date))
    return pages


def score_page(url: str, tree: object, capture: object) -> int:
    url_signals(url)
    normalize_url(url)
    page = Page(tree, url)  # type: ignore[arg-type]
    metadata = extract_metadata(page, capture)  # type: ignore[arg-type]
    total, _ = article_score(page, has_author(page, metadata), has_published_date(page, metadata))
    classify(page)
    needs_js(page)
    return total


def main() -> None:
    args = warc_and_repeat(__doc__)
    pages = load_pages(args.warc)
    parse_total = score_total = 0.0
    scores = []
    for url, decoded, capture in pages:
        best_parse = best_score = float("inf")
        for _ in range(args.repeat):
            started = time.perf_counter()
            tree = parse_html_bytes(decoded.data, decoded.encoding)
            best_parse = min(best_parse, time.perf_counter() - started)
            if tree is None:
                break
            started = time.perf_counter()
            total = score_page(url, tree, capture)
            best_score = min(best_score, time.perf_counter() - started)
        if tree is None:
            continue
        parse_total += best_parse
        score_total += best_score
        scores.append(total)
    n = len(scores)
    print(f"pages: {n} HTML pages from {args.warc.name}, best of {args.repeat} per page")
    print(f"parse (bytes): {parse_total:.3f} s total, {parse_total / n * 1000:.2f} ms/page")
    print(f"scoring:    {score_total:.3f} s total, {score_total / n * 1000:.2f} ms/page "
          "(URL rules + article score + page signals + metadata)")
    print(f"ratio scoring / parse: {score_total / parse_total:.2f}x  (target <= 2.00x)")
    above = sum(s >= 35 for s in scores)
    print(f"article score >= 35: {above} of {n} ({above / n:.1%}); median {statistics.median(scores):.0f}, "
          f"min {min(scores)}, max {max(scores)}")
    edges = list(range(-60, 121, 20))
    print("distribution:")
    for low, high in zip(edges, edges[1:], strict=False):
        count = sum(low <= s < high for s in scores)
        print(f"  [{low:4d}, {high:4d}) {count:4d} {'#' * (count // 5)}")


if __name__ == "__main__":
    main()
