"""Segments in select: the pages' segments as rows of their own, decided and written to
`DIR/segments/accepted/` and `DIR/segments/rejected/` (docs/segments.md).

The extract stage stores each page's segments in its row (`segments`, with their text signals
and de-duplication keys). Select's write pass hands every slice of decided pages to
`SegmentRows.add`, which lays their segments out flat, one file per unit of extract files, with
the page's final id, split and page type. Then `decide_segments` judges them as select judges
pages, by the same engine (`pipeline.stages.decide`): the select rules (`segment_params`:
`length.tokens` at `segment.min_tokens`, no per-site balance) and the same de-duplication passes
over the segments alone, in their own partitions. A segment's split is its page's, whatever its own duplicates.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from filters.corpus.dataset import date_source, era_columns, shown_age
from pipeline.params import Params
from pipeline.run.executors import Executor
from pipeline.stages.dataset import SplitWriters, text_language
from pipeline.stages.decide import Engine, Tally, UnitKind, decide
from pipeline.store.schema import SEGMENT_SCHEMA

SEGMENTS_DIR = "segments"
# rows of segments the write pass holds at once
SLICE_ROWS = 5_000
_WORD_BINS = (0, 30, 50, 100, 200, 500, 1000)


def segment_params(params: Params) -> Params:
    """The params segments are judged with: the page's, with `length.tokens` at
    `segment.min_tokens` and no per-site balance (`dataset.host_min`, `dataset.host_cap` count pages)."""
    assert params.segment is not None
    select = dataclasses.replace(params.select, length=dataclasses.replace(params.select.length,
                                                                           min_tokens=params.segment.min_tokens))
    dataset = dataclasses.replace(params.dataset, host_min=None, host_cap=None)
    return dataclasses.replace(params, select=select, dataset=dataset)


# How an exception in the extract stage's segments step reads in the page's `error` (the step's
# name after `error.`, `pipeline.stages.steps.run_steps`): recorded there, never a reason.
SEGMENTS_ERROR = "error.segments:"


class SegmentRows:
    """The flat segment files of one select run, in `directory` (one a unit of extract files)."""

    def __init__(self, directory: Path, cutoff: date, shop_page_types: tuple[str, ...] = ()) -> None:
        self.directory = directory
        self.cutoff = cutoff
        self.shop_page_types = shop_page_types
        directory.mkdir(parents=True, exist_ok=True)
        self.files: list[Path] = []
        self._writer: pq.ParquetWriter | None = None
        self._index = -1
        self.failed_pages = 0  # pages whose segments step raised (SEGMENTS_ERROR in their `error`)

    def add(self, unit_index: int, pages: pl.DataFrame) -> None:
        """The segments of decided pages (with `split` and `page_type`), appended to the unit's file."""
        if "error" in pages.columns:
            self.failed_pages += int(pages["error"].str.contains(SEGMENTS_ERROR, literal=True).fill_null(False).sum())
        if unit_index != self._index:
            self._close()
            self._index = unit_index
            path = self.directory / f"s{unit_index:05d}.parquet"
            self.files.append(path)
            self._writer = pq.ParquetWriter(path, _FILE_SCHEMA, compression="zstd")
        assert self._writer is not None
        self._writer.write_table(flat_segments(pages, self.cutoff, self.shop_page_types))

    def close(self) -> list[Path]:
        self._close()
        return self.files

    def _close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None


