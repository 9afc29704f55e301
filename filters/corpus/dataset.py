"""Detector-dataset assembly (docs/dataset.md): site-disjoint splits, era labels, per-site balance. Pure: no I/O,
no state.

Splits are drawn per *site*, since a detector that has seen a site in training scores that site's test pages
too well: the registered domain of the page's host by default (`filters.page.domains`, on the Public Suffix
List: `news.example.co.uk` and `www.example.co.uk` are one site), or the host itself. Each site goes to one
split by a stable hash of its name, so the assignment depends only on the site, the ratios and the seed, never
on input order, workers or executor.

The era of a page says on which side of a cut-off date (default 2022-11-30, when generators became common) it
was written (`era_columns`): `pre_cutoff` when its publication date or its capture is on or before the cut-off,
`post_cutoff` only when its publication date is after it, `unknown` otherwise. Balance: `dataset.host_min` rejects the
accepted pages of a site with fewer accepted pages; `dataset.host_cap` keeps at most that many accepted pages
per site (a deterministic sample: the lowest hash of seed and id) and rejects the rest.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from typing import Any

import polars as pl
import pyarrow as pa

from filters.core.declarations import Rule, Signal
from filters.core.vocabulary import HTMLDATE_SOURCE, INFERRED_DATE_SOURCES
from filters.page.domains import registered_domain

SPLITS: tuple[str, ...] = ("train", "validation", "test")
ERAS: tuple[str, ...] = ("pre_cutoff", "post_cutoff", "unknown")
SITE_UNITS: tuple[str, ...] = ("registered_domain", "host")

SIGNALS: tuple[Signal, ...] = (
    Signal("site_accepted_pages", pa.int32(), "pages of the page's site (dataset.split_by) that pass every "
           "other rule, counted before the per-site balance"),
    Signal("site_sample_rank", pa.int32(), "0-based rank of the page in its site's deterministic sample "
           "(lowest hash of dataset.seed and id first)"),
    Signal("cross_split_containment", pa.float64(), "validation or test page: the largest share of its word "
           "5-grams found in one kept train page, where that share reaches the lowest threshold the near pass "
           "verifies (exact 5-gram sets of the MinHash LSH candidates; null: none)"),
    Signal("cross_split_train_id", pa.string(), "the id of that train page (null: none)"),
)

RULES: tuple[Rule, ...] = (
    Rule("dataset.host_min", "the page's site has fewer accepted pages than the minimum (site-level "
         "detection needs >= 15 pages per site; off by default)", "site_accepted_pages", "<", "dataset",
         params_key="dataset.host_min"),
    Rule("dataset.host_cap", "the page's site has more accepted pages than the maximum and this page is not "
         "in the site's deterministic sample (off by default)", "site_sample_rank", ">=", "dataset",
         params_key="dataset.host_cap"),
    Rule("dataset.cross_split", "a validation or test page shares a story with a kept train page: that share of "
         "its word 5-grams is in the train page (`cross_split_train_id`); train is never reduced",
         "cross_split_containment", ">=", "dataset", params_key="dataset.cross_split_min_containment"),
)


def site_of(host: str | None, unit: str) -> str | None:
    """The site a page belongs to: its host's registered domain, or the host (lower-case)."""
    if not host:
        return None
    if unit == "host":
        return host.lower()
    return registered_domain(host)


