"""Damaged archives made the way real damage happens (tests/damage.py): every intact record is
read, every damaged region is one corrupt record, and reading always reaches the end."""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

import polars as pl
import pytest

from damage import (
    Damaged,
    build_warc,
    concatenate,
    cut_member,
    duplicate_member,
    flip_bytes,
    garbage_between,
    lose_block,
    problems,
)
from pipeline.cli import main
from pipeline.io import gzip_members
from pipeline.io import records as records_module
from pipeline.io.readers import FileReport, read_file
from pipeline.params import params_from_dict
from pipeline.run.timings import Timings
from pipeline.stages.extract import record_to_row

DOCS = ("response", "resource")


def read_damaged(tmp_path: Path, damaged: Damaged, name: str = "damaged.warc.gz") -> tuple[list, FileReport]:
    path = tmp_path / name
    path.write_bytes(damaged.data)
    report = FileReport(str(path))
    return list(read_file(str(path), 5_000_000, report)), report


def check_invariants(records: list, report: FileReport, damaged: Damaged) -> None:
    """Every intact document read at its offset with its URL; nothing else but corrupt regions;
    corrupt regions do not overlap the intact members; the accounting adds up."""
    found, _, _ = problems(records, report, damaged)
    assert not found, f"{damaged.what}: {found[:3]}"


@pytest.fixture(scope="module")
def crawl():
    return build_warc(seed=7, pages=40, mean_page_bytes=12_000)


@pytest.mark.parametrize("seed", range(12))
def test_random_byte_flips_over_a_multi_member_file(tmp_path, crawl, seed):
    damaged = flip_bytes(crawl, seed, flips=25)
    records, report = read_damaged(tmp_path, damaged)
    check_invariants(records, report, damaged)
    # Something was damaged (25 flips over ~120 members), and each damaged member is at most
    # one region, so there are never more corrupt rows than damaged members.
    damaged_members = len(crawl.members) - len(damaged.intact)
    corrupt = sum(r.record_type == "corrupt" for r in records)
    assert damaged_members > 0 and corrupt <= damaged_members


def test_the_issue_case_many_flips_keep_every_intact_record(tmp_path):
    """The reported failure: 40 flips over a 181-member file gave 2 rows. Now every intact
    document of the file is read."""
    built = build_warc(seed=11, pages=60, mean_page_bytes=30_000)
    assert len(built.members) == 181
    damaged = flip_bytes(built, seed=3, flips=40)
    records, report = read_damaged(tmp_path, damaged)
    check_invariants(records, report, damaged)
    intact_docs = [m for m in damaged.intact if m.rec_type in DOCS]
    assert len([r for r in records if r.record_type in DOCS]) >= len(intact_docs) > 30


ONE_REGION_DAMAGE = [*((lose_block, seed) for seed in range(4)), *((cut_member, seed) for seed in range(4)),
                     *((garbage_between, seed) for seed in range(3))]


@pytest.mark.parametrize(("damage", "seed"), ONE_REGION_DAMAGE, ids=lambda v: getattr(v, "__name__", str(v)))
def test_one_damaged_place_is_one_corrupt_record(tmp_path, crawl, damage, seed):
    """A lost block in the middle, a member cut with the next one intact, garbage between members."""
    damaged = damage(crawl, seed)
    records, report = read_damaged(tmp_path, damaged)
    check_invariants(records, report, damaged)
    assert sum(r.record_type == "corrupt" for r in records) == 1


def test_a_duplicated_member_is_read_twice(tmp_path, crawl):
    damaged = duplicate_member(crawl, seed=5)
    records, report = read_damaged(tmp_path, damaged)
    check_invariants(records, report, damaged)
    assert not any(r.record_type == "corrupt" for r in records)


def test_two_files_concatenated(tmp_path, crawl):
    damaged = concatenate(crawl, build_warc(seed=8, pages=10))
    records, report = read_damaged(tmp_path, damaged)
    check_invariants(records, report, damaged)
    assert not report.errors


@pytest.mark.parametrize("seed", range(6))
def test_uncompressed_warc_with_flips(tmp_path, seed):
    built = build_warc(seed=seed, pages=25, gzip=False, mean_page_bytes=5_000)
    damaged = flip_bytes(built, seed, flips=6)
    records, report = read_damaged(tmp_path, damaged, "damaged.warc")
    # A flip inside a payload leaves the record parseable and "intact" for the reader (no
    # checksum in an uncompressed file); what must hold is that no undamaged record is lost.
    check_invariants(records, report, damaged)


