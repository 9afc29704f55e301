"""Content-defined chunking for the per-host duplication rule (docs/filters.md, "De-duplication").

The rule: "discard pages w/ > 50% text duplicated relative to previous pages of the same subdomain — calculate
%duplication based on byte chunks from Rabin fingerprint content-defined chunking (CDC), 32 byte window, 96 byte
target block size (1/64 probability for splitting)". Anchors as in Manber, "Finding Similar Files in a Large File
System", USENIX Winter 1994; the fingerprint is a Karp–Rabin polynomial (`window_fingerprints`).

Input: a text, chunked as its UTF-8 bytes. `chunk_hashes` gives each chunk's id (the first 8 bytes of its BLAKE2b
digest, a uint64) and size in bytes. A chunk ends where the top 6 bits of the fingerprint of the 32-byte window
ending there equal `BOUNDARY_MAGIC` and the chunk has at least 32 bytes, so chunks average 32 + 63 = 95 bytes
(`EXPECTED_CHUNK_BYTES`: 32 bytes, then a geometric number of failures at 1/64), the rule's 96-byte target; no
maximum is forced (a forced cut is not content-defined). `duplicated_fraction` is the share (0..1) of a page's
bytes in chunks already seen on its host, and `mark_seen` adds the page's chunks: the select stage owns the
order (per host: capture time, then reading order) and the seen set. `algorithm="fastcdc"` uses fastcdc's gear
chunker instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, NamedTuple

import numpy as np
from fastcdc import fastcdc

from filters.core.declarations import Positive, Share, one_of

WINDOW_BYTES = 32                 # the rule's "32 byte window"
BOUNDARY_BITS = 6                 # the rule's "1/64 probability for splitting"
BOUNDARY_SHIFT = 64 - BOUNDARY_BITS
BOUNDARY_MAGIC = 0b101101         # any fixed 6-bit pattern; compared with the top 6 bits
RABIN_BASE = 0x9E3779B97F4A7C15   # 2**64 / golden ratio, made odd; its order mod 2**64 is 2**62
EXPECTED_CHUNK_BYTES = WINDOW_BYTES + (1 << BOUNDARY_BITS) - 1   # 95: see the module docstring

# fastcdc's gear chunker: the package's smallest admissible average (256) and minimum (64) sizes;
# the maximum is its default, 8 x average.
FASTCDC_MIN_AVG_BYTES = 256
FASTCDC_MIN_BYTES = 64
ALGORITHMS = ("rabin", "fastcdc")

_BLOCK_BYTES = 1 << 16            # windows per NumPy pass: the uint64 arrays stay in cache (measured best)


def _powers(base: int, count: int) -> np.ndarray:
    powers = np.full(count, base, dtype=np.uint64)
    powers[0] = 1
    return np.cumprod(powers, dtype=np.uint64)   # wraps mod 2**64


_POWERS = _powers(RABIN_BASE, _BLOCK_BYTES + WINDOW_BYTES)
_INVERSE_POWERS = _powers(pow(RABIN_BASE, -1, 1 << 64), _BLOCK_BYTES + WINDOW_BYTES)


class ChunkHashes(NamedTuple):
    hashes: np.ndarray   # uint64, one per chunk, in text order
    sizes: np.ndarray    # int64 bytes per chunk; sums to the length of the UTF-8 text


def _as_bytes(data: str | bytes | bytearray | memoryview) -> bytes:
    if isinstance(data, str):
        return data.encode("utf-8", errors="surrogatepass")
    return bytes(data)


def _block_fingerprints(data: bytes) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(i0, fp)``: ``fp[t]`` is the fingerprint of the window ending at byte ``i0 + t``,
    one block of at most ``_BLOCK_BYTES`` windows at a time (the arrays stay in cache)."""
    n = len(data)
    raw = np.frombuffer(data, dtype=np.uint8)
    size = min(n, _BLOCK_BYTES + WINDOW_BYTES - 1)
    cumulative = np.zeros(size + 1, dtype=np.uint64)
    scratch = np.empty(size, dtype=np.uint64)
    # Each block re-reads the 31 bytes before it so that its first window is full; local positions
    # restart at 0, which changes nothing since fp depends on the window's bytes only.
    for i0 in range(WINDOW_BYTES - 1, n, _BLOCK_BYTES):
        segment = raw[i0 - WINDOW_BYTES + 1:min(i0 + _BLOCK_BYTES, n)]
        m = len(segment)
        np.multiply(segment, _INVERSE_POWERS[:m], out=scratch[:m])
        np.cumsum(scratch[:m], out=cumulative[1:m + 1])
        fp = np.subtract(cumulative[WINDOW_BYTES:m + 1], cumulative[:m + 1 - WINDOW_BYTES],
                         out=scratch[:m + 1 - WINDOW_BYTES])
        np.multiply(fp, _POWERS[WINDOW_BYTES - 1:m], out=fp)
        yield i0, fp


