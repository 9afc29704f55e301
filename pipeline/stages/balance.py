"""The dataset step's per-site balance (`dataset.host_min`, `dataset.host_cap`; docs/dataset.md):
a pass over partitions of sites, run after de-duplication (`pipeline.stages.decide`), declared
like the de-duplication passes (`pipeline.stages.dedup.spec.Pass`) and run by the same driver."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from filters.corpus.dataset import sample_key, site_of
from pipeline.stages.dataset import site_unit
from pipeline.stages.dedup.graph import Round
from pipeline.stages.dedup.ids import NAME as IDS_PASS
from pipeline.stages.dedup.ids import new_ids
from pipeline.stages.dedup.partitions import LOSERS, PartitionTask, PassDirectory, in_unit, node, row_of
from pipeline.stages.dedup.spec import Between, Feed, KeyBatch, Pass, Results, declared_types

NAME = "sites"
SITES = {"node": pl.UInt64, **declared_types(("site_accepted_pages", "site_sample_rank"))}
BALANCE = {"row": pl.UInt32, **declared_types(("site_accepted_pages", "site_sample_rank"))}


def site_rows(batch: KeyBatch) -> pl.DataFrame | None:
    """A candidate's site (the balance's unit, `dataset.site_unit`), id and node."""
    if batch.compact.is_empty():
        return None
    unit = site_unit(batch.params)
    return batch.compact.select(
        pl.col("host").map_elements(lambda host: site_of(host, unit), return_dtype=pl.String).alias("site"),
        "id", node(batch.file_index)).drop_nulls("site")


def site_task(task: PartitionTask) -> None:
    """Per-site balance of one partition of sites: among the candidates no dup rule rejected,
    how many the site has (`site_accepted_pages`) and each one's rank in the site's
    deterministic sample (`site_sample_rank`, by the hash of its id: the new id of a repeated id)."""
    settings = task.settings  # pipeline.stages.dedup.driver.DedupSettings
    rows = task.directory.read_fragments(task.partition, {"site": pl.String, "id": pl.String, "node": pl.UInt64})
    root = Path(task.directory.root)
    losers = pl.read_parquet(root / LOSERS)["node"]
    ids = new_ids(task.directory.root, task.directory.partitions, rows["node"])
    kept = rows.filter(~pl.col("node").is_in(losers.implode())).join(ids, on="node", how="left")
    keys = pl.Series("key", [sample_key(settings.seed, page) for page in
                             kept.select(pl.coalesce("new_id", "id"))["new_id"]], dtype=pl.Binary)
    task.directory.write_result(task.partition, kept.with_columns(keys).select(
        "node", pl.len().over("site").cast(pl.Int32).alias("site_accepted_pages"),
        (pl.col("key").rank("ordinal").over("site") - 1).cast(pl.Int32).alias("site_sample_rank")).sort("node"))


PASS = Pass(NAME, site_task, Feed(site_rows, "site", ("site", "id", "node")),
            reads=(Between(LOSERS), Results(IDS_PASS)), result=tuple(SITES))
ROUND: Round = ((PASS,), None)


def for_unit(directory: PassDirectory, file_index: int) -> pl.DataFrame:
    """The balance signals of one unit's candidates no dup.* rule rejected (`BALANCE`, by row)."""
    return directory.read_results(SITES, in_unit(file_index)).select(
        row_of(pl.col("node")).alias("row"), "site_accepted_pages", "site_sample_rank").cast(BALANCE)  # type: ignore[arg-type]


@dataclass(frozen=True)
class DatasetStep:
    """A pass of the dataset step that a unit kind declares it runs after de-duplication
    (`pipeline.stages.decide.UnitKind.dataset_steps`): its round, and its signals of one unit's rows
    (by row) from its directory."""

    round: Round
    for_unit: Callable[[PassDirectory, int], pl.DataFrame]

    @property
    def name(self) -> str:
        return self.round[0][0].name


# The per-site balance as a step of the dataset.
STEP = DatasetStep(ROUND, for_unit)