def unit_hash(seed: int, key: str) -> float:
    """A stable number in [0, 1) for `key` (SHA-256, not Python's salted hash)."""
    digest = hashlib.sha256(f"{seed}\x00{key}".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64


def split_of(key: str, ratios: tuple[float, float, float], seed: int) -> str:
    """The split of a site (or of a page without one, keyed by its id): train, validation, test."""
    value = unit_hash(seed, key)
    bound = 0.0
    for name, ratio in zip(SPLITS, ratios, strict=True):
        bound += ratio
        if value < bound:
            return name
    return next(name for name, ratio in zip(reversed(SPLITS), reversed(ratios), strict=True) if ratio > 0)


def sample_key(seed: int, page_id: str) -> bytes:
    """Sort key of a page in its site's sample for `dataset.host_cap`."""
    return hashlib.sha256(f"{seed}\x00{page_id}".encode("utf-8", "surrogatepass")).digest()


def cutoff_end(cutoff: date) -> datetime:
    """The first instant after the cut-off day (UTC): a page dated on the cut-off day is pre_cutoff."""
    return datetime(cutoff.year, cutoff.month, cutoff.day, tzinfo=UTC) + timedelta(days=1)


# Page types whose htmldate date does not date their text: htmldate's `original_date` takes the oldest
# date on a page, which on a discussion page is a member's join date or an old thread linked beside
# it (wcxb-dev: 2 of the 4 forum pages it dated before the cut-off were written after it). Their
# declared or marked-up dates still count, and their segments are dated one by one.
UNDATED_BY_INFERENCE_TYPES: tuple[str, ...] = ("forum",)


def page_written(published: str = "published") -> pl.Expr:
    """A page's publication date as the era reads it: `published`, except an htmldate date on a page
    the model types as one of `UNDATED_BY_INFERENCE_TYPES` (null there; as the oldest date on the page,
    it still bounds the text from below: `era_columns`' floor)."""
    distrusted = ((pl.col("signals").struct.field("published_source") == HTMLDATE_SOURCE)
                  & pl.col("page_type").is_in(UNDATED_BY_INFERENCE_TYPES)).fill_null(False)
    return pl.when(~distrusted).then(pl.col(published))


def date_source(written: pl.Expr | None = None, source: pl.Expr | None = None) -> pl.Expr:
    """`era_date_source` of a row's own date (`written`, default `published`): `published` (declared
    by its metadata), `inferred` (found in its markup, text or URL by a reader: `published_source`
    time or htmldate), null without a date. `source`: the `published_source` column (default: the
    row's signal)."""
    written = pl.col("published") if written is None else written
    source = pl.col("signals").struct.field("published_source") if source is None else source
    return (pl.when(written.is_null()).then(pl.lit(None, dtype=pl.String))
            .when(source.is_in(INFERRED_DATE_SOURCES)).then(pl.lit("inferred"))
            .otherwise(pl.lit("published")))


def shown_age() -> tuple[pl.Expr, pl.Expr]:
    """The earliest and latest day an age a row shows allows ("3 years ago": its signals
    `age_max_days` and `age_min_days` before its capture, filters/metadata/ages.py); null without one."""
    signals = pl.col("signals").struct
    return (pl.col("warc_date") - pl.duration(days=signals.field("age_max_days")),
            pl.col("warc_date") - pl.duration(days=signals.field("age_min_days")))


def era_columns(cutoff: date, written: pl.Expr | None = None, source: pl.Expr | None = None,
                floor: tuple[pl.Expr, pl.Expr] | None = None, modified: pl.Expr | None = None,
                age: tuple[pl.Expr, pl.Expr] | None = None) -> list[pl.Expr]:
    """`era`, `era_date` and `era_date_source` of each row (docs/dataset.md, "Era labels").

    `pre_cutoff` when the row's date (`written`) or its capture (`warc_date`) is on or before the
    cut-off day; `post_cutoff` only when its date is after it; `unknown` otherwise. A capture proves
    only that the text existed by then, so it can make a row `pre_cutoff`, never `post_cutoff`.
    `written` defaults to `published`; `source` is its `era_date_source` (default: `date_source`).
    `floor`: a date that bounds the text from below, with its source (a segment's page: a post on a
    page published after the cut-off was written after it), used only for `post_cutoff`. `modified`: a
    date of the text's last change (`updated`, with `dataset.era_unmodified_since_cutoff`); after the
    cut-off, the row's own date no longer makes it `pre_cutoff`. `age`: the earliest and latest day
    an age the row shows allows (`shown_age`), which decides, as `relative`, only where the whole
    interval lies on one side of the cut-off."""
    end = pl.lit(cutoff_end(cutoff))
    written_at = pl.col("published") if written is None else written
    captured = pl.col("warc_date")
    source = date_source(written_at) if source is None else source
    unmodified = pl.lit(True) if modified is None else modified.is_null() | (modified < end)
    cases = [((written_at < end) & unmodified, "pre_cutoff", written_at, source),
             (captured < end, "pre_cutoff", captured, pl.lit("captured")),
             (written_at >= end, "post_cutoff", written_at, source)]
    if age is not None:
        earliest, latest = age
        cases += [((latest < end) & unmodified, "pre_cutoff", latest, pl.lit("relative")),
                  (earliest >= end, "post_cutoff", earliest, pl.lit("relative"))]
    if floor is not None:
        cases.append((floor[0] >= end, "post_cutoff", floor[0], floor[1]))
    era: Any = pl
    when: Any = pl
    origin: Any = pl
    for condition, name, at, by in cases:
        era = era.when(condition).then(pl.lit(name))
        when = when.when(condition).then(at)
        origin = origin.when(condition).then(by)
    return [era.otherwise(pl.lit("unknown")).alias("era"),
            when.otherwise(pl.lit(None, dtype=pl.Datetime("us", "UTC"))).alias("era_date"),
            origin.otherwise(pl.lit(None, dtype=pl.String)).alias("era_date_source")]
