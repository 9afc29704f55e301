"""De-duplication pass of the select stage (docs/filters.md, "De-duplication"; docs/scale.md).

Candidates are the rows that pass every other rule, in one deterministic global order: capture
time, then reading order (unknown capture times last). Each pass runs over hash partitions
(`pipeline/stages/partitions.py`): the driver writes key rows, one task per partition decides.
1. **Record ids**, over every row: copies of one `WARC-Record-ID` keep one id, the first copy that
   passes every other rule (else the first); the others get ids of their own and `dup.record`.
2. **URL** and **exact** groups, **CDC** fractions (Rabin fingerprints, Manber 1994, per host) and
   **near**-duplicate pairs (`pipeline/stages/near.py`), joined into clusters by union-find.
3. **One keeper** (`keep_first`): a candidate is kept unless its CDC fraction is over the limit or
   it shares a key or a near cluster with an earlier **kept** page, so every `dup.url`, `dup.exact`
   and `dup.near` points at a kept page and a cluster never reaches two splits (docs/dataset.md).
4. **Cross-split overlap** (`dataset.cross_split`): a validation or test page contained at the
   threshold in a kept train page names it (`filters.corpus.near`); train pages never lose here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl

from filters.corpus.cdc import chunk_hashes, duplicated_fraction, mark_seen
from filters.corpus.dataset import sample_key, site_of
from filters.corpus.keepers import GROUPS, NODES, closest_earlier, keep_first, near_clusters
from filters.corpus.near import (
    CROSS,
    EDGES,
    cross_split_matches,
    near_edges,
    near_keys,
)
from filters.page.url_rules import normalize_url
from filters.rules import reasons
from pipeline.io.records import DOCUMENT_TYPES, synthetic_id
from pipeline.params import CdcParams, NearParams, Params
from pipeline.run.executors import Executor
from pipeline.stages.dataset import site_unit
from pipeline.stages.near import (
    PAIRS_PASS,
    SKETCHES_PASS,
    VERIFY_PASS,
    cross_split_threshold,
    near_bucket_task,
    near_pair_task,
    near_verify_task,
    sketch_rows,
    uses_minhash,
)
from pipeline.stages.partitions import (
    REPEATS,
    PartitionTask,
    PassDirectory,
    date_key,
    file_of,
    fragments_complete,
    node,
    prepare,
    read_candidates,
    row_of,
    run_partitions,
    texts_of,
    write_whole,
)
from pipeline.store.storage import readable_copy

NEAR = {"node": pl.UInt64, "near_duplicate": pl.Boolean, "near_duplicate_distance": pl.Int32,
        "near_duplicate_similarity": pl.Float64, "near_duplicate_containment": pl.Float64}
IDS = {"node": pl.UInt64, "new_id": pl.String, "record_duplicate": pl.Boolean, "candidate": pl.Boolean}
SITES = {"node": pl.UInt64, "site_accepted_pages": pl.Int32, "site_sample_rank": pl.Int32}
SIGNALS = {"file": pl.UInt32, "row": pl.UInt32, "cdc_duplicated_fraction": pl.Float64, "exact_duplicate": pl.Boolean,
           "url_duplicate": pl.Boolean, "near_duplicate": pl.Boolean, "near_duplicate_distance": pl.Int32,
           "near_duplicate_similarity": pl.Float64, "near_duplicate_containment": pl.Float64,
           "cross_split_containment": pl.Float64, "cross_split_train_id": pl.String, "new_id": pl.String,
           "record_duplicate": pl.Boolean, "site_accepted_pages": pl.Int32, "site_sample_rank": pl.Int32}
LOSERS = "losers.parquet"
# pass directories that a task of another pass reads or writes
IDS_PASS = "ids"


@dataclass(frozen=True)
class DedupSettings:
    """What the partition tasks need: the extract files (`files`: the driver's local copies,
    `sources`: where they came from, for a task that cannot see the copies) and the params."""

    files: tuple[tuple[str, ...], ...]  # the extract files of each unit (`pipeline.stages.select`)
    sources: tuple[tuple[str, ...], ...] | None
    cdc: CdcParams
    near: NearParams
    seed: int = 0
    # dataset.cross_split_min_containment: pairs are verified down to this containment too
    cross_split: float | None = None
    # extract.minhash.shingle_words: the n-grams whose containment is verified
    shingle_words: int = 5

    def readable_files(self) -> list[tuple[str, ...]]:
        """The extract files of each unit, as a task can read them (the driver's local copies, or
        copies of their sources where the task cannot see the driver's)."""
        if self.sources is None:
            return list(self.files)
        return [tuple(readable_copy(*pair) for pair in zip(unit, sources, strict=True))
                for unit, sources in zip(self.files, self.sources, strict=True)]

    @property
    def floor(self) -> float:
        """The lowest containment a verified pair needs for either rule."""
        thresholds = [self.near.min_containment] if self.near.method == "minhash" else []
        return min([*thresholds, *([self.cross_split] if self.cross_split is not None else [])], default=1.0)


class Passes:
    """The partitioned passes of one select run in `root`: key rows in, duplicates out."""

    def __init__(self, root: str, params: Params, identity: dict[str, Any]) -> None:
        dedup = params.select.dedup
        self.params = params
        partitions = dedup.partitions
        self.directories = {name: PassDirectory(root, name, partitions)
                            for name in ("url", "exact", "cdc", "near", PAIRS_PASS, VERIFY_PASS, SKETCHES_PASS,
                                         IDS_PASS, "sites")}
        self.url, self.exact, self.cdc, self.near = (self.directories[name] for name in ("url", "exact", "cdc", "near"))
        self.pairs, self.verified, self.sketches, self.ids, self.sites = (
            self.directories[name] for name in (PAIRS_PASS, VERIFY_PASS, SKETCHES_PASS, IDS_PASS, "sites"))
        # what the near pass runs with: MinHash pairing whenever dup.near or dataset.cross_split needs it
        self.pairing = replace(dedup.near, method="minhash") if uses_minhash(params) else dedup.near
        self.root = root
        self.reused = prepare(root, partitions, identity)
        # candidates with a text (a content hash) but no MinHash signature: not compared
        self.unsigned = 0
        self._decided: Duplicates | None = None

    def add(self, file_index: int, compact: pl.DataFrame, ids: pl.DataFrame) -> None:
        """Write one extract file's candidates (`compact_columns`) and the ids of all its rows
        (`id_columns`) into the partitions."""
        if self.pairing.method == "minhash" and not compact.is_empty():
            self.unsigned += compact.filter(pl.col("content_hash").is_not_null() & pl.col("minhash").is_null()).height
        if self.reused:
            return
        self.ids.write_fragments(file_index, ids.select(
            pl.col("id").alias("key"), node(file_index), date_key(),
            pl.col("row").is_in(compact["row"].implode()).alias("candidate"),
            "record_type", "source_file", "source_offset"), pl.col("key"))
        if compact.is_empty():
            return
        unit = site_unit(self.params)
        self.sites.write_fragments(file_index, compact.select(
            pl.col("host").map_elements(lambda host: site_of(host, unit), return_dtype=pl.String).alias("site"),
            "id", node(file_index)).drop_nulls("site"), pl.col("site"))
        rows = compact.select(node(file_index), date_key(), "host", "normalized_url", "canonical_key",
                              "content_hash", "simhash64", "minhash")
        self.url.write_fragments(file_index, rows.select(
            pl.concat_list("normalized_url", "canonical_key").list.drop_nulls().list.unique().alias("key"),
            "date", "node").explode("key").drop_nulls("key"), pl.col("key"))
        self.exact.write_fragments(file_index, rows.select(pl.col("content_hash").alias("key"), "date", "node")
                                   .drop_nulls("key"), pl.col("key"))
        self.cdc.write_fragments(file_index, rows.select(pl.col("host").fill_null(""), "date", "node"),
                                 pl.col("host"))
        near = near_keys(rows, self.pairing)
        if near is not None:
            self.near.write_fragments(file_index, near, pl.col("bucket"))
        if self.pairing.method == "minhash":
            self.sketches.write_fragments(file_index, sketch_rows(compact, self.params, file_index), pl.col("node"))

    def warnings(self) -> list[str]:
        """What stats.json should say about the passes."""
        if not self.unsigned:
            return []
        return [f"{self.unsigned} candidates with a text have no MinHash signature (extracted by an older version, or "
                f"with extract.minhash.permutations null): near duplicates among them are not found; extract again "
                f"or set select.dedup.near.method: simhash (with dataset.cross_split_min_containment: null)"]

    def run(self, files: list[tuple[str, ...]], executor: Executor | None,
            sources: list[tuple[str, ...]] | None) -> int:
        """Decide every partition that has no result yet; returns how many tasks ran."""
        fragments_complete(self.root)
        dedup = self.params.select.dedup
        settings = DedupSettings(tuple(files), tuple(sources) if sources is not None else None, dedup.cdc, self.pairing,
                                 self.params.dataset.seed, cross_split_threshold(self.params),
                                 self.params.extract.minhash.shingle_words)

        def tasks(fn: Any, todo: list[Any]) -> list[Any]:
            return executor.map(fn, todo, "dedup") if executor is not None else [fn(task) for task in todo]

        between = {REPEATS: self.repeats, LOSERS: self.losers}
        ran = 0
        for passes, then in ROUNDS:
            ran += run_partitions([(self.directories[one.name], one.task) for one in passes], tasks, settings)
            if then is not None and not (Path(self.root) / then).is_file():
                write_whole(between[then](), Path(self.root) / then)
        return ran

    def repeats(self) -> pl.DataFrame:
        """The candidates that are re-read records (dup.record on): the passes after the id pass
        leave them out."""
        if "dup.record" not in self.enabled():
            return pl.DataFrame(schema=NODES)
        return self.ids.read_results(IDS, pl.col("record_duplicate") & pl.col("candidate")).select("node").sort("node")

    def decide(self) -> Duplicates:
        """The duplicates of every pass (rows that lose only), with the near clusters formed (once)."""
        if self._decided is None:
            self._decided = self._decide()
        return self._decided

    def enabled(self) -> set[str]:
        """The dup.* rules these params turn on."""
        return {rule.code for rule in reasons.rules_for("dedup") if rule.enabled(self.params)}

    def _decide(self) -> Duplicates:
        dedup = self.params.select.dedup
        limit = dedup.cdc.max_duplicated_fraction
        over = pl.Series([], dtype=pl.UInt64) if limit is None else \
            self.cdc.read_results({"node": pl.UInt64, "fraction": pl.Float64}, pl.col("fraction") > limit)["node"]
        verified = self.verified.read_results(EDGES)
        edges = self.near.read_results(EDGES) if dedup.near.method == "simhash" else near_edges(verified, dedup.near)
        enabled = self.enabled()
        groups = {"url": self.url.read_results(GROUPS), "exact": self.exact.read_results(GROUPS),
                  "near": near_clusters(edges) if dedup.near.method else pl.DataFrame(schema=GROUPS)}
        found = keep_first(groups, over, {kind for kind in groups if f"dup.{kind}" in enabled})
        near = found["near"].join(closest_earlier(edges), on="node", how="left").select(
            "node", pl.lit(True).alias("near_duplicate"), "near_duplicate_distance", "near_duplicate_similarity",
            "near_duplicate_containment")
        decided = [found[kind]["node"] for kind in groups if f"dup.{kind}" in enabled]
        losers = pl.concat([*decided, over, pl.Series([], dtype=pl.UInt64)]).unique()
        threshold = cross_split_threshold(self.params)
        cross = pl.DataFrame(schema=CROSS) if threshold is None else cross_split_matches(verified, losers, threshold)
        return Duplicates(self.cdc, self.ids, self.sites, found["url"]["node"], found["exact"]["node"], over,
                          near.cast(NEAR), cross)  # type: ignore[arg-type]  # polars accepts data type classes

    def losers(self) -> pl.DataFrame:
        """The candidates an enabled dup.* rule rejects (node), from the passes' results."""
        found = self.decide()
        enabled = self.enabled()
        parts = [found.url if "dup.url" in enabled else None, found.exact if "dup.exact" in enabled else None,
                 found.near["node"] if "dup.near" in enabled else None,
                 self.ids.read_results(IDS, pl.col("record_duplicate"))["node"] if "dup.record" in enabled else None,
                 found.cdc_over if "dup.cdc" in enabled else None,
                 found.cross["node"] if cross_split_threshold(self.params) is not None else None]
        nodes = [part for part in parts if part is not None]
        return pl.DataFrame({"node": pl.concat(nodes).unique().sort() if nodes else pl.Series([], dtype=pl.UInt64)},
                            schema=NODES)


@dataclass(frozen=True)
class Duplicates:
    """What the passes decided: the nodes that lose each pass and the near duplicates (small: one
    row a duplicate), and the directories whose results are read one extract file at a time (CDC
    fractions, id repeats, per-site balance)."""

    cdc: PassDirectory
    ids: PassDirectory
    sites: PassDirectory
    url: pl.Series
    exact: pl.Series
    cdc_over: pl.Series  # nodes whose CDC fraction is over the limit (empty without one)
    near: pl.DataFrame  # node, near_duplicate, near_duplicate_distance, near_duplicate_similarity, containment
    cross: pl.DataFrame  # node, cross_split_containment, cross_split_train_id (filters.corpus.near.CROSS)

    def for_file(self, file_index: int) -> pl.DataFrame:
        """The duplication and balance signals of one extract file's rows (SIGNALS, one row per
        candidate or repeated id, by row)."""
        low, high = file_index << 32, (file_index + 1) << 32
        in_file = pl.col("node").is_between(low, high, closed="left")
        fractions = self.cdc.read_results({"node": pl.UInt64, "fraction": pl.Float64}, in_file)
        candidates = fractions.join(self.near.filter(in_file), on="node", how="left").select(
            "node", pl.col("fraction").alias("cdc_duplicated_fraction"),
            pl.col("node").is_in(self.exact.implode()).alias("exact_duplicate"),
            pl.col("node").is_in(self.url.implode()).alias("url_duplicate"),
            pl.col("near_duplicate").fill_null(False),
            "near_duplicate_distance", "near_duplicate_similarity", "near_duplicate_containment") \
            .join(self.cross.filter(in_file), on="node", how="left")
        repeats = self.ids.read_results(IDS, in_file).drop("candidate")
        balance = self.sites.read_results(SITES, in_file)
        return candidates.join(repeats, on="node", how="full", coalesce=True) \
            .join(balance, on="node", how="left").select(
                file_of(pl.col("node")).alias("file"), row_of(pl.col("node")).alias("row"),
                pl.all().exclude("node")).sort("row").cast(SIGNALS)  # type: ignore[arg-type]  # polars: type classes


def groups_task(task: PartitionTask) -> None:
    """URL and exact passes: the members (node, date, group) of every key that two or more
    candidates share. A group is named by the partition and the key's rank in it."""
    rows = read_candidates(task, {"key": pl.String, "date": pl.Int64, "node": pl.UInt64}).unique(["key", "node"])
    shared = rows.filter(pl.len().over("key") > 1)
    group = pl.col("key").rank("dense").cast(pl.UInt64) + (task.partition << 32)
    task.directory.write_result(task.partition, shared.select("node", "date", group.alias("group"))
                                .sort("node", "group"))


def cdc_task(task: PartitionTask) -> None:
    """One partition of hosts: texts chunked, then each host's candidates in the global order."""
    settings: DedupSettings = task.settings
    members = read_candidates(task, {"host": pl.String, "date": pl.Int64, "node": pl.UInt64})
    cdc = settings.cdc
    pages = {member: chunk_hashes(text or "", cdc.algorithm, fastcdc_avg=cdc.fastcdc_avg_bytes)
             for member, text in texts_of(members["node"], settings.readable_files())}
    nodes, fractions = [], []
    for _host, group in members.sort("date", "node").group_by("host", maintain_order=True):
        seen: set[int] = set()
        for member in group["node"]:
            hashes, sizes = pages.pop(member)
            nodes.append(member)
            fractions.append(duplicated_fraction(hashes, sizes, seen))
            mark_seen(seen, hashes)
    task.directory.write_result(task.partition, pl.DataFrame(
        {"node": nodes, "fraction": fractions}, schema={"node": pl.UInt64, "fraction": pl.Float64}).sort("node"))


def id_repeats_task(task: PartitionTask) -> None:
    """Rows whose `id` another row has: every row of such an id but one, with a new unique id
    (`new_id`) and `record_duplicate` when both it and the kept row are documents (the same WARC
    record read twice). The row that keeps the id is the first in the global order that passes
    every other rule (a candidate), else the first. Every row takes part (not only candidates),
    since ids must be unique over accepted/ and rejected/ together."""
    rows = task.directory.read_fragments(task.partition, {"key": pl.String, "node": pl.UInt64, "date": pl.Int64,
                                                          "candidate": pl.Boolean, "record_type": pl.String,
                                                          "source_file": pl.String, "source_offset": pl.Int64})
    ordered = rows.filter(pl.len().over("key") > 1).sort(~pl.col("candidate"), "date", "node").with_columns(
        pl.col("record_type").first().over("key").alias("kept_type"),
        pl.col("node").first().over("key").alias("kept"))
    repeats = ordered.filter(pl.col("node") != pl.col("kept")).sort("node")
    new_ids = [synthetic_id(f, o, t) for f, o, t in repeats.select("source_file", "source_offset", "record_type")
               .iter_rows()]
    task.directory.write_result(task.partition, repeats.select(
        "node", pl.Series("new_id", new_ids, dtype=pl.String),
        (pl.col("record_type").is_in(DOCUMENT_TYPES) & pl.col("kept_type").is_in(DOCUMENT_TYPES))
        .alias("record_duplicate"), "candidate").cast(IDS))  # type: ignore[arg-type]  # polars accepts type classes


def site_task(task: PartitionTask) -> None:
    """Per-site balance of one partition of sites: among the candidates no dup rule rejected,
    how many the site has (`site_accepted_pages`) and each one's rank in the site's
    deterministic sample (`site_sample_rank`, by the hash of its id: the new id of a repeated id)."""
    settings: DedupSettings = task.settings
    rows = task.directory.read_fragments(task.partition, {"site": pl.String, "id": pl.String, "node": pl.UInt64})
    root = Path(task.directory.root)
    losers = pl.read_parquet(root / LOSERS)["node"]
    ids = PassDirectory(task.directory.root, IDS_PASS, task.directory.partitions).read_results(
        IDS, pl.col("node").is_in(rows["node"].implode()))
    kept = rows.filter(~pl.col("node").is_in(losers.implode())).join(ids.select("node", "new_id"), on="node",
                                                                     how="left")
    keys = pl.Series("key", [sample_key(settings.seed, page) for page in
                             kept.select(pl.coalesce("new_id", "id"))["new_id"]], dtype=pl.Binary)
    task.directory.write_result(task.partition, kept.with_columns(keys).select(
        "node", pl.len().over("site").cast(pl.Int32).alias("site_accepted_pages"),
        (pl.col("key").rank("ordinal").over("site") - 1).cast(pl.Int32).alias("site_sample_rank")).sort("node"))


def id_columns(unit: Sequence[str]) -> pl.DataFrame:
    """The columns the id check reads of every row of a unit's extract files (with its `row`)."""
    return pl.scan_parquet(list(unit)).with_row_index("row").select(
        pl.col("row").cast(pl.UInt32), "id", "record_type", "source_file", "source_offset", "warc_date").collect()


def canonical_key(canonical_url: str | None) -> str | None:
    return normalize_url(canonical_url) if canonical_url else None


def compact_columns(frame: pl.LazyFrame, file_index: int) -> pl.LazyFrame:
    """The few columns the global passes need (keys, hashes, order; never the text), for
    candidates only: rows another rule rejected take no part in de-duplication."""
    signals = pl.col("signals")
    columns = {field.name for field in frame.collect_schema()["signals"].fields}  # type: ignore[attr-defined]
    return frame.filter(pl.col("reasons").list.len() == 0).select(
        pl.lit(file_index, dtype=pl.UInt32).alias("file"),
        pl.col("row"),
        pl.col("id"), pl.col("host"), pl.col("warc_date"), pl.col("url"), pl.col("normalized_url"),
        pl.col("canonical_url").map_elements(canonical_key, return_dtype=pl.String).alias("canonical_key"),
        signals.struct.field("content_hash").alias("content_hash"),
        signals.struct.field("simhash64").alias("simhash64"),
        signals.struct.field("minhash").alias("minhash"),
        _field(signals, "minhash_shingles", columns),
    )


def _field(signals: pl.Expr, name: str, present: set[str]) -> pl.Expr:
    """A signal that work directories extracted by an older version lack (null there)."""
    return (signals.struct.field(name) if name in present else pl.lit(None, dtype=pl.Int32)).alias(name)


@dataclass(frozen=True)
class Pass:
    """One partitioned pass: its directory under the partitions root, the task that decides one
    of its partitions, and what that task reads and writes besides its own fragments and result."""

    name: str
    task: Callable[[PartitionTask], None]
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()


# The passes in the order they run. A round's partition tasks run together (one executor map);
# the file named after a round is written by the driver, from the results so far, before the next
# round starts (`Passes.run`: `repeats`, then `losers`).
ROUNDS: tuple[tuple[tuple[Pass, ...], str | None], ...] = (
    ((Pass(IDS_PASS, id_repeats_task),), REPEATS),
    ((Pass("url", groups_task, reads=(REPEATS,)),
      Pass("exact", groups_task, reads=(REPEATS,)),
      Pass("cdc", cdc_task, reads=(REPEATS, "the candidates' texts in the extract files")),
      Pass("near", near_bucket_task, reads=(REPEATS,), writes=(f"{PAIRS_PASS} fragments",))), None),
    ((Pass(PAIRS_PASS, near_pair_task, reads=(f"{SKETCHES_PASS} fragments",),
           writes=(f"{VERIFY_PASS} fragments",)),), None),
    ((Pass(VERIFY_PASS, near_verify_task, reads=(f"{SKETCHES_PASS} fragments",)),), LOSERS),
    ((Pass("sites", site_task, reads=(LOSERS, f"{IDS_PASS} results")),), None),
)
