"""URL and exact duplicates (passes `url` and `exact`): the candidates that share a normalized
URL or canonical URL, or a content hash, grouped by key (`filters.corpus.keepers` keeps the
first of each group that no earlier kept page excludes)."""

from __future__ import annotations

import polars as pl

from filters.corpus.keepers import GROUPS
from pipeline.stages.dedup.partitions import REPEATS, PartitionTask, read_candidates
from pipeline.stages.dedup.spec import Between, Feed, KeyBatch, Part, Pass


def url_rows(batch: KeyBatch) -> pl.DataFrame | None:
    """A candidate's normalized URL and its canonical URL's, each a key."""
    if batch.compact.is_empty():
        return None
    return batch.keyed.select(
        pl.concat_list("normalized_url", "canonical_key").list.drop_nulls().list.unique().alias("key"),
        "date", "node").explode("key").drop_nulls("key")


def exact_rows(batch: KeyBatch) -> pl.DataFrame | None:
    """A candidate's content hash (of its normalized text)."""
    if batch.compact.is_empty():
        return None
    return batch.keyed.select(pl.col("content_hash").alias("key"), "date", "node").drop_nulls("key")


def groups_task(task: PartitionTask) -> None:
    """URL and exact passes: the members (node, date, group) of every key that two or more
    candidates share. A group is named by the partition and the key's rank in it."""
    rows = read_candidates(task, {"key": pl.String, "date": pl.Int64, "node": pl.UInt64}).unique(["key", "node"])
    shared = rows.filter(pl.len().over("key") > 1)
    group = pl.col("key").rank("dense").cast(pl.UInt64) + (task.partition << 32)
    task.directory.write_result(task.partition, shared.select("node", "date", group.alias("group"))
                                .sort("node", "group"))


def group_part(name: str, rule: str, signal: str) -> Part:
    """The part of a pass of groups: its groups in the one keeper choice, `signal` on the pages that lose."""
    return Part(rule, (signal,), groups=lambda view: view.results(name, GROUPS), fill={signal: False})


URL = Pass("url", groups_task, Feed(url_rows, "key", ("key (normalized URL, canonical URL)", "date", "node")),
           reads=(Between(REPEATS),), result=tuple(GROUPS), part=group_part("url", "dup.url", "url_duplicate"))
EXACT = Pass("exact", groups_task, Feed(exact_rows, "key", ("key (content hash)", "date", "node")),
             reads=(Between(REPEATS),), result=tuple(GROUPS), part=group_part("exact", "dup.exact", "exact_duplicate"))
