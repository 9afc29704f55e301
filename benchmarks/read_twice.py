"""A record read twice keeps one copy: a real WARC beside a re-packed copy of some of its records.

    python benchmarks/read_twice.py [WARC] [--records 60] [--workers 2] [--partitions 1] [--dir DIR]

WARC defaults to ../shared/corpora/trafilatura-eval.warc.gz. The script writes a re-packed copy of
`--records` of its responses (random, seeded): the same WARC-Record-IDs, a later WARC-Date, in a
file whose name sorts before the original, as a re-packing tool or an overlapping segment gives
it. It extracts both files, selects the original alone and the two together, and prints:

* for the copied stories, how many copies are kept (target: exactly one for every story that has
  a copy passing every non-duplicate rule, none lost);
* the accepted counts and accepted WARC-Record-IDs of the two selects (target: equal);
* the CDC fraction of every candidate recomputed two ways, against every earlier candidate of the
  host (the pipeline's reading) and against the earlier kept pages only, and how many pages each
  reading puts over the limit.
"""

from __future__ import annotations

import argparse
import io
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import polars as pl
from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from filters.corpus.cdc import chunk_hashes, duplicated_fraction, mark_seen  # noqa: E402

DEFAULT_WARC = ROOT.parent / "shared" / "corpora" / "trafilatura-eval.warc.gz"
LATER = "2030-01-01T00:00:00Z"


def repack(source: Path, target: Path, records: int, seed: int) -> int:
    """`records` random responses of `source`, ids kept, dated later, into `target`."""
    with open(source, "rb") as fh:
        count = sum(1 for record in ArchiveIterator(fh) if record.rec_type == "response")
    chosen = set(random.Random(seed).sample(range(count), min(records, count)))
    index = 0
    with open(source, "rb") as fh, open(target, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for record in ArchiveIterator(fh):
            if record.rec_type != "response":
                continue
            if index in chosen:
                headers = record.rec_headers
                headers.replace_header("WARC-Date", LATER)
                writer.write_record(writer.create_warc_record(
                    headers.get_header("WARC-Target-URI"), "response",
                    payload=io.BytesIO(record.content_stream().read()), http_headers=record.http_headers,
                    warc_headers=headers))
            index += 1
    return len(chosen)


def pipeline(*args: object) -> None:
    subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def rows_of(out: Path) -> pl.DataFrame:
    return pl.concat([pl.read_parquet(out / "accepted"), pl.read_parquet(out / "rejected")], how="diagonal_relaxed")


def cdc_readings(rows: pl.DataFrame, limit: float) -> tuple[int, int, int]:
    """Pages over `limit` against every earlier candidate of the host, against the earlier kept
    pages only, and the candidates counted."""
    candidates = rows.filter(pl.col("reasons").list.eval(pl.element().str.starts_with("dup.")).list.all()
                             & ~pl.col("reasons").list.contains("dup.record"))
    ordered = candidates.with_columns(pl.col("warc_date").dt.epoch("us").fill_null(2**63 - 1).alias("date")) \
        .sort("date", "source_file", "source_offset")
    every = kept_only = 0
    for _, group in ordered.group_by("host", maintain_order=True):
        seen_every: set[int] = set()
        seen_kept: set[int] = set()
        for text, kept in group.select("text", "kept").iter_rows():
            hashes, sizes = chunk_hashes(text or "", "rabin")
            every += duplicated_fraction(hashes, sizes, seen_every) > limit
            kept_only += duplicated_fraction(hashes, sizes, seen_kept) > limit
            mark_seen(seen_every, hashes)
            if kept:
                mark_seen(seen_kept, hashes)
    return every, kept_only, candidates.height


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("warc", nargs="?", type=Path, default=DEFAULT_WARC)
    parser.add_argument("--records", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--partitions", type=int, default=1)
    parser.add_argument("--dir", type=Path, help="work directory (default: a temporary one)")
    args = parser.parse_args()
    if not args.warc.is_file():
        print(f"{args.warc} not found", file=sys.stderr)
        return 2
    work = args.dir or Path(tempfile.mkdtemp(prefix="read-twice-"))
    work.mkdir(parents=True, exist_ok=True)
    copy = work / "a-repacked.warc.gz"
    copied = repack(args.warc, copy, args.records, args.seed)
    params = work / "params.yaml"
    params.write_text(f"select:\n  dedup:\n    partitions: {args.partitions}\n")
    for name, source in (("original", args.warc), ("repacked", copy)):
        pipeline("extract", source, "--out", work / f"work-{name}", "--workers", args.workers, "--params", params)
    pipeline("select", work / "work-original", "--out", work / "alone", "--params", params)
    pipeline("select", work / "work-original", work / "work-repacked", "--out", work / "both", "--params", params)
    alone, both = rows_of(work / "alone"), rows_of(work / "both")
    urls = both.filter(pl.col("source_file") == str(copy))["url"]
    per_story = both.filter(pl.col("url").is_in(urls.implode())).group_by("url").agg(
        pl.col("kept").sum().alias("kept"),
        pl.col("reasons").list.eval(~pl.element().str.starts_with("dup.")).list.any().not_().any()
        .alias("a_copy_passes"))
    lost = per_story.filter((pl.col("kept") == 0) & pl.col("a_copy_passes")).height
    twice = per_story.filter(pl.col("kept") > 1).height
    print(f"{args.warc.name}: {copied} records re-packed with their ids and a later date ({copy.name} sorts first)")
    print(f"  copied stories: {per_story.height}; kept once {per_story.filter(pl.col('kept') == 1).height}, "
          f"kept twice {twice}, lost though a copy passes every other rule {lost}, "
          f"every copy fails another rule {per_story.filter(~pl.col('a_copy_passes')).height}")
    same_ids = sorted(alone.filter(pl.col("kept"))["id"]) == sorted(both.filter(pl.col("kept"))["id"])
    print(f"  accepted: original alone {int(alone['kept'].sum())}, with the copy {int(both['kept'].sum())}; "
          f"same accepted ids: {same_ids}")
    for name, rows in (("alone", alone), ("with the copy", both)):
        every, kept_only, candidates = cdc_readings(rows, 0.5)
        print(f"  CDC over 0.5 ({name}, {candidates} candidates): against every earlier candidate of the host "
              f"{every}, against the earlier kept pages {kept_only}")
    return 0 if lost == 0 and twice == 0 and same_ids else 1


if __name__ == "__main__":
    sys.exit(main())
