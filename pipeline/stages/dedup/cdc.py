"""Content-defined chunks (pass `cdc`, by host): each candidate's text cut into Rabin (or
FastCDC) chunks, and the fraction of its text in chunks an earlier candidate of its host had
(`filters.corpus.cdc`; Manber 1994)."""

from __future__ import annotations

import polars as pl

from filters.corpus.cdc import chunk_hashes, duplicated_fraction, mark_seen
from pipeline.stages.dedup.partitions import REPEATS, PartitionTask, read_candidates, texts_of
from pipeline.stages.dedup.spec import Between, Feed, KeyBatch, Part, Pass, Texts, View

NAME = "cdc"
FRACTIONS = {"node": pl.UInt64, "fraction": pl.Float64}


def host_rows(batch: KeyBatch) -> pl.DataFrame | None:
    """A candidate's host ("" without one), date and node."""
    if batch.compact.is_empty():
        return None
    return batch.keyed.select(pl.col("host").fill_null(""), "date", "node")


def cdc_task(task: PartitionTask) -> None:
    """One partition of hosts: texts chunked, then each host's candidates in the global order."""
    settings = task.settings  # pipeline.stages.dedup.driver.DedupSettings
    members = read_candidates(task, {"host": pl.String, "date": pl.Int64, "node": pl.UInt64})
    cdc = settings.cdc
    pages = {member: chunk_hashes(text or "", cdc.algorithm, fastcdc_avg=cdc.fastcdc_avg_bytes)
             for member, text in texts_of(members["node"], settings.readable_files())}
    nodes, fractions = [], []
    for _host, group in members.sort("date", "node").group_by("host", maintain_order=True):
        seen: set[int] = set()
        for member in group["node"]:
            hashes, sizes = pages.pop(member)
            nodes.append(member)
            fractions.append(duplicated_fraction(hashes, sizes, seen))
            mark_seen(seen, hashes)
    task.directory.write_result(task.partition, pl.DataFrame(
        {"node": nodes, "fraction": fractions}, schema=FRACTIONS).sort("node"))


def over_limit(view: View) -> pl.Series:
    """The candidates whose fraction is over `select.dedup.cdc.max_duplicated_fraction` (none without one)."""
    limit = view.params.select.dedup.cdc.max_duplicated_fraction
    if limit is None:
        return pl.Series([], dtype=pl.UInt64)
    return view.results(NAME, FRACTIONS, pl.col("fraction") > limit)["node"]


# Its part: candidates over the limit keep nothing; its results hold every candidate the passes see.
PART = Part("dup.cdc", ("cdc_duplicated_fraction",), blocked=over_limit, base=True,
            unit=lambda view, in_unit: view.results(NAME, FRACTIONS, in_unit).rename(
                {"fraction": "cdc_duplicated_fraction"}))
PASS = Pass(NAME, cdc_task, Feed(host_rows, "host", ("host", "date", "node")), part=PART,
            reads=(Between(REPEATS), Texts("the candidates' texts in the extract files")), result=tuple(FRACTIONS))
