"""The scorer of benchmarks/segments.py: recovered, merged, split and missed posts, unmatched units."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from segments import score_page  # noqa: E402


def post(first: str, last: str, words: int = 40) -> dict:
    return {"first_words": first, "last_words": last, "words": words}


def test_each_outcome_is_counted():
    posts = [post("one two three", "four five"), post("six seven", "eight nine"), post("ten eleven", "twelve"),
             post("thirteen", "fourteen"), post("short", "post", words=10)]
    filler = " ".join(["filler"] * 40)
    units = ["One two, three! x four five.",            # the first post, alone: recovered
             "six seven ... ten eleven ... eight nine",  # the second and third's first words: merged
             "twelve",                                   # the third's end apart from its start: split
             filler]                                     # no post: unmatched (the fourth is missed)
    outcome, unmatched = score_page(units, posts)
    assert outcome == {"recovered": 1, "merged": 1, "split": 1, "missed": 1}
    assert unmatched == 1
