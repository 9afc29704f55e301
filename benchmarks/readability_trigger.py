"""When does readability earn its time? Per-page evidence for a trigger that runs it only where it
can change the outcome of the `agreement` policy.

    python benchmarks/readability_trigger.py [--corpus trafilatura-eval|wcxb-dev] [--limit N] [--out FILE]

For every page with snippets (as `benchmarks/extraction.py` reads them), the cascade's candidates
are computed once and the script records what is known *before* readability runs (trafilatura's
words, its share of text in links or code, its shortest block, the JSON-LD body's words, the
page's `<p>` text words) and the snippet scores (share of `with` snippets found, of `without`
snippets absent) of `agreement` (which runs readability on most pages) and of
`trafilatura_first` (which runs it only when trafilatura fails). It prints, for a few simple
triggers, the share of pages that would still run readability and the harmonic snippet score of
taking `agreement` where the trigger fires and `trafilatura_first` elsewhere. `--out` writes the
per-page rows (JSON lines) for a closer look. Quality only: nothing here is timed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:1] = [str(ROOT), str(ROOT / "benchmarks")]

from extraction import CORPORA, SNIPPETS, load, snippet_scores  # noqa: E402

from filters.extract.boilerplate import remove_boilerplate  # noqa: E402
from filters.extract.cascade import AGREEMENT_SHORT_BLOCK_CHARS, POLICIES, TRAFILATURA_MIN_WORDS, Candidates  # noqa: E402
from filters.extract.cleanup import remove_cookie_overlays  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.parse.parsed import Page  # noqa: E402

Row = dict[str, float | int | None]


def page_row(decoded, url: str, expected: dict) -> Row | None:  # type: ignore[no-untyped-def]
    tree = parse_html_bytes(decoded.data, decoded.encoding)
    if tree is None:
        return None
    remove_cookie_overlays(tree)
    page = Page(tree, url)
    paragraph_words = sum(len((p.text_content() or "").split()) for p in tree.iter("p"))
    candidates = Candidates(page)
    trafilatura = candidates.get("trafilatura")
    jsonld = candidates.get("jsonld")
    row: Row = {
        "trafilatura_words": trafilatura.words,
        "link_code": candidates.trace.get("cascade_trafilatura_link_code_fraction"),
        "shortest_block": min((block.chars for block in trafilatura.blocks), default=0),
        "short_blocks": sum(block.chars < AGREEMENT_SHORT_BLOCK_CHARS for block in trafilatura.blocks),
        "short_block_chars": sum(block.chars for block in trafilatura.blocks
                                 if block.chars < AGREEMENT_SHORT_BLOCK_CHARS),
        "chars": sum(block.chars for block in trafilatura.blocks),
        "jsonld_words": jsonld.words,
        "paragraph_words": paragraph_words,
    }
    for policy in ("agreement", "trafilatura_first"):
        winner, _ = POLICIES[policy](candidates)
        # agreement runs first, so the trace says whether it needed readability; trafilatura_first
        # needs it only below trafilatura's minimum of words
        row[f"{policy}_runs_readability"] = ("cascade_readability_words" in candidates.trace if policy == "agreement"
                                             else trafilatura.words < TRAFILATURA_MIN_WORDS)
        chosen = candidates.derived.get(winner) or candidates.get(winner)
        blocks, _ = remove_boilerplate(chosen.blocks)
        found, absent = snippet_scores("\n\n".join(b.text for b in blocks) or None, expected)
        row[f"{policy}_with"], row[f"{policy}_without"] = found, absent
    return row


def harmonic(rows: list[Row], fires: Callable[[Row], bool]) -> tuple[float, float]:
    """(share of pages that run readability, harmonic snippet score of the mixed policy)."""
    withs, withouts, fired = [], [], 0
    for row in rows:
        policy = "agreement" if fires(row) else "trafilatura_first"
        fired += bool(row[f"{policy}_runs_readability"])
        if row[f"{policy}_with"] is not None:
            withs.append(row[f"{policy}_with"])
        if row[f"{policy}_without"] is not None:
            withouts.append(row[f"{policy}_without"])
    w, o = sum(withs) / len(withs), sum(withouts) / len(withouts)  # type: ignore[arg-type]
    return fired / len(rows), 2 * w * o / (w + o)


TRIGGERS: dict[str, Callable[[Row], bool]] = {
    "always (agreement)": lambda r: True,
    "never (trafilatura_first)": lambda r: False,
    "trafilatura < 200 words": lambda r: r["trafilatura_words"] < 200,  # type: ignore[operator]
    "link/code > 0.10": lambda r: (r["link_code"] or 0) > 0.10,  # type: ignore[operator]
    "< 0.5 x JSON-LD body": lambda r: r["trafilatura_words"] < 0.5 * r["jsonld_words"],  # type: ignore[operator]
    "< 0.5 x <p> words": lambda r: r["trafilatura_words"] < 0.5 * r["paragraph_words"],  # type: ignore[operator]
    "any of the four": lambda r: (r["trafilatura_words"] < 200 or (r["link_code"] or 0) > 0.10  # type: ignore[operator]
                                  or r["trafilatura_words"] < 0.5 * r["jsonld_words"]  # type: ignore[operator]
                                  or r["trafilatura_words"] < 0.5 * r["paragraph_words"]),  # type: ignore[operator]
    ">= 8 short blocks": lambda r: r["short_blocks"] >= 8,  # type: ignore[operator]
    ">= 12 short blocks": lambda r: r["short_blocks"] >= 12,  # type: ignore[operator]
    "> 500 chars in short blocks": lambda r: r["short_block_chars"] > 500,  # type: ignore[operator]
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", choices=sorted(SNIPPETS), default="trafilatura-eval")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--out", type=Path, help="write the per-page rows here (JSON lines)")
    args = parser.parse_args()
    if not (CORPORA / f"{args.corpus}.warc.gz").is_file():
        print("skipped: ../shared/corpora is not present")
        return 0
    rows = [row for url, decoded, expected in load(args.corpus, args.limit)
            if (row := page_row(decoded, url, expected)) is not None]
    if args.out:
        args.out.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    print(f"pages: {len(rows)} ({args.corpus})")
    print(f"{'readability runs when':30} {'share run':>10} {'harmonic':>9}")
    for name, fires in TRIGGERS.items():
        share, score = harmonic(rows, fires)
        print(f"{name:30} {share:10.3f} {score:9.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
