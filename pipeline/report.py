"""`pipeline report DIR`: figures (PNG), the data behind them (CSV) and an `index.html` for one run.

Reads `DIR/stats.json` and only the shard columns each figure needs (lazy polars scans; the
`text` column is never read). Every figure is written next to its CSV, which DVC uses as plots.

The output is reproducible byte for byte: fixed figure sizes (a function of the number of
categories only), no timestamps and no software version in the PNG metadata, no paths or dates
in the HTML. Figures are drawn on `matplotlib.figure.Figure` objects rendered by Agg, without
pyplot: no global figure registry to leak memory and no `matplotlib.use()` that would change
the backend of a notebook importing this module.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from filters.reasons import RULES_BY_CODE

HOST_PAGE_MINIMUMS = (1, 5, 15)
TOP_REASONS = 20  # the co-occurrence matrix stays readable up to about this many rows
TOP_CATEGORIES = 20  # languages and hosts drawn; the CSVs hold all of them
LABEL_MAX_CHARS = 60
DPI = 100
BAR_COLOUR = "#4c72b0"
SECOND_COLOUR = "#dd8452"
THRESHOLD_COLOUR = "#c44e52"
# PNG metadata holds "Software: matplotlib version …" by default; dropping it keeps the bytes stable.
PNG_METADATA: dict[str, Any] = {"Software": None}


@dataclass(frozen=True)
class SignalPlot:
    """One histogram: a signal and the rule whose threshold is drawn on it."""

    name: str  # file stem, and the column name in the projected frame
    title: str
    xlabel: str
    rule: str  # reason code in filters.reasons; its params key gives the threshold
    is_fraction: bool  # values in [0, 1]: fixed bins over that range


SIGNAL_PLOTS: tuple[SignalPlot, ...] = (
    SignalPlot("article_score", "Article score (seed 000 §1)", "article score (points)", "article.score", False),
    SignalPlot("word_count", "Length of the extracted text", "words per page", "length.tokens", False),
    SignalPlot("link_code_char_fraction", "Text inside links or code (seed 002)",
               "link/code characters ÷ text characters", "block.link_code", True),
    SignalPlot("large_block_char_fraction", "Text in large blocks (seed 002)",
               "characters in blocks ≥ 200 chars ÷ text characters", "block.large_block_share", True),
    SignalPlot("product_score", "Shop-page evidence (filters/product.py)", "product score (points)", "page.product",
               False),
    SignalPlot("cdc_duplicated_fraction", "Text already seen on the same host (CDC, seed 002)",
               "duplicated bytes ÷ text bytes", "dup.cdc", True),
    SignalPlot("gopher_alpha_word_fraction", "Words with an alphabetic character (Gopher)",
               "alphabetic words ÷ words", "gopher.alpha_words", True),
)
TOP_LEVEL_COLUMNS: dict[str, pl.DataType] = {
    "kept": pl.Boolean(), "reasons": pl.List(pl.String()), "host": pl.String(), "language": pl.String(),
    "published": pl.Datetime("us", "UTC"), "word_count": pl.Int32(), "article_score": pl.Int32(),
}
SIGNAL_FIELDS: dict[str, pl.DataType] = {
    "link_code_char_fraction": pl.Float64(), "large_block_char_fraction": pl.Float64(),
    "cdc_duplicated_fraction": pl.Float64(), "gopher_alpha_word_fraction": pl.Float64(),
    "product_score": pl.Int32(), "text_language": pl.String(),
}


@dataclass(frozen=True)
class Section:
    """One figure of the report: its title, image and data files (names relative to the report)."""

    title: str
    image: str
    data: tuple[str, ...]
    note: str = ""


# ---------------------------------------------------------------- entry point

def write_report(run_dir: Path, out_dir: Path) -> list[Path]:
    """Write every figure, its CSV and `index.html` into `out_dir`; return the paths written."""
    stats = load_stats(run_dir)
    rows = scan_rows(run_dir)
    pages_per_host = host_pages(rows)
    minimums = host_minimums(pages_per_host)
    out_dir.mkdir(parents=True, exist_ok=True)
    sections = [
        funnel_section(stats, out_dir),
        reasons_section(stats, out_dir),
        cooccurrence_section(rows, out_dir),
        *(signal_section(rows, stats, plot, out_dir) for plot in SIGNAL_PLOTS),
        hosts_section(pages_per_host, minimums, out_dir),
        languages_section(rows, out_dir),
        years_section(rows, out_dir),
    ]
    index = out_dir / "index.html"
    index.write_text(render_index(stats, minimums, sections), encoding="utf-8")
    written = [out_dir / name for section in sections for name in (section.image, *section.data)]
    return [*written, index]


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
    fields = {f.name for f in schema["signals"].fields} if "signals" in schema else set()
    return frame.select(
        *(_column_or_null(name, dtype, name in schema) for name, dtype in TOP_LEVEL_COLUMNS.items()),
        *(pl.col("signals").struct.field(name) if name in fields else pl.lit(None, dtype).alias(name)
          for name, dtype in SIGNAL_FIELDS.items()),
    )


def _column_or_null(name: str, dtype: pl.DataType, present: bool) -> pl.Expr:
    return pl.col(name).cast(dtype) if present else pl.lit(None, dtype).alias(name)


def accepted(rows: pl.LazyFrame) -> pl.LazyFrame:
    return rows.filter(pl.col("kept"))


# ---------------------------------------------------------------- drawing helpers

def new_axes(width: float, height: float, title: str) -> tuple[Figure, Axes]:
    figure = Figure(figsize=(width, height), dpi=DPI)
    axes = figure.add_subplot()
    axes.set_title(title)
    return figure, axes


def save(figure: Figure, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=DPI, bbox_inches="tight", metadata=PNG_METADATA)


def draw_no_data(axes: Axes, message: str = "no data") -> None:
    axes.text(0.5, 0.5, message, transform=axes.transAxes, ha="center", va="center", fontsize=12, color="grey")
    axes.set_xticks([])
    axes.set_yticks([])


def bar_height(count: int) -> float:
    """Figure height for `count` horizontal bars: about 0.35 inch each."""
    return max(2.5, 1.2 + 0.35 * count)


def draw_horizontal_bars(axes: Axes, labels: Sequence[str], values: Sequence[int], xlabel: str) -> None:
    """Bars top to bottom in the given order, each labelled with its count."""
    if not labels:
        draw_no_data(axes)
        return
    bars = axes.barh(range(len(labels)), values, color=BAR_COLOUR)
    # Labels come from the pages (hosts, languages): drawn as plain text, never as matplotlib
    # mathtext (a host such as `a$\frac{$b` made the whole report fail), and cut to a length a
    # figure can hold (the CSVs keep them whole).
    axes.set_yticks(range(len(labels)), [plain_label(label) for label in labels], parse_math=False)
    axes.invert_yaxis()
    axes.bar_label(bars, padding=3)
    axes.set_xlabel(xlabel)
    axes.margins(x=0.15)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))


def plain_label(text: str) -> str:
    """A label from page data, one line of at most `LABEL_MAX_CHARS` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= LABEL_MAX_CHARS else text[:LABEL_MAX_CHARS - 1] + "…"


