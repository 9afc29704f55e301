"""The near-duplicate passes of select's de-duplication (docs/filters.md, "Near duplicates";
the decisions are pure functions in `filters/corpus/near.py`), each one task per partition:

1. **near** (by bucket): pages that share an LSH bucket (MinHash bands, or simhash blocks) are
   candidate pairs; simhash pairs are verified there by Hamming distance, MinHash pairs go to the
   partition of their earlier page (a).
2. **near-pairs** (by a): each pair takes page a's sketch (signature, shingle count, split, id;
   the **sketches** fragments) and goes to the partition of its later page (b).
3. **near-verify** (by b): page b's sketch joined, containments estimated from the signatures;
   pairs near the lowest threshold of `dup.near` and `dataset.cross_split` have their two texts
   read (a row group at a time) and measured exactly. Those at the threshold are the edges.

No task holds more than its partition's pairs and sketches.
"""

from __future__ import annotations

import polars as pl

from filters.corpus.dedup import NearParams, hamming
from filters.corpus.minhash import shingle_values
from filters.corpus.near import (
    EDGES,
    ESTIMATE_MARGIN,
    SKETCHES,
    bucket_pairs,
    estimate,
    exact,
    near_keys,
    with_sketch,
)
from pipeline.params import Params
from pipeline.stages.dataset import split_expr
from pipeline.stages.dedup.cross_split import cross_split_threshold
from pipeline.stages.dedup.partitions import REPEATS, PartitionTask, PassDirectory, node, read_candidates, texts_of
from pipeline.stages.dedup.spec import Feed, KeyBatch, Pass

# pass directories that a task of another pass reads or writes (the sketches have no task of their own)
NEAR_PASS, PAIRS_PASS, VERIFY_PASS, SKETCHES_PASS = "near", "near-pairs", "near-verify", "sketches"


def near_bucket_task(task: PartitionTask) -> None:
    """Near pass, one partition of buckets: the pairs that share a bucket. Each member is paired
    with the first `max_pairs_per_member` members before it (all pairs in a small bucket).
    MinHash pairs go to the pair partitions, to be counted over bands; simhash pairs are verified
    here by their Hamming distance."""
    settings = task.settings  # pipeline.stages.dedup.driver.DedupSettings
    near = settings.near
    rows = read_candidates(task, {"bucket": pl.UInt64, "date": pl.Int64, "node": pl.UInt64, "value": pl.Int64})
    shared = rows.filter(pl.len().over("bucket") > 1).sort("bucket", "date", "node")
    pairs = bucket_pairs(shared, near.max_pairs_per_member)
    if near.method == "simhash":
        distance = pl.Series([hamming(a, b) for a, b in zip(pairs["a_value"], pairs["b_value"], strict=True)],
                             dtype=pl.Int32)
        limit = near.max_hamming_distance if near.max_hamming_distance is not None else -1
        edges = pairs.with_columns(distance.alias("distance")).filter(pl.col("distance") <= limit) \
            .unique(["a", "b"]).select("a", "b", "a_date", "b_date", "distance").sort("a", "b")
        task.directory.write_result(task.partition, pl.concat([pl.DataFrame(schema=EDGES), edges], how="diagonal"))
        return
    # a pair goes to the partition of its earlier page, where that page's sketch is (`near_pair_task`)
    pair_directory = PassDirectory(task.directory.root, PAIRS_PASS, task.directory.partitions)
    pair_directory.write_fragments(task.partition, pairs.select("a", "b", "a_date", "b_date"), pl.col("a"))
    task.directory.write_result(task.partition, pl.DataFrame({"pairs": [pairs.height]}))


