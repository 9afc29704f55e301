"""The decision engine of select: one two-pass driver for any kind of unit (pages, segments).

A kind of unit is described by a `UnitKind`: the schema its shards are written with, the rules
and params it is judged by, how many rows the write pass holds at once, and the steps around the
rules (the page-type columns before them, the dataset columns after de-duplication). `decide` runs:

1. **Rules**: each unit of files is read, `before` and the rules applied (`apply_rules`), and the
   candidates' keys (`pipeline.stages.dedup.compact_columns`) and every row's id written into the
   de-duplication partitions.
2. **De-duplication**: the declared pass graph (`pipeline.stages.dedup`) runs over the
   partitions, then the dataset step's passes the kind declares (`UnitKind.dataset_steps`: the
   per-site balance, `pipeline.stages.balance`).
3. **Write**: each unit again, a slice of `slice_rows` rows at a time: rules, duplicates
   (`attach_duplicates`), `after`, the `on_frame` hook, counted (`Tally` and the kind's own
   counters) and written by split (`SplitWriters`, closed at the end).

`pipeline.stages.select` decides pages with it; `pipeline.stages.segments` decides the pages'
segments with it, in their own partitions.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import polars as pl
import pyarrow as pa

from filters.rules import reasons
from pipeline.params import Params
from pipeline.run.executors import Executor
from pipeline.run.timings import since
from pipeline.stages import balance, dedup
from pipeline.stages.dataset import SplitWriters, page_split
from pipeline.stages.dedup import Passes, compact_columns, id_columns

Unit = tuple[str, ...]  # the extract (or segment) files read as one, their rows numbered through


class Counts(Protocol):
    """What the write pass hands every decided slice to (stats.json's accounting of one kind)."""

    def add(self, frame: pl.DataFrame) -> None: ...


@dataclass
class Tally:
    """The accounting every kind of unit shares: rows in, rows accepted, and the reasons given
    (every reason, and the first of each rejected row)."""

    rows_in: int = 0
    accepted: int = 0
    by_reason: Counter[str] = field(default_factory=Counter)
    first_reason: Counter[str] = field(default_factory=Counter)

    def add(self, frame: pl.DataFrame) -> None:
        self.rows_in += frame.height
        self.accepted += int(frame["kept"].sum())
        codes = frame["reasons"]
        self.by_reason.update(codes.explode().drop_nulls().to_list())
        self.first_reason.update(codes.list.first().drop_nulls().to_list())

    def reasons(self) -> dict[str, dict[str, int]]:
        """stats.json's `by_reason` and `first_reason`, by code."""
        return {"by_reason": dict(sorted(self.by_reason.items())),
                "first_reason": dict(sorted(self.first_reason.items()))}


def _unchanged(frame: pl.LazyFrame) -> pl.LazyFrame:
    return frame


@dataclass(frozen=True)
class UnitKind:
    """One kind of unit as the engine decides it."""

    name: str  # "pages", "segments": in messages
    schema: pa.Schema  # of its shards
    params: Params  # what it is judged by
    slice_rows: int  # rows the write pass holds at once
    rules: tuple[reasons.Rule, ...] = field(default_factory=lambda: reasons.rules_for("select"))
    # a unit's rows (by unit index) before the rules: the page-type columns for pages
    before: Callable[[int, pl.LazyFrame], pl.LazyFrame] = lambda _index, frame: frame
    # a slice after de-duplication: the dataset columns for pages (segments have their page's)
    after: Callable[[pl.LazyFrame], pl.LazyFrame] = _unchanged
    # the dataset step's passes after de-duplication (the per-site balance), their signals joined to the rows
    dataset_steps: tuple[balance.DatasetStep, ...] = (balance.STEP,)
    # the split a row is written to, as the de-duplication passes read it (`dataset.cross_split`):
    # a page's from its site or content (`page_split`, the write pass's); a segment's is its page's
    split: Callable[[Params], pl.Expr] = page_split


@dataclass
class Engine:
    """One decision run of one kind of unit: its de-duplication partitions in `root`, named by
    `identity` (partitions written for other files or params are rebuilt)."""

    kind: UnitKind
    units: list[Unit]
    root: str
    identity: dict[str, Any]
    timings: dict[str, Any] = field(default_factory=dict)  # phase -> seconds, calls (`timed`)

    def __post_init__(self) -> None:
        # the de-duplication graph, then the passes of the dataset step the kind declares
        self.passes = Passes(self.root, self.kind.params, self.identity,
                             (*dedup.ROUNDS, *(step.round for step in self.kind.dataset_steps)))

    def rules(self) -> None:
        """Pass one: the rules, and the candidates' keys into the partitions."""
        for index, unit in enumerate(self.units):
            compact = compact_columns(self._judged(index, _scan(unit)), index, self.kind.split(self.kind.params))
            self.passes.add(index, compact.collect(), id_columns(unit))

    def dedup(self, executor: Executor | None, sources: list[Unit] | None) -> list[str]:
        """The de-duplication passes and the kind's dataset steps; returns what stats.json should say about them."""
        self.passes.run(self.units, executor, sources)
        self.passes.decide()
        return self.passes.warnings()

    def write(self, writers: SplitWriters, counts: Counts,
              on_frame: Callable[[int, pl.DataFrame], pl.DataFrame] | None = None) -> None:
        """Pass two: every unit a slice at a time, decided, counted and written; `on_frame` sees
        each decided slice first (with its unit index) and returns what is written."""
        found = self.passes.decide()
        for index, unit in enumerate(self.units):
            duplicates = found.for_file(index)
            for step in self.kind.dataset_steps:
                duplicates = duplicates.join(step.for_unit(self.passes.directory(step.name), index), on="row",
                                             how="left", maintain_order="left")
            for start, stop in slices(unit, self.kind.slice_rows):
                lazy = self._judged(index, _scan(unit).slice(start, stop - start))
                in_slice = duplicates.filter(pl.col("row").is_between(start, stop, closed="left"))
                frame = self.kind.after(attach_duplicates(lazy, in_slice, self.kind.params)).collect()
                if on_frame is not None:
                    frame = on_frame(index, frame)
                counts.add(frame)
                writers.write(frame)
        writers.close()

    def _judged(self, index: int, frame: pl.LazyFrame) -> pl.LazyFrame:
        return apply_rules(self.kind.before(index, frame), self.kind.rules, self.kind.params)


def decide(engine: Engine, executor: Executor | None, sources: list[Unit] | None, writers: SplitWriters,
           counts: Counts, on_frame: Callable[[int, pl.DataFrame], pl.DataFrame] | None = None) -> list[str]:
    """The three phases of `engine` in order, each timed in `engine.timings` (`rules`, `dedup`,
    `write`); returns the de-duplication's warnings."""
    with timed(engine.timings, "rules"):
        engine.rules()
    with timed(engine.timings, "dedup"):
        warnings = engine.dedup(executor, sources)
    with timed(engine.timings, "write"):
        engine.write(writers, counts, on_frame)
    return warnings


@contextlib.contextmanager
def timed(timings: dict[str, Any], name: str) -> Iterator[None]:
    """Sets `timings[name]` to the seconds its block took (`{"seconds", "calls"}`)."""
    started = time.perf_counter()
    yield
    timings[name] = since(started)


def _scan(unit: Unit) -> pl.LazyFrame:
    return pl.scan_parquet(list(unit)).with_row_index("row")


def slices(unit: Unit, rows_at_once: int) -> Iterator[tuple[int, int]]:
    """Row ranges [start, stop) of `rows_at_once` rows covering the unit, in order.

    The write pass reads, decides and writes one slice at a time, so its memory does not grow
    with the size of an input file. The slices are fixed by the row counts alone, so the shards
    do not depend on how the extract stage split its work.
    """
    rows = pl.scan_parquet(list(unit)).select(pl.len()).collect().item()
    for start in range(0, rows, rows_at_once):
        yield start, min(rows, start + rows_at_once)


def apply_rules(frame: pl.LazyFrame, rules: tuple[reasons.Rule, ...], params: Params) -> pl.LazyFrame:
    """Append the reasons of `rules` (select stage) to each row's reasons and set `kept`.

    Pages the pre-extraction rules rejected (`extraction_gated`) keep only those reasons: with
    --extract-all their text exists for analysis, but must not change their reasons.
    """
    fired = reasons.decide_expr(rules, params, frame.collect_schema().names())
    codes = pl.col("reasons") if fired is None else pl.concat_list([pl.col("reasons"), fired])
    return frame.with_columns(codes.alias("reasons")).with_columns(
        (pl.col("reasons").list.len() == 0).alias("kept"))


def attach_duplicates(frame: pl.LazyFrame, duplicates: pl.DataFrame, params: Params) -> pl.LazyFrame:
    """Write the duplication and per-site balance signals into `signals`, apply the dup.* and
    dataset.* rules, set `kept`."""
    names = [n for n in duplicates.columns if n not in ("file", "row", "new_id")]
    joined = frame.join(duplicates.drop("file").lazy(), on="row", how="left", maintain_order="left")
    joined = joined.with_columns(pl.col("signals").struct.with_fields([pl.col(n) for n in names]),
                                 pl.coalesce("new_id", "id").alias("id")).drop([*names, "new_id"])
    # every row, gated or not: a repeated record is dropped whichever copy was gated
    fired = reasons.decide_expr((*reasons.rules_for("dedup"), *reasons.rules_for("dataset")), params, gate=False)
    codes = pl.col("reasons") if fired is None else pl.concat_list([pl.col("reasons"), fired])
    return joined.with_columns(codes.alias("reasons")).with_columns(
        (pl.col("reasons").list.len() == 0).alias("kept")).drop("row")
