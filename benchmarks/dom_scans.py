"""What our DOM signals spend in libxml2's scans, and what a Lexbor tree would save:
`python benchmarks/dom_scans.py [WARC] [--repeat N]`.

1. Every record of WARC (default wcxb-dev) goes through the extract stage in this process, once to
   warm up and once timed, with every module-level XPath of our filters timed at each call: printed,
   the ms a page each XPath costs inside the steps as they run, and their sum against the whole
   record's time.
2. With selectolax installed (`pip install selectolax`; it is no dependency), each page is parsed
   again with Lexbor (selectolax's `LexborHTMLParser`) and the whole-page scans that a CSS
   selector can say are run on both trees, best of `--repeat`: ms a page for Lexbor's parse, for
   each scan on each tree, and what moving those scans would save less the second parse.

The question it answers: whether our own per-page time is in the tree's scans (which a compiled
tree would speed up) or in the Python that reads what they return (which it would not).
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import warc_and_repeat  # noqa: E402

from pipeline.io.decode import decode_html  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params  # noqa: E402
from pipeline.run.timings import Timings  # noqa: E402
from pipeline.stages.extract import record_to_row_within_budget, warm_up  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WARC = ROOT.parent / "shared" / "corpora" / "wcxb-dev.warc.gz"
# The modules whose XPaths the extract steps call (their module-level `etree.XPath` objects).
MODULES = ("filters.segment.segments", "filters.segment.units", "filters.page.article_score",
           "filters.page.page_signals", "filters.page.page_structure", "filters.page.product",
           "filters.parse.html", "filters.parse.parsed", "filters.metadata.bylines", "filters.metadata.fields",
           "filters.extract.cleanup")
# Whole-page scans of our steps that a CSS selector says as well: (name, XPath on the tree, CSS).
SCANS = (
    ("links with href", "//body//a[@href]", "body a[href]"),
    ("post marks", "descendant::*/@id/.. | descendant::*/@class[contains(., 'omment')]/..",
     "[id], [class*=omment]"),
    ("itemtype", "//@itemtype/..", "[itemtype]"),
    ("json-ld scripts", "//script[contains(@type, 'ld+json')]", "script[type*='ld+json']"),
    ("controls", "//button | //input[@type='submit' or @type='button' or @type='image']",
     "button, input[type=submit], input[type=button], input[type=image]"),
    ("paragraphs", "//p", "p"),
)
TOP = 25


def xpaths_in_use(records: list[Any], params: Params) -> tuple[Timings, float]:
    """Seconds and calls of each module-level XPath over one pass of the records, and the pass's seconds."""
    for raw in records:  # warm every lazy load first
        record_to_row_within_budget(raw, params, Timings())
    spent = Timings()
    for name in MODULES:
        module = importlib.import_module(name)
        for attribute, value in list(vars(module).items()):
            if isinstance(value, etree.XPath):
                setattr(module, attribute, _timed(f"{name.rsplit('.', 1)[-1]}.{attribute}", value, spent))
    started = time.perf_counter()
    for raw in records:
        record_to_row_within_budget(raw, params, Timings())
    return spent, time.perf_counter() - started


def _timed(key: str, xpath: etree.XPath, spent: Timings) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return xpath(*args, **kwargs)
        finally:
            spent.add(key, started)
    return call


def best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def lexbor(records: list[Any], repeat: int) -> None:
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError:
        print("selectolax is not installed: `pip install selectolax` for the Lexbor comparison")
        return
    from filters.parse.html import parse_html_bytes

    texts, trees = [], []
    for raw in records:
        if not raw.payload:
            continue
        decoded = decode_html(raw.payload, raw.http_content_type)
        tree = parse_html_bytes(decoded.data, decoded.encoding)
        if tree is None:
            continue
        texts.append(decoded.data.decode(decoded.encoding, errors="replace"))
        trees.append(tree)
    pages = len(trees)
    parsed = [LexborHTMLParser(text) for text in texts]
    parse = best(lambda: [LexborHTMLParser(text) for text in texts], repeat)
    print(f"\nLexbor on {pages} pages, best of {repeat}, ms a page: parse {1000 * parse / pages:.2f}")
    print(f"  {'scan':18} {'libxml2':>8} {'Lexbor':>8}  elements (libxml2, Lexbor)")
    saved = 0.0
    for name, path, selector in SCANS:
        xpath = etree.XPath(path)
        on_lxml = best(lambda xpath=xpath: [xpath(tree) for tree in trees], repeat)
        on_lexbor = best(lambda selector=selector: [tree.css(selector) for tree in parsed], repeat)
        found = (sum(len(xpath(tree)) for tree in trees), sum(len(tree.css(selector)) for tree in parsed))
        saved += on_lxml - on_lexbor
        print(f"  {name:18} {1000 * on_lxml / pages:8.3f} {1000 * on_lexbor / pages:8.3f}  {found[0]}, {found[1]}")
    print(f"  these scans on Lexbor save {1000 * saved / pages:.3f} ms a page; its parse costs "
          f"{1000 * parse / pages:.3f}")


def main() -> None:
    args = warc_and_repeat(__doc__, DEFAULT_WARC)
    params = Params()
    warm_up(params)
    records = list(read_file(str(args.warc), params.extract.read.max_payload_bytes, FileReport(str(args.warc))))
    pages = len(records)
    spent, whole = xpaths_in_use(records, params)
    print(f"{args.warc.name}: {pages} records, one timed pass, ms a page")
    print(f"  every XPath of our steps {1000 * sum(spent.seconds.values()) / pages:.2f} of the record's "
          f"{1000 * whole / pages:.2f} (libraries included)")
    for key, seconds in sorted(spent.seconds.items(), key=lambda item: -item[1])[:TOP]:
        print(f"  {1000 * seconds / pages:7.3f}  {spent.calls[key]:7d} calls  {key}")
    lexbor(records, args.repeat)


if __name__ == "__main__":
    main()