def flat_segments(pages: pl.DataFrame, cutoff: date, shop_page_types: tuple[str, ...] = ()) -> pa.Table:
    """One row a segment of `pages`, in page order then segment order (`_FILE_SCHEMA`), with its
    era: by its own date, else its capture; a page published after `cutoff` dates its segments
    after it too (`era_columns`' floor); on a page of one of `shop_page_types`, its kind in the
    signal `shop_page_segment_kind` (rule page.shop_segment); on a segment that is a part of its page's
    extracted text (`body_part`), its page's type in `body_part_page_type` (rule page.body_part), and on
    the unsigned parts of one text (`unsigned_part`), in `unsigned_part_page_type` (rule page.unsigned_part)."""
    if "segments" not in pages.columns:  # a work directory extracted before segments existed
        return _FILE_SCHEMA.empty_table()
    exploded = pages.select(
        pl.col("id").alias("page_id"), "url", "host", "split", "page_type", "source_file", "source_offset",
        "normalized_url", "warc_date", "record_type", "segments", pl.col("published").alias("page_published"),
        date_source().alias("page_date_source")).filter(
        pl.col("segments").list.len() > 0).explode("segments").unnest("segments")
    if exploded.is_empty():
        return _FILE_SCHEMA.empty_table()
    index = pl.col("segment_index").cast(pl.String)
    frame = exploded.with_columns(
        pl.concat_str([pl.col("page_id"), pl.lit("#"), index]).alias("id"),
        text_language(),
        pl.concat_str([pl.col("normalized_url"), pl.lit("#"), index]).alias("normalized_url"),
        pl.lit(None, dtype=pl.String).alias("canonical_url"),
        pl.lit([], dtype=pl.List(pl.String)).alias("reasons"),
        pl.lit(None, dtype=pl.Boolean).alias("kept"),
        pl.col("signals").struct.with_fields(
            pl.when(pl.col("page_type").is_in(list(shop_page_types))).then(pl.col("segment_kind"))
            .otherwise(pl.lit(None, dtype=pl.String)).alias("shop_page_segment_kind"),
            _page_type_where("body_part"), _page_type_where("unsigned_part")))
    # A post's own date is declared when its unit is marked up as one (microdata, JSON-LD), else found in its markup.
    own_source = (pl.when(pl.col("segment_source").is_in(["microdata", "jsonld"])).then(pl.lit("published"))
                  .otherwise(pl.lit("inferred")))
    frame = frame.with_columns(era_columns(cutoff, source=pl.when(pl.col("published").is_not_null()).then(own_source),
                                           floor=(pl.col("page_published"), pl.col("page_date_source")),
                                           age=shown_age()))
    return frame.select(_FILE_SCHEMA.names).to_arrow().cast(_FILE_SCHEMA)


def _page_type_where(flag: str) -> pl.Expr:
    """The signal `FLAG_page_type`: the segment's page type where its stored signal `flag` is true
    (rules page.body_part and page.unsigned_part), null elsewhere."""
    return (pl.when(pl.col("signals").struct.field(flag)).then(pl.col("page_type"))
            .otherwise(pl.lit(None, dtype=pl.String)).alias(f"{flag}_page_type"))


_FILE_SCHEMA = pa.schema([*SEGMENT_SCHEMA, pa.field("normalized_url", pa.string()),
                          pa.field("canonical_url", pa.string()),
                          pa.field("warc_date", pa.timestamp("us", tz="UTC")), pa.field("record_type", pa.string())])


