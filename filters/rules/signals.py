"""Registry of every signal a row can carry in its `signals` struct.

Signals are numbers and flags computed once per record (RedPajama-V2 style): thresholds are
applied later by the decision table in `filters.rules.reasons`, so re-tuning never re-computes them.
A signal's name carries its unit (`_bytes`, `_fraction`, `_chars`, `_count`). The registry
fixes the Arrow type of each field so every shard has the same struct schema; a signal that
was not computed for a record is null.
"""

from __future__ import annotations

import pyarrow as pa

from filters.core.declarations import Signal
from filters.corpus import dataset, dedup
from filters.extract import cascade
from filters.metadata import fields
from filters.page import article_score, page_signals, page_structure, product, url_rules
from filters.page_model import decision as page_model
from filters.parse import record
from filters.segment import segments
from filters.text import blocks, c4, gopher, language_id, length, quality

__all__ = ["SIGNALS", "SIGNALS_BY_NAME", "Signal", "check_signal_names", "signals_struct_type"]


# In the order of the `signals` struct's fields (a reordering would change every shard's schema):
# the path of a record, from reading to the dataset.
SIGNALS: tuple[Signal, ...] = (
    *record.SIGNALS,
    *url_rules.SIGNALS,
    *article_score.SIGNALS,
    *page_signals.SIGNALS,
    *product.SIGNALS,
    *page_structure.SIGNALS,
    *page_model.GATE_SIGNALS,
    *cascade.SIGNALS,
    *blocks.SIGNALS,
    *length.SIGNALS,
    *c4.SIGNALS,
    *gopher.SIGNALS,
    *language_id.SIGNALS,
    *quality.SIGNALS,
    *dedup.SIGNALS,
    *page_model.SELECT_SIGNALS,
    *dataset.SIGNALS,
    *fields.SIGNALS,
    *segments.SIGNALS,
    *page_signals.WALL_SIGNALS,
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
