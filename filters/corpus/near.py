"""Near duplicates and cross-split overlap between pages, decided from MinHash signatures and the texts' word
n-grams (docs/filters.md, "Near duplicates"; docs/dataset.md, "Detector dataset").

Pure functions over polars frames, which `pipeline/stages/dedup/` runs over partitions:
1. `near_keys`: each page's bucket keys (its LSH bands, or a simhash's pigeonhole blocks);
2. `bucket_pairs`: the candidate pairs, pages that share a bucket (each with at most a fixed number of earlier
   members of the bucket);
3. `estimate`: each pair's Jaccard similarity estimated from the whole signatures and the containment (0..1) of
   each text in the other (`filters.corpus.minhash.containments`), keeping the pairs worth reading; then
   `exact`: the same measures on the exact sets of the two texts' word n-grams, which decide, since an estimate
   from 128 values is too coarse near the threshold (`ESTIMATE_MARGIN`; docs/decisions.md).
`near_edges` keeps the pairs whose shorter text is contained in the other at `min_containment`;
`cross_split_matches` finds, after the keepers are chosen, the validation and test pages that share a story with
a kept train page.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from filters.corpus.dedup import NearParams, simhash_block_keys
from filters.corpus.minhash import band_keys, containments, estimated_counts, signature_array, similarities

TRAIN = "train"
# A verified pair: the earlier page a, the later b, their order keys, the Jaccard similarity, the
# simhash distance (simhash edges), the containment of each text in the other, splits and ids
# (estimated from the signatures by `estimate`, measured on the texts by `exact`).
EDGES = {"a": pl.UInt64, "b": pl.UInt64, "a_date": pl.Int64, "b_date": pl.Int64, "similarity": pl.Float64,
         "distance": pl.Int32, "a_in_b": pl.Float64, "b_in_a": pl.Float64, "a_split": pl.String,
         "b_split": pl.String, "a_id": pl.String, "b_id": pl.String}
# What a pair needs of each page to be verified (fragments of the sketches pass, by node).
SKETCHES = {"node": pl.UInt64, "minhash": pl.Binary, "shingles": pl.Int64, "split": pl.String, "id": pl.String}
CROSS = {"node": pl.UInt64, "cross_split_containment": pl.Float64, "cross_split_train_id": pl.String}


def near_keys(rows: pl.DataFrame, near: NearParams) -> pl.DataFrame | None:
    """(bucket, date, node, value) rows of the near pass: one per LSH band of a MinHash
    signature, or one per pigeonhole block of a simhash (with the simhash as `value`)."""
    if near.method == "minhash":
        have = rows.filter(pl.col("minhash").is_not_null())
        if have.is_empty():
            return None
        keys = band_keys(signature_array(have["minhash"].to_list()), near.bands, near.rows)
        return pl.DataFrame({
            "bucket": keys.reshape(-1),
            "date": np.repeat(have["date"].to_numpy(), near.bands),
            "node": np.repeat(have["node"].to_numpy(), near.bands),
        }).with_columns(pl.lit(None, dtype=pl.Int64).alias("value"))
    if near.method == "simhash" and near.max_hamming_distance is not None:
        have = rows.filter(pl.col("simhash64").is_not_null())
        if have.is_empty():
            return None
        keys = simhash_block_keys(have["simhash64"].to_numpy(), near.max_hamming_distance)
        blocks = keys.shape[1]
        return pl.DataFrame({
            "bucket": keys.T.reshape(-1),
            "date": np.tile(have["date"].to_numpy(), blocks),
            "node": np.tile(have["node"].to_numpy(), blocks),
            "value": np.tile(have["simhash64"].to_numpy(), blocks),
        })
    return None


def bucket_pairs(shared: pl.DataFrame, limit: int) -> pl.DataFrame:
    """(a, b, a_date, b_date, a_value, b_value): within each bucket (rows sorted by bucket, date,
    node), each member with each of the first `limit` members before it."""
    numbered = shared.with_columns(pl.int_range(pl.len()).over("bucket").alias("position"))
    earlier = numbered.filter(pl.col("position") < limit).select(
        "bucket", pl.col("position").alias("a_position"), pl.col("node").alias("a"), pl.col("date").alias("a_date"),
        pl.col("value").alias("a_value"))
    return numbered.join(earlier, on="bucket").filter(pl.col("a_position") < pl.col("position")).select(
        "a", pl.col("node").alias("b"), "a_date", pl.col("date").alias("b_date"), "a_value",
        pl.col("value").alias("b_value"))


def with_sketch(pairs: pl.DataFrame, sketches: pl.DataFrame, side: str) -> pl.DataFrame:
    """`pairs` with the signature, shingle count, split and id of page `side` ("a" or "b")
    as `{side}_minhash`, `{side}_shingles`, `{side}_split`, `{side}_id`."""
    renamed = sketches.select(pl.col("node").alias(side), *(pl.col(name).alias(f"{side}_{name}")
                                                         for name in ("minhash", "shingles", "split", "id")))
    return pairs.join(renamed, on=side, how="inner")


# How far below the threshold an estimated containment may fall and the pair still be read exactly:
# about four standard errors of a 128-value estimate.
ESTIMATE_MARGIN = 0.2


def estimate(pairs: pl.DataFrame, floor: float) -> pl.DataFrame:
    """The pairs (with both pages' sketches, `with_sketch`) whose larger estimated containment
    reaches `floor`, as `EDGES`: the Jaccard estimate of the whole signatures and each text's
    containment in the other. A page stored without its shingle count (an older extract) gets
    the count its signature implies (`estimated_counts`)."""
    if pairs.is_empty():
        return pl.DataFrame(schema=EDGES)
    first, second = signature_array(pairs["a_minhash"].to_list()), signature_array(pairs["b_minhash"].to_list())
    similarity = similarities(first, second)
    a_count = _counts(pairs["a_shingles"], first)
    b_count = _counts(pairs["b_shingles"], second)
    a_in_b, b_in_a = containments(similarity, a_count, b_count)
    verified = pairs.select("a", "b", "a_date", "b_date", "a_split", "b_split", "a_id", "b_id").with_columns(
        pl.Series("similarity", similarity), pl.lit(None, dtype=pl.Int32).alias("distance"),
        pl.Series("a_in_b", a_in_b), pl.Series("b_in_a", b_in_a))
    return verified.filter(containment() >= floor).select(list(EDGES)).cast(
        EDGES).sort("a", "b")  # type: ignore[arg-type]  # polars accepts data type classes


def exact(edges: pl.DataFrame, shingles: dict[int, np.ndarray], floor: float) -> pl.DataFrame:
    """`edges` with the similarity and containments of the exact n-gram sets (`shingles`, node ->
    sorted distinct values, `filters.corpus.minhash.shingle_values`), those reaching `floor`."""
    if edges.is_empty():
        return edges
    shared, a_size, b_size = [], [], []
    for a, b in edges.select("a", "b").iter_rows():
        first, second = shingles[a], shingles[b]
        shared.append(np.intersect1d(first, second, assume_unique=True).size)
        a_size.append(first.size)
        b_size.append(second.size)
    common, first_size, second_size = np.array(shared, float), np.array(a_size, float), np.array(b_size, float)
    union = np.maximum(first_size + second_size - common, 1.0)
    measured = edges.with_columns(pl.Series("similarity", common / union),
                                  pl.Series("a_in_b", common / np.maximum(first_size, 1.0)),
                                  pl.Series("b_in_a", common / np.maximum(second_size, 1.0)))
    return measured.filter(containment() >= floor)


def _counts(stored: pl.Series, signatures: np.ndarray) -> np.ndarray:
    counts = stored.cast(pl.Float64).to_numpy()
    missing = np.isnan(counts)
    if missing.any():
        counts[missing] = estimated_counts(signatures[missing])
    return counts


def containment() -> pl.Expr:
    """An edge's containment: the share of the shorter text's n-grams found in the other (the
    larger of the two directions)."""
    return pl.max_horizontal("a_in_b", "b_in_a")


def near_edges(edges: pl.DataFrame, near: NearParams) -> pl.DataFrame:
    """The verified MinHash pairs that are near duplicates: containment at `min_containment`."""
    return edges.filter(containment() >= near.min_containment)


def cross_split_matches(edges: pl.DataFrame, losers: pl.Series, threshold: float) -> pl.DataFrame:
    """(node, cross_split_containment, cross_split_train_id): each validation or test page that no
    duplicate rule rejects and whose text is contained at `threshold` or more in a train page
    that no duplicate rule rejects; the train page it is most contained in (ties: the earliest
    node). Train pages are never named here: train is not reduced."""
    if edges.is_empty():
        return pl.DataFrame(schema=CROSS)
    sides = [("a", "b", "a_in_b"), ("b", "a", "b_in_a")]
    directed = pl.concat([edges.select(
        pl.col(mine).alias("node"), pl.col(f"{mine}_split").alias("split"), pl.col(theirs).alias("train"),
        pl.col(f"{theirs}_split").alias("train_split"), pl.col(f"{theirs}_id").alias("train_id"),
        pl.col(share).alias("share")) for mine, theirs, share in sides])
    lost = losers.implode()
    found = directed.filter(
        pl.col("split").is_not_null() & (pl.col("split") != TRAIN) & (pl.col("train_split") == TRAIN)
        & (pl.col("share") >= threshold) & ~pl.col("node").is_in(lost) & ~pl.col("train").is_in(lost))
    best = found.sort("node", pl.col("share"), "train", descending=[False, True, False]).group_by(
        "node", maintain_order=True).first()
    return best.select("node", pl.col("share").alias("cross_split_containment"),
                       pl.col("train_id").alias("cross_split_train_id")).cast(
        CROSS).sort("node")  # type: ignore[arg-type]  # polars accepts data type classes
