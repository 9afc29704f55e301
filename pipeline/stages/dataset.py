"""Detector-dataset assembly at the end of select (docs/dataset.md; the rules are in filters/corpus/dataset.py).

* the per-site balance (`dataset.host_min`, `dataset.host_cap`) is counted over partitions of
  sites by `pipeline/stages/balance.py`, after de-duplication.
* `with_dataset_columns`: `split` (by site, `split_expr`), `era`, `era_date` and `era_date_source`
  of every row.
* `DatasetCounts`: what stats.json and the dataset card say about the accepted pages.

Everything depends only on the rows and params, never on input order, workers or executor.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa

from filters.corpus.dataset import (
    SPLITS,
    cutoff_end,
    date_source,
    era_columns,
    page_written,
    shown_age,
    site_of,
    split_of,
)
from pipeline.params import Params, era_cutoff
from pipeline.store.writers import ShardWriter


def site_unit(params: Params) -> str:
    """The site unit of the balance: `dataset.split_by`, or the host when there are no splits."""
    return params.dataset.split_by or "host"


def with_dataset_columns(frame: pl.LazyFrame, params: Params) -> pl.LazyFrame:
    """`frame` with `split`, `era`, `era_date`, `era_date_source` (filters/corpus/dataset.py) and
    `text_language`."""
    split = page_split(params).alias("split")
    modified = pl.col("updated") if params.dataset.era_unmodified_since_cutoff else None
    columns = era_columns(era_cutoff(params), page_written(), floor=(pl.col("published"), date_source()),
                          modified=modified, age=shown_age())
    return frame.with_columns(split, *columns, text_language())


def text_language() -> pl.Expr:
    """The `text_language` column of a page or segment: the language identified from its written
    text (its signal)."""
    return pl.col("signals").struct.field("text_language").alias("text_language")


def page_split(params: Params) -> pl.Expr:
    """A page's split (`split_expr` of its content hash signal): the write pass writes it and the
    near passes' sketches carry it (`pipeline.stages.decide.UnitKind.split`)."""
    return split_expr(params, pl.col("signals").struct.field("content_hash"))


def split_expr(params: Params, content_hash: pl.Expr) -> pl.Expr:
    """Each row's split (`splitter`), from its `host`, `content_hash` and `id`: the one expression
    both the write pass and the near passes' sketches (`dataset.cross_split`) split by, so the
    cross-split rule compares the splits the pages are written to."""
    page_split = splitter(params)
    if page_split is None:
        return pl.lit(None, dtype=pl.String)
    # A page without a site goes by its content hash (the same text lands in one split), else its id.
    key = pl.coalesce(content_hash, "id").alias("key")
    return pl.struct("host", key).map_elements(lambda row: page_split(row["host"], row["key"]),
                                               return_dtype=pl.String)


def splitter(params: Params) -> Callable[[str | None, str | None], str | None] | None:
    """host, key -> split: by the page's site, or by `key` (its content hash, else its id) when it
    has no site (no host)."""
    dataset = params.dataset
    unit = dataset.split_by
    if unit is None:
        return None
    ratios = dataclasses.astuple(dataset.split)

    @functools.lru_cache(maxsize=65536)
    def of_site(host: str) -> str | None:
        site = site_of(host, unit)
        return None if site is None else split_of(site, ratios, dataset.seed)

    def split(host: str | None, key: str | None) -> str | None:
        by_site = of_site(host) if host else None
        if by_site is not None:
            return by_site
        return split_of(f"page:{key}", ratios, dataset.seed) if key is not None else None

    return split


