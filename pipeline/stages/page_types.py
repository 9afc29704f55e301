"""The page-type model in select (`filters.page_model.decision.type_columns`) over the rows of
extract files: `page_type`, `article_probability` and the signal `page.not_article` reads.

The model runs in select, not in extract, so a new model file, threshold or `keep_types` never
re-extracts. Predictions are made one slice of rows at a time (memory stays flat) and joined to
the rows by their index in the file, in both of select's passes.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from filters.page_model.decision import parsed_expr, type_columns
from filters.page_model.features import PAGE_TYPES
from filters.page_model.model import load_model
from pipeline.params import Params, ParamsError
from pipeline.run.executors import Executor, raise_failures

# What the model reads of a row (`filters.page_model.features.page_features`).
ROW_FIELDS = ("url", "title", "author", "published", "description", "article_score", "word_count", "text", "signals")
COLUMNS = ("page_type", "article_probability", "kept_type_probability")
# Rows predicted at a time: memory stays flat, and a run of one input file still has a slice for each
# of a few workers (trafilatura-eval's 990 rows are two).
SLICE_ROWS = 500
# Pages that were parsed (the structure signals exist): not a record the decoder or a record,
# URL or input rule turned away before the page was read. Only these get a page type.
PARSED = parsed_expr()
_SCHEMA = {"row": pl.UInt32, "page_type": pl.String, "article_probability": pl.Float64,
           "kept_type_probability": pl.Float64}


def model_enabled(params: Params) -> bool:
    return params.select.page.use_page_model


def check_keep_types(params: Params) -> None:
    unknown = sorted(set(params.select.page.keep_types) - set(PAGE_TYPES))
    if unknown or not params.select.page.keep_types:
        raise ParamsError(f"'select.page.keep_types' must name page types among {', '.join(PAGE_TYPES)}, "
                          f"got {list(params.select.page.keep_types)}")


def predictions(unit: Sequence[str], params: Params, executor: Executor | None = None) -> pl.DataFrame:
    """row, page_type, article_probability, kept_type_probability for the parsed pages of a unit's
    extract files (read as one, `pipeline.stages.select`), a slice of `SLICE_ROWS` rows at a time;
    the slices over `executor`'s workers when given (each row's prediction is its own: the same
    columns however the rows are cut)."""
    if not model_enabled(params):
        return pl.DataFrame(schema=_SCHEMA)
    check_keep_types(params)
    total = pl.scan_parquet(list(unit)).select(pl.len()).collect().item()
    tasks = [(tuple(unit), params, start, SLICE_ROWS) for start in range(0, total, SLICE_ROWS)]
    if executor is None:
        frames = [slice_predictions(task) for task in tasks]
    else:
        frames = raise_failures(executor.map(slice_predictions, tasks, label="page types"), "page-type")
    frames = [frame for frame in frames if not frame.is_empty()]
    return pl.concat(frames) if frames else pl.DataFrame(schema=_SCHEMA)


def slice_predictions(task: tuple[tuple[str, ...], Params, int, int]) -> pl.DataFrame:
    """`predictions` of `rows` rows from `start` of the unit (a task: unit, params, start, rows)."""
    unit, params, start, rows = task
    model = load_model(params.select.page.model)
    scan = pl.scan_parquet(list(unit)).with_row_index("row")
    part = scan.slice(start, rows).filter(PARSED).select("row", *ROW_FIELDS).collect()
    if part.is_empty():
        return pl.DataFrame(schema=_SCHEMA)
    columns = type_columns(part.to_dicts(), model.full, params.select.page.keep_types)
    return pl.DataFrame({
        "row": part["row"],
        "page_type": columns.page_type,
        "article_probability": columns.article_probability,
        "kept_type_probability": columns.kept_type_probability,
    }, schema=_SCHEMA)


def attach(frame: pl.LazyFrame, predicted: pl.DataFrame) -> pl.LazyFrame:
    """`frame` (with its `row` index) with the model's columns, and `kept_type_probability` in
    `signals` (null where the model did not run)."""
    joined = frame.join(predicted.lazy(), on="row", how="left", maintain_order="left")
    return joined.with_columns(
        pl.col("signals").struct.with_fields(pl.col("kept_type_probability"))).drop("kept_type_probability")
