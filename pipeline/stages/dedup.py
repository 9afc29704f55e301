"""De-duplication pass of the select stage (docs/filters.md, "De-duplication").

Candidates are the rows that pass every other rule. They are put in one deterministic global
order (capture time, then URL, then id; unknown capture times last), and:

* **URL**: a candidate whose normalised URL or normalised canonical URL was seen on
  an earlier candidate is `url_duplicate`;
* **exact**: a candidate whose content hash appeared on an earlier candidate is
  `exact_duplicate` (the first occurrence wins);
* **CDC** (Rabin fingerprints, Manber 1994): per host, in the same order, `cdc_duplicated_fraction` is the share of the
  candidate's text bytes in chunks already seen on that host; every candidate's chunks join the
  host's set after it is scored. Hosts are independent, so they are processed in `partitions`
  groups by host hash, reading texts only for that partition's candidates;
* **near** (simhash): a candidate within the Hamming distance of an earlier *kept* candidate
  (one no other duplicate rule rejected) gets `near_duplicate_distance`.

URL and exact work on compact columns (hashes, keys, order); only CDC reads texts.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import polars as pl

from filters.corpus.cdc import ChunkHashes, chunk_hashes, duplicated_fraction, mark_seen
from filters.corpus.dedup import NearDuplicateIndex, from_int64
from filters.page.url_rules import normalize_url
from pipeline.io.records import DOCUMENT_TYPES
from pipeline.params import CdcParams, Params
from pipeline.run.executors import Executor, TaskFailure
from pipeline.stages.extract import synthetic_id
from pipeline.store.storage import column_batches, readable_copy

ORDER_COLUMNS = ("warc_date", "url", "id")
# Rows of texts the CDC pass reads at once.
TEXT_BATCH_ROWS = 1000


def host_partition(host: str | None, partitions: int) -> int:
    """Stable partition of a host (crc32, not Python's salted hash)."""
    return zlib.crc32((host or "").encode("utf-8", "surrogateescape")) % partitions


def order_candidates(compact: pl.DataFrame) -> pl.DataFrame:
    """Candidates in the global order, numbered by `order`."""
    candidates = compact.filter(pl.col("candidate"))
    return candidates.sort(list(ORDER_COLUMNS), nulls_last=True).with_row_index("order")


def url_duplicates(ordered: pl.DataFrame) -> pl.Series:
    """True for candidates whose normalised or canonical URL appeared on an earlier candidate."""
    keys = ordered.select(
        "order",
        pl.concat_list([pl.col("normalized_url"), pl.col("canonical_key")]).list.drop_nulls().list.unique()
        .alias("key"),
    ).explode("key").drop_nulls("key")
    first = keys.group_by("key").agg(pl.col("order").min().alias("first"))
    earlier = keys.join(first, on="key").filter(pl.col("first") < pl.col("order"))["order"].unique()
    return ordered["order"].is_in(earlier.implode())


def exact_duplicates(ordered: pl.DataFrame) -> pl.Series:
    first = ordered.filter(pl.col("content_hash").is_not_null()).group_by("content_hash").agg(
        pl.col("order").min().alias("first"))
    joined = ordered.select("order", "content_hash").join(first, on="content_hash", how="left")
    return joined.sort("order").select((pl.col("first").is_not_null() & (pl.col("first") < pl.col("order")))
                                       .alias("exact"))["exact"]


@dataclass(frozen=True)
class PartitionJob:
    """The CDC pass over one partition of hosts: its candidates (order, file, row, host).

    `files` are the driver's local copies of the extract files, `sources` where they came from
    (the same paths, or URLs when the work directory is at one): a task on another node, which
    cannot see the copies, reads the texts from `sources`.
    """

    members: pl.DataFrame
    files: list[str]
    cdc: CdcParams
    sources: list[str] | None = None


def cdc_fractions(ordered: pl.DataFrame, files: list[str], params: Params,
                  executor: Executor | None = None, sources: list[str] | None = None) -> dict[int, float]:
    """`order` -> duplicated fraction, host by host, one partition of hosts per task (on
    `executor`, else here). Hosts never share chunks, so the result is the same for any number
    of partitions."""
    partitions = params.select.dedup.partitions
    keyed = ordered.select("order", "file", "row", "host").with_columns(
        pl.col("host").map_elements(lambda h: host_partition(h, partitions), return_dtype=pl.Int64)
        .alias("partition"))
    jobs = [PartitionJob(members, files, params.select.dedup.cdc, sources)
            for partition in range(partitions)
            if not (members := keyed.filter(pl.col("partition") == partition)).is_empty()]
    results = executor.map(partition_fractions, jobs, "dedup") if executor is not None else \
        [partition_fractions(job) for job in jobs]
    fractions: dict[int, float] = {}
    for result in results:
        if isinstance(result, TaskFailure):
            raise RuntimeError(f"a CDC partition task failed on every attempt: {result.error}")
        fractions.update(result)
    return fractions


def partition_fractions(job: PartitionJob) -> dict[int, float]:
    """One partition's CDC pass: its candidates' texts chunked, then hosts in candidate order."""
    files = job.files if job.sources is None else [readable_copy(*pair) for pair in zip(job.files, job.sources,
                                                                                            strict=True)]
    pages = _chunked_pages(job.members, files, job.cdc)
    fractions: dict[int, float] = {}
    for _host, group in job.members.sort("order").group_by("host", maintain_order=True):
        seen: set[int] = set()
        for order in group["order"]:
            hashes, sizes = pages.pop(order)
            fractions[order] = duplicated_fraction(hashes, sizes, seen)
            mark_seen(seen, hashes)
    return fractions


def _chunked_pages(members: pl.DataFrame, files: list[str], cdc: CdcParams) -> dict[int, ChunkHashes]:
    """`order` -> chunk hashes of that candidate's text.

    The texts are read a batch of rows at a time and dropped once chunked, so the pass holds the
    hashes (16 bytes per chunk of about 96 text bytes), never all the candidates' texts.
    """
    pages: dict[int, ChunkHashes] = {}
    for (file_index,), rows in members.group_by("file", maintain_order=True):
        wanted = rows.select("row", "order").lazy()
        start = 0
        for batch in column_batches(files[file_index], ["text"], TEXT_BATCH_ROWS):
            texts = batch.lazy().with_row_index("row", offset=start).join(wanted, on="row").collect()
            start += batch.height
            for order, text in zip(texts["order"], texts["text"], strict=True):
                pages[order] = chunk_hashes(text or "", cdc.algorithm, fastcdc_avg=cdc.fastcdc_avg_bytes)
    return pages


def near_duplicates(ordered: pl.DataFrame, blocked: pl.Series, max_distance: int | None) -> list[int | None]:
    """Hamming distance to an earlier kept candidate within `max_distance`, per candidate in order."""
    if max_distance is None:
        return [None] * ordered.height
    index = NearDuplicateIndex(max_distance)
    distances: list[int | None] = []
    for value, is_blocked in zip(ordered["simhash64"], blocked, strict=True):
        if value is None:
            distances.append(None)
            continue
        unsigned = from_int64(value)
        match = index.find(unsigned)
        if match is not None:
            distances.append(bin(match ^ unsigned).count("1"))
            continue
        distances.append(None)
        if not is_blocked:
            index.add(unsigned)
    return distances


def find_duplicates(compact: pl.DataFrame, files: list[str], params: Params,
                    executor: Executor | None = None, sources: list[str] | None = None) -> pl.DataFrame:
    """Per candidate (file, row): the duplication signals (the CDC partitions on `executor`)."""
    dedup = params.select.dedup
    ordered = order_candidates(compact)
    if ordered.is_empty():
        return pl.DataFrame(schema={"file": pl.UInt32, "row": pl.UInt32, "cdc_duplicated_fraction": pl.Float64,
                                    "exact_duplicate": pl.Boolean, "url_duplicate": pl.Boolean,
                                    "near_duplicate_distance": pl.Int32})
    url = url_duplicates(ordered)
    exact = exact_duplicates(ordered)
    fractions = cdc_fractions(ordered, files, params, executor, sources)
    cdc = pl.Series([fractions.get(order, 0.0) for order in ordered["order"]], dtype=pl.Float64)
    limit = dedup.cdc.max_duplicated_fraction
    over_limit = (cdc > limit) if limit is not None else pl.Series([False] * len(cdc))
    blocked = (url & dedup.url) | (exact & dedup.exact) | over_limit
    near = near_duplicates(ordered, blocked, dedup.near.max_hamming_distance)
    return ordered.select("file", "row").with_columns(
        cdc.alias("cdc_duplicated_fraction"),
        exact.alias("exact_duplicate"),
        url.alias("url_duplicate"),
        pl.Series(near, dtype=pl.Int32).alias("near_duplicate_distance"),
    )


def record_id_repeats(files: list[str]) -> pl.DataFrame:
    """Rows whose `id` an earlier row (in output order: files in order, rows in reading order)
    already has, with a new unique id (`new_id`) and `record_duplicate`: true when both rows are
    documents, i.e. the same WARC record was read twice. Every row takes part (not only
    candidates), since ids must be unique over accepted/ and rejected/ together; only the small
    id columns are read."""
    parts = [pl.scan_parquet(path).with_row_index("row").select(
        pl.lit(index, dtype=pl.UInt32).alias("file"), "row", "id", "source_file", "source_offset", "record_type")
        for index, path in enumerate(files)]
    empty = pl.DataFrame(schema={"file": pl.UInt32, "row": pl.UInt32, "new_id": pl.String,
                                 "record_duplicate": pl.Boolean})
    if not parts:
        return empty
    rows = pl.concat(parts).with_row_index("position").collect()
    first = rows.group_by("id").agg(pl.col("position").min().alias("first_position"))
    repeats = rows.join(first, on="id").filter(pl.col("position") > pl.col("first_position"))
    if repeats.is_empty():
        return empty
    first_types = rows.select(pl.col("position").alias("first_position"), pl.col("record_type").alias("first_type"))
    repeats = repeats.join(first_types, on="first_position")
    new_ids = [synthetic_id(f, o, t) for f, o, t in repeats.select("source_file", "source_offset", "record_type")
               .iter_rows()]
    return repeats.select(
        "file", "row",
        pl.Series("new_id", new_ids, dtype=pl.String),
        (pl.col("record_type").is_in(DOCUMENT_TYPES) & pl.col("first_type").is_in(DOCUMENT_TYPES))
        .alias("record_duplicate"),
    ).sort("file", "row")


def with_record_repeats(duplicates: pl.DataFrame, repeats: pl.DataFrame) -> pl.DataFrame:
    """The candidates' duplication signals and the id repeats, one row per (file, row)."""
    if repeats.is_empty():
        return duplicates.with_columns(pl.lit(None, dtype=pl.String).alias("new_id"),
                                       pl.lit(None, dtype=pl.Boolean).alias("record_duplicate"))
    return duplicates.join(repeats, on=["file", "row"], how="full", coalesce=True).sort("file", "row")


def canonical_key(canonical_url: str | None) -> str | None:
    return normalize_url(canonical_url) if canonical_url else None


def compact_columns(frame: pl.LazyFrame, file_index: int) -> pl.LazyFrame:
    """The few columns the global passes need (keys, hashes, order; never the text), for
    candidates only: rows another rule rejected take no part in de-duplication."""
    signals = pl.col("signals")
    return frame.filter(pl.col("reasons").list.len() == 0).select(
        pl.lit(file_index, dtype=pl.UInt32).alias("file"),
        pl.col("row"),
        pl.col("id"), pl.col("host"), pl.col("warc_date"), pl.col("url"), pl.col("normalized_url"),
        pl.col("canonical_url").map_elements(canonical_key, return_dtype=pl.String).alias("canonical_key"),
        signals.struct.field("content_hash").alias("content_hash"),
        signals.struct.field("simhash64").alias("simhash64"),
        (pl.col("reasons").list.len() == 0).alias("candidate"),
    )