def write_csv(frame: pl.DataFrame, path: Path) -> None:
    frame.write_csv(path)


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
    write_csv(table, out_dir / "funnel.csv")
    figure, axes = new_axes(8, bar_height(table.height), "Records remaining after each stage (records)")
    if table.height == 0:
        draw_no_data(axes)
    else:
        draw_funnel(axes, table)
    save(figure, out_dir / "funnel.png")
    return Section("Funnel", "funnel.png", ("funnel.csv",),
                   "Records still in the run after each group of rules, in pipeline order.")


def draw_funnel(axes: Axes, table: pl.DataFrame) -> None:
    stages = table["stage"].to_list()
    bars = axes.barh(range(len(stages)), table["remaining"].to_list(), color=BAR_COLOUR)
    axes.set_yticks(range(len(stages)), stages)
    axes.invert_yaxis()
    labels = [f"{left:,}" + (f"  (−{gone:,})" if gone else "")
              for left, gone in zip(table["remaining"], table["removed"], strict=True)]
    axes.bar_label(bars, labels=labels, padding=3)
    axes.set_xlabel("records remaining")
    axes.set_ylabel("stage")
    axes.margins(x=0.2)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))


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
    write_csv(table, out_dir / "reasons.csv")
    figure, axes = new_axes(9, max(3.0, 1.5 + 0.55 * table.height), "Rejections per reason (pages)")
    if table.height == 0:
        draw_no_data(axes, "no rejected pages")
    else:
        draw_reason_bars(axes, table)
    save(figure, out_dir / "reasons.png")
    return Section("Rejections per reason", "reasons.png", ("reasons.csv",),
                   "First reason: the earliest rule in pipeline order that rejected the page. "
                   "All reasons: every rule the page fails (a page counts once per reason).")