def window_fingerprints(data: str | bytes) -> np.ndarray:
    """``fp(i)`` for every ``i >= 31`` (element ``i - 31``), as uint64; empty below 32 bytes.

    The fingerprint of the 32-byte window that ends at byte ``i`` of the bytes ``b``::

    fp(i) = sum(b[i - 31 + j] * RABIN_BASE ** (31 - j) for j in range(32))  mod 2**64

    with ``RABIN_BASE`` odd, so invertible mod 2**64. Chunk boundaries test its top bits: modulo 2**64, bit ``k``
    of a polynomial hash depends only on bits ``0..k`` of the bytes and the base (the lowest bit is the parity of
    the byte sum), so the top bits mix every bit of the window. Since ``fp(i)`` depends only on the window,
    "restarting the window at each chunk start" is one rolling hash whose cuts closer than 32 bytes to the previous
    one are rejected (`rabin_boundaries`), and every position is computed at once with NumPy (uint64 wraps)::

    C[i]  = sum(b[k] * RABIN_BASE ** -k for k <= i)      (a cumulative sum)
    fp(i) = RABIN_BASE ** i * (C[i] - C[i - 32])
    """
    data = _as_bytes(data)
    parts = [fp.copy() for _, fp in _block_fingerprints(data)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


def _candidate_ends(data: bytes) -> np.ndarray:
    """End offsets ``i + 1`` of every window whose fingerprint matches, before the 32-byte rule."""
    magic = np.uint64(BOUNDARY_MAGIC)
    shift = np.uint64(BOUNDARY_SHIFT)
    parts = [np.flatnonzero((fp >> shift) == magic) + (i0 + 1) for i0, fp in _block_fingerprints(data)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def rabin_boundaries(data: str | bytes) -> np.ndarray:
    """End offsets (exclusive, int64) of the Rabin chunks of ``data``; the last equals its length.

    A candidate cut closer than 32 bytes to the previous cut is rejected, so the window lies wholly inside the chunk.
    A run of one repeated byte has a constant fingerprint: it is cut every 32 bytes for about 1 byte value in 64,
    never for the others.
    """
    data = _as_bytes(data)
    n = len(data)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    ends: list[int] = []
    last = 0
    for end in _candidate_ends(data).tolist():
        if end - last >= WINDOW_BYTES:   # the window lies wholly inside the new chunk
            ends.append(end)
            last = end
    if last != n:
        ends.append(n)
    return np.asarray(ends, dtype=np.int64)


def fastcdc_boundaries(data: str | bytes, avg_size: int = FASTCDC_MIN_AVG_BYTES) -> np.ndarray:
    """End offsets of fastcdc's gear chunks: min = max(64, avg / 4), avg, max = 8 x avg bytes."""
    data = _as_bytes(data)
    if not data:
        return np.zeros(0, dtype=np.int64)
    if avg_size < FASTCDC_MIN_AVG_BYTES:
        raise ValueError(f"fastcdc's average chunk size must be >= {FASTCDC_MIN_AVG_BYTES}, got {avg_size}")
    min_size = max(FASTCDC_MIN_BYTES, avg_size // 4)
    ends = [chunk.offset + chunk.length for chunk in fastcdc(data, min_size, avg_size, avg_size * 8)]
    return np.asarray(ends, dtype=np.int64)


def chunk_hashes(data: str | bytes, algorithm: str = "rabin", *,
                 fastcdc_avg: int = FASTCDC_MIN_AVG_BYTES) -> ChunkHashes:
    """(hashes, sizes) of the chunks of the UTF-8 text (``str`` is encoded). ``algorithm`` is
    ``"rabin"`` (32-byte window, ~95-byte chunks) or ``"fastcdc"`` (gear chunks averaging
    ``fastcdc_avg`` >= 256 bytes). Empty input gives two empty arrays."""
    data = _as_bytes(data)
    if algorithm == "rabin":
        ends = rabin_boundaries(data)
    elif algorithm == "fastcdc":
        ends = fastcdc_boundaries(data, fastcdc_avg)
    else:
        raise ValueError(f"unknown CDC algorithm {algorithm!r}; expected one of {', '.join(ALGORITHMS)}")
    ends_list = ends.tolist()
    blake2b = hashlib.blake2b
    digests = b"".join([blake2b(data[start:end], digest_size=8).digest()
                        for start, end in zip([0, *ends_list][:-1], ends_list, strict=True)])
    hashes = np.frombuffer(digests, dtype="<u8").astype(np.uint64)
    sizes = ends.astype(np.int64)  # a copy: chunk sizes are the differences of the ends
    sizes[1:] -= ends[:-1]
    return ChunkHashes(hashes, sizes)


def duplicated_fraction(hashes: np.ndarray, sizes: np.ndarray, seen: set[int]) -> float:
    """Share of the page's bytes in chunks whose hash is in ``seen`` (earlier pages of the host).
    A chunk repeated within the page counts only if an earlier page had it. 0.0 for an empty page."""
    total = int(sizes.sum())
    if total == 0:
        return 0.0
    duplicated = sum(size for h, size in zip(hashes.tolist(), sizes.tolist(), strict=True) if h in seen)
    return duplicated / total


def mark_seen(seen: set[int], hashes: np.ndarray) -> None:
    """Add a scored page's chunks to its host's set (as Python ints: smaller than NumPy scalars)."""
    seen.update(hashes.tolist())


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class CdcParams:
    # Rabin-fingerprint CDC (Manber 1994; docs/filters.md), 32-byte window, 1/64 boundaries (~96-byte chunks);
    # "fastcdc" (gear hash, >= 256-byte chunks) for users who want larger chunks.
    algorithm: Annotated[str, one_of(ALGORITHMS)] = "rabin"
    fastcdc_avg_bytes: Positive = 256
    # "discard pages with > 50 % text duplicated relative to previous pages of the same subdomain"
    max_duplicated_fraction: Share | None = 0.5
