"""`pipeline report DIR`: figures (PNG), the data behind them (CSV) and an `index.html` for one run.

Reads `DIR/stats.json` and only the shard columns each figure needs (lazy polars scans; the
`text` column is never read). Every figure is written next to its CSV, which DVC uses as plots.
This module computes the tables and writes the CSVs; `pipeline/report/figures.py` draws the
figures and `pipeline/report/html.py` writes `index.html`.

The output is reproducible byte for byte: fixed figure sizes, no timestamps and no software
version in the PNG metadata, no paths or dates in the HTML.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from pipeline.report.accepted_pages import (
    TOP_CATEGORIES,
    chart_section,
    host_minimums,
    host_pages,
    hosts_section,
    languages_section,
    reason_examples,
    split_era_section,
    split_tables,
    years_section,
)
from pipeline.report.figures import (
    bar_height,
    draw_funnel,
    draw_heatmap,
    draw_histogram,
    draw_horizontal_bars,
    draw_reason_bars,
)
from pipeline.report.html import Section, render_index
from pipeline.run.executors import Executor, LocalExecutor, raise_failures

TOP_REASONS = 20  # the co-occurrence matrix stays readable up to about this many rows


@dataclass(frozen=True)
class SignalPlot:
    """One histogram: a signal and the rule whose threshold is drawn on it."""

    name: str  # file stem, and the column name in the projected frame
    title: str
    xlabel: str
    rule: str  # reason code in filters.rules.reasons; its params key gives the threshold
    is_fraction: bool  # values in [0, 1]: fixed bins over that range


SIGNAL_PLOTS: tuple[SignalPlot, ...] = (
    SignalPlot("article_score", "Article score", "article score (points)", "article.score", False),
    SignalPlot("word_count", "Length of the extracted text", "words per page", "length.tokens", False),
    SignalPlot("link_code_char_fraction", "Text inside links or code",
               "link/code characters ÷ text characters", "block.link_code", True),
    SignalPlot("large_block_char_fraction", "Text in large blocks",
               "characters in blocks ≥ 200 chars ÷ text characters", "block.large_block_share", True),
    SignalPlot("product_score", "Shop-page evidence (filters/page/product.py)", "product score (points)",
               "page.product", False),
    SignalPlot("cdc_duplicated_fraction", "Text already seen on the same host (CDC)",
               "duplicated bytes ÷ text bytes", "dup.cdc", True),
    SignalPlot("gopher_alpha_word_fraction", "Words with an alphabetic character (Gopher)",
               "alphabetic words ÷ words", "gopher.alpha_words", True),
    SignalPlot("kept_type_probability", "Page-type model: probability of the kept types",
               "probability (select.page.keep_types)", "page.not_article", True),
)
TOP_LEVEL_COLUMNS: dict[str, pl.DataType] = {
    "kept": pl.Boolean(), "reasons": pl.List(pl.String()), "host": pl.String(), "language": pl.String(),
    "published": pl.Datetime("us", "UTC"), "word_count": pl.Int32(), "article_score": pl.Int32(),
    "split": pl.String(), "era": pl.String(), "era_date_source": pl.String(), "page_type": pl.String(),
}
SIGNAL_FIELDS: dict[str, pl.DataType] = {
    "link_code_char_fraction": pl.Float64(), "large_block_char_fraction": pl.Float64(),
    "cdc_duplicated_fraction": pl.Float64(), "gopher_alpha_word_fraction": pl.Float64(),
    "product_score": pl.Int32(), "text_language": pl.String(), "kept_type_probability": pl.Float64(),
}


# ---------------------------------------------------------------- entry point

def write_report(run_dir: Path, out_dir: Path, executor: Executor | None = None,
                 here_too: bool = False) -> list[Path]:
    """Write every figure, its CSV and `index.html` into `out_dir`; return the paths written.

    The figures are independent: with an `executor` of several workers (`pipeline run
    --workers N`) they are drawn in parallel, each worker reading the run's files itself. With
    `here_too` and a local executor, this process draws too, taking figures from the same queue
    as its workers (`LocalExecutor.map_here_too`): a one-worker run's driver, which would only
    wait for its report process.
    """
    stats = load_stats(run_dir)
    rows = scan_rows(run_dir)
    minimums = host_minimums(host_pages(rows))
    splits = split_tables(rows, stats)
    examples = reason_examples(run_dir, stats)
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs = [SectionJob(run_dir, out_dir, name, rule_facts(PLOT_SECTIONS[name]) if name in PLOT_SECTIONS else None)
            for name in SECTIONS]
    executor = executor or LocalExecutor(1)
    drawn = (executor.map_here_too(draw_section, jobs, "report") if here_too and isinstance(executor, LocalExecutor)
             else executor.map(draw_section, jobs, "report"))
    sections = raise_failures(drawn, "report figure")
    index = out_dir / "index.html"
    index.write_text(render_index(stats, reasons_table(stats), minimums, sections, splits, examples),
                     encoding="utf-8")
    written = [out_dir / name for section in sections for name in (section.image, *section.data)]
    return [*written, index]


@dataclass(frozen=True)
class RuleFacts:
    """What a histogram shows of its rule, read from `filters.rules.reasons` by the driver: the
    worker that draws the figure need not import every filter to find them (0.15 s a worker)."""

    code: str
    signal: str
    op: str
    params_key: str | None  # None: no single threshold to draw


def rule_facts(plot: SignalPlot) -> RuleFacts | None:
    from filters.rules.reasons import RULES_BY_CODE

    rule = RULES_BY_CODE.get(plot.rule)
    if rule is None:
        return None
    return RuleFacts(rule.code, rule.signal, rule.op, rule.params_key if isinstance(rule.params_key, str) else None)


@dataclass(frozen=True)
class SectionJob:
    """One section of the report to draw (picklable: a worker process draws it)."""

    run_dir: Path
    out_dir: Path
    name: str
    rule: RuleFacts | None = None  # a signal histogram's rule


PLOT_SECTIONS: dict[str, SignalPlot] = {f"signal_{plot.name}": plot for plot in SIGNAL_PLOTS}
SECTIONS = ("funnel", "reasons", "cooccurrence", "page_types", "segments", "language_keep_rates",
            *PLOT_SECTIONS,
            "hosts",
            "languages", "years", "split_era")


def draw_section(job: SectionJob) -> Section:
    """Compute one section's table, write its CSV and draw its figure.

    A matplotlib figure holds reference cycles: collected after each section, the figures of a
    report never pile up. The objects that existed before the section are frozen meanwhile, so the
    collection scans only the section's own, not a whole extract's worth of objects
    (docs/decisions.md).
    """
    gc.freeze()
    try:
        return _draw_section(job)
    finally:
        gc.collect()
        gc.unfreeze()


def _draw_section(job: SectionJob) -> Section:
    stats = load_stats(job.run_dir)
    rows = scan_rows(job.run_dir)
    out_dir = job.out_dir
    if job.name.startswith("signal_"):
        return signal_section(rows, stats, PLOT_SECTIONS[job.name], job.rule, out_dir)
    if job.name == "hosts":
        pages = host_pages(rows)
        return hosts_section(pages, host_minimums(pages), out_dir)
    draw: dict[str, Callable[[], Section]] = {
        "funnel": lambda: funnel_section(stats, out_dir),
        "reasons": lambda: reasons_section(stats, out_dir),
        "cooccurrence": lambda: cooccurrence_section(rows, out_dir),
        "page_types": lambda: page_types_section(rows, out_dir),
        "segments": lambda: segments_section(stats, out_dir),
        "language_keep_rates": lambda: language_keep_rates_section(rows, out_dir),
        "languages": lambda: languages_section(rows, out_dir),
        "years": lambda: years_section(rows, out_dir),
        "split_era": lambda: split_era_section(rows, out_dir),
    }
    return draw[job.name]()


def load_stats(run_dir: Path) -> dict[str, Any]:
    path = run_dir / "stats.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: is {run_dir} the output of `pipeline run` or `pipeline select`?")
    return json.loads(path.read_text(encoding="utf-8"))


def scan_rows(run_dir: Path) -> pl.LazyFrame:
    """Accepted and rejected rows, projected to the columns the report uses (signals flattened)."""
    files = sorted([*run_dir.glob("accepted/*.parquet"), *run_dir.glob("rejected/*.parquet")])
    if not files:
        return pl.LazyFrame(schema={**TOP_LEVEL_COLUMNS, **SIGNAL_FIELDS})
    frame = pl.scan_parquet(files)
    schema = frame.collect_schema()
    fields = {f.name for f in schema["signals"].fields} if "signals" in schema else set()  # type: ignore[attr-defined]
    return frame.select(
        *(_column_or_null(name, dtype, name in schema) for name, dtype in TOP_LEVEL_COLUMNS.items()),
        *(pl.col("signals").struct.field(name) if name in fields else pl.lit(None, dtype).alias(name)
          for name, dtype in SIGNAL_FIELDS.items()),
    )


def _column_or_null(name: str, dtype: pl.DataType, present: bool) -> pl.Expr:
    return pl.col(name).cast(dtype) if present else pl.lit(None, dtype).alias(name)


# ---------------------------------------------------------------- 1. funnel

def funnel_table(stats: dict[str, Any]) -> pl.DataFrame:
    funnel = stats.get("funnel") or []
    stages = [str(step["stage"]) for step in funnel]
    remaining = [int(step["remaining"]) for step in funnel]
    removed = [previous - left for previous, left in zip([*remaining[:1], *remaining], remaining, strict=False)]
    return pl.DataFrame({"stage": stages, "remaining": remaining, "removed": removed},
                        schema={"stage": pl.String, "remaining": pl.Int64, "removed": pl.Int64})


def funnel_section(stats: dict[str, Any], out_dir: Path) -> Section:
    table = funnel_table(stats)
    return chart_section(out_dir, "funnel", table, (8, bar_height(table.height)),
                         "Records remaining after each stage (records)", lambda _, axes: draw_funnel(axes, table),
                         "Funnel", "Records still in the run after each group of rules, in pipeline order.")


# ---------------------------------------------------------------- 1b. pages per predicted page type

def keep_rates_by(rows: pl.LazyFrame, column: str) -> pl.DataFrame:
    """Per value of `column` (rows where it is null left out): pages, pages kept and the share kept,
    most pages first."""
    return (rows.filter(pl.col(column).is_not_null()).group_by(column)
            .agg(pl.len().cast(pl.Int64).alias("pages"), pl.col("kept").sum().cast(pl.Int64).alias("kept"))
            .with_columns((pl.col("kept") / pl.col("pages")).round(4).alias("keep_rate"))
            .sort(["pages", column], descending=[True, False]).collect())


def page_type_keep_rates(rows: pl.LazyFrame) -> pl.DataFrame:
    """Per type the page-type model predicted: pages, pages kept and the share kept."""
    return keep_rates_by(rows, "page_type")


def page_types_section(rows: pl.LazyFrame, out_dir: Path) -> Section:
    table = page_type_keep_rates(rows)
    labels = [f"{kind} ({rate:.0%} kept)" for kind, rate in zip(table["page_type"], table["keep_rate"], strict=True)]
    return chart_section(out_dir, "page_types", table, (8, bar_height(table.height)),
                         "Pages per predicted page type (pages)",
                         lambda _, axes: draw_horizontal_bars(axes, labels, table["pages"].to_list(), "pages"),
                         "Keep rates per predicted page type",
                         "The page-type model's most probable type of each parsed page, and the share of those "
                         "pages the run kept (select.page.keep_types decides which types page.not_article keeps).",
                         empty="the page-type model did not run")


# ---------------------------------------------------------------- 1c. segments

def segments_table(stats: dict[str, Any]) -> pl.DataFrame:
    """Segments and segments kept per kind, then per page type of their page (stats.json `segments`)."""
    found = stats.get("segments") or {}
    rows = [(f"{label} {name}", counts["segments"], counts["accepted"])
            for label, key in (("kind", "by_kind"), ("page type", "by_page_type"))
            for name, counts in (found.get(key) or {}).items()]
    return pl.DataFrame({"group": [row[0] for row in rows], "segments": [row[1] for row in rows],
                         "accepted": [row[2] for row in rows]},
                        schema={"group": pl.String, "segments": pl.Int64, "accepted": pl.Int64}).with_columns(
        (pl.col("accepted") / pl.col("segments")).round(4).alias("keep_rate"))


def segments_section(stats: dict[str, Any], out_dir: Path) -> Section:
    table = segments_table(stats)
    labels = [f"{group} ({rate:.0%} kept)" for group, rate in zip(table["group"], table["keep_rate"], strict=True)]
    return chart_section(out_dir, "segments", table, (8, bar_height(max(table.height, 3))),
                         "Segments per kind and per page type (segments)",
                         lambda _, axes: draw_horizontal_bars(axes, labels, table["segments"].to_list(), "segments"),
                         "Segments",
                         "A page's posts, questions, answers, comments and items, judged as units of their own "
                         "(DIR/segments/): how many of each kind, and from pages of each predicted type, and the "
                         "share kept.", empty="no segments (segmentation off, or no page had repeated units)")


# ---------------------------------------------------------------- 1d. keep rates per detected language

def language_keep_rates(rows: pl.LazyFrame) -> pl.DataFrame:
    """Per language identified from the extracted text: pages, pages kept and the share kept."""
    return keep_rates_by(rows, "text_language")


def language_keep_rates_section(rows: pl.LazyFrame, out_dir: Path) -> Section:
    table = language_keep_rates(rows)
    shown = table.head(TOP_CATEGORIES)
    labels = [f"{language} ({rate:.0%} kept)"
              for language, rate in zip(shown["text_language"], shown["keep_rate"], strict=True)]
    return chart_section(out_dir, "language_keep_rates", table, (8, bar_height(max(shown.height, 3))),
                         f"Extracted pages per detected language (top {TOP_CATEGORIES}; pages)",
                         lambda _, axes: draw_horizontal_bars(axes, labels, shown["pages"].to_list(), "pages"),
                         "Keep rates per detected language",
                         "The language identified from each extracted text (py3langid), the pages of each, and the "
                         "share of them the run kept: a language kept far less often than the others is worth a "
                         "look (the CSV holds every language).",
                         empty="no page was extracted")


# ---------------------------------------------------------------- 2. rejections per reason

def reasons_table(stats: dict[str, Any]) -> pl.DataFrame:
    """One row per reason code: pages it was the first reason for, and pages it rejected at all."""
    by_reason: dict[str, int] = stats.get("by_reason") or {}
    first: dict[str, int] = stats.get("first_reason") or {}
    codes = sorted(set(by_reason) | set(first), key=lambda code: (-by_reason.get(code, 0), -first.get(code, 0), code))
    return pl.DataFrame(
        {"reason": codes, "first_reason": [first.get(c, 0) for c in codes],
         "all_reasons": [by_reason.get(c, 0) for c in codes]},
        schema={"reason": pl.String, "first_reason": pl.Int64, "all_reasons": pl.Int64})


def reasons_section(stats: dict[str, Any], out_dir: Path) -> Section:
    table = reasons_table(stats)
    return chart_section(out_dir, "reasons", table, (9, max(3.0, 1.5 + 0.55 * table.height)),
                         "Rejections per reason (pages)", lambda _, axes: draw_reason_bars(axes, table),
                         "Rejections per reason",
                         "First reason: the earliest rule in pipeline order that rejected the page. "
                         "All reasons: every rule the page fails (a page counts once per reason).",
                         empty="no rejected pages")


# ---------------------------------------------------------------- 3. reason co-occurrence

def cooccurrence_table(rows: pl.LazyFrame, top: int = TOP_REASONS) -> tuple[list[str], pl.DataFrame]:
    """The `top` most frequent reasons and, for each ordered pair of them, the pages both reject."""
    pages = (rows.select(pl.col("reasons").list.unique())
             .filter(pl.col("reasons").list.len() > 0)
             .with_row_index("page").explode("reasons").rename({"reasons": "reason"}))
    counts = pages.group_by("reason").len().sort(["len", "reason"], descending=[True, False]).collect()
    codes = counts["reason"].head(top).to_list()
    kept = pages.filter(pl.col("reason").is_in(codes))
    pairs = (kept.join(kept, on="page", suffix="_b")
             .group_by(pl.col("reason").alias("reason_a"), "reason_b").len("pages")
             .sort("reason_a", "reason_b").collect())
    return codes, pairs.select(pl.col("reason_a"), pl.col("reason_b"), pl.col("pages").cast(pl.Int64))


def cooccurrence_matrix(codes: list[str], pairs: pl.DataFrame) -> np.ndarray:
    index = {code: i for i, code in enumerate(codes)}
    matrix = np.zeros((len(codes), len(codes)), dtype=np.int64)
    for a, b, count in pairs.iter_rows():
        matrix[index[a], index[b]] = count
    return matrix


def cooccurrence_section(rows: pl.LazyFrame, out_dir: Path) -> Section:
    codes, pairs = cooccurrence_table(rows)
    size = max(4.0, 2.5 + 0.45 * len(codes))
    return chart_section(out_dir, "cooccurrence", pairs, (size + 1.5, size),
                         f"Pages rejected by both reasons ({len(codes)} most frequent reasons; pages)",
                         lambda figure, axes: draw_heatmap(figure, axes, codes, cooccurrence_matrix(codes, pairs)),
                         "Reason co-occurrence",
                         "Cell (row, column): pages that both reasons reject; the diagonal is each reason's total.",
                         empty="no rejected pages")


# ---------------------------------------------------------------- 4. signal histograms

def threshold_for(rule: RuleFacts | None, stats: dict[str, Any]) -> float | None:
    """The rule's threshold from the run's params; None when the rule is off or has no single threshold."""
    if rule is None or rule.params_key is None:
        return None
    node: Any = stats.get("params") or {}
    for part in rule.params_key.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return float(node) if isinstance(node, int | float) and not isinstance(node, bool) else None


def threshold_label(rule: RuleFacts, threshold: float) -> str:
    return f"{rule.code}: rejects {rule.signal} {rule.op} {threshold:g}"


def histogram_edges(values: np.ndarray, plot: SignalPlot, threshold: float | None) -> np.ndarray:
    """Bin edges: [0, 1] for fractions; else the data's range up to its 99th percentile, widened
    to show the threshold when it lies near the data (a far-off threshold would squash the bars)."""
    if plot.is_fraction:
        return np.linspace(0.0, 1.0, 21)
    low, high = float(values.min()), float(np.quantile(values, 0.99))
    span = max(high - low, 1.0)
    if threshold is not None and low - span / 4 <= threshold <= high + span / 4:
        low, high = min(low, threshold), max(high, threshold)
    return np.histogram_bin_edges(values, bins=30, range=(low, max(high, low + 1.0)))


def histogram_table(rows: pl.LazyFrame, plot: SignalPlot, threshold: float | None) -> pl.DataFrame:
    """Counts per bin, accepted and rejected apart; values beyond the edges go into the end bins."""
    values = rows.select(plot.name, "kept").drop_nulls(plot.name).collect()
    if values.height == 0:
        return pl.DataFrame(schema={"bin_start": pl.Float64, "bin_end": pl.Float64,
                                    "accepted": pl.Int64, "rejected": pl.Int64})
    numbers = values[plot.name].cast(pl.Float64).to_numpy()
    edges = histogram_edges(numbers, plot, threshold)
    clipped = np.clip(numbers, edges[0], edges[-1])
    kept = values["kept"].fill_null(False).to_numpy()
    accepted_counts, _ = np.histogram(clipped[kept], bins=edges)
    rejected_counts, _ = np.histogram(clipped[~kept], bins=edges)
    return pl.DataFrame({"bin_start": edges[:-1], "bin_end": edges[1:],
                         "accepted": accepted_counts.astype(np.int64), "rejected": rejected_counts.astype(np.int64)})


def signal_section(rows: pl.LazyFrame, stats: dict[str, Any], plot: SignalPlot, rule: RuleFacts | None,
                   out_dir: Path) -> Section:
    threshold = threshold_for(rule, stats)
    table = histogram_table(rows, plot, threshold)
    label = threshold_label(rule, threshold) if rule is not None and threshold is not None else ""
    return chart_section(out_dir, f"signal_{plot.name}", table, (8, 4.5), f"{plot.title} (pages per bin)",
                         lambda _, axes: draw_histogram(axes, table, plot.xlabel, threshold, label),
                         plot.title, histogram_note(plot, rule, threshold),
                         empty="no data: the signal was not computed for any page")


def histogram_note(plot: SignalPlot, rule: RuleFacts | None, threshold: float | None) -> str:
    if rule is None or threshold is None:
        return f"Rule {plot.rule} is off in this run: no threshold drawn."
    return f"Dashed line: {threshold_label(rule, threshold)}. Values outside the axis are counted in the end bins."


