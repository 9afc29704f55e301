"""Hash partitions of select's de-duplication passes (docs/scale.md, "De-duplication at scale").

Each pass writes small key rows into fragments, one file per (input file, partition):
``DIR/PASS/p00003/f00012.parquet``. One task per partition reads its own fragments, decides, and
writes ``DIR/PASS/p00003.parquet`` (staged and renamed, `store/writers.py`: a result that exists
is whole). The driver never holds a column with a row per candidate.

Rows are named by their **node**, ``file << 32 | row``, and ordered by their **date key**
(capture time in microseconds, unknown last) and then node. Every decision is a function of a
key's rows in this order, so it does not depend on the partition count
(`tests/pipeline/test_dedup_stage.py` runs 1, 5 and 16). A key's partition is polars' 64-bit
hash modulo the count; a partition directory records the polars version and the count, and is
rebuilt when either differs.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline.run.executors import TaskFailure, TasksFailed
from pipeline.store.storage import row_groups_with
from pipeline.store.writers import atomic_write_text, write_whole

NODE_ROW_BITS = 32
DATE_UNKNOWN = 2**63 - 1
MARKER = "partitions.json"
# The candidates that are re-read records (dup.record), written by the driver after the id pass:
# no later pass sees them (`read_candidates`).
REPEATS = "repeats.parquet"
# The candidates an enabled dup.* rule rejects, written by the driver after the near passes: the
# per-site balance counts the others.
LOSERS = "losers.parquet"
# Rows of texts a pass reads at once (`texts_of`).
TEXT_BATCH_ROWS = 1000


def node(file_index: int) -> pl.Expr:
    """The node of each row of input file `file_index` (a `row` column)."""
    return (pl.lit(file_index, dtype=pl.UInt64) * (1 << NODE_ROW_BITS) + pl.col("row").cast(pl.UInt64)).alias("node")


def date_key() -> pl.Expr:
    """Capture time in microseconds since 1970, unknown last."""
    return (pl.col("warc_date").dt.epoch("us").fill_null(DATE_UNKNOWN).cast(pl.Int64)).alias("date")


def file_of(nodes: pl.Expr) -> pl.Expr:
    return (nodes // (1 << NODE_ROW_BITS)).cast(pl.UInt32)


def row_of(nodes: pl.Expr) -> pl.Expr:
    return (nodes % (1 << NODE_ROW_BITS)).cast(pl.UInt32)


def in_unit(file_index: int) -> pl.Expr:
    """Whether a `node` is a row of input file (unit) `file_index`."""
    return pl.col("node").is_between(file_index << NODE_ROW_BITS, (file_index + 1) << NODE_ROW_BITS, closed="left")


def partition_of(key: pl.Expr, partitions: int) -> pl.Expr:
    return (key.hash(seed=0) % partitions).cast(pl.UInt32).alias("partition")


@dataclass(frozen=True)
class PassDirectory:
    """The fragments and results of one pass (`root/name`) over `partitions` partitions."""

    root: str
    name: str
    partitions: int

    @property
    def path(self) -> Path:
        return Path(self.root) / self.name

    def fragment_dir(self, partition: int) -> Path:
        return self.path / f"p{partition:05d}"

    def result(self, partition: int) -> Path:
        return self.path / f"p{partition:05d}.parquet"

    def write_fragments(self, file_index: int, rows: pl.DataFrame, key: pl.Expr) -> None:
        """Spread one input file's key rows over the partitions by `key`'s hash."""
        if rows.is_empty():
            return
        keyed = rows.with_columns(partition_of(key, self.partitions))
        for (partition,), part in keyed.partition_by("partition", as_dict=True, maintain_order=True).items():
            directory = self.fragment_dir(int(partition))
            directory.mkdir(parents=True, exist_ok=True)
            write_whole(part.drop("partition"), directory / f"f{file_index:05d}.parquet")

    def fragments(self, partition: int) -> list[Path]:
        directory = self.fragment_dir(partition)
        return sorted(directory.glob("f*.parquet")) if directory.is_dir() else []

    def read_fragments(self, partition: int, schema: dict[str, Any]) -> pl.DataFrame:
        paths = self.fragments(partition)
        if not paths:
            return pl.DataFrame(schema=schema)
        return pl.concat([pl.read_parquet(path) for path in paths])

    def finished(self, partition: int) -> bool:
        return self.result(partition).is_file()

    def write_result(self, partition: int, frame: pl.DataFrame) -> None:
        write_whole(frame, self.result(partition))

    def results(self) -> list[Path]:
        return [self.result(p) for p in range(self.partitions) if self.result(p).is_file()]

    def read_results(self, schema: dict[str, Any], where: pl.Expr | None = None) -> pl.DataFrame:
        frames = [pl.scan_parquet(path) for path in self.results()]
        if not frames:
            return pl.DataFrame(schema=schema)
        lazy = pl.concat(frames)
        return (lazy.filter(where) if where is not None else lazy).collect()


def prepare(root: str, partitions: int, identity: dict[str, Any]) -> bool:
    """Make `root` ready for passes over `partitions` partitions of the inputs `identity` names.

    Returns True when `root` already holds the fragments of exactly these inputs, params,
    partition count and polars version (finished partitions can then be skipped); otherwise
    empties it and returns False."""
    wanted = {"partitions": partitions, "polars": pl.__version__, "inputs": identity}
    marker = Path(root) / MARKER
    if marker.is_file():
        try:
            found = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = None
        if found == {**wanted, "fragments": "complete"}:
            return True
    shutil.rmtree(root, ignore_errors=True)
    Path(root).mkdir(parents=True, exist_ok=True)
    atomic_write_text(marker, json.dumps(wanted, sort_keys=True))
    return False


def fragments_complete(root: str) -> None:
    """Record that every fragment of `root` is written: a later run may reuse them."""
    marker = Path(root) / MARKER
    found = json.loads(marker.read_text(encoding="utf-8"))
    atomic_write_text(marker, json.dumps({**found, "fragments": "complete"}, sort_keys=True))


def run_partitions(passes: list[tuple[PassDirectory, Callable[[PartitionTask], None]]],
                   tasks: Callable[[Callable[[Any], None], list[Any]], Iterable[Any]], settings: Any) -> int:
    """Run each pass's function for every partition that has fragments and no result yet, all
    passes' partitions in one map (`tasks(function, items)`); returns how many ran."""
    todo = [(task, PartitionTask(directory, partition, settings)) for directory, task in passes
            for partition in range(directory.partitions)
            if directory.fragments(partition) and not directory.finished(partition)]
    if todo:
        for (_, item), result in zip(todo, tasks(call_task, todo), strict=True):
            if isinstance(result, TaskFailure):
                raise TasksFailed(f"a de-duplication partition task ({item.directory.name}, partition "
                                  f"{item.partition}) failed on every attempt: {result.error}")
    return len(todo)