def near_pair_task(task: PartitionTask) -> None:
    """MinHash pairs of one partition of earlier pages (a): those that share `min_shared_bands`
    bands are candidates; each gets page a's sketch (the sketches of this partition's nodes) and
    goes to the partition of its later page (b) for `near_verify_task`."""
    near: NearParams = task.settings.near
    pairs = task.directory.read_fragments(task.partition, {"a": pl.UInt64, "b": pl.UInt64, "a_date": pl.Int64,
                                                           "b_date": pl.Int64})
    candidates = pairs.group_by("a", "b", "a_date", "b_date").agg(pl.len().alias("shared")).filter(
        pl.col("shared") >= near.min_shared_bands).drop("shared").sort("a", "b")
    sketches = PassDirectory(task.directory.root, SKETCHES_PASS, task.directory.partitions)
    verify_directory = PassDirectory(task.directory.root, VERIFY_PASS, task.directory.partitions)
    verify_directory.write_fragments(task.partition, with_sketch(
        candidates, sketches.read_fragments(task.partition, SKETCHES), "a"), pl.col("b"))
    task.directory.write_result(task.partition, pl.DataFrame({"candidates": [candidates.height]}))


def near_verify_task(task: PartitionTask) -> None:
    """MinHash candidates of one partition of later pages (b), with page a's sketch: page b's
    sketch joined, each pair's containments estimated from the signatures, and the pairs within
    `ESTIMATE_MARGIN` of the lowest threshold of dup.near and dataset.cross_split measured on their
    texts' exact n-gram sets; those at that threshold are the edges."""
    settings = task.settings  # pipeline.stages.dedup.driver.DedupSettings
    pairs = task.directory.read_fragments(task.partition, {})
    sketches = PassDirectory(task.directory.root, SKETCHES_PASS, task.directory.partitions)
    both = with_sketch(pairs, sketches.read_fragments(task.partition, SKETCHES), "b") if pairs.height else pairs
    likely = estimate(both, settings.floor - ESTIMATE_MARGIN) if both.height else pl.DataFrame(schema=EDGES)
    members = pl.concat([likely["a"], likely["b"]])
    shingles = {member: shingle_values(text or "", settings.shingle_words)
                for member, text in texts_of(members, settings.readable_files())}
    task.directory.write_result(task.partition, exact(likely, shingles, settings.floor))


def uses_minhash(params: Params) -> bool:
    """Whether the near pass pairs pages by MinHash: for dup.near, or for dataset.cross_split
    when dup.near is off."""
    method = params.select.dedup.near.method
    return method == "minhash" or (method is None and cross_split_threshold(params) is not None)


def bucket_rows(batch: KeyBatch) -> pl.DataFrame | None:
    """A candidate's buckets (`filters.corpus.near.near_keys`): its MinHash bands, or its
    simhash's blocks with the simhash as `value`."""
    if batch.compact.is_empty():
        return None
    return near_keys(batch.keyed, batch.pairing)


def sketch_rows(batch: KeyBatch) -> pl.DataFrame | None:
    """The sketches of one unit's candidates with a signature (`SKETCHES`): what verifying a pair
    reads of each page, with the split it will be written to (`pipeline.stages.dataset.split_expr`,
    the expression the write pass splits by)."""
    if batch.compact.is_empty() or batch.pairing.method != "minhash":
        return None
    have = batch.compact.filter(pl.col("minhash").is_not_null())
    shingles = pl.col("minhash_shingles") if "minhash_shingles" in have.columns else pl.lit(None)
    return have.select(node(batch.file_index), "minhash", shingles.cast(pl.Int64).alias("shingles"),
                       split_expr(batch.params, pl.col("content_hash")).alias("split"), "id")


BUCKETS = Pass(NEAR_PASS, near_bucket_task, Feed(bucket_rows, "bucket", ("bucket", "date", "node", "value")),
               reads=(REPEATS,), writes=(f"{PAIRS_PASS} fragments (MinHash)",),
               result=("MinHash: pairs (a count)", "simhash: " + ", ".join(EDGES)))
PAIRS = Pass(PAIRS_PASS, near_pair_task, reads=(f"{SKETCHES_PASS} fragments",),
             writes=(f"{VERIFY_PASS} fragments",), result=("candidates (a count)",))
VERIFY = Pass(VERIFY_PASS, near_verify_task, reads=(f"{SKETCHES_PASS} fragments",
                                                    "the pairs' texts in the extract files"), result=tuple(EDGES))
SKETCHED = Pass(SKETCHES_PASS, None, Feed(sketch_rows, "node", tuple(SKETCHES)))
