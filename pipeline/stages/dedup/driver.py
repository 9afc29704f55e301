"""The driver of the de-duplication passes (`pipeline.stages.dedup`): it writes each unit's key
rows into the partitions of every pass the graph declares (`Passes.add`), runs the graph's rounds
(`Passes.run`), and decides the keepers and the cross-split overlap from their results
(`Passes.decide`, `Duplicates`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl

from filters.corpus.keepers import GROUPS, NODES, closest_earlier, keep_first, near_clusters
from filters.corpus.minhash import SHINGLE_WORDS
from filters.corpus.near import EDGES, near_edges
from filters.rules import reasons
from pipeline.params import CdcParams, NearParams, Params
from pipeline.run.executors import Executor
from pipeline.stages.dedup.cdc import FRACTIONS
from pipeline.stages.dedup.cdc import NAME as CDC_PASS
from pipeline.stages.dedup.cross_split import cross_split, cross_split_threshold
from pipeline.stages.dedup.graph import ROUNDS, Round, check, passes_of
from pipeline.stages.dedup.ids import IDS
from pipeline.stages.dedup.ids import NAME as IDS_PASS
from pipeline.stages.dedup.near import NEAR_PASS, VERIFY_PASS, uses_minhash
from pipeline.stages.dedup.partitions import (
    LOSERS,
    REPEATS,
    PassDirectory,
    file_of,
    fragments_complete,
    in_unit,
    prepare,
    row_of,
    run_partitions,
)
from pipeline.stages.dedup.spec import KeyBatch, declared_types
from pipeline.store.storage import readable_copy
from pipeline.store.writers import write_whole

NEAR_SIGNALS = ("near_duplicate", "near_duplicate_distance", "near_duplicate_similarity", "near_duplicate_containment")
NEAR = {"node": pl.UInt64, **declared_types(NEAR_SIGNALS)}
# the duplication signals of a unit's rows, by row, with the new id of a repeated id
SIGNALS = {"file": pl.UInt32, "row": pl.UInt32,
           **declared_types(("cdc_duplicated_fraction", "exact_duplicate", "url_duplicate", *NEAR_SIGNALS,
                             "cross_split_containment", "cross_split_train_id")),
           "new_id": pl.String, **declared_types(("record_duplicate",))}


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

        between = {REPEATS: self.repeats, LOSERS: self.losers}
        ran = 0
        for passes, then in self.rounds:
            ran += run_partitions([(self.directories[one.name], one.task) for one in passes if one.task is not None],
                                  tasks, settings)
            if then is not None and not (Path(self.root) / then).is_file():
                write_whole(between[then](), Path(self.root) / then)
        return ran

    def repeats(self) -> pl.DataFrame:
        """The candidates that are re-read records (dup.record on): the passes after the id pass
        leave them out."""
        if "dup.record" not in self.enabled():
            return pl.DataFrame(schema=NODES)
        return self.directories[IDS_PASS].read_results(IDS, pl.col("record_duplicate") & pl.col("candidate")).select(
            "node").sort("node")

    def decide(self) -> Duplicates:
        """The duplicates of every pass (rows that lose only), with the near clusters formed (once)."""
        if self._decided is None:
            self._decided = self._decide()
        return self._decided

    def enabled(self) -> set[str]:
        """The dup.* rules these params turn on."""
        return {rule.code for rule in reasons.rules_for("dedup") if rule.enabled(self.params)}

    def _decide(self) -> Duplicates:
        dedup = self.params.select.dedup
        limit = dedup.cdc.max_duplicated_fraction
        cdc, ids = self.directories[CDC_PASS], self.directories[IDS_PASS]
        over = pl.Series([], dtype=pl.UInt64) if limit is None else \
            cdc.read_results(FRACTIONS, pl.col("fraction") > limit)["node"]
        verified = self.directories[VERIFY_PASS].read_results(EDGES)
        edges = self.directories[NEAR_PASS].read_results(EDGES) if dedup.near.method == "simhash" else \
            near_edges(verified, dedup.near)
        enabled = self.enabled()
        groups = {"url": self.directories["url"].read_results(GROUPS),
                  "exact": self.directories["exact"].read_results(GROUPS),
                  "near": near_clusters(edges) if dedup.near.method else pl.DataFrame(schema=GROUPS)}
        found = keep_first(groups, over, {kind for kind in groups if f"dup.{kind}" in enabled})
        near = found["near"].join(closest_earlier(edges), on="node", how="left").select(
            "node", pl.lit(True).alias("near_duplicate"), "near_duplicate_distance", "near_duplicate_similarity",
            "near_duplicate_containment")
        decided = [found[kind]["node"] for kind in groups if f"dup.{kind}" in enabled]
        losers = pl.concat([*decided, over, pl.Series([], dtype=pl.UInt64)]).unique()
        return Duplicates(cdc, ids, found["url"]["node"], found["exact"]["node"], over,
                          near.cast(NEAR), cross_split(verified, losers, self.params))  # type: ignore[arg-type]

    def losers(self) -> pl.DataFrame:
        """The candidates an enabled dup.* rule rejects (node), from the passes' results."""
        found = self.decide()
        enabled = self.enabled()
        parts = [found.url if "dup.url" in enabled else None, found.exact if "dup.exact" in enabled else None,
                 found.near["node"] if "dup.near" in enabled else None,
                 found.ids.read_results(IDS, pl.col("record_duplicate"))["node"] if "dup.record" in enabled else None,
                 found.cdc_over if "dup.cdc" in enabled else None,
                 found.cross["node"] if cross_split_threshold(self.params) is not None else None]
        nodes = [part for part in parts if part is not None]
        return pl.DataFrame({"node": pl.concat(nodes).unique().sort() if nodes else pl.Series([], dtype=pl.UInt64)},
                            schema=NODES)


@dataclass(frozen=True)
class Duplicates:
    """What the passes decided: the nodes that lose each pass and the near duplicates (small: one
    row a duplicate), and the directories whose results are read one unit at a time (CDC
    fractions, id repeats)."""

    cdc: PassDirectory
    ids: PassDirectory
    url: pl.Series
    exact: pl.Series
    cdc_over: pl.Series  # nodes whose CDC fraction is over the limit (empty without one)
    near: pl.DataFrame  # node, near_duplicate, near_duplicate_distance, near_duplicate_similarity, containment
    cross: pl.DataFrame  # node, cross_split_containment, cross_split_train_id (filters.corpus.near.CROSS)

    def for_file(self, file_index: int) -> pl.DataFrame:
        """The duplication signals of one unit's rows (SIGNALS, one row per candidate or repeated
        id, by row)."""
        in_file = in_unit(file_index)
        fractions = self.cdc.read_results(FRACTIONS, in_file)
        candidates = fractions.join(self.near.filter(in_file), on="node", how="left").select(
            "node", pl.col("fraction").alias("cdc_duplicated_fraction"),
            pl.col("node").is_in(self.exact.implode()).alias("exact_duplicate"),
            pl.col("node").is_in(self.url.implode()).alias("url_duplicate"),
            pl.col("near_duplicate").fill_null(False),
            "near_duplicate_distance", "near_duplicate_similarity", "near_duplicate_containment") \
            .join(self.cross.filter(in_file), on="node", how="left")
        repeats = self.ids.read_results(IDS, in_file).drop("candidate")
        return candidates.join(repeats, on="node", how="full", coalesce=True).select(
            file_of(pl.col("node")).alias("file"), row_of(pl.col("node")).alias("row"),
            pl.all().exclude("node")).sort("row").cast(SIGNALS)  # type: ignore[arg-type]  # polars: type classes
