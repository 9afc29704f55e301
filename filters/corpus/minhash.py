"""MinHash signatures of a text and their LSH band keys (docs/filters.md, "Near duplicates").

* Shingles: word n-grams (5 by default, as in FineWeb's de-duplication) of the lower-cased words
  (`filters.text.tokens.shingle_words`: on text written without spaces, n-grams of 2n characters); each word is
  hashed once (CRC-32) and an n-gram's 64-bit value is a polynomial of its words' values, all at once in NumPy.
* Signature (Broder 1997, "On the resemblance and containment of documents"): for each of ``permutations``
  multiply-shift hash functions ``(a * x + b) >> 32`` (Dietzfelbinger et al. 1997, fixed odd multipliers, so a
  signature is the same on every machine), the minimum over the shingles; two texts agree on a position with
  probability equal to the Jaccard similarity of their shingle sets. Stored as little-endian uint32 values
  (512 bytes for 128), with the count of distinct shingles, from which `containments` estimates each text's
  containment in the other.
* Bands (Leskovec, Rajaraman & Ullman, *Mining of Massive Datasets*, ch. 3.4): ``bands`` bands of ``rows``
  values, each keyed by a 64-bit hash of its values and index; texts of similarity s share a band with
  probability ``1 - (1 - s**rows) ** bands`` (`pair_probability`, `implied_threshold`, `verified_threshold`).
Why NumPy and not ``datasketch``: docs/decisions.md.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from math import comb
from typing import Annotated

import numpy as np

from filters.core.declarations import Bounds, Positive
from filters.text import tokens

PERMUTATIONS = 128
SHINGLE_WORDS = 5

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SHIFT = np.uint64(32)
MAX_PERMUTATIONS = 1024


def _functions() -> tuple[np.ndarray, np.ndarray]:
    """Fixed multipliers (odd) and increments of the multiply-shift hash functions."""
    generator = np.random.Generator(np.random.PCG64(20240517))
    multipliers = generator.integers(1, 2**63, size=MAX_PERMUTATIONS, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    increments = generator.integers(0, 2**63, size=MAX_PERMUTATIONS, dtype=np.uint64)
    return multipliers, increments


_MULTIPLIERS, _INCREMENTS = _functions()


def shingle_values(text: str, shingle_words: int = SHINGLE_WORDS,
                   words_of_text: tuple[list[str], int] | None = None) -> np.ndarray:
    """The distinct 64-bit values of the text's word n-grams (one n-gram of all words when the text
    has fewer than ``shingle_words`` words; empty for a text without words). Words are
    `filters.text.tokens.shingle_words` (`words_of_text` where the caller has them already): on
    text written without spaces, characters, and n-grams of twice as many of them."""
    words, scale = words_of_text or tokens.shingle_words(text)
    if not words:
        return np.empty(0, dtype=np.uint64)
    # each distinct word hashed once: a text repeats most of its words
    hashes = {word: zlib.crc32(word.encode("utf-8", "surrogatepass")) for word in dict.fromkeys(words)}
    ids = np.fromiter(map(hashes.__getitem__, words), dtype=np.uint64, count=len(words))
    width = min(shingle_words * scale, len(words))
    count = len(words) - width + 1
    values = np.zeros(count, dtype=np.uint64)
    for offset in range(width):
        values *= _GOLDEN
        values += ids[offset:offset + count]
    return np.unique(values)


def sketch(text: str | None, permutations: int = PERMUTATIONS, shingle_words: int = SHINGLE_WORDS,
           words_of_text: tuple[list[str], int] | None = None) -> tuple[bytes | None, int]:
    """The MinHash signature (``permutations`` little-endian uint32 values; None without words)
    and the number of distinct shingles it was computed over (what `containments` needs).
    `words_of_text`: as `shingle_values` takes them."""
    if not 0 < permutations <= MAX_PERMUTATIONS:
        raise ValueError(f"permutations must be 1..{MAX_PERMUTATIONS}, got {permutations}")
    values = shingle_values(text or "", shingle_words, words_of_text)
    if values.size == 0:
        return None, 0
    hashed = np.multiply.outer(_MULTIPLIERS[:permutations], values)
    hashed += _INCREMENTS[:permutations, None]
    hashed >>= _SHIFT
    return hashed.min(axis=1).astype("<u4").tobytes(), int(values.size)


def signature(text: str | None, permutations: int = PERMUTATIONS, shingle_words: int = SHINGLE_WORDS) -> bytes | None:
    """The MinHash signature as ``permutations`` little-endian uint32 values; None without words."""
    return sketch(text, permutations, shingle_words)[0]


def signature_array(signatures: list[bytes]) -> np.ndarray:
    """Signatures of one length as an (n, permutations) uint32 array."""
    if not signatures:
        return np.empty((0, 0), dtype=np.uint32)
    return np.frombuffer(b"".join(signatures), dtype="<u4").reshape(len(signatures), -1)


def band_keys(signatures: np.ndarray, bands: int, rows: int) -> np.ndarray:
    """(n, bands) uint64 keys: band ``j`` of a signature hashed with ``j``, so equal values in
    different bands do not collide."""
    if bands * rows > signatures.shape[1]:
        raise ValueError(f"bands x rows ({bands} x {rows}) exceeds the signature's {signatures.shape[1]} values")
    keys = np.zeros((signatures.shape[0], bands), dtype=np.uint64)
    for band in range(bands):
        key = np.full(signatures.shape[0], np.uint64(band + 1), dtype=np.uint64)
        for value in signatures[:, band * rows:(band + 1) * rows].T:
            key *= _GOLDEN
            key += value.astype(np.uint64)
            key ^= key >> _SHIFT
        keys[:, band] = key
    return keys


def jaccard(a: bytes, b: bytes) -> float:
    """The signatures' estimate of the shingle sets' Jaccard similarity: the share of equal values."""
    return float(similarities(signature_array([a]), signature_array([b]))[0])


def similarities(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Row by row, the Jaccard estimates of two (n, permutations) signature arrays."""
    if first.shape[0] == 0:
        return np.empty(0, dtype=np.float64)
    return np.mean(first == second, axis=1)


