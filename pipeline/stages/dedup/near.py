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

from collections.abc import Iterator

import numpy as np
import polars as pl

from filters.corpus.dedup import NearParams, hamming
from filters.corpus.keepers import GROUPS, NODES, closest_earlier, near_clusters
from filters.corpus.minhash import shingle_values
from filters.corpus.near import (
    EDGES,
    ESTIMATE_MARGIN,
    SKETCHES,
    bucket_pairs,
    estimate,
    exact,
    near_edges,
    near_keys,
    with_sketch,
)
from pipeline.params import Params
from pipeline.stages.dedup.cross_split import cross_split, cross_split_threshold
from pipeline.stages.dedup.partitions import REPEATS, PartitionTask, PassDirectory, node, read_candidates, texts_of
from pipeline.stages.dedup.spec import Between, Feed, Fragments, KeyBatch, Part, Pass, Texts, View, declared_types

# pass directories that a task of another pass reads or writes (the sketches have no task of their own)
NEAR_PASS, PAIRS_PASS, VERIFY_PASS, SKETCHES_PASS = "near", "near-pairs", "near-verify", "sketches"


# Rows of bucket members a bucket task pairs at once (whole buckets, so a chunk may hold more): its
# memory is bounded by this and `max_pairs_per_member`, not by how many copies a story has.
BUCKET_ROWS = 20_000
# Pairs whose signatures a verify task compares at once.
ESTIMATE_PAIRS = 5_000
# What the bucket task writes for a MinHash pair: the pair, and how many of the task's buckets it shares.
PAIR_COUNTS = {"a": pl.UInt64, "b": pl.UInt64, "a_date": pl.Int64, "b_date": pl.Int64, "shared": pl.UInt32}
PAIR = ("a", "b", "a_date", "b_date")


def near_bucket_task(task: PartitionTask) -> None:
    """Near pass, one partition of buckets: the pairs that share a bucket. Each member is paired
    with the first `max_pairs_per_member` members before it (all pairs in a small bucket), a
    chunk of whole buckets at a time (`bucket_chunks`). MinHash pairs go to the pair partitions
    with the number of this partition's buckets they share, to be summed over bands; simhash
    pairs are verified here by their Hamming distance."""
    settings = task.settings  # pipeline.stages.dedup.driver.DedupSettings
    near = settings.near
    rows = read_candidates(task, {"bucket": pl.UInt64, "date": pl.Int64, "node": pl.UInt64, "value": pl.Int64})
    shared = rows.filter(pl.len().over("bucket") > 1).sort("bucket", "date", "node")
    del rows
    edges, counts, paired = [], pl.DataFrame(schema=PAIR_COUNTS), 0
    for chunk in bucket_chunks(shared, BUCKET_ROWS):
        pairs = bucket_pairs(chunk, near.max_pairs_per_member)
        paired += pairs.height
        if near.method == "simhash":
            edges.append(_simhash_edges(pairs, near))
            continue
        # summed as the chunks come: at most one row a pair, however many buckets it shares
        counts = pl.concat([counts, pairs.group_by(PAIR).agg(pl.len().cast(pl.UInt32).alias("shared"))]).group_by(
            PAIR).agg(pl.col("shared").sum())
    if near.method == "simhash":
        result = pl.concat([pl.DataFrame(schema=EDGES), *edges], how="diagonal").unique(["a", "b"]).sort("a", "b")
        task.directory.write_result(task.partition, result)
        return
    counts = counts.sort("a", "b")
    # a pair goes to the partition of its earlier page, where that page's sketch is (`near_pair_task`)
    pair_directory = PassDirectory(task.directory.root, PAIRS_PASS, task.directory.partitions)
    pair_directory.write_fragments(task.partition, counts, pl.col("a"))
    task.directory.write_result(task.partition, pl.DataFrame({"pairs": [paired]}))


def bucket_chunks(members: pl.DataFrame, rows: int) -> Iterator[pl.DataFrame]:
    """`members` (sorted by bucket) in consecutive slices of about `rows` rows, never cutting a bucket."""
    buckets = members["bucket"].to_numpy()
    start = 0
    while start < len(buckets):
        stop = min(start + rows, len(buckets))
        stop = int(np.searchsorted(buckets, buckets[stop - 1], side="right"))
        yield members.slice(start, stop - start)
        start = stop


def _simhash_edges(pairs: pl.DataFrame, near: NearParams) -> pl.DataFrame:
    """The pairs within `max_hamming_distance` bits of each other, as edges (a, b, dates, distance)."""
    distance = pl.Series([hamming(a, b) for a, b in zip(pairs["a_value"], pairs["b_value"], strict=True)],
                         dtype=pl.Int32)
    limit = near.max_hamming_distance if near.max_hamming_distance is not None else -1
    return pairs.with_columns(distance.alias("distance")).filter(pl.col("distance") <= limit) \
        .unique(["a", "b"]).select("a", "b", "a_date", "b_date", "distance")


