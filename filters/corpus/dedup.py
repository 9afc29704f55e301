"""Exact and simhash near-duplicate keys of a text (docs/filters.md, "De-duplication"); the select stage owns the
order in which pages are compared (the first in the global order wins) and the sets they are kept in.

* `content_hash`, the exact-duplicate key: 16 hex characters (64 bits) of the SHA-256 of the text's first
  5,000 characters, for texts of at least 100 characters (shorter ones are left to the other rules).
* `simhash64`: the 64-bit simhash (Charikar 2002; Manku, Jain & Das Sarma, "Detecting Near-Duplicates for Web
  Crawling", WWW 2007, f = 64, k = 3) as the `simhash` package computes it (each shingle's MD5, last 8 bytes;
  a bit is set where more than half the shingles set it), in one NumPy pass, over 2-word shingles of the
  lower-cased words (`filters.text.tokens.shingle_words`). At k = 3 it finds near-*exact* copies: each
  scattered word edit moves it about 1.5 bits. Why 2 words: docs/decisions.md.
* `simhash_block_keys`: the buckets of Manku et al.'s pigeonhole scheme (k + 1 blocks of the 64 bits; two
  values within k bits agree on a block), candidates the select stage verifies with `hamming`.

Simhashes are unsigned 64-bit ints, stored in Arrow int64 columns through `to_int64` and read with `from_int64`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from itertools import pairwise
from typing import Annotated

import numpy as np
import pyarrow as pa

from filters.core.declarations import Bounds, Positive, Rule, Signal, one_of
from filters.text.tokens import shingle_words as shingle_words_of

CONTENT_HASH_MIN_CHARS = 100      # only applied when len(content_text) >= 100
CONTENT_HASH_PREFIX_CHARS = 5_000  # content_text[:5_000]
CONTENT_HASH_HEX_CHARS = 16       # hexdigest()[:16], a 64-bit prefix

SIMHASH_BITS = 64
SIMHASH_SHINGLE_WORDS = 2         # docs/decisions.md has the measurements behind 2
NEAR_DUPLICATE_MAX_DISTANCE = 3   # Manku et al. 2007: k = 3 for 64-bit simhashes

_MASK64 = (1 << 64) - 1
_MD5_BYTES = 16
_SIGN64 = 1 << 63


def content_hash(text: str | None) -> str | None:
    """The exact-duplicate key: 16 hex chars of the SHA-256 of the first 5 000
    characters; ``None`` for a missing text or one shorter than 100 characters."""
    if text is None or len(text) < CONTENT_HASH_MIN_CHARS:
        return None
    # surrogatepass: a strict .encode() would raise on a lone surrogate; valid text is unchanged.
    prefix = text[:CONTENT_HASH_PREFIX_CHARS].encode("utf-8", errors="surrogatepass")
    return hashlib.sha256(prefix).hexdigest()[:CONTENT_HASH_HEX_CHARS]


def word_shingles(text: str, shingle_words: int = SIMHASH_SHINGLE_WORDS,
                  words_of_text: tuple[list[str], int] | None = None) -> list[str]:
    """Overlapping runs of ``shingle_words`` lower-cased words (one shorter run for a shorter text);
    words are `filters.text.tokens.shingle_words` (on text written without spaces, its characters,
    in runs of twice as many): `words_of_text` where the caller has them already."""
    words, scale = words_of_text or shingle_words_of(text)
    shingle_words *= scale
    if len(words) <= shingle_words:
        return [" ".join(words)] if words else []
    # the i-th list starts i words on: zip stops at the shortest, after the last full shingle
    return list(map(" ".join, zip(*(words[i:] for i in range(shingle_words)), strict=False)))


def simhash64(text: str, shingle_words: int = SIMHASH_SHINGLE_WORDS,
              words_of_text: tuple[list[str], int] | None = None) -> int:
    """64-bit simhash in ``[0, 2**64)`` of the text's word shingles, each counted as often as it
    occurs (the package hashes each feature with MD5). A text without words gives 0: callers
    should not index such texts. `words_of_text`: as `word_shingles` takes them."""
    shingles = word_shingles(text, shingle_words, words_of_text)
    if not shingles:
        return 0
    # each shingle's MD5 whole (a slice a digest costs more than one over the array), its last 8 bytes
    digests = b"".join([hashlib.md5(shingle.encode("utf-8")).digest() for shingle in shingles])
    tails = np.frombuffer(digests, dtype=np.uint8).reshape(-1, _MD5_BYTES)[:, _MD5_BYTES - SIMHASH_BITS // 8:]
    bits = np.unpackbits(tails, axis=1)
    return int.from_bytes(np.packbits(bits.sum(axis=0) > len(shingles) / 2).tobytes(), "big")


def hamming(a: int, b: int) -> int:
    """Number of differing bits of two 64-bit values (either signed or unsigned form)."""
    return ((a ^ b) & _MASK64).bit_count()


def to_int64(value: int) -> int:
    """Unsigned 64-bit value → the signed int64 with the same bits (for Arrow int64 columns)."""
    value &= _MASK64
    return value - (1 << 64) if value & _SIGN64 else value


def from_int64(value: int) -> int:
    """Signed int64 → the unsigned 64-bit value with the same bits."""
    return value & _MASK64


def _block_spans(blocks: int, bits: int = SIMHASH_BITS) -> list[tuple[int, int]]:
    """(shift, mask) of ``blocks`` contiguous bit ranges as equal as possible (4 x 16 for k = 3)."""
    edges = [round(i * bits / blocks) for i in range(blocks + 1)]
    return [(lo, (1 << (hi - lo)) - 1) for lo, hi in pairwise(edges)]


def simhash_block_keys(values: np.ndarray, max_distance: int = NEAR_DUPLICATE_MAX_DISTANCE) -> np.ndarray:
    """(n, max_distance + 1) uint64 bucket keys of simhashes (uint64, or int64 with the same bits):
    block ``j``'s bits, tagged with ``j`` so equal bits of different blocks do not collide. Two
    values within ``max_distance`` bits share at least one key."""
    if not 0 <= max_distance < SIMHASH_BITS:
        raise ValueError(f"max_distance must be in [0, {SIMHASH_BITS}), got {max_distance}")
    unsigned = np.asarray(values).view(np.uint64) if np.asarray(values).dtype == np.int64 else \
        np.asarray(values, dtype=np.uint64)
    spans = _block_spans(max_distance + 1)
    keys = np.empty((unsigned.size, len(spans)), dtype=np.uint64)
    for block, (shift, mask) in enumerate(spans):
        keys[:, block] = ((unsigned >> np.uint64(shift)) & np.uint64(mask)) * np.uint64(len(spans)) + np.uint64(block)
    return keys

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("content_hash", pa.string(), "SHA-256 of the first 5 000 characters, 16 hex (null: short)"),
    Signal("simhash64", pa.int64(), "64-bit simhash over 2-word shingles, stored as signed int64"),
    Signal("cdc_duplicated_fraction", pa.float64(), "share of text bytes in CDC chunks seen earlier on the host"),
    Signal("exact_duplicate", pa.bool_(), "an earlier kept page has the same content hash"),
    Signal("url_duplicate", pa.bool_(), "an earlier kept page has the same normalised or canonical URL"),
    Signal("record_duplicate", pa.bool_(), "another row, the copy that keeps the id, is a document with the same "
           "WARC-Record-ID (a copied or re-packed file, a duplicated member)"),
    Signal("minhash", pa.binary(), "MinHash signature over word n-grams: extract.minhash.permutations little-endian "
           "uint32 values (null: no words)"),
    Signal("minhash_shingles", pa.int32(), "distinct word n-grams the MinHash signature was computed over (null: "
           "no signature)"),
    Signal("near_duplicate", pa.bool_(), "an earlier page of the same near-duplicate cluster is kept"),
    Signal("near_duplicate_distance", pa.int32(), "simhash: Hamming distance to the closest earlier page of the "
           "cluster (null: none)"),
    Signal("near_duplicate_similarity", pa.float64(), "MinHash: Jaccard similarity of the word n-gram sets to the "
           "closest earlier page of the cluster, measured on the two texts (null: none)"),
    Signal("near_duplicate_containment", pa.float64(), "MinHash: the share of the shorter text's word n-grams found "
           "in the other, for the closest earlier page of the cluster, measured on the two texts (null: none)"),
)
RULES: tuple[Rule, ...] = (
    Rule("dup.cdc", "more than half of the text's bytes are in Rabin-CDC chunks already seen on earlier pages of the "
         "same host that pass every non-duplicate rule",
         "cdc_duplicated_fraction", ">", "dedup", params_key="select.dedup.cdc.max_duplicated_fraction"),
    Rule("dup.exact", "same content hash (SHA-256 of the first 5 000 characters) as an earlier kept page",
         "exact_duplicate", "is_true", "dedup", enabled_key="select.dedup.exact"),
    Rule("dup.near", "an earlier page of its near-duplicate cluster is kept (MinHash over word 5-grams: the shorter "
         "text's n-grams contained in the other; or simhash)", "near_duplicate", "is_true", "dedup",
         enabled_key="select.dedup.near.method"),
    Rule("dup.record", "the same WARC record (same WARC-Record-ID) was read more than once in the run (a copied or "
         "re-packed WARC, a duplicated gzip member) and another copy keeps the id: the first in the global order "
         "that passes every other rule, else the first",
         "record_duplicate", "is_true", "dedup", enabled_key="select.dedup.record"),
    Rule("dup.url", "same normalised URL or canonical URL as an earlier kept page", "url_duplicate",
         "is_true", "dedup", enabled_key="select.dedup.url"),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
# How near duplicates are found (`select.dedup.near.method`; null: not looked for).
NEAR_METHODS = ("minhash", "simhash")


@dataclass(frozen=True)
class NearParams:
    # "minhash" (LSH over the MinHash signatures stored at extract), "simhash", or null (off);
    # docs/decisions.md has the measurements behind the default.
    method: Annotated[str, one_of(NEAR_METHODS)] | None = "minhash"
    # MinHash candidates: the signature cut into `bands` bands of `rows` values; pages that share at
    # least `min_shared_bands` of them are a candidate pair (64 x 2 and 1: found with probability
    # 0.998 at Jaccard 0.3, which a copy with 40 % added text and containment 0.75 still has).
    bands: Positive = 64
    rows: Positive = 2
    min_shared_bands: Positive = 1
    # MinHash decision: a candidate pair is a near duplicate when this share of the shorter text's
    # n-grams is in the other (containment: estimated from the signatures and shingle counts, then
    # measured on the two texts where the estimate is near the threshold).
    min_containment: Annotated[float, Bounds(0.0, 1.0, low_open=True)] = 0.7
    # Within one band bucket, each page is paired with at most this many pages before it.
    max_pairs_per_member: Positive = 16
    max_hamming_distance: Annotated[int, Bounds(0, 64)] | None = 3  # simhash: 64-bit simhash over word shingles
