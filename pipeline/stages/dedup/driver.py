"""The driver of the de-duplication passes (`pipeline.stages.dedup`): it writes each unit's key
rows into the partitions of every pass the graph declares (`Passes.add`), runs the graph's rounds
(`Passes.run`), and decides from their results by the parts the passes declare (`spec.Part`:
`Passes.decide`, `Duplicates`), naming no pass."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl

from filters.corpus.keepers import NODES, keep_first
from filters.corpus.minhash import SHINGLE_WORDS
from pipeline.params import CdcParams, NearParams, Params
from pipeline.run.executors import Executor
from pipeline.stages.dedup.cross_split import cross_split_threshold
from pipeline.stages.dedup.graph import ROUNDS, Round, check, passes_of
from pipeline.stages.dedup.near import uses_minhash
from pipeline.stages.dedup.partitions import (
    PassDirectory,
    file_of,
    fragments_complete,
    in_unit,
    prepare,
    row_of,
    run_partitions,
)
from pipeline.stages.dedup.spec import KeyBatch, Part, View, declared_types
from pipeline.store.storage import readable_copy
from pipeline.store.writers import write_whole


@dataclass(frozen=True)
class DedupSettings:
    """What the partition tasks need: the extract files (`files`: the driver's local copies,
    `sources`: where they came from, for a task that cannot see the copies) and the params."""

    files: tuple[tuple[str, ...], ...]  # the extract files of each unit (`pipeline.stages.select`)
    sources: tuple[tuple[str, ...], ...] | None
    cdc: CdcParams
    near: NearParams
    seed: int = 0
    # dataset.cross_split_min_containment: pairs are verified down to this containment too
    cross_split: float | None = None
    # extract.minhash.shingle_words: the n-grams whose containment is verified
    shingle_words: int = SHINGLE_WORDS

    def readable_files(self) -> list[tuple[str, ...]]:
        """The extract files of each unit, as a task can read them (the driver's local copies, or
        copies of their sources where the task cannot see the driver's)."""
        if self.sources is None:
            return list(self.files)
        return [tuple(readable_copy(*pair) for pair in zip(unit, sources, strict=True))
                for unit, sources in zip(self.files, self.sources, strict=True)]

    @property
    def floor(self) -> float:
        """The lowest containment a verified pair needs for either rule."""
        thresholds = [self.near.min_containment] if self.near.method == "minhash" else []
        return min([*thresholds, *([self.cross_split] if self.cross_split is not None else [])], default=1.0)


class Passes:
    """The partitioned passes of one select run in `root` (`rounds`: the de-duplication graph, and
    whatever runs after it over the same partitions): key rows in, duplicates out."""

    def __init__(self, root: str, params: Params, identity: dict[str, Any],
                 rounds: tuple[Round, ...] = ROUNDS) -> None:
        dedup = params.select.dedup
        check(rounds)  # every pass reads only what is there when its round runs
        self.params = params
        self.rounds = rounds
        self.directories = {one.name: PassDirectory(root, one.name, dedup.partitions) for one in passes_of(rounds)}
        # what the near pass runs with: MinHash pairing whenever dup.near or dataset.cross_split needs it
        self.pairing = replace(dedup.near, method="minhash") if uses_minhash(params) else dedup.near
        self.root = root
        self.reused = prepare(root, dedup.partitions, identity)
        # candidates with a text (a content hash) but no MinHash signature: not compared
        self.unsigned = 0
        self._decided: Duplicates | None = None

    def directory(self, name: str) -> PassDirectory:
        return self.directories[name]

    def add(self, file_index: int, compact: pl.DataFrame, ids: pl.DataFrame) -> None:
        """Write one unit's candidates (`keys.compact_columns`) and the ids of all its rows
        (`keys.id_columns`) into the partitions of every pass that takes key rows."""
        if self.pairing.method == "minhash" and not compact.is_empty():
            self.unsigned += compact.filter(pl.col("content_hash").is_not_null() & pl.col("minhash").is_null()).height
        if self.reused:
            return
        batch = KeyBatch(file_index, compact, ids, self.params, self.pairing)
        for one in passes_of(self.rounds):
            if one.feed is None:
                continue
            rows = one.feed.rows(batch)
            if rows is not None:
                self.directories[one.name].write_fragments(file_index, rows, pl.col(one.feed.by))

    def warnings(self) -> list[str]:
        """What stats.json should say about the passes."""
        if not self.unsigned:
            return []
        return [f"{self.unsigned} candidates with a text have no MinHash signature (extracted by an older version, or "
                f"with extract.minhash.permutations null): near duplicates among them are not found; extract again "
                f"or set select.dedup.near.method: simhash (with dataset.cross_split_min_containment: null)"]

    def run(self, files: list[tuple[str, ...]], executor: Executor | None,
            sources: list[tuple[str, ...]] | None) -> int:
        """Decide every partition that has no result yet; returns how many tasks ran."""
        fragments_complete(self.root)
        dedup = self.params.select.dedup
        settings = DedupSettings(tuple(files), tuple(sources) if sources is not None else None, dedup.cdc, self.pairing,
                                 self.params.dataset.seed, cross_split_threshold(self.params),
                                 self.params.extract.minhash.shingle_words)

        def tasks(fn: Any, todo: list[Any]) -> list[Any]:
            return executor.map(fn, todo, "dedup") if executor is not None else [fn(task) for task in todo]

        ran = 0
        for passes, then in self.rounds:
            ran += run_partitions([(self.directories[one.name], one.task) for one in passes if one.task is not None],
                                  tasks, settings)
            if then is not None and not (Path(self.root) / then).is_file():
                # a pass of the round writes it from its results (`Part.then`), else it is the losers so far
                written = next((one.part.then for one in passes if one.part is not None and one.part.then), None)
                write_whole(written(self.view()) if written is not None else self.losers(), Path(self.root) / then)
        return ran

    def decide(self) -> Duplicates:
        """The duplicates of every pass (rows that lose only), with the near clusters formed (once)."""
        if self._decided is None:
            self._decided = self._decide()
        return self._decided

    def view(self) -> View:
        return View(self.directories, self.params, self.pairing)

    def parts(self) -> list[tuple[str, Part]]:
        """The passes' parts in the decision (`spec.Part`), in the graph's order."""
        return [(one.name, one.part) for one in passes_of(self.rounds) if one.part is not None]

    def _decide(self) -> Duplicates:
        """One keeper over every part's groups (`keep_first`: a page is kept unless a blocking part
        rejects it or it shares a group of an enabled part with an earlier kept page), each part's
        signals of the pages it found, then the parts decided after the keepers, from the losers so far."""
        view = self.view()
        parts = self.parts()
        blocked = {name: part.blocked(view) for name, part in parts if part.blocked is not None}
        every_blocked = pl.concat([pl.Series([], dtype=pl.UInt64), *blocked.values()])
        groups = {name: part.groups(view) for name, part in parts if part.groups is not None}
        deciding = {name for name, part in parts if part.groups is not None and view.enabled(part.rule)}
        found = keep_first(groups, every_blocked, deciding) if groups else {}
        decided = {name: part.found_signals(view, found[name]["node"]) for name, part in parts if name in found}
        losers = pl.concat([*(decided[name]["node"] for name in groups if name in deciding), every_blocked,
                            pl.Series([], dtype=pl.UInt64)]).unique()
        decided.update({name: part.after(view, losers) for name, part in parts if part.after is not None})
        return Duplicates(view, tuple(parts), decided, blocked)

    def losers(self) -> pl.DataFrame:
        """The candidates an enabled rule of a part rejects (node), from the passes' results."""
        found = self.decide()
        nodes = [found.losers_of(name, part) for name, part in found.parts if found.view.enabled(part.rule)]
        return pl.DataFrame({"node": pl.concat(nodes).unique().sort() if nodes else pl.Series([], dtype=pl.UInt64)},
                            schema=NODES)


@dataclass(frozen=True)
class Duplicates:
    """What the parts decided (`Passes.decide`): the signals of the nodes each decided (small: a row
    a duplicate) and the nodes the blocking parts reject; the parts with a row a candidate on disk
    (`Part.unit`) are read one unit at a time."""

    view: View
    parts: tuple[tuple[str, Part], ...]
    decided: dict[str, pl.DataFrame]  # part's pass name -> node and its signals
    blocked: dict[str, pl.Series]  # part's pass name -> the nodes it blocks (`Part.blocked`)

    def losers_of(self, name: str, part: Part) -> pl.Series:
        """The nodes part `name` rejects (its rule on or not)."""
        if part.losers is not None:
            return part.losers(self.view)
        if name in self.decided:
            return self.decided[name]["node"]
        return self.blocked.get(name, pl.Series([], dtype=pl.UInt64))

    def for_file(self, file_index: int) -> pl.DataFrame:
        """The duplication signals of one unit's rows (`columns`, one row per candidate or repeated
        id, by row): the base part's rows (every candidate), each other part's signals joined to
        them (its `fill` where it names a candidate not), then the rows the full parts add."""
        in_file = in_unit(file_index)
        found = [(part, own) for name, part in self.parts if (own := self._in_unit(name, part, in_file)) is not None]
        frame = next(own for part, own in found if part.base)
        for part, own in found:
            if not part.base and not part.full:
                frame = frame.join(own, on="node", how="left").with_columns(
                    *(pl.col(column).fill_null(value) for column, value in part.fill.items()))
        for part, own in found:
            if part.full:
                frame = frame.join(own, on="node", how="full", coalesce=True)
        columns = self.columns
        return frame.with_columns(file_of(pl.col("node")).alias("file"), row_of(pl.col("node")).alias("row")) \
            .select(list(columns)).sort("row").cast(columns)  # type: ignore[arg-type]  # polars: type classes

    def _in_unit(self, name: str, part: Part, in_file: pl.Expr) -> pl.DataFrame | None:
        """Part `name`'s signals of one unit's nodes: of those it decided, or read from its results."""
        if name in self.decided:
            return self.decided[name].filter(in_file)
        return part.unit(self.view, in_file) if part.unit is not None else None

    @cached_property  # every unit's frame has them: typed once per decision
    def columns(self) -> dict[str, Any]:
        """The columns of `for_file`: file, row, then the base part's signals, the other parts' and
        the full parts', each typed by its declaration (`spec.declared_types`, `Part.types`)."""
        ordered = sorted((part for _, part in self.parts), key=lambda part: (not part.base, part.full))
        names = tuple(name for part in ordered for name in part.signals)
        types = {name: kind for part in ordered for name, kind in part.types.items()}
        declared = declared_types(tuple(name for name in names if name not in types))
        return {"file": pl.UInt32, "row": pl.UInt32, **{name: types.get(name, declared.get(name)) for name in names}}