def draw_reason_bars(axes: Axes, table: pl.DataFrame) -> None:
    positions = np.arange(table.height)
    width = 0.4
    all_bars = axes.barh(positions - width / 2, table["all_reasons"].to_list(), width, color=BAR_COLOUR,
                         label="all reasons")
    first_bars = axes.barh(positions + width / 2, table["first_reason"].to_list(), width, color=SECOND_COLOUR,
                           label="first reason")
    for bars, counts in ((all_bars, table["all_reasons"]), (first_bars, table["first_reason"])):
        axes.bar_label(bars, labels=[f"{n:,}" if n else "" for n in counts], padding=2, fontsize=8)
    axes.set_yticks(positions, table["reason"].to_list())
    axes.invert_yaxis()
    axes.set_xlabel("rejected pages")
    axes.margins(x=0.12, y=0.01)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(loc="lower right")


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
    write_csv(pairs, out_dir / "cooccurrence.csv")
    size = max(4.0, 2.5 + 0.45 * len(codes))
    title = f"Pages rejected by both reasons ({len(codes)} most frequent reasons; pages)"
    figure, axes = new_axes(size + 1.5, size, title)
    if not codes:
        draw_no_data(axes, "no rejected pages")
    else:
        draw_heatmap(figure, axes, codes, cooccurrence_matrix(codes, pairs))
    save(figure, out_dir / "cooccurrence.png")
    return Section("Reason co-occurrence", "cooccurrence.png", ("cooccurrence.csv",),
                   "Cell (row, column): pages that both reasons reject; the diagonal is each reason's total.")


def draw_heatmap(figure: Figure, axes: Axes, codes: list[str], matrix: np.ndarray) -> None:
    image = axes.imshow(matrix, cmap="Blues", vmin=0)
    axes.set_xticks(range(len(codes)), codes, rotation=45, ha="right", rotation_mode="anchor")
    axes.set_yticks(range(len(codes)), codes)
    peak = int(matrix.max())
    for (row, column), count in np.ndenumerate(matrix):
        if count:
            colour = "white" if count > peak / 2 else "black"
            axes.text(column, row, f"{count:,}", ha="center", va="center", fontsize=8, color=colour)
    colorbar = figure.colorbar(image, ax=axes, shrink=0.8)
    colorbar.set_label("pages")
    colorbar.locator = MaxNLocator(integer=True)
    colorbar.update_ticks()


# ---------------------------------------------------------------- 4. signal histograms