def estimated_counts(signatures: np.ndarray) -> np.ndarray:
    """Distinct shingles estimated from (n, k) signatures alone, for rows stored without their
    count: the minimum of m uniform 32-bit values is about 2**32 / (m + 1), so (k - 1) over the
    sum of the k minima as fractions of 2**32 estimates m (relative error about 1 / sqrt(k))."""
    fractions = (signatures.astype(np.float64) + 1.0) / 2.0**32
    return np.maximum(1.0, (signatures.shape[1] - 1) / fractions.sum(axis=1))


def containments(similarity: np.ndarray, first_count: np.ndarray,
                 second_count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first in second, second in first): the share of each text's shingles found in the other
    (Broder 1997), from their Jaccard similarity J and shingle counts a and b: the intersection
    is J (a + b) / (1 + J). Republication adds a lede and boilerplate to a story: Jaccard falls
    with every added word, the containment of the story in the copy does not."""
    first = np.asarray(first_count, dtype=np.float64)
    second = np.asarray(second_count, dtype=np.float64)
    shared = similarity * (first + second) / (1.0 + similarity)
    return np.minimum(1.0, shared / np.maximum(first, 1.0)), np.minimum(1.0, shared / np.maximum(second, 1.0))


def implied_threshold(bands: int, rows: int) -> float:
    """Where the banding S-curve is steepest: about (1 / bands) ** (1 / rows)."""
    return float((1 / bands) ** (1 / rows))


def verified_threshold(bands: int, rows: int, min_shared_bands: int) -> float:
    """The similarity at which a pair shares ``min_shared_bands`` bands on average."""
    return float((min_shared_bands / bands) ** (1 / rows))


def pair_probability(similarity: float, bands: int, rows: int, min_shared_bands: int) -> float:
    """The chance that two texts of this similarity share at least ``min_shared_bands`` bands."""
    band = similarity ** rows
    return float(sum(comb(bands, k) * band**k * (1 - band) ** (bands - k)
                     for k in range(min_shared_bands, bands + 1)))


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class MinhashParams:
    # The MinHash signature stored at extract (filters/corpus/minhash.py): this many hash
    # functions over word n-grams of this many words. null permutations: no signature.
    permutations: Annotated[int, Bounds(1, MAX_PERMUTATIONS)] | None = PERMUTATIONS
    shingle_words: Positive = SHINGLE_WORDS
