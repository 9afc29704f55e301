"""How a de-duplication pass is declared: the key rows the driver feeds it, the task that
decides one of its partitions, and what it reads and writes (`pipeline.stages.dedup.graph`
orders the passes and draws them for docs/scale.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import polars as pl
import pyarrow as pa

from filters.corpus.dedup import NearParams
from filters.rules.signals import SIGNALS_BY_NAME
from pipeline.params import Params
from pipeline.stages.dedup.partitions import PartitionTask, date_key, node


@dataclass(frozen=True)
class KeyBatch:
    """One unit's rows as the rules phase hands them to the passes: its candidates' key columns
    (`compact`, `pipeline.stages.dedup.keys.compact_columns`) and the id columns of all its rows
    (`ids`, `keys.id_columns`)."""

    file_index: int
    compact: pl.DataFrame
    ids: pl.DataFrame
    params: Params
    pairing: NearParams  # what the near pass runs with (`pipeline.stages.dedup.driver.Passes.pairing`)

    @cached_property
    def keyed(self) -> pl.DataFrame:
        """The candidates' keys with their node and date key."""
        return self.compact.select(node(self.file_index), date_key(), "host", "normalized_url", "canonical_key",
                                   "content_hash", "simhash64", "minhash")


@dataclass(frozen=True)
class Feed:
    """The key rows a pass takes from each unit (`rows`: None or empty for none), spread over its
    partitions by the hash of column `by`."""

    rows: Callable[[KeyBatch], pl.DataFrame | None]
    by: str
    columns: tuple[str, ...]  # the key rows' columns, as the docs show them


@dataclass(frozen=True)
class Fragments:
    """What a pass reads or writes: the fragments of pass `of` (fed by the driver, or written by
    another pass's task); `what`, as the docs show it."""

    of: str
    what: str = ""

    def __str__(self) -> str:
        return f"{self.of} fragments" + (f" ({self.what})" if self.what else "")


@dataclass(frozen=True)
class Results:
    """What a pass reads: the results of pass `of`'s task (an earlier round's)."""

    of: str

    def __str__(self) -> str:
        return f"{self.of} results"


@dataclass(frozen=True)
class Between:
    """What a pass reads: a file the driver writes between two rounds (`graph.ROUNDS`)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Texts:
    """What a pass reads: texts in the extract files, which are there before any round."""

    what: str

    def __str__(self) -> str:
        return self.what


Read = Fragments | Results | Between | Texts


@dataclass(frozen=True)
class Pass:
    """One partitioned pass: its directory under the partitions root, the task that decides one
    of its partitions (None: fragments other tasks read), its feed, and what its task reads and
    writes besides its own fragments, as data the driver checks (`graph.check`)."""

    name: str
    task: Callable[[PartitionTask], None] | None
    feed: Feed | None = None
    reads: tuple[Read, ...] = ()
    writes: tuple[Fragments, ...] = ()
    result: tuple[str, ...] = ()  # the columns of its result, by node


def declared_types(names: tuple[str, ...]) -> dict[str, Any]:
    """The polars types of signals a pass writes, as `filters.rules.signals` declares them (their
    one declaration: a pass's result columns are not typed again)."""
    schema = pa.schema([pa.field(name, SIGNALS_BY_NAME[name].type) for name in names])
    return dict(pl.from_arrow(schema.empty_table()).schema)  # type: ignore[union-attr]
