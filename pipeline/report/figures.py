"""Drawing for `pipeline report`: matplotlib figures, one function per kind of chart.

The PNGs are reproducible byte for byte: fixed figure sizes (a function of the number of
categories only) and no software version in the PNG metadata. Figures are drawn on
`matplotlib.figure.Figure` objects rendered by Agg, without pyplot: no global figure registry to
leak memory and no `matplotlib.use()` that would change the backend of a notebook importing this
module. What is drawn (the tables) and where it goes is `pipeline/report/index.py`'s business.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

# matplotlib is imported where a figure is drawn, not with this module: `pipeline run` draws its
# figures in worker processes that import it while the records are read (`REPORT_PRELOAD`), and
# the driver, which only writes tables and index.html, never pays the ~1.5 s import.
REPORT_PRELOAD = ("pipeline.report.index", "matplotlib.figure", "matplotlib.ticker", "matplotlib.backends.backend_agg")

LABEL_MAX_CHARS = 60
DPI = 100
BAR_COLOUR = "#4c72b0"
SECOND_COLOUR = "#dd8452"
THRESHOLD_COLOUR = "#c44e52"
# PNG metadata holds "Software: matplotlib version …" by default; dropping it keeps the bytes stable.
PNG_METADATA: dict[str, Any] = {"Software": None}
# zlib level 1, not Pillow's default 6: a report's PNGs take 0.7 s less to write (of 4.6 s for the
# whole report on the one-page run, docs/benchmarks.md) and are 18 % larger (420 KB in all there).
PNG_OPTIONS: dict[str, Any] = {"compress_level": 1}


# ---------------------------------------------------------------- figures and common helpers

def new_axes(width: float, height: float, title: str) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI)
    axes = figure.add_subplot()
    axes.set_title(title)
    return figure, axes


def new_axes_pair(width: float, height: float, width_ratios: tuple[float, float]) -> tuple[Figure, Axes, Axes]:
    """A figure of two axes side by side, without a title of its own."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI)
    left, right = figure.subplots(1, 2, gridspec_kw={"width_ratios": list(width_ratios)})
    return figure, left, right


def save(figure: Figure, path: Path) -> None:
    # The tight layout's engine run once on its own, not `figure.tight_layout()`: that leaves a
    # placeholder engine on the figure, for which `savefig` first draws the whole figure a second
    # time with drawing disabled (text laid out again) before the draw that renders it. The same
    # margins, the same pixels; a third less time per figure (docs/benchmarks.md).
    from matplotlib.layout_engine import TightLayoutEngine

    TightLayoutEngine().execute(figure)
    figure.savefig(path, dpi=DPI, metadata=PNG_METADATA, pil_kwargs=PNG_OPTIONS)

def integer_ticks() -> MaxNLocator:
    """A tick locator that puts ticks on whole numbers only (counts)."""
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


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
    axes.xaxis.set_major_locator(integer_ticks())

def plain_label(text: str) -> str:
    """A label from page data, one line of at most `LABEL_MAX_CHARS` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= LABEL_MAX_CHARS else text[:LABEL_MAX_CHARS - 1] + "…"


# ---------------------------------------------------------------- one function per chart

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
    axes.xaxis.set_major_locator(integer_ticks())

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
    axes.xaxis.set_major_locator(integer_ticks())
    axes.legend(loc="lower right")

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
    colorbar.locator = integer_ticks()
    colorbar.update_ticks()


def draw_histogram(axes: Axes, table: pl.DataFrame, xlabel: str, threshold: float | None,
                   threshold_text: str = "") -> None:
    """Accepted and rejected pages stacked per bin, and the threshold (labelled `threshold_text`)
    as a dashed line, or named in the legend when it lies off the axis."""
    # Two filled step outlines, not a bar per bin and kind: the same shape, two artists instead of
    # sixty to lay out and render (0.14 s less for a report's eight histograms).
    edges = np.append(table["bin_start"].to_numpy(), table["bin_end"][-1])
    accepted = table["accepted"].to_numpy()
    axes.stairs(accepted, edges, fill=True, color=BAR_COLOUR, label="accepted")
    axes.stairs(accepted + table["rejected"].to_numpy(), edges, baseline=accepted, fill=True, color=SECOND_COLOUR,
                label="rejected")
    low, high = float(edges[0]), float(edges[-1])
    if threshold is not None and low <= threshold <= high:
        axes.axvline(threshold, color=THRESHOLD_COLOUR, linestyle="--", linewidth=1.5,
                     label=threshold_text)
    elif threshold is not None:
        axes.plot([], [], " ", label=f"{threshold_text} (off the axis)")
    axes.set_xlim(low, high)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("pages")
    axes.yaxis.set_major_locator(integer_ticks())
    axes.legend(fontsize=8, loc="best")


def draw_host_minimums(axes: Axes, minimums: pl.DataFrame) -> None:
    axes.set_title("Hosts with at least N accepted pages (hosts)")
    counts = minimums["hosts"].to_list()
    bars = axes.bar([f"≥ {n}" for n in minimums["min_accepted_pages"]], counts, color=BAR_COLOUR)
    axes.bar_label(bars, padding=3)
    axes.set_xlabel("accepted pages per host")
    axes.set_ylabel("hosts")
    # room above the tallest bar for its label; with no hosts at all, still a 0-based axis
    axes.set_ylim(0, max(1, *counts) * 1.15)
    axes.yaxis.set_major_locator(integer_ticks())


def draw_year_bars(axes: Axes, counts: pl.DataFrame) -> None:
    bars = axes.bar(counts["year"].to_list(), counts["accepted_pages"].to_list(), color=BAR_COLOUR)
    axes.bar_label(bars, padding=3)
    axes.set_xlabel("publication year (from metadata)")
    axes.set_ylabel("accepted pages")
    axes.margins(y=0.15)
    axes.yaxis.set_major_locator(integer_ticks())
    if counts.height > 12:
        axes.tick_params(axis="x", labelrotation=90)


ERA_COLOURS = {"pre_cutoff": "#4c72b0", "post_cutoff": "#dd8452", "unknown": "#b0b0b0"}


def draw_split_era(axes: Axes, table: pl.DataFrame) -> None:
    """Accepted pages per split, stacked by era (`table`: split, era, accepted_pages; rows of one
    split and era, by date source, are summed)."""
    splits = list(dict.fromkeys(table["split"].to_list()))
    bottom = [0] * len(splits)
    for era, colour in ERA_COLOURS.items():
        counts = dict(table.filter(pl.col("era") == era).group_by("split", maintain_order=True)
                      .agg(pl.col("accepted_pages").sum()).iter_rows())
        values = [counts.get(split, 0) for split in splits]
        if any(values):
            bars = axes.bar(splits, values, bottom=bottom, color=colour, label=era)
            axes.bar_label(bars, labels=[str(v) if v else "" for v in values], label_type="center")
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    axes.set_ylabel("accepted pages")
    axes.yaxis.set_major_locator(integer_ticks())
    axes.legend(title="era", frameon=False)
