"""The report's helpers every section uses (`chart_section`, `write_csv`, `accepted`), and the
sections about the accepted pages: hosts, languages, years, splits and eras, and example
rejected pages per reason (`pipeline.report.index` assembles them)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import pyarrow.parquet as pq

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

from filters.corpus.dataset import SPLITS
from pipeline.report.figures import (
    bar_height,
    draw_horizontal_bars,
    draw_host_minimums,
    draw_no_data,
    draw_split_era,
    draw_year_bars,
    new_axes,
    new_axes_pair,
    save,
)
from pipeline.report.html import Section, SplitTables

HOST_PAGE_MINIMUMS = (1, 5, 15)
EXAMPLES_PER_REASON = 3  # example rejected pages shown per reason in index.html
EXAMPLE_WORDS = 40
EXAMPLE_CHARS = 300
TOP_CATEGORIES = 20  # languages and hosts drawn; the CSVs hold all of them


def accepted(rows: pl.LazyFrame) -> pl.LazyFrame:
    return rows.filter(pl.col("kept"))


# A cell starting with one of these is a formula to a spreadsheet (`=cmd|' /C calc'!A0` runs a
# program in some): OWASP's CSV injection guidance is to prefix such a cell with a single quote,
# which makes it text. Hosts, languages and page types come from the crawl, so any may start so.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_START = "^[" + re.escape("".join(FORMULA_STARTS)) + "]"  # as a (polars, linear-time) regex


def write_csv(frame: pl.DataFrame, path: Path) -> None:
    """Every CSV of the report is written here, spreadsheet-safe (`spreadsheet_safe`)."""
    spreadsheet_safe(frame).write_csv(path)


def spreadsheet_safe(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with every text cell and column name that starts with a formula character prefixed
    with `'`. Numbers stay numbers: a spreadsheet reads `-3` as a value, never as a formula."""
    text = [name for name, dtype in frame.schema.items() if dtype in (pl.String, pl.Categorical, pl.Enum)]
    safe = frame.with_columns(
        pl.when(pl.col(name).cast(pl.String).str.contains(_FORMULA_START))
        .then(pl.lit("'") + pl.col(name).cast(pl.String))
        .otherwise(pl.col(name).cast(pl.String))
        .alias(name)
        for name in text)
    return safe.rename({name: f"'{name}" for name in frame.columns if name.startswith(FORMULA_STARTS)})


def chart_section(out_dir: Path, stem: str, table: pl.DataFrame, size: tuple[float, float], title: str,
                  draw: Callable[[Figure, Axes], None], heading: str, note: str, empty: str = "no data") -> Section:
    """A section of one chart and its table: `stem`.csv, `stem`.png (`draw`, or `empty` when the
    table has no rows)."""
    write_csv(table, out_dir / f"{stem}.csv")
    figure, axes = new_axes(*size, title)
    if table.height == 0:
        draw_no_data(axes, empty)
    else:
        draw(figure, axes)
    save(figure, out_dir / f"{stem}.png")
    return Section(heading, f"{stem}.png", (f"{stem}.csv",), note)


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
    figure, left, right = new_axes_pair(12, max(4.5, bar_height(top.height)), (2, 3))
    draw_host_minimums(left, minimums)
    right.set_title(f"Hosts with the most accepted pages (top {TOP_CATEGORIES}; pages)")
    draw_horizontal_bars(right, top["host"].to_list(), top["accepted_pages"].to_list(), "accepted pages")
    save(figure, out_dir / "hosts.png")
    return Section("Accepted pages per host", "hosts.png", ("hosts.csv", "host_pages.csv"),
                   "Pages without a host (plain HTML files without a URL) are not counted.")


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
                   "The page's declared language, else the language identified from its text.")


def year_counts(rows: pl.LazyFrame) -> pl.DataFrame:
    year = pl.col("published").dt.year().cast(pl.String).fill_null("unknown").alias("year")
    counts = (accepted(rows).select(year).group_by("year").len("accepted_pages")
              .with_columns(pl.col("accepted_pages").cast(pl.Int64)).collect())
    # years in order, "unknown" last
    return counts.sort(pl.col("year") == "unknown", "year")


def years_section(rows: pl.LazyFrame, out_dir: Path) -> Section:
    counts = year_counts(rows)
    return chart_section(out_dir, "years", counts, (max(6.0, 2.0 + 0.45 * counts.height), 4.5),
                         "Accepted pages by publication year (pages)", lambda _, axes: draw_year_bars(axes, counts),
                         "Accepted pages by publication year",
                         "Year of the publication date found in the page's metadata; unknown when none was found.")


# ---------------------------------------------------------------- 7. the detector dataset: splits and eras

