"""What each extraction setting costs and what it gives: trafilatura with or without its own fallback
(`fast`), and our readability asked on every page with a short block, from ten short blocks on
(the default), or only when trafilatura fails.

    python benchmarks/extraction_options.py [--corpus trafilatura-eval|wcxb-dev] [--limit N]

For every page with snippets (as `benchmarks/extraction.py` reads them) the candidates are
computed once per trafilatura setting, readability once, and each combination is scored on the
snippets (share of `with` snippets found, of `without` snippets kept out, their harmonic mean)
with the time it would spend in the two extractors: trafilatura's time on every page plus
readability's time on the pages where the combination asks for it. The times are measured in
this one process, page by page, so only their ratios mean anything; run it with nothing else on
the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:1] = [str(ROOT), str(ROOT / "benchmarks")]

from extraction import CORPORA, SNIPPETS, load, snippet_scores  # noqa: E402

from filters.extract.boilerplate import remove_boilerplate  # noqa: E402
from filters.extract.cascade import AGREEMENT_MIN_SHORT_BLOCKS, POLICIES, Candidates  # noqa: E402
from filters.extract.cleanup import remove_cookie_overlays  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.parse.parsed import Page  # noqa: E402

# (name, trafilatura fast, policy, readability asked from this many short blocks)
OPTIONS = (
    ("not fast, agreement at any short block", False, "agreement", 1),
    (f"not fast, agreement from {AGREEMENT_MIN_SHORT_BLOCKS} short blocks", False, "agreement",
     AGREEMENT_MIN_SHORT_BLOCKS),
    ("not fast, trafilatura_first", False, "trafilatura_first", 1),
    ("fast, agreement at any short block", True, "agreement", 1),
    (f"fast, agreement from {AGREEMENT_MIN_SHORT_BLOCKS} short blocks", True, "agreement",
     AGREEMENT_MIN_SHORT_BLOCKS),
    ("fast, trafilatura_first", True, "trafilatura_first", 1),
)


class Tally:
    def __init__(self) -> None:
        self.withs: list[float] = []
        self.withouts: list[float] = []
        self.seconds = 0.0
        self.readability_pages = 0

    def harmonic(self) -> float:
        w, o = sum(self.withs) / len(self.withs), sum(self.withouts) / len(self.withouts)
        return 2 * w * o / (w + o)


def timed_candidates(page: Page, fast: bool) -> tuple[Candidates, float, float]:
    """Candidates with trafilatura and readability computed, and the seconds each took."""
    candidates = Candidates(page, trafilatura_fast=fast)
    started = time.perf_counter()
    candidates.get("trafilatura")
    middle = time.perf_counter()
    candidates.get("readability")
    return candidates, middle - started, time.perf_counter() - middle


def run_policy(candidates: Candidates, policy) -> tuple[str, bool]:  # type: ignore[no-untyped-def]
    """(the winner `policy` picks from `candidates`, whether it asked for readability's result)."""
    asked: list[str] = []
    plain_get = candidates.get

    def recording_get(name: str):  # type: ignore[no-untyped-def]
        asked.append(name)
        return plain_get(name)

    candidates.get = recording_get  # type: ignore[method-assign]
    try:
        winner, _ = policy(candidates)
    finally:
        del candidates.get
    return winner, "readability" in asked


def score_page(decoded, url: str, expected: dict, tallies: dict[str, Tally]) -> None:  # type: ignore[no-untyped-def]
    tree = parse_html_bytes(decoded.data, decoded.encoding)
    if tree is None:
        return
    remove_cookie_overlays(tree)
    page = Page(tree, url)
    computed = {fast: timed_candidates(page, fast) for fast in (False, True)}
    for name, fast, policy, min_short in OPTIONS:
        candidates, trafilatura_seconds, readability_seconds = computed[fast]
        candidates.agreement_min_short_blocks = min_short
        candidates.derived.clear()
        winner, asked = run_policy(candidates, POLICIES[policy])
        chosen = candidates.derived.get(winner) or candidates.get(winner)
        blocks, _ = remove_boilerplate(chosen.blocks)
        found, absent = snippet_scores("\n\n".join(b.text for b in blocks) or None, expected)
        tally = tallies[name]
        if found is not None:
            tally.withs.append(found)
        if absent is not None:
            tally.withouts.append(absent)
        tally.seconds += trafilatura_seconds + (readability_seconds if asked else 0.0)
        tally.readability_pages += asked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", choices=sorted(SNIPPETS), default="trafilatura-eval")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    if not (CORPORA / f"{args.corpus}.warc.gz").is_file():
        print("skipped: ../shared/corpora is not present")
        return 0
    pages = load(args.corpus, args.limit)
    tallies = {name: Tally() for name, *_ in OPTIONS}
    for url, decoded, expected in pages:
        score_page(decoded, url, expected, tallies)
    print(f"pages: {len(pages)} ({args.corpus})")
    print(f"{'setting':44} {'harmonic':>9} {'readability on':>15} {'extractors ms/page':>19}")
    for name, tally in tallies.items():
        print(f"{name:44} {tally.harmonic():9.4f} {tally.readability_pages / len(pages):15.3f} "
              f"{1000 * tally.seconds / len(pages):19.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