@dataclasses.dataclass
class SegmentCounts:
    """stats.json["segments"]: the same accounting as the pages', per kind, per kind and language and
    per page type."""

    pages_failed: int = 0  # pages whose segments step raised: no segments, the page itself unchanged
    pages: int = 0  # pages with at least one segment
    tally: Tally = dataclasses.field(default_factory=Tally)
    kinds: Counter[tuple[str, bool]] = dataclasses.field(default_factory=Counter)
    kind_languages: Counter[tuple[tuple[str, str], bool]] = dataclasses.field(default_factory=Counter)
    page_types: Counter[tuple[str, bool]] = dataclasses.field(default_factory=Counter)
    splits: Counter[str] = dataclasses.field(default_factory=Counter)
    words: Counter[tuple[int, bool]] = dataclasses.field(default_factory=Counter)
    # A page's segments are consecutive rows (`flat_segments`: page order, then segment order, and
    # a page in one unit only), so pages are counted where the page id changes, from one frame to
    # the next too: no set of every page id, which grew with the run (a gigabyte over 10 M pages).
    _last_page_id: str | None = None

    def add(self, frame: pl.DataFrame) -> None:
        self.tally.add(frame)
        kept = frame["kept"]
        self.kinds.update(zip(frame["segment_kind"].fill_null("none"), kept, strict=True))
        self.kind_languages.update(zip(zip(frame["segment_kind"].fill_null("none"), frame["language"].fill_null("none"),
                                           strict=True), kept, strict=True))
        self.page_types.update(zip(frame["page_type"].fill_null("none"), kept, strict=True))
        self.splits.update(frame.filter(pl.col("kept"))["split"].fill_null("none").to_list())
        bins = [max(i for i, low in enumerate(_WORD_BINS) if (words or 0) >= low) for words in frame["word_count"]]
        self.words.update(zip(bins, kept, strict=True))
        ids = frame["page_id"]
        if ids.len():
            starts = int(ids.ne_missing(ids.shift(1)).sum())  # the first row counts: shift gives null
            self.pages += starts - (ids[0] == self._last_page_id)
            self._last_page_id = ids[-1]

    def _by_kind_and_language(self) -> dict[str, dict[str, dict[str, int]]]:
        found: dict[str, dict[str, dict[str, int]]] = {}
        for kind, language in sorted({key for key, _ in self.kind_languages}):
            accepted, rejected = (self.kind_languages[((kind, language), kept)] for kept in (True, False))
            found.setdefault(kind, {})[language] = {"segments": accepted + rejected, "accepted": accepted}
        return found

    def to_stats(self, enabled: bool) -> dict[str, Any]:
        def kept_of(counter: Counter[tuple[Any, bool]]) -> dict[str, dict[str, int]]:
            names = sorted({name for name, _ in counter}, key=str)
            return {str(name): {"segments": counter[(name, True)] + counter[(name, False)],
                                "accepted": counter[(name, True)]} for name in names}

        labels = [f"{low}-{high - 1}" for low, high in zip(_WORD_BINS, _WORD_BINS[1:], strict=False)]
        labels.append(f"{_WORD_BINS[-1]}+")
        words = kept_of(self.words)
        return {
            "enabled": enabled,
            "segments_in": self.tally.rows_in,
            "accepted": self.tally.accepted,
            "rejected": self.tally.rows_in - self.tally.accepted,
            "pages_with_segments": self.pages,
            "pages_failed": self.pages_failed,
            **self.tally.reasons(),
            "by_kind": kept_of(self.kinds),
            "by_kind_and_language": self._by_kind_and_language(),
            "by_page_type": kept_of(self.page_types),
            "accepted_by_split": dict(sorted(self.splits.items())),
            "word_count": {labels[int(index)]: counts for index, counts in words.items()},
        }


def decide_segments(rows: SegmentRows, root: Path, staging: Path, params: Params,
                    executor: Executor | None) -> SegmentCounts:
    """Judge the segments the write pass laid out in `rows` and write their shards under `staging`
    (accepted/ by split, rejected/); the de-duplication partitions in `root`."""
    files = rows.close()
    judged = segment_params(params)
    # a segment is written in its page's split (`flat_segments`), and cross-split compares that one
    kind = UnitKind("segments", SEGMENT_SCHEMA, judged, SLICE_ROWS, split=lambda _params: pl.col("split"))
    identity = {"files": [{"path": str(path), "bytes": path.stat().st_size} for path in files],
                "select": judged.to_dict()["select"], "dataset": judged.to_dict()["dataset"]}
    counts = SegmentCounts(pages_failed=rows.failed_pages)
    decide(Engine(kind, [(str(path),) for path in files], str(root), identity), executor, None,
           SplitWriters(staging / "accepted", staging / "rejected", SEGMENT_SCHEMA, params), counts)
    return counts