def split_era_counts(rows: pl.LazyFrame) -> pl.DataFrame:
    """Accepted pages per split, era and the source of the date that decided it (`none`: no date),
    splits in their order ("none" without splits)."""
    counts = (accepted(rows).select(pl.col("split").fill_null("none"), pl.col("era").fill_null("unknown"),
                                    pl.col("era_date_source").fill_null("none"))
              .group_by("split", "era", "era_date_source").len("accepted_pages")
              .with_columns(pl.col("accepted_pages").cast(pl.Int64)).collect())
    return counts.sort(_split_rank(), "era", "era_date_source")


def _split_rank() -> pl.Expr:
    """Splits in their order (train, validation, test), then "none" (no splits)."""
    order = {name: index for index, name in enumerate((*SPLITS, "none"))}
    return pl.col("split").replace_strict(order, default=len(order))


def split_era_section(rows: pl.LazyFrame, out_dir: Path) -> Section:
    counts = split_era_counts(rows)
    return chart_section(out_dir, "split_era", counts, (7.0, 4.5), "Accepted pages per split and era (pages)",
                         lambda _, axes: draw_split_era(axes, counts), "Accepted pages per split and era",
                         "Era against dataset.era_cutoff: pre_cutoff when a publication date or the capture is on "
                         "or before it, post_cutoff only by a publication date after it, unknown otherwise. The "
                         "table splits each era by the date that decided it: published (declared by the page), "
                         "inferred (found in its markup or text), captured (the WARC-Date).")


def split_tables(rows: pl.LazyFrame, stats: dict[str, Any]) -> SplitTables:
    """Per split: languages (pages), and pages, hosts and sites with accepted pages. Sites are
    counted by select in the unit of `dataset.split_by` (stats.json["dataset"]), not again here."""
    pages = accepted(rows).select(
        pl.col("split").fill_null("none"),
        pl.coalesce("language", "text_language").fill_null("unknown").alias("language"),
        "host").collect()
    languages = (pages.group_by("split", "language").len("accepted_pages")
                 .with_columns(pl.col("accepted_pages").cast(pl.Int64))
                 .sort(_split_rank(), pl.col("accepted_pages"), "language", descending=[False, True, False]))
    sites = {name: split["sites"] for name, split in stats.get("dataset", {}).get("splits", {}).items()}
    cross = stats.get("dataset", {}).get("cross_split", {}).get("rejected", {})
    hosts = (pages.group_by("split").agg(pl.len().cast(pl.Int64).alias("accepted_pages"),
                                         pl.col("host").drop_nulls().n_unique().cast(pl.Int64).alias("hosts"))
             .with_columns(pl.col("split").replace_strict(sites, default=0, return_dtype=pl.Int64).alias("sites"),
                           pl.col("split").replace_strict(cross, default=0, return_dtype=pl.Int64)
                           .alias("cross_split_rejected"))
             .sort(_split_rank()))
    return SplitTables(languages, hosts)


def reason_examples(run_dir: Path, stats: dict[str, Any], per_reason: int = EXAMPLES_PER_REASON
                    ) -> dict[str, list[dict[str, Any]]]:
    """For each reason, the first `per_reason` rejected pages that have it (in output order): URL,
    title and the first words of the text. Reads the `reasons` column, then only the row groups
    that hold the chosen rows."""
    wanted = {code: per_reason for code in stats.get("by_reason", {})}
    examples: dict[str, list[dict[str, Any]]] = {code: [] for code in wanted}
    for path in sorted(run_dir.glob("rejected/*.parquet")):
        if not any(wanted.values()):
            break
        shard = pq.ParquetFile(path)
        for group in range(shard.num_row_groups):
            reasons = shard.read_row_group(group, columns=["reasons"]).column("reasons").to_pylist()
            chosen: dict[int, list[str]] = {}
            for index, codes in enumerate(reasons):
                for code in codes or ():
                    if wanted.get(code, 0) > 0:
                        wanted[code] -= 1
                        chosen.setdefault(index, []).append(code)
            if chosen:
                table = shard.read_row_group(group, columns=["url", "title", "text"])
                for index, codes in chosen.items():
                    row = table.slice(index, 1).to_pylist()[0]
                    example = {"url": row["url"], "title": row["title"], "words": first_words(row["text"])}
                    for code in codes:
                        examples[code].append(example)
    return examples


def first_words(text: str | None, words: int = EXAMPLE_WORDS, chars: int = EXAMPLE_CHARS) -> str | None:
    """The first `words` words of `text`, at most `chars` characters (a CJK text has no spaces)."""
    if text is None:
        return None
    parts = text.split(maxsplit=words)
    shown = " ".join(parts[:words])
    cut = len(parts) > words or len(shown) > chars
    return shown[:chars] + (" …" if cut else "")