def threshold_for(plot: SignalPlot, stats: dict[str, Any]) -> float | None:
    """The rule's threshold from the run's params; None when the rule is off or has no single threshold."""
    rule = RULES_BY_CODE.get(plot.rule)
    if rule is None or not isinstance(rule.params_key, str):
        return None
    node: Any = stats.get("params") or {}
    for part in rule.params_key.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return float(node) if isinstance(node, int | float) and not isinstance(node, bool) else None


def threshold_label(plot: SignalPlot, threshold: float) -> str:
    rule = RULES_BY_CODE[plot.rule]
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


def signal_section(rows: pl.LazyFrame, stats: dict[str, Any], plot: SignalPlot, out_dir: Path) -> Section:
    threshold = threshold_for(plot, stats)
    table = histogram_table(rows, plot, threshold)
    stem = f"signal_{plot.name}"
    write_csv(table, out_dir / f"{stem}.csv")
    figure, axes = new_axes(8, 4.5, f"{plot.title} (pages per bin)")
    if table.height == 0:
        draw_no_data(axes, "no data: the signal was not computed for any page")
    else:
        draw_histogram(axes, table, plot, threshold)
    save(figure, out_dir / f"{stem}.png")
    return Section(plot.title, f"{stem}.png", (f"{stem}.csv",), histogram_note(plot, threshold))


def histogram_note(plot: SignalPlot, threshold: float | None) -> str:
    rule = RULES_BY_CODE[plot.rule]
    if threshold is None:
        return f"Rule {rule.code} is off in this run: no threshold drawn."
    return f"Dashed line: {threshold_label(plot, threshold)}. Values outside the axis are counted in the end bins."


def draw_histogram(axes: Axes, table: pl.DataFrame, plot: SignalPlot, threshold: float | None) -> None:
    starts = table["bin_start"].to_numpy()
    widths = table["bin_end"].to_numpy() - starts
    axes.bar(starts, table["accepted"].to_numpy(), widths, align="edge", color=BAR_COLOUR, label="accepted")
    axes.bar(starts, table["rejected"].to_numpy(), widths, align="edge", bottom=table["accepted"].to_numpy(),
             color=SECOND_COLOUR, label="rejected")
    low, high = float(starts[0]), float(table["bin_end"][-1])
    if threshold is not None and low <= threshold <= high:
        axes.axvline(threshold, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1.5,
                     label=threshold_label(plot, threshold))
    elif threshold is not None:
        axes.plot([], [], " ", label=f"{threshold_label(plot, threshold)} (off the axis)")
    axes.set_xlim(low, high)
    axes.set_xlabel(plot.xlabel)
    axes.set_ylabel("pages")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.legend(fontsize=8, loc="best")


# ---------------------------------------------------------------- 5. accepted pages per host

def host_pages(rows: pl.LazyFrame) -> pl.DataFrame:
    return (accepted(rows).drop_nulls("host").group_by("host").len("accepted_pages")
            .with_columns(pl.col("accepted_pages").cast(pl.Int64))
            .sort(["accepted_pages", "host"], descending=[True, False]).collect())


def host_minimums(pages_per_host: pl.DataFrame) -> pl.DataFrame:
    """How many hosts have at least N accepted pages, for each N in HOST_PAGE_MINIMUMS."""
    pages = pages_per_host["accepted_pages"]
    return pl.DataFrame({"min_accepted_pages": list(HOST_PAGE_MINIMUMS),
                         "hosts": [int((pages >= n).sum()) for n in HOST_PAGE_MINIMUMS]},
                        schema={"min_accepted_pages": pl.Int64, "hosts": pl.Int64})


