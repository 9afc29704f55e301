"""Record ids: copies of one `WARC-Record-ID` keep one id (pass `ids`, over every row, not only
candidates: ids must be unique over accepted/ and rejected/ together). Its repeats that are
re-read documents (`dup.record`) are left out of every later pass (`REPEATS`)."""

from __future__ import annotations

import polars as pl

from filters.corpus.keepers import NODES
from pipeline.io.records import DOCUMENT_TYPES, synthetic_id
from pipeline.stages.dedup.partitions import PartitionTask, PassDirectory, date_key, node
from pipeline.stages.dedup.spec import Feed, KeyBatch, Part, Pass, View, declared_types

NAME = "ids"
IDS = {"node": pl.UInt64, "new_id": pl.String, **declared_types(("record_duplicate",)), "candidate": pl.Boolean}


def id_rows(batch: KeyBatch) -> pl.DataFrame:
    """Every row's id, node, date key, whether it is a candidate, and where it was read."""
    return batch.ids.select(
        pl.col("id").alias("key"), node(batch.file_index), date_key(),
        pl.col("row").is_in(batch.compact["row"].implode()).alias("candidate"),
        "record_type", "source_file", "source_offset")


def id_repeats_task(task: PartitionTask) -> None:
    """Rows whose `id` another row has: every row of such an id but one, with a new unique id
    (`new_id`) and `record_duplicate` when both it and the kept row are documents (the same WARC
    record read twice). The row that keeps the id is the first in the global order that passes
    every other rule (a candidate), else the first. Every row takes part (not only candidates),
    since ids must be unique over accepted/ and rejected/ together."""
    rows = task.directory.read_fragments(task.partition, {"key": pl.String, "node": pl.UInt64, "date": pl.Int64,
                                                          "candidate": pl.Boolean, "record_type": pl.String,
                                                          "source_file": pl.String, "source_offset": pl.Int64})
    ordered = rows.filter(pl.len().over("key") > 1).sort(~pl.col("candidate"), "date", "node").with_columns(
        pl.col("record_type").first().over("key").alias("kept_type"),
        pl.col("node").first().over("key").alias("kept"))
    repeats = ordered.filter(pl.col("node") != pl.col("kept")).sort("node")
    new_ids = [synthetic_id(f, o, t) for f, o, t in repeats.select("source_file", "source_offset", "record_type")
               .iter_rows()]
    task.directory.write_result(task.partition, repeats.select(
        "node", pl.Series("new_id", new_ids, dtype=pl.String),
        (pl.col("record_type").is_in(DOCUMENT_TYPES) & pl.col("kept_type").is_in(DOCUMENT_TYPES))
        .alias("record_duplicate"), "candidate").cast(IDS))  # type: ignore[arg-type]  # polars accepts type classes


def repeats(view: View) -> pl.DataFrame:
    """The candidates that are re-read records (`dup.record` on), which no later pass sees
    (`partitions.REPEATS`)."""
    if not view.enabled("dup.record"):
        return pl.DataFrame(schema=NODES)
    return view.results(NAME, IDS, pl.col("record_duplicate") & pl.col("candidate")).select("node").sort("node")


# Its part: the new ids and `record_duplicate` of the repeated ids, rows of their own beside the candidates.
PART = Part("dup.record", ("new_id", "record_duplicate"),
            unit=lambda view, in_unit: view.results(NAME, IDS, in_unit).drop("candidate"), full=True,
            losers=lambda view: view.results(NAME, IDS, pl.col("record_duplicate"))["node"], then=repeats,
            types={"new_id": pl.String})
PASS = Pass(NAME, id_repeats_task,
            Feed(id_rows, "key", ("key (id)", "node", "date", "candidate", "record_type", "source_file",
                                  "source_offset")),
            result=tuple(IDS), part=PART)


def new_ids(root: str, partitions: int, nodes: pl.Series) -> pl.DataFrame:
    """The new ids (node, new_id) this pass gave the repeated ids among `nodes`, from its results
    under the partitions `root` (the per-site balance samples a page by the id it is written with)."""
    return PassDirectory(root, NAME, partitions).read_results(IDS, pl.col("node").is_in(nodes.implode())).select(
        "node", "new_id")
