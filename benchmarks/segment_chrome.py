"""Site furniture in accepted segments: `python benchmarks/segment_chrome.py RUN_DIR [--examples N]`.

A detector trained on segments should learn the writer, not the forum software: a segment that
still holds the poster's profile block (join date, post count, location, reputation) or a control
or form (edit/share/flag/report links, "Add a comment", "Your Answer", "Sign up or log in") teaches
it the software. This reads the accepted segments of a `pipeline run` (DIR/segments/accepted) and
prints the share that hold such text (`CHROME`, English phrases and the German ones of the shared
corpora), per phrase, with examples. The phrases are a measuring stick, not a rule of the pipeline:
the segmenter finds furniture by structure (filters/segment/segments.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import polars as pl

CHROME = {
    "join date": r"\bjoin(?:ed)?(?: date)?\s*:?\s*(?:\w{3,9}\.? )?\d",
    "post count": r"\bposts?\s*:\s*[\d,.]+",
    "location": r"(?:^|\n)\s*location\s*:",
    "reputation": r"\breputation\s*:?\s*[\d,.]+",
    "improve this": r"\bimprove this (?:answer|question)\b",
    "add a comment": r"\badd a comment\b",
    "your answer": r"\byour answer\b",
    "sign up or log in": r"\bsign up or log in\b",
    "share/flag/report": r"(?:^|\n)\s*(?:share|flag|report|reply|quote|like|edit)(?:\s+(?:share|flag|report|reply|"
                         r"quote|like|edit|follow))+\s*(?:\n|$)",
    "registriert seit": r"\bregistriert\s*(?:seit)?\s*:?\s*\d",
    "beiträge": r"\bbeitr[äa]ge\s*:\s*[\d.]+",
    "edit notice": r"\b(?:last )?edited by\b|\bzuletzt (?:bearbeitet|ge[äa]ndert)\b|\bmodifi[ée] par\b",
    "view profile": r"\bview public profile\b|\bfind all posts by\b|\bsend a private message\b",
    "sort header": r"\banswers?\s+sorted by\b|\bsorted by\s*:|\breset to default\b",
    # a rule and at most four short lines to the end: a signature (a writer's own divider has text after it)
    "signature rule": r"(?:^|\n)[ \t]*(?:_{5,}|-{5,}|--)[ \t]*\n(?:[^\n]{0,80}\n){0,3}[^\n]{0,80}\Z",
}
_PATTERNS = {name: re.compile(pattern, re.IGNORECASE) for name, pattern in CHROME.items()}


def chrome_in(texts: Iterable[tuple[str, str]]) -> tuple[int, int, Counter[str], dict[str, list[str]]]:
    """Over (id, text) pairs: how many texts, how many hold chrome, the hits per phrase and examples."""
    hits: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    total = with_chrome = 0
    for segment_id, text in texts:
        total += 1
        found = [(name, match) for name, pattern in _PATTERNS.items() if (match := pattern.search(text))]
        with_chrome += bool(found)
        for name, match in found:
            hits[name] += 1
            start = max(0, match.start() - 60)
            examples.setdefault(name, []).append(f"{segment_id}: …{text[start:match.end() + 60]!r}…")
    return total, with_chrome, hits, examples


def print_chrome(title: str, texts: Iterable[tuple[str, str]], shown: int) -> None:
    total, with_chrome, hits, examples = chrome_in(texts)
    print(f"{title}: {total}; holding profile or control text: {with_chrome} ({with_chrome / max(total, 1):.3f})")
    for name, count in hits.most_common():
        print(f"  {name:20} {count}")
        for example in examples[name][:shown]:
            print(f"      {example[:220]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a pipeline run's output directory")
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()
    shards = sorted((args.run / "segments" / "accepted").glob("*.parquet"))
    if not shards:
        sys.exit(f"no accepted segments under {args.run}/segments/accepted")
    segments = pl.read_parquet(shards, columns=["id", "url", "segment_kind", "text"])
    print_chrome("accepted segments", segments.select("id", "text").iter_rows(), args.examples)

if __name__ == "__main__":
    main()
