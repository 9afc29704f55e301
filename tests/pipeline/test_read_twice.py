"""A record read twice keeps one copy (docs/filters.md, "De-duplication"): the record-id pass runs
first, every pass sees one global order, and a duplicate group keeps its first copy that passes
every other rule. Whole runs over copied and re-packed WARCs, with 1 and 16 partitions."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from conftest import SEED_PARAMS, article_html, cli, prose, shard_bytes

STORIES = 12


def story_records() -> list[tuple[str, bytes]]:
    return [(f"http://site{i % 4}.example/news/{i}", article_html(f"Story number {i}", paragraphs=9))
            for i in range(STORIES)]


def write_records(path: Path, records: list[tuple[str, bytes, dict]]) -> None:
    """(url, body, extra WARC headers) responses; the WARC headers may set the record id, the date
    and the HTTP status ("status")."""
    with open(path, "wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for url, body, headers in records:
            headers = dict(headers)
            status = headers.pop("status", "200 OK")
            http = StatusAndHeaders(status, [("Content-Type", "text/html; charset=utf-8"),
                                             ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            warc = {"WARC-Date": "2024-05-01T10:00:00Z", **headers}
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                          http_headers=http, warc_headers_dict=warc))


def repack(source: Path, target: Path, every: int = 2, date: str = "2025-01-01T00:00:00Z") -> int:
    """Copy every `every`-th response of `source` into `target` with its WARC-Record-ID kept and a
    later WARC-Date, as a re-packing tool would; returns how many."""
    copied = 0
    with open(source, "rb") as fh, open(target, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for index, record in enumerate(ArchiveIterator(fh)):
            if record.rec_type != "response" or index % every:
                continue
            headers = record.rec_headers
            headers.replace_header("WARC-Date", date)
            writer.write_record(writer.create_warc_record(
                headers.get_header("WARC-Target-URI"), "response", payload=io.BytesIO(record.content_stream().read()),
                http_headers=record.http_headers, warc_headers=headers))
            copied += 1
    return copied


def run(out: Path, inputs: list[Path], partitions: int = 1, params: Path | None = None) -> pl.DataFrame:
    if params is None:
        params = out.parent / f"{out.name}.yaml"
        params.write_text(json.dumps({"select": {"dedup": {"partitions": partitions}}}))
    assert cli("run", *inputs, "--out", out, "--params", params) == 0
    return pl.concat([pl.read_parquet(out / "accepted"), pl.read_parquet(out / "rejected")], how="diagonal_relaxed")


def kept_per_url(rows: pl.DataFrame) -> dict[str, int]:
    return dict(rows.group_by("url").agg(pl.col("kept").sum()).iter_rows())


@pytest.fixture(autouse=True)
def _without_report(no_report):
    """The report is not what these tests look at."""


@pytest.fixture
def original(tmp_path) -> Path:
    path = tmp_path / "input" / "news.warc.gz"
    path.parent.mkdir()
    write_records(path, [(url, body, {}) for url, body in story_records()])
    return path


def test_the_stories_alone_are_all_kept(tmp_path, original):
    rows = run(tmp_path / "alone", [original])
    assert rows.height == STORIES and rows["kept"].all()


@pytest.mark.parametrize("partitions", [1, 16])
def test_a_copied_warc_keeps_every_page_exactly_once(tmp_path, original, partitions):
    copy = tmp_path / "input" / "copy" / "news-copy.warc.gz"
    copy.parent.mkdir()
    shutil.copyfile(original, copy)
    rows = run(tmp_path / "out", [original.parent], partitions)
    assert rows.height == 2 * STORIES and rows["id"].n_unique() == 2 * STORIES
    assert set(kept_per_url(rows).values()) == {1}
    # the kept copy is the one read first (same capture time: reading order, files in path order)
    assert set(rows.filter(pl.col("kept"))["source_file"]) == {str(copy)}
    losers = rows.filter(~pl.col("kept"))
    assert losers["reasons"].to_list() == [["dup.record"]] * STORIES


@pytest.mark.parametrize("partitions", [1, 16])
def test_a_repacked_copy_sharing_record_ids_keeps_every_page_exactly_once(tmp_path, original, partitions):
    # The re-packed file sorts first and carries later capture times: the id pass and the other
    # passes once chose different copies here and every copy of such a story was lost.
    repacked = tmp_path / "input" / "a-repacked.warc.gz"
    copied = repack(original, repacked)
    assert copied == STORIES // 2
    rows = run(tmp_path / "out", [original.parent], partitions)
    assert rows.height == STORIES + copied
    assert set(kept_per_url(rows).values()) == {1}
    assert set(rows.filter(pl.col("kept"))["source_file"]) == {str(original)}  # the earlier capture
    assert rows.filter(pl.col("source_file") == str(repacked))["reasons"].to_list() == [["dup.record"]] * copied


def test_the_shards_do_not_depend_on_the_partition_count(tmp_path, original):
    repack(original, tmp_path / "input" / "a-repacked.warc.gz")
    shutil.copyfile(original, tmp_path / "input" / "z-copy.warc.gz")
    run(tmp_path / "one", [original.parent], 1)
    run(tmp_path / "many", [original.parent], 16)
    assert shard_bytes(tmp_path / "one") == shard_bytes(tmp_path / "many")


def repetitive(title: str) -> bytes:
    """An extraction Gopher's repetition rules reject: numbered paragraphs that repeat one phrase."""
    phrase = " ".join(prose(title, paragraphs=1, sentences=1)[0].split()[:12])
    paragraphs = "".join(f"<p>Part {i}: {phrase} {phrase} {phrase}</p>" for i in range(40))
    return (f"<!doctype html><html><head><title>{title}</title></head><body><article><h1>{title}</h1>"
            f"{paragraphs}</article></body></html>").encode()


