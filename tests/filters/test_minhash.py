"""MinHash signatures and LSH bands (filters/corpus/minhash.py; docs/filters.md, "De-duplication")."""

from __future__ import annotations

import random

import numpy as np
import pytest

from conftest import prose
from filters.corpus.minhash import (
    band_keys,
    implied_threshold,
    jaccard,
    pair_probability,
    shingle_values,
    signature,
    signature_array,
    verified_threshold,
)


def words(seed: str, count: int) -> list[str]:
    return " ".join(prose(seed, paragraphs=40)).split()[:count]


def exact_jaccard(a: str, b: str) -> float:
    first, second = set(shingle_values(a).tolist()), set(shingle_values(b).tolist())
    return len(first & second) / len(first | second)


def test_signature_is_stable_sized_and_ignores_case_and_punctuation():
    text = " ".join(words("stable", 300))
    assert signature(text) == signature(text) and len(signature(text)) == 128 * 4
    assert signature(text.upper().replace(" ", ", ")) == signature(text)
    assert len(signature(text, permutations=16)) == 64
    assert signature("") is None and signature("  ... !!") is None and signature(None) is None
    assert signature("two words") is not None  # fewer words than a shingle: one shingle of all of them
    with pytest.raises(ValueError):
        signature(text, permutations=0)


@pytest.mark.parametrize("kept", [1.0, 0.9, 0.7, 0.5, 0.2])
def test_the_signature_estimates_the_jaccard_similarity_of_the_shingles(kept):
    """Texts sharing a prefix and differing after it: the share of equal values is within 0.12 of
    the exact Jaccard similarity of their 5-gram sets (128 values: sd at most 0.045)."""
    base = words("base", 600)
    cut = int(len(base) * kept)
    other = base[:cut] + words("other", len(base) - cut)
    a, b = " ".join(base), " ".join(other)
    assert abs(jaccard(signature(a), signature(b)) - exact_jaccard(a, b)) < 0.12


def test_bands_of_equal_values_share_keys_and_bands_are_told_apart():
    sig = signature_array([signature(" ".join(words("bands", 200)))])
    assert np.array_equal(band_keys(sig, 32, 4), band_keys(sig.copy(), 32, 4))
    same_values = np.zeros((1, 128), dtype=np.uint32)
    assert len(set(band_keys(same_values, 32, 4)[0].tolist())) == 32  # equal values, different bands
    changed = sig.copy()
    changed[0, 5] ^= 1  # one value of band 1
    differ = band_keys(sig, 32, 4)[0] != band_keys(changed, 32, 4)[0]
    assert differ.tolist() == [index == 1 for index in range(32)]
    with pytest.raises(ValueError):
        band_keys(sig, 33, 4)


def test_pair_probability_matches_a_simulation():
    """Pairs whose 128 values agree independently with probability s: the share that share at
    least 7 of 32 bands of 4 is what pair_probability says (20 000 pairs per s)."""
    rng = np.random.default_rng(1)
    for similarity in (0.5, 0.7, 0.8):
        equal = rng.random((20_000, 128)) < similarity
        shared = equal.reshape(20_000, 32, 4).all(axis=2).sum(axis=1)
        assert abs(np.mean(shared >= 7) - pair_probability(similarity, 32, 4, 7)) < 0.015


def test_thresholds_of_the_defaults():
    assert round(implied_threshold(32, 4), 3) == 0.42
    assert round(verified_threshold(32, 4, 7), 3) == 0.684
    assert pair_probability(0.5, 32, 4, 7) < 0.01 and pair_probability(0.8, 32, 4, 7) > 0.99
    assert pair_probability(1.0, 32, 4, 7) == 1.0 and pair_probability(0.0, 32, 4, 7) == 0.0


def test_a_syndicated_copy_shares_enough_bands_and_another_story_does_not():
    story = words("story", 500)
    rng = random.Random(3)
    copy = ["Partner", "desk", "lede", "sentence", "here."] + story + ["All", "rights", "reserved."]
    for index in rng.sample(range(len(copy)), 5):
        copy[index] = "changed"
    keys = band_keys(signature_array([signature(" ".join(t)) for t in (story, copy, words("other", 500))]), 32, 4)
    assert int(np.sum(keys[0] == keys[1])) >= 7 and int(np.sum(keys[0] == keys[2])) == 0