class DatasetCounts:
    """Accepted pages by split, era and language (the `language` column, else the language ID of
    the text); sites per split; era date sources."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.cells: Counter[tuple[str, str, str]] = Counter()
        self.sources: Counter[tuple[str, str, str]] = Counter()  # split, era, era_date_source
        self.updated_late: Counter[str] = Counter()  # pre_cutoff pages updated after the cut-off, per split
        self.sites: dict[str, set[str]] = {}
        self.unit = site_unit(params)
        self.cross_split: Counter[str] = Counter()  # pages rejected by dataset.cross_split, per split

    def add(self, accepted: pl.DataFrame) -> None:
        if accepted.is_empty():
            return
        split = accepted["split"].fill_null("none")
        # the language a user filters by, the card's and Hugging Face's: the text's (`text_language`)
        language = accepted.select(pl.col("text_language").fill_null("unknown"))
        self.cells.update(zip(split, accepted["era"], language.to_series(), strict=True))
        sources = accepted["era_date_source"].fill_null("none")
        self.sources.update(zip(split, accepted["era"], sources, strict=True))
        late = accepted.filter((pl.col("era") == "pre_cutoff")
                               & (pl.col("updated") >= pl.lit(cutoff_end(era_cutoff(self.params)))))
        self.updated_late.update(late["split"].fill_null("none").to_list())
        for name, host in zip(split, accepted["host"], strict=True):
            site = site_of(host, self.unit)
            if site is not None:
                self.sites.setdefault(name, set()).add(site)

    def add_cross_split(self, rows: pl.DataFrame) -> None:
        """Count the rows `dataset.cross_split` rejects, per split."""
        rejected = rows.filter(pl.col("reasons").list.contains("dataset.cross_split"))
        self.cross_split.update(rejected["split"].fill_null("none").to_list())

    def to_stats(self) -> dict[str, Any]:
        """stats.json["dataset"]: what the dataset card reports."""
        dataset = self.params.dataset
        names = [*SPLITS] if dataset.split_by is not None else ["none"]
        splits: dict[str, Any] = {}
        for name in names:
            cells = {key: count for key, count in self.cells.items() if key[0] == name}
            by_era: Counter[str] = Counter()
            by_language: Counter[str] = Counter()
            by_era_language: Counter[str] = Counter()
            for (_split, era, language), count in cells.items():
                by_era[era] += count
                by_language[language] += count
                by_era_language[f"{era}/{language}"] += count
            by_source = {f"{era}/{source}": count for (split, era, source), count in self.sources.items()
                         if split == name}
            splits[name] = {"pages": sum(cells.values()), "sites": len(self.sites.get(name, ())),
                            "era": dict(sorted(by_era.items())), "language": dict(sorted(by_language.items())),
                            "era_language": dict(sorted(by_era_language.items())),
                            "era_date_source": dict(sorted(by_source.items())),
                            "pre_cutoff_updated_after_cutoff": self.updated_late.get(name, 0)}
        threshold = dataset.cross_split_min_containment if dataset.split_by is not None else None
        cross_split = {"min_containment": threshold, "shingles": "word 5-grams (exact, of MinHash LSH candidates)",
                       "rejected": {name: self.cross_split.get(name, 0) for name in SPLITS}}
        return {"split_by": dataset.split_by, "site_unit": self.unit, "era_cutoff": dataset.era_cutoff,
                "splits": splits, "era_date_source": dict(sorted(self._source_totals().items())),
                "cross_split": cross_split}

    def _source_totals(self) -> Counter[str]:
        totals: Counter[str] = Counter()
        for (_split, _era, source), count in self.sources.items():
            totals[source] += count
        return totals


class SplitWriters:
    """The shard writers of one dataset (pages, or segments): `rejected/part-NNNNN`, and
    `accepted/SPLIT-NNNNN-of-MMMMM` per split (the Hugging Face layout), or `accepted/part-NNNNN`
    without splits."""

    def __init__(self, accepted: Path, rejected: Path, schema: pa.Schema, params: Params) -> None:
        output = params.select.output
        self.schema = schema

        def writer(directory: Path, prefix: str = "part", of_total: bool = False) -> ShardWriter:
            return ShardWriter(directory, schema, output.shard_max_rows, output.shard_max_bytes,
                               prefix=prefix, of_total=of_total)

        self.rejected = writer(rejected)
        self.by_split = params.dataset.split_by is not None
        self.accepted = ({name: writer(accepted, name, of_total=True) for name in SPLITS}
                         if self.by_split else {None: writer(accepted)})

    def write(self, frame: pl.DataFrame) -> None:
        rejected = frame.filter(~pl.col("kept"))
        if rejected.height:
            self.rejected.write(self._table(rejected))
        accepted = frame.filter(pl.col("kept"))
        for name, writer in self.accepted.items():
            part = accepted.filter(pl.col("split") == name) if self.by_split else accepted
            if part.height:
                writer.write(self._table(part))

    def close(self) -> None:
        for writer in (self.rejected, *self.accepted.values()):
            writer.close()

    def _table(self, frame: pl.DataFrame) -> pa.Table:
        return frame.select(self.schema.names).to_arrow().cast(self.schema)
