"""What the rules phase hands the passes of each unit (`pipeline.stages.decide`): the
candidates' key columns and every row's id columns."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from filters.page.url_rules import normalize_url


def id_columns(unit: Sequence[str]) -> pl.DataFrame:
    """The columns the id check reads of every row of a unit's extract files (with its `row`)."""
    return pl.scan_parquet(list(unit)).with_row_index("row").select(
        pl.col("row").cast(pl.UInt32), "id", "record_type", "source_file", "source_offset", "warc_date").collect()


def canonical_key(canonical_url: str | None) -> str | None:
    return normalize_url(canonical_url) if canonical_url else None


def compact_columns(frame: pl.LazyFrame, file_index: int, split: pl.Expr) -> pl.LazyFrame:
    """The few columns the global passes need (keys, hashes, order, the `split` the row is written
    to: its kind's `UnitKind.split`; never the text), for candidates only: rows another rule rejected
    take no part in de-duplication."""
    signals = pl.col("signals")
    columns = {field.name for field in frame.collect_schema()["signals"].fields}  # type: ignore[attr-defined]
    return frame.filter(pl.col("reasons").list.len() == 0).select(
        pl.lit(file_index, dtype=pl.UInt32).alias("file"),
        pl.col("row"),
        pl.col("id"), pl.col("host"), pl.col("warc_date"), pl.col("url"), pl.col("normalized_url"),
        pl.col("canonical_url").map_elements(canonical_key, return_dtype=pl.String).alias("canonical_key"),
        signals.struct.field("content_hash").alias("content_hash"),
        signals.struct.field("simhash64").alias("simhash64"),
        signals.struct.field("minhash").alias("minhash"),
        _field(signals, "minhash_shingles", columns),
        split.alias("split"),
    )


def _field(signals: pl.Expr, name: str, present: set[str]) -> pl.Expr:
    """A signal that work directories extracted by an older version lack (null there)."""
    return (signals.struct.field(name) if name in present else pl.lit(None, dtype=pl.Int32)).alias(name)
