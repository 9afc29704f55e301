"""How a de-duplication pass is declared: the key rows the driver feeds it, the task that
decides one of its partitions, and what it reads and writes (`pipeline.stages.dedup.graph`
orders the passes and draws them for docs/scale.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import polars as pl
import pyarrow as pa

from filters.corpus.dedup import NearParams
from filters.rules.reasons import RULES_BY_CODE
from filters.rules.signals import SIGNALS_BY_NAME
from pipeline.params import Params
from pipeline.stages.dedup.partitions import PartitionTask, PassDirectory, date_key, node


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
class View:
    """What a pass's part reads when the driver decides (`driver.Passes.decide`): every pass's
    directory (`PassDirectory`), the params and the near pass's pairing."""

    directories: Mapping[str, PassDirectory]
    params: Params
    pairing: NearParams
    _computed: dict[str, Any] = field(default_factory=dict)

    def once(self, key: str, compute: Callable[[], Any]) -> Any:
        """`compute()`, computed once per decision (several parts read the verified pairs)."""
        if key not in self._computed:
            self._computed[key] = compute()
        return self._computed[key]

    def results(self, name: str, schema: dict[str, Any], predicate: pl.Expr | None = None) -> pl.DataFrame:
        return self.directories[name].read_results(schema, predicate)

    def enabled(self, rule: str | None) -> bool:
        """Whether the params turn rule `rule` on (None: a part that only measures)."""
        return rule is not None and RULES_BY_CODE[rule].enabled(self.params)


def _found(signals: tuple[str, ...]) -> Callable[[View, pl.Series], pl.DataFrame]:
    def found(_view: View, nodes: pl.Series) -> pl.DataFrame:
        return pl.DataFrame({"node": nodes}).with_columns(*(pl.lit(True).alias(name) for name in signals))
    return found


@dataclass(frozen=True)
class Part:
    """A pass's part in choosing the keepers and the losers, which the driver reads and never names.

    - `groups`: its duplicate groups (`filters.corpus.keepers.GROUPS`): one keeper over every
      part's groups together (`keep_first`); `found` gives its signals of the nodes that lose to
      an earlier kept page of one of its groups (default: each of `signals` true).
    - `blocked`: candidates it rejects, which keep nothing (a CDC fraction over its limit).
    - `after`: decided after the keepers, from the losers so far (node and its signals).
    - `unit`: its signals of one unit's nodes read from its results on disk (the parts whose
      results hold a row a candidate). `base`: those rows are every candidate the passes see, and
      the other parts' signals are joined to them; `full`: its rows are added (repeated ids).
    - `losers`: the nodes its rule rejects (default: those it decided, or `blocked`'s).
    - `then`: the file the driver writes after its round, from its results (`graph.ROUNDS`).
    Its rule's losers count only where the params turn `rule` on; `fill` gives its signals for a
    candidate it does not name; `types` the polars types of its columns that are no signal (`new_id`)."""

    rule: str | None  # None: its signals are measured, nothing rejected
    signals: tuple[str, ...]
    groups: Callable[[View], pl.DataFrame] | None = None
    found: Callable[[View, pl.Series], pl.DataFrame] | None = None
    blocked: Callable[[View], pl.Series] | None = None
    after: Callable[[View, pl.Series], pl.DataFrame] | None = None
    unit: Callable[[View, pl.Expr], pl.DataFrame] | None = None
    base: bool = False
    full: bool = False
    losers: Callable[[View], pl.Series] | None = None
    then: Callable[[View], pl.DataFrame] | None = None
    fill: Mapping[str, Any] = field(default_factory=dict)
    types: Mapping[str, Any] = field(default_factory=dict)  # of its columns that are no declared signal

    def found_signals(self, view: View, nodes: pl.Series) -> pl.DataFrame:
        return (self.found or _found(self.signals))(view, nodes)


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
    part: Part | None = None  # its part in choosing the keepers and the losers


def declared_types(names: tuple[str, ...]) -> dict[str, Any]:
    """The polars types of signals a pass writes, as `filters.rules.signals` declares them (their
    one declaration: a pass's result columns are not typed again)."""
    schema = pa.schema([pa.field(name, SIGNALS_BY_NAME[name].type) for name in names])
    return dict(pl.from_arrow(schema.empty_table()).schema)  # type: ignore[union-attr]
