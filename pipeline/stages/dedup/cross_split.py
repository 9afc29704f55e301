"""Cross-split overlap (`dataset.cross_split`), decided by the driver after the keepers: a
validation or test candidate whose text is contained at the threshold in a kept train page names
it (`filters.corpus.near.cross_split_matches`, over the verified near pairs); train pages never
lose here. The near passes verify pairs down to this threshold too (`DedupSettings.floor`)."""

from __future__ import annotations

import polars as pl

from filters.corpus.near import CROSS, cross_split_matches
from pipeline.params import Params


def cross_split_threshold(params: Params) -> float | None:
    """dataset.cross_split's containment threshold; None when it is off or there are no splits."""
    dataset = params.dataset
    return dataset.cross_split_min_containment if dataset.split_by is not None else None


def cross_split(verified: pl.DataFrame, losers: pl.Series, params: Params) -> pl.DataFrame:
    """The candidates `dataset.cross_split` rejects (`CROSS`: node, containment, the train page's
    id), among the verified pairs (`filters.corpus.near.EDGES`) of pages no dup.* rule rejects."""
    threshold = cross_split_threshold(params)
    return pl.DataFrame(schema=CROSS) if threshold is None else cross_split_matches(verified, losers, threshold)
