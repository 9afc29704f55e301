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
from filters.corpus.near import EDGES, ESTIMATE_MARGIN, SKETCHES, bucket_pairs, estimate, exact, with_sketch
from pipeline.params import Params
from pipeline.stages.dataset import splitter
from pipeline.stages.partitions import PartitionTask, PassDirectory, node, read_candidates, texts_of

# pass directories that a task of another pass reads or writes (the sketches have no task of their own)
PAIRS_PASS, VERIFY_PASS, SKETCHES_PASS = "near-pairs", "near-verify", "sketches"


def near_bucket_task(task: PartitionTask) -> None:
    """Near pass, one partition of buckets: the pairs that share a bucket. Each member is paired
    with the first `max_pairs_per_member` members before it (all pairs in a small bucket).
    MinHash pairs go to the pair partitions, to be counted over bands; simhash pairs are verified
    here by their Hamming distance."""
    settings = task.settings  # pipeline.stages.dedup.DedupSettings
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
    settings = task.settings  # pipeline.stages.dedup.DedupSettings
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


def cross_split_threshold(params: Params) -> float | None:
    """dataset.cross_split's containment threshold; None when it is off or there are no splits."""
    dataset = params.dataset
    return dataset.cross_split_min_containment if dataset.split_by is not None else None


def sketch_rows(compact: pl.DataFrame, params: Params, file_index: int) -> pl.DataFrame:
    """The sketches of one file's candidates with a signature (`SKETCHES`): what verifying a pair
    reads of each page, with the split it will be written to (`pipeline.stages.dataset.splitter`)."""
    have = compact.filter(pl.col("minhash").is_not_null())
    split = splitter(params)
    splits = [split(host, key) if split is not None else None
              for host, key in have.select("host", pl.coalesce("content_hash", "id")).iter_rows()]
    shingles = pl.col("minhash_shingles") if "minhash_shingles" in have.columns else pl.lit(None)
    return have.select(node(file_index), "minhash", shingles.cast(pl.Int64).alias("shingles"),
                       pl.Series("split", splits, dtype=pl.String), "id")
