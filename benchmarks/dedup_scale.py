"""Select's de-duplication at scale on synthetic key columns: driver memory and time.

    python benchmarks/dedup_scale.py --candidates 1000000 [--partitions 16] [--workers 2]
                                     [--rows-per-file 250000] [--dir DIR]

No texts and no extraction: the script generates, one extract file at a time, the columns that
select's rule pass hands to the de-duplication passes (`compact_columns` and `id_columns`), with
duplicates of every kind planted at known rates (URL 3 %, canonical 10 %, content hash 4 %,
repeated ids 1 %, near-duplicate MinHash signatures 5 %, 10 % of their values changed), and a
`text` column of 30 words per page for the CDC pass and the near pass's exact check (a planted
near duplicate has one word changed). It then runs what select runs, in the
same order: `Passes.add` per file, the partition tasks on `--workers` processes, `decide`, and
`for_file` per file as the write pass reads them.

It prints the driver's peak RSS (this process only; the workers are separate processes), each
phase's time and what was found. Target: driver peak RSS < 1 GB at 20 million candidates with
16 or more partitions, and time growing linearly from 1 to 5 to 20 million.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.params import params_from_dict  # noqa: E402
from pipeline.run.executors import LocalExecutor  # noqa: E402
from pipeline.stages.dataset import split_expr  # noqa: E402
from pipeline.stages.dedup import Passes  # noqa: E402

BASE_US = 1_700_000_000 * 1_000_000
PERMUTATIONS = 128
TEXT_WORDS = 30


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def signatures(story: np.ndarray, rng: np.random.Generator, changed: np.ndarray) -> list[bytes]:
    """A signature per row, the same for rows of one story except where `changed` rows get 10 %
    of their values replaced."""
    values = np.empty((story.size, PERMUTATIONS), dtype=np.uint32)
    for index, seed in enumerate(story):
        values[index] = np.random.default_rng(int(seed)).integers(0, 2**32, PERMUTATIONS, dtype=np.uint32)
    edit = np.flatnonzero(changed)
    if edit.size:
        mask = rng.random((edit.size, PERMUTATIONS)) < 0.10
        values[edit] = np.where(mask, rng.integers(0, 2**32, (edit.size, PERMUTATIONS), dtype=np.uint32),
                                values[edit])
    return [row.tobytes() for row in values]


def synthetic_file(index: int, start: int, rows: int, seed: int) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(compact columns, id columns, texts) of one extract file whose candidates are numbered from `start`."""
    rng = np.random.default_rng(seed * 1_000_003 + index)
    number = np.arange(start, start + rows)
    earlier = (rng.random(rows) * np.maximum(number, 1)).astype(np.int64)

    def planted(rate: float) -> np.ndarray:
        return np.where(rng.random(rows) < rate, earlier, number)

    host = (rng.pareto(1.2, rows) * 50).astype(np.int64) % 200_000
    url = planted(0.03)
    story = planted(0.05)
    dates = BASE_US + rng.integers(0, 365 * 86_400, rows) * 1_000_000
    compact = pl.DataFrame({
        "row": np.arange(rows, dtype=np.uint32),
        "id": [f"<urn:uuid:{n:032x}>" for n in planted(0.01)],
        "host": [f"h{h}.example" for h in host],
        "warc_date": pl.Series(dates, dtype=pl.Int64).cast(pl.Datetime("us", "UTC")),
        "url": [f"https://h{h}.example/p/{u}" for h, u in zip(host, url, strict=True)],
        "normalized_url": [f"https://h{h}.example/p/{u}" for h, u in zip(host, url, strict=True)],
        "canonical_key": [f"https://c.example/{n}" if c else None
                          for n, c in zip(planted(0.5), rng.random(rows) < 0.10, strict=True)],
        "content_hash": [f"{n:016x}" for n in planted(0.04)],
        "simhash64": rng.integers(-2**63, 2**63 - 1, rows, dtype=np.int64),
        "minhash": pl.Series(signatures(story, rng, story != number), dtype=pl.Binary),
        "minhash_shingles": pl.Series([TEXT_WORDS - 4] * rows, dtype=pl.Int32),
    }).with_columns(pl.when(pl.Series(rng.random(rows) < 0.05)).then(None).otherwise(pl.col("warc_date"))
                    .alias("warc_date"))
    ids = compact.select("row", "id", "warc_date", pl.lit("response").alias("record_type"),
                         pl.lit(f"f{index}.warc.gz").alias("source_file"),
                         (pl.col("row").cast(pl.Int64) * 1000).alias("source_offset"))
    # A page's text: its story's TEXT_WORDS words, one of them changed on a planted near duplicate, so
    # that the near pass's exact check finds what the signatures planted (containment about 0.8).
    texts = pl.DataFrame({"text": [" ".join(f"x{n}" if copy and k == n % TEXT_WORDS else f"s{s}w{k}"
                                            for k in range(TEXT_WORDS))
                                   for n, s, copy in zip(number, story, story != number, strict=True)]})
    return compact, ids, texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--candidates", type=int, default=1_000_000)
    parser.add_argument("--partitions", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2, help="0: the tasks run in this process (for profiling)")
    parser.add_argument("--rows-per-file", type=int, default=250_000)
    parser.add_argument("--dir", type=Path, help="where the partitions go (default: a temporary directory)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="dedup-scale-"))
    params = params_from_dict({"select": {"dedup": {"partitions": args.partitions}}})
    started = time.perf_counter()
    counts = [min(args.rows_per_file, args.candidates - start)
              for start in range(0, args.candidates, args.rows_per_file)]
    files = [str(work / f"extract-{index:05d}.parquet") for index in range(len(counts))]
    passes = Passes(str(work / "partitions"), params, {"benchmark": vars(args) | {"dir": str(work)}})
    generate = 0.0
    for index, rows in enumerate(counts):
        tick = time.perf_counter()
        compact, ids, texts = synthetic_file(index, sum(counts[:index]), rows, args.seed)
        texts.write_parquet(files[index], row_group_size=1000)  # as the extract stage writes them
        generate += time.perf_counter() - tick
        # the split, as the rules phase adds it
        compact = compact.with_columns(split_expr(params, pl.col("content_hash")).alias("split"))
        passes.add(index, compact, ids)
        del compact, ids, texts
    written = time.perf_counter() - started - generate
    print(f"{args.candidates:,} candidates in {len(files)} files, {args.partitions} partitions, {args.workers} workers")
    print(f"  keys written: {written:.1f} s (generating the synthetic columns: {generate:.1f} s, not counted)")
    tick = time.perf_counter()
    if args.workers == 0:
        ran = passes.run(files, None, None)
    else:
        with LocalExecutor(args.workers, apart=True) as executor:
            ran = passes.run(files, executor, None)
    tasks = time.perf_counter() - tick
    print(f"  partition tasks: {ran} in {tasks:.1f} s")
    tick = time.perf_counter()
    found = passes.decide()
    totals = {"url": 0, "exact": 0, "near": 0, "record": 0, "candidates": 0}
    for index in range(len(files)):
        signals = found.for_file(index)
        totals["candidates"] += int(signals["cdc_duplicated_fraction"].is_not_null().sum())
        totals["url"] += int(signals["url_duplicate"].sum())
        totals["exact"] += int(signals["exact_duplicate"].sum())
        totals["near"] += int(signals["near_duplicate"].sum())
        totals["record"] += int(signals["new_id"].is_not_null().sum())
        del signals
    read = time.perf_counter() - tick
    print(f"  decide and read back per file: {read:.1f} s")
    print(f"  found: {totals}")
    total = written + tasks + read
    print(f"total (less generation): {total:.1f} s, {1e6 * total / args.candidates:.1f} µs a candidate; "
          f"driver peak RSS {peak_mib():.0f} MiB")
    size = sum(path.stat().st_size for path in (work / "partitions").rglob("*") if path.is_file())
    print(f"partition files on disk: {size / 2**20:.0f} MiB ({size / args.candidates:.0f} bytes a candidate)")
    if args.dir is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
