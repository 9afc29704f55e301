"""Segments against posts read by hand: `python benchmarks/segments.py [--labels FILE] [--warc FILE]`.

Reads `../shared/corpora/wcxb-dev.forum-posts.json` (every forum page of wcxb-dev, each post's
first 8 and last 6 words) and the pages from `wcxb-dev.warc.gz`, finds each page's units with
`filters.segment.units` after the consent overlays are removed (as the extract step does), and
scores them. A labelled post of >= 30 words is *recovered* when
exactly one unit contains its first and its last words and no other post's first words;
*merged* when the unit holding it holds another post's first words too; *split* when its first
and last words are in different units; *missed* when no unit holds its first words. Units of >= 30
words that hold no labelled post's first words are *unmatched*. Words are compared as lower-cased
`\\w+` runs. Prints the figures per kind and per language, and the pages without posts that got units.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from filters.extract.cleanup import remove_cookie_overlays  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.segment.units import units  # noqa: E402
from filters.text.tokens import words  # noqa: E402
from pipeline.io.decode import decode_html  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpora"
MIN_WORDS = 30
_WORD = re.compile(r"\w+")


def tokens(text: str) -> str:
    """Lower-cased `\\w+` runs joined by single spaces, framed by spaces for whole-word search."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def holds(unit: str, phrase: str) -> bool:
    needle = tokens(phrase)
    return needle.strip() != "" and needle in unit


def score_page(unit_texts: list[str], posts: list[dict]) -> tuple[Counter, int]:
    """(outcome counts over the posts of >= MIN_WORDS words, units of >= MIN_WORDS words matching no post)."""
    prepared = [tokens(text) for text in unit_texts]
    outcome: Counter = Counter()
    for post in posts:
        if post["words"] < MIN_WORDS:
            continue
        first = [i for i, text in enumerate(prepared) if holds(text, post["first_words"])]
        last = [i for i, text in enumerate(prepared) if holds(text, post["last_words"])]
        if not first:
            outcome["missed"] += 1
        elif not set(first) & set(last):
            outcome["split"] += 1
        else:
            unit = prepared[sorted(set(first) & set(last))[0]]
            others = [other for other in posts if other is not post and holds(unit, other["first_words"])]
            outcome["merged" if others or len(first) > 1 else "recovered"] += 1
    unmatched = sum(1 for text, raw in zip(prepared, unit_texts, strict=True) if len(words(raw)) >= MIN_WORDS
                    and not any(holds(text, post["first_words"]) for post in posts))
    return outcome, unmatched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--labels", type=Path, default=SHARED / "wcxb-dev.forum-posts.json")
    parser.add_argument("--warc", type=Path, default=SHARED / "wcxb-dev.warc.gz")
    args = parser.parse_args()
    labels = {url: page for url, page in json.loads(args.labels.read_text(encoding="utf-8")).items()
              if not url.startswith("_")}
    by_kind: dict[str, Counter] = defaultdict(Counter)
    by_language: dict[str, Counter] = defaultdict(Counter)
    empty_with_units = []
    for raw in read_file(str(args.warc), 5_000_000, FileReport(str(args.warc))):
        page = labels.get(raw.url or "")
        if page is None or raw.payload is None:
            continue
        decoded = decode_html(raw.payload, raw.http_content_type)
        tree = parse_html_bytes(decoded.data, decoded.encoding)
        if tree is not None:
            remove_cookie_overlays(tree)  # as the extract step does before the cascade, and so before segments
        body = tree.find("body") if tree is not None else None
        found = [unit.text for unit in units(body)] if body is not None else []
        if not page["posts"]:
            if found:
                empty_with_units.append(raw.url)
            continue
        outcome, unmatched = score_page(found, page["posts"])
        outcome["unmatched units"] += unmatched
        outcome["units"] += sum(1 for text in found if len(words(text)) >= MIN_WORDS)
        by_kind[page["kind"]].update(outcome)
        by_language[page["language"]].update(outcome)
        by_kind["all"].update(outcome)
    columns = ("recovered", "merged", "split", "missed", "units", "unmatched units")
    print(f"posts of >= {MIN_WORDS} words, and units of >= {MIN_WORDS} words")
    print(f"{'group':<16}" + "".join(f"{name:>17}" for name in columns) + f"{'recovered share':>17}")
    for name, counts in [*sorted(by_kind.items()), *sorted(by_language.items())]:
        posts = sum(counts[key] for key in ("recovered", "merged", "split", "missed"))
        share = counts["recovered"] / posts if posts else float("nan")
        print(f"{name:<16}" + "".join(f"{counts[key]:>17}" for key in columns) + f"{share:>17.3f}")
    print(f"pages without posts in their HTML that got units: {len(empty_with_units)} {empty_with_units}")


if __name__ == "__main__":
    main()
