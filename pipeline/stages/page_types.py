"""The page-type model in select (`filters.page_model.decision.type_columns`) over the rows of
extract files: `page_type`, `article_probability` and the signal `page.not_article` reads.

The model runs in select, not in extract, so a new model file, threshold or `keep_types` never
re-extracts. Predictions are made one slice of rows at a time (memory stays flat) and joined to
the rows by their index in the file, in both of select's passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from filters.page_model.decision import type_columns
from filters.page_model.features import PAGE_TYPES
from filters.page_model.model import load_model
from pipeline.params import Params, ParamsError

# What the model reads of a row (`filters.page_model.features.page_features`).
ROW_FIELDS = ("url", "title", "author", "published", "description", "article_score", "word_count", "text", "signals")
COLUMNS = ("page_type", "article_probability", "kept_type_probability")
SLICE_ROWS = 1_000
# Pages that were parsed (the structure signals exist): not a record the decoder or a record,
# URL or input rule turned away before the page was read. Only these get a page type.
PARSED = pl.col("signals").struct.field("structure_link_count").is_not_null()
_SCHEMA = {"row": pl.UInt32, "page_type": pl.String, "article_probability": pl.Float64,
           "kept_type_probability": pl.Float64}


def model_enabled(params: Params) -> bool:
    return params.select.page.use_page_model


def check_keep_types(params: Params) -> None:
    unknown = sorted(set(params.select.page.keep_types) - set(PAGE_TYPES))
    if unknown or not params.select.page.keep_types:
        raise ParamsError(f"'select.page.keep_types' must name page types among {', '.join(PAGE_TYPES)}, "
                          f"got {list(params.select.page.keep_types)}")


def predictions(unit: Sequence[str], params: Params) -> pl.DataFrame:
    """row, page_type, article_probability, kept_type_probability for the parsed pages of a unit's
    extract files (read as one, `pipeline.stages.select`)."""
    if not model_enabled(params):
        return pl.DataFrame(schema=_SCHEMA)
    check_keep_types(params)
    model = load_model(params.select.page.model)
    frames = []
    scan = pl.scan_parquet(list(unit)).with_row_index("row")
    total = scan.select(pl.len()).collect().item()
    for start in range(0, total, SLICE_ROWS):
        part = scan.slice(start, SLICE_ROWS).filter(PARSED).select("row", *ROW_FIELDS).collect()
        if part.is_empty():
            continue
        rows: list[dict[str, Any]] = part.to_dicts()
        columns = type_columns(rows, model.full, params.select.page.keep_types)
        frames.append(pl.DataFrame({
            "row": part["row"],
            "page_type": columns.page_type,
            "article_probability": columns.article_probability,
            "kept_type_probability": columns.kept_type_probability,
        }, schema=_SCHEMA))
    return pl.concat(frames) if frames else pl.DataFrame(schema=_SCHEMA)


def attach(frame: pl.LazyFrame, predicted: pl.DataFrame) -> pl.LazyFrame:
    """`frame` (with its `row` index) with the model's columns, and `kept_type_probability` in
    `signals` (null where the model did not run)."""
    joined = frame.join(predicted.lazy(), on="row", how="left", maintain_order="left")
    return joined.with_columns(
        pl.col("signals").struct.with_fields(pl.col("kept_type_probability"))).drop("kept_type_probability")
