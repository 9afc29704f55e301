"""Arrow schema of the rows (docs/output.md, "Columns"): the core columns plus a few extras.

Extras (after the core columns): `record_type` (response, resource, file, corrupt,
unreadable), `encoding` and `encoding_source` (where the charset came from: http, bom, meta,
detected, fallback), `error` (what went wrong for input.* and error.* rows),
`normalized_url` (URL normalisation, docs/filters.md), `updated` and `tags` (metadata), `warc_record_id`
(the WARC-Record-ID as recorded: `id` is unique, this may repeat when a record was read twice),
and `segments`, the page's segments as the extract stage found them (`SEGMENT`; null when
segmentation is off). The page shards select writes (`OUTPUT_SCHEMA`) leave `segments` out and add
`split`, `era`, `era_date` and `era_date_source`; the segment shards are `SEGMENT_SCHEMA`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, TypedDict, cast

import pyarrow as pa

from filters.rules.signals import signals_struct_type

_TS = pa.timestamp("us", tz="UTC")

ROW_SCHEMA = pa.schema([
    pa.field("id", pa.string()),
    pa.field("url", pa.string()),
    pa.field("host", pa.string()),
    pa.field("source_file", pa.string()),
    pa.field("source_offset", pa.int64()),
    pa.field("warc_date", _TS),
    pa.field("http_status", pa.int32()),
    pa.field("content_type", pa.string()),
    pa.field("title", pa.string()),
    pa.field("author", pa.string()),
    pa.field("site_name", pa.string()),
    pa.field("description", pa.string()),
    pa.field("canonical_url", pa.string()),
    pa.field("published", _TS),
    pa.field("language", pa.string()),
    pa.field("text", pa.string()),
    pa.field("extractor", pa.string()),
    pa.field("word_count", pa.int32()),
    pa.field("article_score", pa.int32()),
    pa.field("signals", signals_struct_type()),
    pa.field("reasons", pa.list_(pa.string())),
    pa.field("kept", pa.bool_()),
    pa.field("record_type", pa.string()),
    pa.field("encoding", pa.string()),
    pa.field("encoding_source", pa.string()),
    pa.field("error", pa.string()),
    pa.field("normalized_url", pa.string()),
    pa.field("updated", _TS),
    pa.field("tags", pa.list_(pa.string())),
    pa.field("warc_record_id", pa.string()),
])

# One segment as the extract stage stores it inside its page's row (docs/segments.md).
SEGMENT = pa.struct([
    pa.field("segment_index", pa.int32()),
    pa.field("segment_kind", pa.string()),
    pa.field("author", pa.string()),
    pa.field("published", _TS),
    pa.field("language", pa.string()),
    pa.field("text", pa.string()),
    pa.field("word_count", pa.int32()),
    pa.field("quoted_words", pa.int32()),  # words of quoted posts left out of `text`
    pa.field("segment_source", pa.string()),  # how the unit was found: microdata, marked, repeated, jsonld
    pa.field("signals", signals_struct_type()),
])
ROW_SCHEMA = ROW_SCHEMA.append(pa.field("segments", pa.list_(SEGMENT)))

COLUMNS: tuple[str, ...] = tuple(ROW_SCHEMA.names)

# The shards of select: the rows, plus the detector-dataset columns (filters/corpus/dataset.py) that
# select assigns at its end. `split` is null when params have `dataset.split_by: null`.
DATASET_FIELDS: tuple[pa.Field, ...] = (
    pa.field("page_type", pa.string()),  # the page-type model's most probable type (null: model not run)
    pa.field("article_probability", pa.float64()),
    pa.field("split", pa.string()),
    pa.field("era", pa.string()),
    pa.field("era_date", _TS),
    pa.field("era_date_source", pa.string()),
)
# The language identified from the written text (ISO 639-1; its confidence is the signal
# `text_language_confidence`), beside the declared `language`: what a user filters by.
TEXT_LANGUAGE = pa.field("text_language", pa.string())


def _with_text_language(fields: list[pa.Field]) -> list[pa.Field]:
    """`fields` with `TEXT_LANGUAGE` after `language`."""
    at = next(index for index, field in enumerate(fields) if field.name == "language") + 1
    return [*fields[:at], TEXT_LANGUAGE, *fields[at:]]


OUTPUT_SCHEMA = pa.schema(_with_text_language([*(field for field in ROW_SCHEMA if field.name != "segments"),
                                               *DATASET_FIELDS]))

# The segment shards (DIR/segments/): the contract's columns, then `quoted_words`, `segment_source`,
# the page's `page_type` and its place in the input (`source_file`, `source_offset`).
SEGMENT_SCHEMA = pa.schema(_with_text_language([
    pa.field("id", pa.string()),
    pa.field("page_id", pa.string()),
    pa.field("url", pa.string()),
    pa.field("host", pa.string()),
    *(SEGMENT.field(name) for name in ("segment_index", "segment_kind", "author", "published", "language", "text",
                                       "word_count", "signals")),
    pa.field("reasons", pa.list_(pa.string())),
    pa.field("kept", pa.bool_()),
    pa.field("split", pa.string()),
    pa.field("era", pa.string()),
    pa.field("era_date", _TS),
    pa.field("era_date_source", pa.string()),
    SEGMENT.field("quoted_words"),
    SEGMENT.field("segment_source"),
    pa.field("page_type", pa.string()),
    pa.field("source_file", pa.string()),
    pa.field("source_offset", pa.int64()),
]))


class Row(TypedDict):
    """One row as the stages build it, column for column as in ROW_SCHEMA (a test keeps the two
    equal); None is a null. `signals` is the flat dict of filters/rules/signals.py."""

    id: str | None
    url: str | None
    host: str | None
    source_file: str | None
    source_offset: int | None
    warc_date: datetime | None
    http_status: int | None
    content_type: str | None
    title: str | None
    author: str | None
    site_name: str | None
    description: str | None
    canonical_url: str | None
    published: datetime | None
    language: str | None
    text: str | None
    extractor: str | None
    word_count: int | None
    article_score: int | None
    signals: dict[str, Any]
    reasons: list[str]
    kept: bool | None
    record_type: str | None
    encoding: str | None
    encoding_source: str | None
    error: str | None
    normalized_url: str | None
    updated: datetime | None
    tags: list[str] | None
    warc_record_id: str | None
    segments: list[dict[str, Any]] | None


def empty_row() -> Row:
    """A row of nulls, with empty signals and reasons."""
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row["signals"] = {}
    row["reasons"] = []
    return cast(Row, row)  # every key of Row, since Row's keys are COLUMNS


def rows_to_table(rows: Sequence[Mapping[str, object]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=ROW_SCHEMA)