def call_task(item: tuple[Callable[[PartitionTask], None], PartitionTask]) -> None:
    """One partition task (the function that decides it, and the task)."""
    function, task = item
    function(task)


@dataclass(frozen=True)
class PartitionTask:
    """One partition of one pass, and what the pass needs to decide it (`settings`)."""

    directory: PassDirectory
    partition: int
    settings: Any


def read_candidates(task: PartitionTask, schema: dict[str, Any]) -> pl.DataFrame:
    """One partition's key rows, less the re-read records (`REPEATS`, written after the id pass)."""
    rows = task.directory.read_fragments(task.partition, schema)
    repeats = pl.read_parquet(Path(task.directory.root) / REPEATS)["node"]
    return rows.filter(~pl.col("node").is_in(repeats.implode())) if repeats.len() else rows


def texts_of(nodes: pl.Series, files: list[tuple[str, ...]]) -> Iterator[tuple[int, str | None]]:
    """(node, text) of each of `nodes`, read from the extract files (`files[file]`, the unit of
    the node's file) a row group at a time (`TEXT_BATCH_ROWS` rows at a time at a URL), only the
    parts that hold one of them: a pass that reads texts holds one part of a file, not the
    partition's texts."""
    located = pl.DataFrame({"node": nodes}, schema={"node": pl.UInt64}).unique().sort("node").select(
        "node", file_of(pl.col("node")).alias("file"), row_of(pl.col("node")).alias("row"))
    for (file_index,), rows in located.group_by("file", maintain_order=True):
        wanted = rows.select("row", "node").lazy()
        for start, batch in row_groups_with(files[int(file_index)], ["text"], TEXT_BATCH_ROWS,
                                            rows["row"].sort().to_list()):
            texts = batch.lazy().with_row_index("row", offset=start).with_columns(pl.col("row").cast(pl.UInt32)) \
                .join(wanted, on="row").collect()
            yield from zip(texts["node"], texts["text"], strict=True)
