"""Many small input files: select reads consecutive small extract files as one unit
(`pipeline.stages.select.units`), and decides every row as it does one file at a time."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import ROOT, article_html, cli
from pipeline.stages import select


def test_units_group_consecutive_small_files_and_leave_large_ones_alone(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(select, "SLICE_ROWS", 10)
    files = []
    for index, rows in enumerate([1, 4, 5, 1, 12, 3, 0, 9, 2]):
        path = tmp_path / f"f{index}.parquet"
        pq.write_table(pa.table({"x": list(range(rows))}, schema=pa.schema([("x", pa.int64())])), path)
        files.append(str(path))
    grouped = select.units(files)
    assert [tuple(Path(p).name for p in unit) for unit in grouped] == [
        ("f0.parquet", "f1.parquet", "f2.parquet"),  # 10 rows
        ("f3.parquet",),                             # 1 + 12 would pass 10
        ("f4.parquet",),                             # 12: alone
        ("f5.parquet", "f6.parquet"),                # 3 + 0; + 9 would pass 10
        ("f7.parquet",), ("f8.parquet",)]
    assert [path for unit in grouped for path in unit] == files  # every file once, in order


def rows_of(out: Path) -> pl.DataFrame:
    shards = sorted([*out.glob("accepted/*.parquet"), *out.glob("rejected/*.parquet")])
    return pl.concat([pl.read_parquet(path) for path in shards], how="diagonal_relaxed").sort("source_file")


def test_many_small_files_are_decided_as_one_file_at_a_time(tmp_path: Path, monkeypatch):
    pages = tmp_path / "pages"
    pages.mkdir()
    for index in range(24):
        body = article_html(f"Story number {index} about the harbour", paragraphs=6 + index % 4)
        (pages / f"story-{index:02d}.html").write_bytes(body)
    (pages / "story-copy.html").write_bytes(article_html("Story number 3 about the harbour", paragraphs=9))
    work = tmp_path / "work"
    assert cli("extract", pages, "--out", work) == 0
    assert cli("select", work, "--out", tmp_path / "together") in (0, 1)
    grouped = select.units(sorted(str(path) for path in (work / "extract").glob("*.parquet")))
    assert len(grouped) == 1  # 25 one-row files, one unit
    monkeypatch.setattr(select, "SLICE_ROWS", 1)  # every file its own unit, as before units
    assert cli("select", work, "--out", tmp_path / "apart") in (0, 1)
    together, apart = rows_of(tmp_path / "together"), rows_of(tmp_path / "apart")
    assert together.height == apart.height == 25
    assert together.equals(apart)
    assert together.filter(pl.col("reasons").list.contains("dup.exact"))["source_file"].to_list() \
        == [str(pages / "story-copy.html")]
    stats = [json.loads((tmp_path / name / "stats.json").read_text()) for name in ("together", "apart")]
    for found in stats:
        found.pop("timings")
    assert stats[0] == stats[1]


@pytest.mark.parametrize("slice_rows", [1, 3])
def test_units_match_on_the_sample(slice_rows: int, tmp_path: Path, monkeypatch):
    """The bundled sample (a WARC, a damaged WARC and HTML files) in units of any size."""
    sample = ROOT / "data" / "sample"
    work = tmp_path / "work"
    assert cli("extract", sample, "--out", work) in (0, 1)
    assert cli("select", work, "--out", tmp_path / "default") in (0, 1)
    monkeypatch.setattr(select, "SLICE_ROWS", slice_rows)
    assert cli("select", work, "--out", tmp_path / "small") in (0, 1)
    assert rows_of(tmp_path / "default").equals(rows_of(tmp_path / "small"))


def test_a_small_input_is_written_with_snappy_and_a_large_one_with_zstd(tmp_path: Path, monkeypatch):
    from pipeline.stages import extract
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "small.html").write_bytes(article_html("A small page"))
    (pages / "large.html").write_bytes(article_html("A large page", paragraphs=8) + b" " * 300_000)
    monkeypatch.setattr(extract, "SMALL_INPUT_BYTES", 100_000)
    work = tmp_path / "work"
    assert cli("extract", pages, "--out", work) == 0
    codecs = {}
    for path in (work / "extract").glob("*.parquet"):
        metadata = pq.ParquetFile(path).metadata
        codecs[path.name.split(".html")[0]] = {metadata.row_group(0).column(i).compression
                                               for i in range(metadata.num_columns)}
    assert codecs == {"small": {"SNAPPY"}, "large": {"ZSTD"}}