def lie_about_length(delta: int) -> tuple[Damaged, object]:
    built = build_warc(seed=2, pages=8, gzip=False, mean_page_bytes=2_000)
    target = next(m for m in built.members[3:] if m.rec_type == "response")
    head = built.data[target.offset:target.offset + 2000]
    start = head.index(b"Content-Length: ") + len(b"Content-Length: ")
    end = head.index(b"\r\n", start)
    declared = int(head[start:end])
    lie = str(declared + delta).encode()
    data = (built.data[:target.offset + start] + lie + built.data[target.offset + end:])
    shift = len(lie) - (end - start)
    intact = [m if m.offset < target.offset else type(m)(m.offset + shift, m.length, m.rec_type, m.url, m.record_id)
              for m in built.members if m is not target]
    return Damaged(data, intact, f"Content-Length {declared} -> {declared + delta}"), target


@pytest.mark.parametrize("delta", [-300, -7, -1, 9, 5000])
def test_content_length_that_lies_is_one_region_and_the_rest_is_read(tmp_path, delta):
    damaged, target = lie_about_length(delta)
    records, report = read_damaged(tmp_path, damaged, "lying.warc")
    check_invariants(records, report, damaged)
    corrupt = [r for r in records if r.record_type == "corrupt"]
    assert [r.source_offset for r in corrupt] == [target.offset]
    assert corrupt[0].url == target.url  # the lying record's URL is kept on its row


@pytest.mark.parametrize("delta", [1, 2])
def test_a_length_that_reaches_into_the_closing_blank_lines_is_tolerated(tmp_path, delta):
    """Writers differ on CRLF vs LF around records; a length that ends inside the closing blank
    lines loses nothing, so the record is read (its payload ends with the extra CR/LF)."""
    damaged, target = lie_about_length(delta)
    records, report = read_damaged(tmp_path, damaged, "lying.warc")
    check_invariants(records, report, damaged)
    assert not any(r.record_type == "corrupt" for r in records)
    assert next(r for r in records if r.source_offset == target.offset).payload.endswith(b"\r\n"[:delta])


def test_a_large_member_is_streamed_and_still_checked(tmp_path, monkeypatch, crawl):
    """Members larger than the in-memory buffer are checked by a first pass and parsed from a
    second, streamed inflation; flips in them are still found."""
    monkeypatch.setattr(gzip_members, "_MEMBER_BUFFER", 1_000)
    damaged = flip_bytes(crawl, seed=4, flips=10)
    records, report = read_damaged(tmp_path, damaged)
    check_invariants(records, report, damaged)
    clean, _ = read_damaged(tmp_path, Damaged(crawl.data, crawl.members, "clean"), "clean.warc.gz")
    payloads = {r.source_offset: r.payload for r in clean if r.record_type in DOCS}
    for record in records:
        if record.record_type in DOCS:
            assert record.payload == payloads[record.source_offset]


# --- ids: unique over the output, copies of a record accounted for ---------------------------------
def run(tmp_path: Path, *inputs: Path) -> pl.DataFrame:
    out = tmp_path / "out"
    assert main(["run", *map(str, inputs), "--out", str(out)]) == 0
    return pl.read_parquet(str(out / "*" / "*.parquet"))


def test_the_same_records_in_two_files_get_unique_ids_and_the_copies_a_reason(tmp_path):
    built = build_warc(seed=21, pages=6, mean_page_bytes=4_000)
    first = tmp_path / "a.warc.gz"
    first.write_bytes(built.data)
    second = tmp_path / "b.warc"  # the same records re-packed uncompressed
    second.write_bytes(gzip.decompress(built.data))
    rows = run(tmp_path, second, first)
    assert rows.height == 12 and rows["id"].n_unique() == 12
    originals = rows.filter(pl.col("source_file") == str(first))
    copies = rows.filter(pl.col("source_file") == str(second))
    assert (originals["id"] == originals["warc_record_id"]).all()
    assert not originals["reasons"].list.contains("dup.record").any()
    assert copies["reasons"].list.contains("dup.record").all()
    assert copies["id"].str.starts_with("sha256:").all()
    assert sorted(copies["warc_record_id"]) == sorted(originals["warc_record_id"])


