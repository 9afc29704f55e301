"""Registry of every signal a row can carry in its `signals` struct.

Signals are numbers and flags computed once per record (RedPajama-V2 style): thresholds are
applied later by the decision table in `filters.reasons`, so re-tuning never re-computes them.
A signal's name carries its unit (`_bytes`, `_fraction`, `_chars`, `_count`). The registry
fixes the Arrow type of each field so every shard has the same struct schema; a signal that
was not computed for a record is null.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa


@dataclass(frozen=True)
class Signal:
    name: str
    type: pa.DataType
    meaning: str


SIGNALS: tuple[Signal, ...] = (
    Signal("input_corrupt", pa.bool_(), "the row stands for a damaged region of an input file"),
    Signal("corrupt_region_bytes", pa.int64(), "bytes skipped from the damage to the next record found"),
    Signal("input_unreadable", pa.bool_(), "the input file could not be opened or recognised"),
    Signal("payload_bytes", pa.int64(), "HTTP body size after transfer/content decoding"),
    Signal("payload_declared_bytes", pa.int64(), "record Content-Length as declared in the WARC header"),
    Signal("warc_truncated", pa.bool_(), "the crawler truncated the payload (WARC-Truncated header)"),
    Signal("is_html", pa.bool_(), "media type (HTTP, WARC-Identified-Payload-Type or sniffed) is HTML"),
    Signal("undecodable_char_fraction", pa.float64(), "share of U+FFFD and control chars after decoding"),
    Signal("decoded_chars", pa.int64(), "characters in the decoded HTML"),
)

SIGNALS_BY_NAME: dict[str, Signal] = {s.name: s for s in SIGNALS}


def signals_struct_type() -> pa.StructType:
    """Arrow struct type of the `signals` column."""
    return pa.struct([pa.field(s.name, s.type) for s in SIGNALS])


def check_signal_names(values: dict[str, object]) -> None:
    """Raise if a filter produced a signal that is not registered (a programming error)."""
    unknown = sorted(set(values) - set(SIGNALS_BY_NAME))
    if unknown:
        raise KeyError(f"unregistered signals: {', '.join(unknown)}")