def test_a_story_whose_first_copy_fails_a_quality_rule_keeps_its_second(tmp_path):
    url = "http://news.example/2024/05/the-story"
    path = tmp_path / "in.warc.gz"
    write_records(path, [(url, repetitive("The story"), {"WARC-Date": "2024-05-01T10:00:00Z"}),
                         (url + "?utm_source=feed", article_html("The story", paragraphs=9),
                          {"WARC-Date": "2024-05-02T10:00:00Z"})])
    rows = run(tmp_path / "out", [path], params=SEED_PARAMS)  # the seed's rules: Gopher decides, not the model
    first, second = rows.sort("warc_date").iter_rows(named=True)
    assert any(code.startswith("gopher.") for code in first["reasons"])
    assert not any(code.startswith("dup.") for code in first["reasons"])
    assert second["kept"] and second["reasons"] == []


def test_one_record_id_a_404_then_an_article_keeps_the_article(tmp_path):
    record_id = "<urn:uuid:11111111-2222-3333-4444-555555555555>"
    first, second = tmp_path / "a.warc.gz", tmp_path / "b.warc.gz"
    write_records(first, [("http://news.example/2024/05/an-article", b"<html><body>Not found</body></html>",
                           {"WARC-Record-ID": record_id, "status": "404 Not Found"})])
    write_records(second, [("http://news.example/2024/05/an-article", article_html("An article", paragraphs=9),
                            {"WARC-Record-ID": record_id})])
    rows = run(tmp_path / "out", [first, second]).sort("source_file")
    missing, article = rows.iter_rows(named=True)
    assert article["kept"] and article["reasons"] == [] and article["id"] == record_id
    assert "record.http_status" in missing["reasons"] and missing["id"] != record_id
    assert rows["id"].n_unique() == 2


def test_a_story_whose_copies_all_fail_is_rejected_once_for_its_own_reasons(tmp_path):
    record_id = "<urn:uuid:11111111-2222-3333-4444-666666666666>"
    first, second = tmp_path / "a.warc.gz", tmp_path / "b.warc.gz"
    for path in (first, second):
        write_records(path, [("http://news.example/r", repetitive("Again"), {"WARC-Record-ID": record_id})])
    rows = run(tmp_path / "out", [first, second]).sort("source_file")
    kept_copy, repeat = rows.iter_rows(named=True)
    assert not kept_copy["kept"] and "dup.record" not in kept_copy["reasons"]
    assert repeat["reasons"] == [*kept_copy["reasons"], "dup.record"]
