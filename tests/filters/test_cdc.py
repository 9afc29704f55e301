"""Seed 002 (Deduplication): Rabin-fingerprint CDC, 32-byte window, 1/64 cut probability, and the
duplicated fraction by bytes; fastcdc's gear chunker as the alternative."""

from __future__ import annotations

import numpy as np
import pytest

from filters.corpus.cdc import (
    BOUNDARY_MAGIC,
    BOUNDARY_SHIFT,
    RABIN_BASE,
    WINDOW_BYTES,
    chunk_hashes,
    duplicated_fraction,
    mark_seen,
    rabin_boundaries,
    window_fingerprints,
)
from pages import random_text

MOD = 1 << 64


def random_bytes(n: int, seed: int = 0) -> bytes:
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()




def reference_boundaries(data: bytes) -> list[int]:
    """Byte-at-a-time CDC with the window restarted at every chunk start (the textbook form)."""
    drop = pow(RABIN_BASE, WINDOW_BYTES, MOD)
    ends, start, fp = [], 0, 0
    for i, byte in enumerate(data):
        fp = (fp * RABIN_BASE + byte) % MOD
        if i - start >= WINDOW_BYTES:
            fp = (fp - data[i - WINDOW_BYTES] * drop) % MOD
        if i - start >= WINDOW_BYTES - 1 and fp >> BOUNDARY_SHIFT == BOUNDARY_MAGIC:
            ends.append(i + 1)
            start, fp = i + 1, 0
    if start != len(data):
        ends.append(len(data))
    return ends


def run_byte() -> int:
    """A byte whose 32-byte run has a matching fingerprint: a run of it is a candidate everywhere."""
    for byte in range(256):
        fp = sum(byte * pow(RABIN_BASE, k, MOD) for k in range(WINDOW_BYTES)) % MOD
        if fp >> BOUNDARY_SHIFT == BOUNDARY_MAGIC:
            return byte
    raise AssertionError("no byte value gives a matching run")


@pytest.fixture(scope="module")
def megabyte() -> bytes:
    return random_bytes(1 << 20)


def test_fingerprint_is_the_documented_polynomial():
    data = random_bytes(70_000, seed=1)
    fps = window_fingerprints(data)
    assert len(fps) == len(data) - WINDOW_BYTES + 1
    # Positions around the 64 KiB block edge as well as the ends.
    for i in (31, 32, 1000, 65_565, 65_566, 65_567, 65_568, len(data) - 1):
        expected = sum(data[i - 31 + j] * pow(RABIN_BASE, 31 - j, MOD) for j in range(32)) % MOD
        assert int(fps[i - 31]) == expected
    assert len(window_fingerprints(b"x" * 31)) == 0


def test_mean_chunk_size_is_about_96_bytes(megabyte):
    ends = rabin_boundaries(megabyte)
    assert 86 <= len(megabyte) / len(ends) <= 106


def rabin_chunks(data: bytes) -> list[bytes]:
    """The Rabin chunks of `data`, cut at `rabin_boundaries` (the trailing partial chunk included)."""
    ends = rabin_boundaries(data).tolist()
    return [data[start:end] for start, end in zip([0, *ends], ends, strict=False)]


def test_chunks_are_at_least_a_window_and_rebuild_the_input(megabyte):
    chunks = rabin_chunks(megabyte)
    assert b"".join(chunks) == megabyte
    assert min(len(c) for c in chunks[:-1]) >= WINDOW_BYTES
    ends = rabin_boundaries(megabyte)
    assert ends[-1] == len(megabyte) and np.all(np.diff(ends) > 0)


@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 95, 200, 5_000, 65_567, 131_104, 140_000])
def test_vectorised_boundaries_equal_the_reference(n):
    data = random_bytes(n, seed=n)
    assert rabin_boundaries(data).tolist() == reference_boundaries(data)


def test_minimum_chunk_rule_matches_the_reference_where_candidates_crowd():
    """A run of a matching byte is a candidate at every position: cuts fall every 32 bytes."""
    filler = bytes([run_byte()])
    data = random_bytes(300, seed=7) + filler * 1000 + random_bytes(300, seed=8)
    ends = rabin_boundaries(data).tolist()
    assert ends == reference_boundaries(data)
    run_cuts = [e for e in ends if 400 < e < 1200]
    assert len(run_cuts) > 20
    assert np.all(np.diff(run_cuts) == WINDOW_BYTES)