def near_pair_task(task: PartitionTask) -> None:
    """MinHash pairs of one partition of earlier pages (a): those that share `min_shared_bands`
    bands (summed over the bucket partitions' counts) are candidates; each gets page a's sketch
    (the sketches of this partition's nodes) and goes to the partition of its later page (b) for
    `near_verify_task`."""
    near: NearParams = task.settings.near
    pairs = task.directory.read_fragments(task.partition, PAIR_COUNTS)
    candidates = pairs.group_by(PAIR).agg(pl.col("shared").sum()).filter(
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
    # estimated a slice of pairs at a time (the signatures' arrays of a slice, not of the partition),
    # then in the order one estimate of them all gives
    floor = settings.floor - ESTIMATE_MARGIN
    likely = pl.concat([pl.DataFrame(schema=EDGES), *(estimate(both.slice(start, ESTIMATE_PAIRS), floor)
                                                      for start in range(0, both.height, ESTIMATE_PAIRS))]
                       ).sort("a", "b")
    del pairs, both
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
    reads of each page, with the split it is written to (the candidates' `split`: its kind's
    `UnitKind.split`, the value the write pass writes)."""
    if batch.compact.is_empty() or batch.pairing.method != "minhash":
        return None
    have = batch.compact.filter(pl.col("minhash").is_not_null())
    shingles = pl.col("minhash_shingles") if "minhash_shingles" in have.columns else pl.lit(None)
    return have.select(node(batch.file_index), "minhash", shingles.cast(pl.Int64).alias("shingles"),
                       "split", "id")


NEAR_SIGNALS = ("near_duplicate", "near_duplicate_distance", "near_duplicate_similarity", "near_duplicate_containment")
NEAR = {"node": pl.UInt64, **declared_types(NEAR_SIGNALS)}


def verified(view: View) -> pl.DataFrame:
    """The MinHash pairs verified on their texts (`EDGES`), down to the lowest threshold either rule needs."""
    return view.once("verified", lambda: view.results(VERIFY_PASS, EDGES))


def deciding_edges(view: View) -> pl.DataFrame:
    """The near pairs that decide dup.near: the simhash pass's, or the verified MinHash pairs at its threshold."""
    near = view.params.select.dedup.near
    return view.once("edges", lambda: view.results(NEAR_PASS, EDGES) if near.method == "simhash"
                     else near_edges(verified(view), near))


def near_groups(view: View) -> pl.DataFrame:
    """The near clusters (union-find over the deciding pairs); none where no near method is set."""
    return near_clusters(deciding_edges(view)) if view.params.select.dedup.near.method else pl.DataFrame(schema=GROUPS)


def near_found(view: View, nodes: pl.Series) -> pl.DataFrame:
    """The near signals of the pages that lose to an earlier kept page of their cluster, measured
    against the closest earlier page (`closest_earlier`)."""
    return pl.DataFrame({"node": nodes}, schema=NODES).join(
        closest_earlier(deciding_edges(view)), on="node", how="left").select(
        "node", pl.lit(True).alias("near_duplicate"), "near_duplicate_distance", "near_duplicate_similarity",
        "near_duplicate_containment").cast(NEAR)  # type: ignore[arg-type]  # polars accepts type classes


def cross_found(view: View, losers: pl.Series) -> pl.DataFrame:
    """dataset.cross_split after the keepers: validation or test candidates no dup.* rule rejects
    that a kept train page contains (`CROSS`)."""
    return cross_split(verified(view), losers, view.params)


BUCKETS = Pass(NEAR_PASS, near_bucket_task, Feed(bucket_rows, "bucket", ("bucket", "date", "node", "value")),
               reads=(Between(REPEATS),), writes=(Fragments(PAIRS_PASS, "MinHash: a pair, the buckets it shares"),),
               result=("MinHash: pairs (a count)", "simhash: " + ", ".join(EDGES)),
               part=Part("dup.near", NEAR_SIGNALS, groups=near_groups, found=near_found,
                         fill={"near_duplicate": False}))
PAIRS = Pass(PAIRS_PASS, near_pair_task, reads=(Fragments(SKETCHES_PASS),),
             writes=(Fragments(VERIFY_PASS),), result=("candidates (a count)",))
VERIFY = Pass(VERIFY_PASS, near_verify_task,
              reads=(Fragments(SKETCHES_PASS), Texts("the pairs' texts in the extract files")), result=tuple(EDGES),
              part=Part("dataset.cross_split", ("cross_split_containment", "cross_split_train_id"), after=cross_found))
SKETCHED = Pass(SKETCHES_PASS, None, Feed(sketch_rows, "node", tuple(SKETCHES)))