def hosts_section(pages: pl.DataFrame, minimums: pl.DataFrame, out_dir: Path) -> Section:
    write_csv(minimums, out_dir / "hosts.csv")
    write_csv(pages, out_dir / "host_pages.csv")
    top = pages.head(TOP_CATEGORIES)
    figure = Figure(figsize=(12, max(4.5, bar_height(top.height))), dpi=DPI)
    left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": [2, 3]})
    draw_host_minimums(left, minimums)
    right.set_title(f"Hosts with the most accepted pages (top {TOP_CATEGORIES}; pages)")
    draw_horizontal_bars(right, top["host"].to_list(), top["accepted_pages"].to_list(), "accepted pages")
    save(figure, out_dir / "hosts.png")
    return Section("Accepted pages per host", "hosts.png", ("hosts.csv", "host_pages.csv"),
                   "Pages without a host (plain HTML files without a URL) are not counted.")


def draw_host_minimums(axes: Axes, minimums: pl.DataFrame) -> None:
    axes.set_title("Hosts with at least N accepted pages (hosts)")
    counts = minimums["hosts"].to_list()
    bars = axes.bar([f"≥ {n}" for n in minimums["min_accepted_pages"]], counts, color=BAR_COLOUR)
    axes.bar_label(bars, padding=3)
    axes.set_xlabel("accepted pages per host")
    axes.set_ylabel("hosts")
    # room above the tallest bar for its label; with no hosts at all, still a 0-based axis
    axes.set_ylim(0, max(1, *counts) * 1.15)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))


# ---------------------------------------------------------------- 6. accepted pages by language and year

def language_counts(rows: pl.LazyFrame) -> pl.DataFrame:
    language = pl.coalesce("language", "text_language").fill_null("unknown").alias("language")
    return (accepted(rows).select(language).group_by("language").len("accepted_pages")
            .with_columns(pl.col("accepted_pages").cast(pl.Int64))
            .sort(["accepted_pages", "language"], descending=[True, False]).collect())


def top_with_other(table: pl.DataFrame, label: str, top: int = TOP_CATEGORIES) -> pl.DataFrame:
    """The first `top` rows, and the rest summed into one row labelled "other"."""
    if table.height <= top:
        return table
    rest = table.slice(top)["accepted_pages"].sum()
    other = pl.DataFrame({label: ["other"], "accepted_pages": [rest]}, schema=table.schema)
    return pl.concat([table.head(top), other])


def languages_section(rows: pl.LazyFrame, out_dir: Path) -> Section:
    counts = language_counts(rows)
    write_csv(counts, out_dir / "languages.csv")
    shown = top_with_other(counts, "language")
    figure, axes = new_axes(7, bar_height(max(shown.height, 3)), "Accepted pages by language (pages)")
    draw_horizontal_bars(axes, shown["language"].to_list(), shown["accepted_pages"].to_list(), "accepted pages")
    save(figure, out_dir / "languages.png")
    return Section("Accepted pages by language", "languages.png", ("languages.csv",),
                   "The page's declared language (seed 000 §8), else the language identified from its text.")


def year_counts(rows: pl.LazyFrame) -> pl.DataFrame:
    year = pl.col("published").dt.year().cast(pl.String).fill_null("unknown").alias("year")
    counts = (accepted(rows).select(year).group_by("year").len("accepted_pages")
              .with_columns(pl.col("accepted_pages").cast(pl.Int64)).collect())
    # years in order, "unknown" last
    return counts.sort(pl.col("year") == "unknown", "year")


def years_section(rows: pl.LazyFrame, out_dir: Path) -> Section:
    counts = year_counts(rows)
    write_csv(counts, out_dir / "years.csv")
    width = max(6.0, 2.0 + 0.45 * counts.height)
    figure, axes = new_axes(width, 4.5, "Accepted pages by publication year (pages)")
    if counts.height == 0:
        draw_no_data(axes)
    else:
        bars = axes.bar(counts["year"].to_list(), counts["accepted_pages"].to_list(), color=BAR_COLOUR)
        axes.bar_label(bars, padding=3)
        axes.set_xlabel("publication year (from metadata)")
        axes.set_ylabel("accepted pages")
        axes.margins(y=0.15)
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        if counts.height > 12:
            axes.tick_params(axis="x", labelrotation=90)
    save(figure, out_dir / "years.png")
    return Section("Accepted pages by publication year", "years.png", ("years.csv",),
                   "Year of the publication date found in the page's metadata; unknown when none was found.")