def test_a_duplicated_member_gives_a_unique_id_and_dup_record(tmp_path):
    built = build_warc(seed=22, pages=4, mean_page_bytes=4_000)
    damaged = duplicate_member(built, seed=1)
    path = tmp_path / "dup.warc.gz"
    path.write_bytes(damaged.data)
    rows = run(tmp_path, path).sort("source_offset")
    assert rows["id"].n_unique() == rows.height
    repeated = rows.filter(pl.col("warc_record_id").is_duplicated())
    if repeated.height:  # the duplicated member was a document
        assert repeated["reasons"].list.contains("dup.record").to_list() == [False, True]


def test_dup_record_off_still_gives_unique_ids(tmp_path):
    built = build_warc(seed=23, pages=3, mean_page_bytes=4_000)
    for name in ("a.warc.gz", "b.warc.gz"):
        (tmp_path / name).write_bytes(built.data)
    params = tmp_path / "params.yaml"
    params.write_text("select:\n  dedup:\n    record: false\n")
    out = tmp_path / "out"
    assert main(["run", str(tmp_path / "a.warc.gz"), str(tmp_path / "b.warc.gz"), "--out", str(out),
                 "--params", str(params)]) == 0
    rows = pl.read_parquet(str(out / "*" / "*.parquet"))
    assert rows["id"].n_unique() == rows.height == 6
    assert not rows["reasons"].list.contains("dup.record").any()


# --- decompression bombs: bounded work, a row that says what happened -------------------------------
ZEROS = gzip.compress(b"\0" * 50_000_000, compresslevel=1)  # 50 MB inflated, ~50 KB on disk


def test_content_encoding_gzip_bomb_is_too_large_not_inflated(tmp_path):
    from conftest import write_warc
    path = tmp_path / "bomb.warc.gz"
    write_warc(path, [("http://bomb.example/", ZEROS, {"extra_headers": [("Content-Encoding", "gzip")]}),
                      ("http://fine.example/", b"<html><body><p>fine</p></body></html>", {})])
    report = FileReport(str(path))
    records = list(read_file(str(path), 5_000_000, report))
    bomb, fine = records
    assert bomb.payload is None and bomb.payload_bytes == 5_000_001
    assert "larger than 5000000 bytes" in bomb.content_encoding_error
    assert fine.payload.startswith(b"<html>")


def test_gzip_member_bomb_is_one_region_and_the_next_member_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(records_module, "MAX_INFLATED", 10_000_000)
    from conftest import write_warc
    path = tmp_path / "member-bomb.warc.gz"
    offsets = write_warc(path, [("http://bomb.example/", b"\0" * 30_000_000, {}),
                                ("http://fine.example/", b"<html><body><p>fine</p></body></html>", {})])
    report = FileReport(str(path))
    records = list(read_file(str(path), 5_000_000, report))
    assert [(r.record_type, r.source_offset) for r in records] == [("corrupt", offsets[0]), ("response", offsets[1])]
    assert records[0].url == "http://bomb.example/" and "decompression bomb" in records[0].error


def test_gzipped_html_file_bomb_stops_counting(tmp_path, monkeypatch):
    monkeypatch.setattr(records_module, "MAX_INFLATED", 10_000_000)
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(b"<html><body>" + b"\0" * 40_000_000, compresslevel=1))
    report = FileReport(str(path))
    (record,) = read_file(str(path), 5_000_000, report)
    assert record.payload is None  # over the cap: counted, not kept
    assert record.payload_bytes == 10_000_001  # counted to the hard cap, never past it


# --- extract.read.max_payload_bytes: null: no limit of ours, the reader's hard cap still holds ---------
NO_LIMIT = params_from_dict({"extract": {"read": {"max_payload_bytes": None}}})


def small_caps(monkeypatch) -> None:
    """A 10 MB hard cap and 1 MB held while reading, so the bombs of these tests stay small."""
    monkeypatch.setattr(records_module, "MAX_INFLATED", 10_000_000)
    monkeypatch.setattr(records_module, "HOLD_BYTES", 1_000_000)


def test_no_limit_gzip_encoded_bomb_is_too_large_with_a_reason(tmp_path, monkeypatch):
    """It used to be accepted with no reason (the rule's threshold was null) and no text."""
    small_caps(monkeypatch)
    from conftest import write_warc
    path = tmp_path / "bomb.warc.gz"
    write_warc(path, [("http://bomb.example/", ZEROS, {"extra_headers": [("Content-Encoding", "gzip")]})])
    (record,) = read_file(str(path), None, FileReport(str(path)))
    assert record.payload is None and record.payload_bytes == 10_000_001
    assert "reader's own limit" in record.content_encoding_error
    row = record_to_row(record, NO_LIMIT, Timings())
    assert row["reasons"] == ["record.too_large"] and "larger than 10000000 bytes" in row["error"]


