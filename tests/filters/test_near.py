"""Near duplicates by containment and the cross-split overlap (filters/corpus/near.py,
filters/corpus/minhash.py; docs/filters.md, "Near duplicates")."""

from __future__ import annotations

import random

import numpy as np
import polars as pl
import pytest

from conftest import prose
from filters.corpus.minhash import containments, estimated_counts, shingle_values, signature_array, similarities, sketch
from filters.corpus.near import EDGES, SKETCHES, cross_split_matches, estimate, exact, with_sketch


def story(seed: str, words: int = 600) -> str:
    return " ".join(" ".join(prose(seed, paragraphs=14)).split()[:words])


def republished(text: str, seed: int, added_words: int) -> str:
    """A copy with a new lede, site boilerplate around it and about 2 % of its words changed."""
    rng = random.Random(seed)
    words = text.split()
    for _ in range(len(words) // 50):
        words[rng.randrange(len(words))] = rng.choice(["reportedly", "officials", "Tuesday", "residents"])
    extra = story(f"boilerplate {seed}", added_words).split()
    half = len(extra) // 2
    return " ".join(extra[:half]) + "\n\n" + " ".join(words) + "\n\n" + " ".join(extra[half:])


def sketches_of(texts: dict[int, str], splits: dict[int, str] | None = None) -> pl.DataFrame:
    rows = []
    for node, text in texts.items():
        signature, count = sketch(text)
        rows.append({"node": node, "minhash": signature, "shingles": count,
                     "split": (splits or {}).get(node), "id": f"page{node}"})
    return pl.DataFrame(rows, schema=SKETCHES)


def measured(texts: dict[int, str], floor: float = 0.0) -> pl.DataFrame:
    sketches = sketches_of(texts)
    pairs = pl.DataFrame({"a": [0], "b": [1], "a_date": [0], "b_date": [1]},
                         schema={"a": pl.UInt64, "b": pl.UInt64, "a_date": pl.Int64, "b_date": pl.Int64})
    both = with_sketch(with_sketch(pairs, sketches, "a"), sketches, "b")
    estimated = estimate(both, floor)
    return estimated, exact(estimated, {n: shingle_values(t) for n, t in texts.items()}, floor)


def test_a_copy_with_as_much_added_text_is_contained_though_its_jaccard_is_low():
    original = story("harbour")
    copy = republished(original, 1, added_words=500)  # nearly doubled: Jaccard about 0.45
    estimated, found = measured({0: original, 1: copy})
    assert found["similarity"].item() < 0.55
    assert found["a_in_b"].item() > 0.85  # the story's own 5-grams are in the copy
    assert found["b_in_a"].item() < 0.55
    assert abs(estimated["a_in_b"].item() - found["a_in_b"].item()) < 0.1  # the estimate is close


def test_two_stories_sharing_a_template_paragraph_are_not_contained():
    template = story("subscribe to our newsletter", 80)
    first, second = story("harbour") + "\n\n" + template, story("orchard") + "\n\n" + template
    _, found = measured({0: first, 1: second})
    assert found["a_in_b"].item() < 0.2 and found["b_in_a"].item() < 0.2


def test_estimated_counts_are_within_a_fifth_of_the_true_counts():
    texts = [story(f"s{i}", words) for i, words in enumerate((100, 400, 1600, 3000))]
    signatures = signature_array([sketch(text)[0] for text in texts])
    true = np.array([sketch(text)[1] for text in texts], dtype=float)
    assert np.all(np.abs(estimated_counts(signatures) / true - 1) < 0.2)


def test_containment_from_jaccard_and_sizes():
    # A of 100 inside B of 300: J = 1/3, A in B = 1, B in A = 1/3
    a_in_b, b_in_a = containments(np.array([1 / 3]), np.array([100]), np.array([300]))
    assert a_in_b[0] == pytest.approx(1.0) and b_in_a[0] == pytest.approx(1 / 3)
    same = signature_array([sketch(story("x"))[0]] * 2)
    assert similarities(same[:1], same[1:])[0] == 1.0


def edges(rows: list[tuple]) -> pl.DataFrame:
    names = ["a", "b", "a_split", "b_split", "a_in_b", "b_in_a"]
    frame = pl.DataFrame([dict(zip(names, row, strict=True)) for row in rows])
    return frame.with_columns(pl.col("a").alias("a_date"), pl.col("b").alias("b_date"),
                              pl.format("page{}", "a").alias("a_id"), pl.format("page{}", "b").alias("b_id"),
                              pl.lit(None).alias("similarity"), pl.lit(None).alias("distance")).select(
        list(EDGES)).cast(EDGES)


def test_cross_split_names_the_train_page_a_validation_or_test_page_is_most_contained_in():
    found = cross_split_matches(edges([
        (1, 2, "train", "test", 0.3, 0.6),          # test page 2: 0.6 of it is in train page 1
        (3, 2, "train", "test", 0.2, 0.8),          # ... and 0.8 in train page 3: named
        (4, 5, "validation", "train", 0.55, 0.9),   # validation page 4 (the earlier page) in train page 5
        (6, 7, "train", "train", 0.9, 0.9),         # both train: train is never reduced
        (8, 9, "test", "validation", 0.9, 0.9),     # no train page
        (10, 11, "train", "test", 0.9, 0.45),       # below the threshold for the test page
        (12, 13, "train", "test", 0.9, 0.9),        # train page 12 lost to a duplicate rule
    ]), losers=pl.Series([12], dtype=pl.UInt64), threshold=0.5)
    assert found.to_dicts() == [
        {"node": 2, "cross_split_containment": 0.8, "cross_split_train_id": "page3"},
        {"node": 4, "cross_split_containment": 0.55, "cross_split_train_id": "page5"},
    ]