# ---------------------------------------------------------------- index.html

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1.5em 0; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; }
"""


def render_index(stats: dict[str, Any], minimums: pl.DataFrame, sections: list[Section]) -> str:
    parts = [
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Filter report</title>',
        f"<style>{STYLE}</style>\n</head>\n<body>\n<h1>Filter report</h1>",
        "<h2>Summary</h2>", summary_table(stats),
        "<h2>Rejections per reason</h2>", reasons_html(reasons_table(stats)),
        "<h2>Accepted pages per host</h2>", hosts_html(minimums),
        "<h2>Figures</h2>", *(figure_html(section) for section in sections),
        "</body>\n</html>\n",
    ]
    return "\n".join(parts)


def number_cell(value: object, key: str) -> str:
    text = f"{value:,}" if isinstance(value, int) else str(value)
    return f'<td class="n" data-key="{html.escape(key)}">{html.escape(text)}</td>'


def summary_table(stats: dict[str, Any]) -> str:
    records_in = int(stats.get("records_in", 0))
    accepted_count = int(stats.get("accepted", 0))
    share = f"{accepted_count / records_in:.1%}" if records_in else "–"
    rows = [
        ("records in", number_cell(records_in, "records_in")),
        ("accepted", number_cell(accepted_count, "accepted")),
        ("rejected", number_cell(int(stats.get("rejected", 0)), "rejected")),
        ("accepted share", number_cell(share, "accepted_share")),
        ("input files", number_cell(len(stats.get("files") or []), "files")),
        ("skipped files (not WARC/ARC/HTML)", number_cell(len(stats.get("skipped_files") or []), "skipped_files")),
        ("warnings", number_cell(len(stats.get("warnings") or []), "warnings")),
    ]
    body = "".join(f"<tr><th>{html.escape(label)}</th>{cell}</tr>\n" for label, cell in rows)
    return f"<table>\n{body}</table>"


def reasons_html(table: pl.DataFrame) -> str:
    if table.height == 0:
        return "<p>No page was rejected.</p>"
    head = "<tr><th>reason</th><th>meaning</th><th>first reason</th><th>all reasons</th></tr>\n"
    body = "".join(reason_row(code, first, total) for code, first, total in table.iter_rows())
    return f"<table>\n{head}{body}</table>"


def reason_row(code: str, first: int, total: int) -> str:
    rule = RULES_BY_CODE.get(code)
    meaning = rule.meaning if rule is not None else ""
    return (f'<tr data-reason="{html.escape(code)}"><td><code>{html.escape(code)}</code></td>'
            f"<td>{html.escape(meaning)}</td>{number_cell(first, 'first_reason')}{number_cell(total, 'by_reason')}"
            "</tr>\n")


def hosts_html(minimums: pl.DataFrame) -> str:
    head = "<tr><th>hosts with at least</th><th>hosts</th></tr>\n"
    body = "".join(f"<tr><td>{n:,} accepted page{'s' if n != 1 else ''}</td>{number_cell(hosts, f'hosts_min_{n}')}"
                   "</tr>\n" for n, hosts in minimums.iter_rows())
    return f"<table>\n{head}{body}</table>"


def figure_html(section: Section) -> str:
    image = html.escape(section.image)
    title = html.escape(section.title)
    data = ", ".join(f'<a href="{html.escape(name)}">{html.escape(name)}</a>' for name in section.data)
    note = f" {html.escape(section.note)}" if section.note else ""
    return (f'<figure>\n<h3>{title}</h3>\n<a href="{image}"><img src="{image}" alt="{title}"></a>\n'
            f"<figcaption>{note.strip()} Data: {data}.</figcaption>\n</figure>")
