"""Text filters against the extraction cascade, per page, in one run; and what each rule rejects.

    python benchmarks/filters.py [--limit N]

For every HTML page of trafilatura-eval.warc.gz: the cascade (default policy) is timed, then all
text filters together on its output (length tokens, language ID, C4 NoPunc + Gopher, block
signals, quality signals). Target: filters <= 20 % of the cascade's time.
Then every select-stage rule is applied with the default params and the pages each one rejects
are counted (pages can fail several rules), so the defaults can be judged against real pages.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from filters.extract.cascade import run_cascade  # noqa: E402
from filters.extract.cleanup import remove_cookie_overlays  # noqa: E402
from filters.metadata.fields import extract_metadata  # noqa: E402
from filters.page.content_type import is_html_media_type, resolve_media_type  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.parse.parsed import Page  # noqa: E402
from filters.rules import reasons  # noqa: E402
from filters.text.blocks import block_signals  # noqa: E402
from filters.text.measure import text_signals  # noqa: E402
from filters.text.quality import quality_signals  # noqa: E402
from pipeline.io.decode import decode_html  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params, params_from_dict  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "trafilatura-eval.warc.gz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    if not CORPUS.is_file():
        print("skipped: ../shared/corpora is not present")
        return
    params = Params()
    text_signals("warm up the language model once, outside the timings.")
    cascade_seconds = filter_seconds = 0.0
    all_signals: list[dict] = []
    pages = extracted = 0
    for raw in read_file(str(CORPUS), 5_000_000, FileReport(str(CORPUS))):
        if raw.payload is None or not is_html_media_type(
                resolve_media_type(raw.http_content_type, raw.identified_payload_type, raw.payload)):
            continue
        decoded = decode_html(raw.payload, raw.http_content_type)
        tree = parse_html_bytes(decoded.data, decoded.encoding)
        if tree is None:
            continue
        pages += 1
        page = Page(tree, raw.url)
        metadata = extract_metadata(page, raw.warc_date)
        started = time.perf_counter()
        remove_cookie_overlays(tree)
        result = run_cascade(page, params.extract.cascade.selection)
        cascade_seconds += time.perf_counter() - started
        if not result.text:
            continue
        extracted += 1
        started = time.perf_counter()
        signals = text_signals(result.text)
        signals.update(block_signals(result.blocks))
        signals.update(quality_signals(result.blocks, len(decoded.data), metadata.title, metadata.author,
                                       metadata.published))
        filter_seconds += time.perf_counter() - started
        all_signals.append(signals)
        if args.limit and pages >= args.limit:
            break
    print(f"pages: {pages} HTML pages, {extracted} with extracted text")
    print(f"cascade: {cascade_seconds / pages * 1000:.1f} ms/page; all text filters: "
          f"{filter_seconds / max(extracted, 1) * 1000:.2f} ms/extracted page")
    print(f"ratio filters / cascade: {filter_seconds / cascade_seconds:.1%}  (target <= 20 %)")
    table = {name: _rejections(all_signals, p) for name, p in (("default", params), ("all on", ALL_ON))}
    for name, (passed, _) in table.items():
        print(f"pass every select-stage rule ({name} params): {passed} of {extracted} ({passed / extracted:.1%})")
    print(f"{'rule':28} {'default':>8} {'share':>7} {'all on':>8} {'share':>7}")
    for rule in reasons.rules_for("select"):
        default = table["default"][1].get(rule.code, 0)
        every = table["all on"][1].get(rule.code, 0)
        state = "" if rule.enabled(params) else "  (off by default)"
        if not any(rule.signal in signals for signals in all_signals):
            state = "  (not measured here: page signal)"
        print(f"{rule.code:28} {default:8d} {default / extracted:7.1%} {every:8d} {every / extracted:7.1%}{state}")


# Every rule switched on at the seed's value (the off-by-default ones included): the block rules as
# `presets/seed.yaml` sets them, and the rules that are off in every preset at their published values.
SEED_BLOCK = yaml.safe_load((ROOT / "presets" / "seed.yaml").read_text(encoding="utf-8"))["select"]["block"]
ALL_ON = params_from_dict({"select": {
    "block": SEED_BLOCK,
    "c4": {"max_nopunc_line_fraction": 0.5},
    "gopher": {"max_repeated_sequence_count": 100},
    "quality": {"min_paragraphs": 3, "min_text_html_ratio": 0.25, "require_metadata": True},
}})


def _rejections(all_signals: list[dict], params: Params) -> tuple[int, Counter[str]]:
    counts: Counter[str] = Counter()
    passed = 0
    for signals in all_signals:
        fired = reasons.decide(reasons.rules_for("select"), signals, params)
        counts.update(fired)
        passed += not fired
    return passed, counts

if __name__ == "__main__":
    main()