def test_no_limit_gzip_encoded_body_within_the_hard_cap_is_kept_whole(tmp_path, monkeypatch):
    small_caps(monkeypatch)
    from conftest import write_warc
    body = b"<html><body>" + b"<p>river</p>" * 300_000 + b"</body></html>"  # 3.6 MB: more than is held
    path = tmp_path / "big.warc.gz"
    write_warc(path, [("http://big.example/", gzip.compress(body), {"extra_headers": [("Content-Encoding", "gzip")]})])
    (record,) = read_file(str(path), None, FileReport(str(path)))
    assert record.payload == body and record.content_encoding_error is None


def test_no_limit_raw_payload_over_the_hard_cap_is_counted_not_held(tmp_path, monkeypatch):
    small_caps(monkeypatch)
    from conftest import write_warc
    path = tmp_path / "huge.warc"
    write_warc(path, [("http://huge.example/", b"<p>" + b"a" * 12_000_000, {}),
                      ("http://fine.example/", b"<p>fine</p>", {})], gzip=False)
    record, fine = read_file(str(path), None, FileReport(str(path)))
    assert record.record_type == "response" and record.payload is None and record.payload_bytes > 10_000_000
    assert fine.payload == b"<p>fine</p>"
    row = record_to_row(record, NO_LIMIT, Timings())
    assert row["reasons"] == ["record.too_large"] and "reader's own limit" in row["error"]


def test_no_limit_gzipped_html_file_stops_at_the_hard_cap_in_bounded_memory(tmp_path, monkeypatch):
    """It used to be read whole (`fh.read()`): 3.4 GB of memory for a 1.5 GiB page."""
    small_caps(monkeypatch)
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(b"<html><body>" + b"<p>a</p>" * 5_000_000, compresslevel=1))  # 40 MB
    tracemalloc.start()
    try:
        (record,) = read_file(str(path), None, FileReport(str(path)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert record.payload is None and record.payload_bytes == 10_000_001  # never read past cap + 1
    assert peak < 4_000_000, peak
    row = record_to_row(record, NO_LIMIT, Timings())
    assert row["reasons"] == ["record.too_large"] and "reader's own limit" in row["error"]


def test_no_limit_gzipped_html_file_within_the_hard_cap_is_kept_whole(tmp_path, monkeypatch):
    small_caps(monkeypatch)
    page = b"<html><body>" + b"<p>a</p>" * 500_000 + b"</body></html>"  # 4 MB: read twice, kept
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(page))
    (record,) = read_file(str(path), None, FileReport(str(path)))
    assert record.payload == page and record.payload_bytes == len(page)


@pytest.mark.parametrize("short", [0, 2])
def test_a_length_that_swallows_the_next_record_exactly_is_caught(tmp_path, short):
    """A length too long by exactly the next record frames correctly (found by the fuzzer): the
    swallowed record's own header, ending at the same place, gives it away."""
    built = build_warc(seed=2, pages=8, gzip=False, mean_page_bytes=2_000)
    target = next(m for m in built.members[3:] if m.rec_type == "response")
    following = built.members[built.members.index(target) + 1]
    damaged, _ = lie_about_length(following.length - short)
    records, report = read_damaged(tmp_path, damaged, "swallow.warc")
    check_invariants(records, report, damaged)
    assert [r.source_offset for r in records if r.record_type == "corrupt"] == [target.offset]


def test_a_length_that_ends_at_the_next_records_blank_line_is_caught(tmp_path):
    """A length too long by the next record's header block ends at a CRLF CRLF, which frames like
    a record's end (found by the hypothesis fuzzer): the swallowed header inside the content, and
    no header after the declared end, give it away; the swallowed record is then read."""
    built = build_warc(seed=2, pages=8, gzip=False, mean_page_bytes=2_000)
    target = next(m for m in built.members[3:] if m.rec_type == "response")
    following = built.members[built.members.index(target) + 1]
    head = built.data[following.offset:following.offset + following.length]
    # The target's content ends 4 bytes before `following`; its declared end moves onto the CRLF
    # CRLF that closes `following`'s header block.
    header_block = head.index(b"\r\n\r\n") + 4
    damaged, _ = lie_about_length(header_block)
    records, report = read_damaged(tmp_path, damaged, "blank-line.warc")
    check_invariants(records, report, damaged)
    assert [r.source_offset for r in records if r.record_type == "corrupt"] == [target.offset]