def test_insertion_at_the_start_changes_only_the_first_chunks(megabyte):
    original, _ = chunk_hashes(megabyte)
    shifted, _ = chunk_hashes(random_bytes(10, seed=99) + megabyte)
    kept = np.isin(original, shifted).mean()
    assert kept >= 0.95
    assert np.array_equal(original[5:], shifted[-(len(original) - 5):])


def test_a_page_against_itself_is_fully_duplicated():
    text = random_text(800, seed=1)
    hashes, sizes = chunk_hashes(text)
    seen: set[int] = set()
    assert duplicated_fraction(hashes, sizes, seen) == 0.0
    mark_seen(seen, hashes)
    assert duplicated_fraction(hashes, sizes, seen) == 1.0


def test_unrelated_text_is_not_duplicated():
    seen: set[int] = set()
    for seed in range(1, 6):
        mark_seen(seen, chunk_hashes(random_text(800, seed=seed)).hashes)
    hashes, sizes = chunk_hashes(random_text(800, seed=42))
    assert duplicated_fraction(hashes, sizes, seen) < 0.02


def test_half_copied_page_is_about_half_duplicated():
    earlier, later = random_text(1000, seed=3), random_text(1000, seed=4)
    seen: set[int] = set()
    mark_seen(seen, chunk_hashes(earlier).hashes)
    page = earlier[: len(earlier) // 2] + " " + later[: len(later) // 2]
    assert 0.4 < duplicated_fraction(*chunk_hashes(page), seen) < 0.5


def test_fraction_is_by_bytes_and_ignores_repeats_within_the_page():
    hashes = np.array([1, 2, 3, 3], dtype=np.uint64)
    sizes = np.array([100, 50, 40, 40], dtype=np.int64)
    assert duplicated_fraction(hashes, sizes, {2}) == pytest.approx(50 / 230)
    assert duplicated_fraction(hashes, sizes, set()) == 0.0


def test_deterministic_and_text_is_hashed_as_utf8():
    text = "Zürich — 東京 " + random_text(300, seed=5)
    first, second = chunk_hashes(text), chunk_hashes(text)
    assert np.array_equal(first.hashes, second.hashes) and np.array_equal(first.sizes, second.sizes)
    from_bytes = chunk_hashes(text.encode("utf-8"))
    assert np.array_equal(first.hashes, from_bytes.hashes)
    assert int(first.sizes.sum()) == len(text.encode("utf-8"))
    assert first.hashes.dtype == np.uint64 and first.sizes.dtype == np.int64


@pytest.mark.parametrize("algorithm", ["rabin", "fastcdc"])
def test_empty_input_has_no_chunks(algorithm):
    hashes, sizes = chunk_hashes("", algorithm)
    assert len(hashes) == len(sizes) == 0
    assert duplicated_fraction(hashes, sizes, {1, 2}) == 0.0
    assert rabin_chunks(b"") == []


def test_short_input_is_one_chunk():
    hashes, sizes = chunk_hashes("short")
    assert sizes.tolist() == [5] and len(hashes) == 1


def test_fastcdc_chunks_are_larger_and_cover_the_input(megabyte):
    hashes, sizes = chunk_hashes(megabyte, "fastcdc")
    assert int(sizes.sum()) == len(megabyte)
    assert len(megabyte) / len(sizes) >= 200
    assert np.array_equal(hashes, chunk_hashes(megabyte, "fastcdc").hashes)
    bigger = chunk_hashes(megabyte, "fastcdc", fastcdc_avg=1024).sizes
    assert len(megabyte) / len(bigger) > 800
    seen: set[int] = set()
    mark_seen(seen, hashes)
    assert duplicated_fraction(hashes, sizes, seen) == 1.0


def test_unknown_algorithm_is_rejected():
    with pytest.raises(ValueError, match="unknown CDC algorithm"):
        chunk_hashes("text", "gear")
    with pytest.raises(ValueError, match=">= 256"):
        chunk_hashes("text", "fastcdc", fastcdc_avg=128)
