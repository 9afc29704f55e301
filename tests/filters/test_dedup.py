"""The content hash and near duplicates (docs/filters.md): simhash over word shingles and the
pigeonhole block keys for Hamming distance <= k."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from filters.corpus.dedup import (
    content_hash,
    from_int64,
    hamming,
    simhash64,
    simhash_block_keys,
    to_int64,
    word_shingles,
)
from pages import random_text


def with_changed_words(text: str, count: int, seed: int) -> str:
    words = text.split()
    for i in np.random.default_rng(seed).choice(len(words), count, replace=False):
        words[i] = f"replaced{i}"
    return " ".join(words)


def flip(value: int, bits: list[int]) -> int:
    for bit in bits:
        value ^= 1 << bit
    return value


# --- content hash ----------------------------------------------------------------------------

def test_content_hash_is_the_seed_formula():
    text = "Syndicated story about the harbour festival. " * 5
    assert content_hash(text) == hashlib.sha256(text[:5_000].encode()).hexdigest()[:16]
    assert len(content_hash(text)) == 16


def test_content_hash_needs_100_characters():
    assert content_hash(None) is None
    assert content_hash("x" * 99) is None
    assert content_hash("x" * 100) == hashlib.sha256(b"x" * 100).hexdigest()[:16]


def test_only_the_first_5000_characters_matter():
    body = random_text(2_000, seed=1)
    assert len(body) > 5_000
    assert content_hash(body[:5_000] + " tail one") == content_hash(body[:5_000] + " another tail")
    assert content_hash("Z" + body[1:]) != content_hash(body)


# --- simhash ---------------------------------------------------------------------------------------

def test_shingles_are_lower_cased_word_pairs():
    assert word_shingles("The cat, the HAT!") == ["the cat", "cat the", "the hat"]
    assert word_shingles("Alone") == ["alone"]
    assert word_shingles("  ... ") == []
    assert word_shingles("a b c d", shingle_words=3) == ["a b c", "b c d"]


def test_simhash_ignores_case_and_punctuation():
    text = random_text(300, seed=2)
    assert simhash64(text) == simhash64(text.upper().replace(" ", ", "))
    assert 0 <= simhash64(text) < 1 << 64
    assert simhash64("") == 0


def test_one_changed_word_in_400_stays_within_3_bits():
    """Simhash-64 at k = 3 is a near-exact detector: one edit in 400 words moves ~1.5 bits."""
    distances = [hamming(simhash64(random_text(400, s)), simhash64(with_changed_words(random_text(400, s), 1, s)))
                 for s in range(50)]
    assert np.mean(np.array(distances) <= 3) >= 0.75
    assert np.median(distances) <= 2


def test_a_few_changed_words_in_400_mostly_stay_within_3_bits():
    distances = [hamming(simhash64(random_text(400, s)), simhash64(with_changed_words(random_text(400, s), 3, s)))
                 for s in range(50)]
    assert np.median(distances) <= 3
    assert np.mean(np.array(distances) <= 3) >= 0.5


def test_unrelated_texts_are_far_apart():
    distances = [hamming(simhash64(random_text(400, s)), simhash64(random_text(400, s + 100))) for s in range(50)]
    assert min(distances) > 10
    assert 28 <= np.mean(distances) <= 36   # independent 64-bit values differ in 32 bits on average


# --- hamming and int64 storage ---------------------------------------------------------------------

def test_hamming_counts_differing_bits():
    assert hamming(0, 0) == 0
    assert hamming(0, (1 << 64) - 1) == 64
    assert hamming(0b1011, 0b0001) == 2
    assert hamming(to_int64(1 << 63), 0) == 1


@pytest.mark.parametrize("value", [0, 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 0x9E3779B97F4A7C15])
def test_int64_round_trip(value):
    signed = to_int64(value)
    assert -(1 << 63) <= signed < 1 << 63
    assert from_int64(signed) == value
    assert np.array([signed], dtype=np.int64).view(np.uint64)[0] == value


# --- pigeonhole block keys ------------------------------------------------------------------------

BASE = 0xD1B54A32D192ED03


def share_a_key(a: int, b: int, max_distance: int = 3) -> bool:
    keys = simhash_block_keys(np.array([a, b], dtype=np.uint64), max_distance)
    return bool(np.any(keys[0] == keys[1]))


@pytest.mark.parametrize("bits", [[], [0], [5, 40], [1, 2, 3], [0, 17, 63], [16, 33, 50], [60, 61, 62]])
def test_values_within_3_bits_share_a_key(bits):
    assert share_a_key(BASE, flip(BASE, bits))


@pytest.mark.parametrize("bits", [[0, 16, 32, 48], list(range(0, 64, 8))])
def test_one_flip_in_every_block_leaves_no_key_in_common(bits):
    assert not share_a_key(BASE, flip(BASE, bits))


def test_keys_accept_int64_and_the_distance_is_a_parameter():
    assert np.array_equal(simhash_block_keys(np.array([to_int64(BASE)], dtype=np.int64)),
                          simhash_block_keys(np.array([BASE], dtype=np.uint64)))
    assert simhash_block_keys(np.array([BASE], dtype=np.uint64), 0).shape == (1, 1)
    assert not share_a_key(BASE, flip(BASE, [3]), max_distance=0)
    with pytest.raises(ValueError):
        simhash_block_keys(np.array([BASE], dtype=np.uint64), 64)


def test_equal_bits_in_different_blocks_are_different_keys():
    value = 0xABCD_ABCD_ABCD_ABCD  # the same 16 bits in all four blocks
    assert len(set(simhash_block_keys(np.array([value], dtype=np.uint64))[0].tolist())) == 4


@pytest.mark.parametrize("max_distance", [1, 3, 5])
def test_keys_find_every_pair_brute_force_finds(max_distance):
    """The pigeonhole guarantee: every pair within the distance shares a key."""
    rng = random.Random(max_distance)
    kept = [rng.getrandbits(64) for _ in range(300)]
    queries = [flip(rng.choice(kept), rng.sample(range(64), rng.randint(0, max_distance + 2))) for _ in range(300)]
    for query in queries:
        for value in kept:
            if hamming(value, query) <= max_distance:
                assert share_a_key(value, query, max_distance)


@pytest.mark.parametrize("seed", range(20))
def test_simhash_is_the_simhash_packages_value(seed):
    from simhash import Simhash

    for text in (random_text(3 + 40 * seed, seed), random_text(1, seed), "Ünïcödé wörds " * (seed + 1)):
        shingles = word_shingles(text)
        assert simhash64(text) == int(Simhash(shingles, f=64).value)
