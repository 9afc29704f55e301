"""Readers on generated broken files: nothing stops a run, nothing vanishes."""

from __future__ import annotations

import gzip
import os
import re
import socket
import zlib
from pathlib import Path

from conftest import article_html, write_warc
from pipeline.io.readers import FileReport, detect_format, discover_inputs, read_file


def read_all(path: Path, cap: int | None = 5_000_000) -> tuple[list, FileReport]:
    report = FileReport(str(path))
    return list(read_file(str(path), cap, report)), report


def three_records(tmp_path: Path, gzip_: bool = True) -> tuple[Path, list[int]]:
    path = tmp_path / ("three.warc.gz" if gzip_ else "three.warc")
    offsets = write_warc(path, [(f"http://a.example/{i}", article_html(f"Post {i}"), {}) for i in range(3)],
                         gzip=gzip_)
    return path, offsets


def test_clean_file_reads_every_record(tmp_path):
    path, offsets = three_records(tmp_path)
    records, report = read_all(path)
    assert [r.source_offset for r in records] == offsets
    assert [r.url for r in records] == [f"http://a.example/{i}" for i in range(3)]
    assert all(r.payload == article_html(f"Post {i}") for i, r in enumerate(records))
    assert report.record_types["response"] == 3 and not report.errors


def test_flipped_bytes_in_middle_member_gives_one_corrupt_row_and_recovers(tmp_path):
    path, offsets = three_records(tmp_path)
    data = bytearray(path.read_bytes())
    for i in range(offsets[1] + 40, offsets[1] + 60):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    records, report = read_all(path)
    kinds = [(r.record_type, r.source_offset) for r in records]
    assert kinds == [("response", offsets[0]), ("corrupt", offsets[1]), ("response", offsets[2])]
    assert records[1].corrupt_region_bytes == offsets[2] - offsets[1]
    assert records[2].payload == article_html("Post 2")
    assert any("corrupt region" in e for e in report.errors)


def test_truncated_gzip_at_end(tmp_path):
    path, offsets = three_records(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: offsets[2] + 50])
    records, _ = read_all(path)
    assert [(r.record_type, r.source_offset) for r in records] == [
        ("response", offsets[0]), ("response", offsets[1]), ("corrupt", offsets[2])]
    assert records[2].corrupt_region_bytes == 50


def test_garbage_between_uncompressed_records(tmp_path):
    path, offsets = three_records(tmp_path, gzip_=False)
    data = path.read_bytes()
    path.write_bytes(data[: offsets[1]] + b"\x00garbage that is not a record\r\n" * 5 + data[offsets[1]:])
    records, _ = read_all(path)
    types = [r.record_type for r in records]
    assert types == ["response", "corrupt", "response", "response"]
    assert records[1].source_offset == offsets[1]


def test_a_non_numeric_content_length_is_a_corrupt_row_with_its_url(tmp_path):
    path, offsets = three_records(tmp_path, gzip_=False)
    data = path.read_bytes()
    second = data[offsets[1]:offsets[2]]
    length = re.search(rb"Content-Length: \d+", second)
    path.write_bytes(data[:offsets[1]] + second.replace(length.group(0), b"Content-Length: abc", 1) + data[offsets[2]:])
    records, report = read_all(path)
    assert [(r.record_type, r.source_offset) for r in records] == [
        ("response", offsets[0]), ("corrupt", offsets[1]), ("response", offsets[2] - len(length.group(0)) + 19)]
    assert records[1].url == "http://a.example/1" and "not a number" in records[1].error
    assert report.record_types["corrupt"] == 1


def test_a_text_file_with_a_warc_name_is_unreadable_not_a_corrupt_archive(tmp_path):
    """docs/reliability.md: a file that is neither WARC, ARC nor HTML is one `input.unreadable` row;
    its name alone does not make it an archive with a corrupt region."""
    path = tmp_path / "junk.warc.gz"
    path.write_bytes(b"this is not gzip at all" * 10)
    records, report = read_all(path)
    assert [r.record_type for r in records] == ["unreadable"] and report.format is None
    assert report.errors == ["not a WARC, ARC or HTML file"]


def test_an_archive_whose_first_bytes_are_damaged_is_read_by_its_name(tmp_path):
    """Where the bytes show an archive (a record header further on, or a gzip stream), the name
    decides the format: the damaged start is one corrupt region and the records after it are read."""
    clean = tmp_path / "clean.warc"
    write_warc(clean, [("https://a.example/story", article_html("A story"), {})], gzip=False)
    damaged = tmp_path / "damaged.warc"
    damaged.write_bytes(b"lost bytes of a record cut off\r\n" + clean.read_bytes())
    records, report = read_all(damaged)
    assert report.format == "warc"
    assert [r.record_type for r in records][0] == "corrupt"
    assert [r.url for r in records if r.record_type == "response"] == ["https://a.example/story"]


def test_unknown_file_is_unreadable(tmp_path):
    path = tmp_path / "notes.bin"
    path.write_bytes(b"\x00\x01\x02 binary")
    records, report = read_all(path)
    assert [r.record_type for r in records] == ["unreadable"]
    assert report.errors


def test_unopenable_file_is_unreadable(tmp_path):
    path = tmp_path / "dir.warc"
    path.mkdir()
    records, _ = read_all(path)
    assert [r.record_type for r in records] == ["unreadable"]


def test_zero_length_files(tmp_path):
    warc = tmp_path / "empty.warc.gz"
    warc.write_bytes(b"")
    records, report = read_all(warc)
    assert records == [] and report.errors == ["empty file: no records"]
    html = tmp_path / "empty.html"
    html.write_bytes(b"")
    records, _ = read_all(html)
    assert [(r.record_type, r.payload_bytes) for r in records] == [("file", 0)]


def test_payload_over_cap_is_counted_not_kept(tmp_path):
    path, _ = three_records(tmp_path)
    records, _ = read_all(path, cap=100)
    assert [(r.payload, r.payload_bytes) for r in records] == [(None, len(article_html(f"Post {i}"))) for i in range(3)]


def test_chunked_and_gzip_content_encoding_are_undone(tmp_path):
    body = article_html("Chunked")
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 100]), body[i:i + 100])
                       for i in range(0, len(body), 100)) + b"0\r\n\r\n"
    gz = gzip.compress(body, mtime=0)
    path = tmp_path / "enc.warc.gz"
    write_warc(path, [
        ("http://a.example/c", chunked, {"extra_headers": [("Transfer-Encoding", "chunked")]}),
        ("http://a.example/g", gz, {"extra_headers": [("Content-Encoding", "gzip")]}),
        ("http://a.example/bad", b"not gzip", {"extra_headers": [("Content-Encoding", "gzip")]}),
    ])
    records, _ = read_all(path)
    assert records[0].payload == body
    assert records[1].payload == body
    # warcio hands back the raw bytes when the declared encoding does not decode.
    assert records[2].payload == b"not gzip"


def test_plain_and_gzipped_html_files(tmp_path):
    (tmp_path / "a.html").write_bytes(article_html("A"))
    (tmp_path / "b.html.gz").write_bytes(gzip.compress(article_html("B"), mtime=0))
    for name, title in (("a.html", "A"), ("b.html.gz", "B")):
        records, _ = read_all(tmp_path / name)
        assert [(r.record_type, r.source_offset, r.payload) for r in records] == [
            ("file", -1, article_html(title))]


def test_truncated_gzipped_html_is_corrupt(tmp_path):
    data = gzip.compress(article_html("B") * 20, mtime=0)
    path = tmp_path / "b.html.gz"
    path.write_bytes(data[: len(data) // 2])
    records, _ = read_all(path)
    assert [r.record_type for r in records] == ["corrupt"]


def test_discover_walks_sorted_and_reports_skipped(tmp_path):
    (tmp_path / "b").mkdir()
    for name in ("b/z.html", "a.warc.gz", "b/a.htm", "notes.txt", "c.arc"):
        (tmp_path / name).write_bytes(b"x")
    files, skipped = discover_inputs([str(tmp_path)])
    assert [Path(f).relative_to(tmp_path).as_posix() for f in files] == ["a.warc.gz", "b/a.htm", "b/z.html",
                                                                         "c.arc"]
    assert [Path(f).name for f in skipped] == ["notes.txt"]
    assert "name is not WARC/ARC/HTML" in skipped[str(tmp_path / "notes.txt")]


def test_detect_format_by_content_then_name():
    assert detect_format("x.bin", b"WARC/1.0\r\n") == "warc"
    assert detect_format("x.bin", zlib.compress(b"x")) is None
    assert detect_format("x.gz", gzip.compress(b"WARC/1.1\r\n", mtime=0)) == "warc"
    assert detect_format("x.bin", b"filedesc://x.arc 0.0.0.0 20000101000000 text/plain 10\n") == "arc"
    assert detect_format("x", b"<!DOCTYPE html><html>") == "html"
    assert detect_format("x.warc", b"junk") is None  # nothing of an archive in its bytes
    assert detect_format("x.warc", b"junk\r\nWARC/1.0\r\n") == "warc"  # a damaged start, then a header
    assert detect_format("x.warc.gz", b"\x1f\x8b\x08junk") == "warc"  # a damaged gzip stream
    assert detect_format("x.warc.gz", b"\x00\x8b\x08junk\x1f\x8b\x08more") == "warc"  # a flipped first byte
    assert detect_format("x.warc", b"WAR") == "warc"  # cut inside its first line
    assert detect_format("x.txt", b"junk") is None


def test_discover_reads_a_file_once(tmp_path):
    (tmp_path / "a.warc").write_bytes(b"x")
    (tmp_path / "b.bad").write_bytes(b"x")
    files, skipped = discover_inputs([str(tmp_path), str(tmp_path / "a.warc"), str(tmp_path / "b.bad")])
    assert [Path(f).name for f in files] == ["a.warc", "b.bad"] and skipped == {}


def test_fifos_and_sockets_are_skipped_with_a_reason_never_opened(tmp_path):
    """Opening a FIFO waits for a writer: named or walked, it is listed as skipped, never read."""
    (tmp_path / "a.warc").write_bytes(b"x")
    os.mkfifo(tmp_path / "pipe.warc.gz")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s.warc"))
        files, skipped = discover_inputs([str(tmp_path), str(tmp_path / "pipe.warc.gz")])
    assert [Path(f).name for f in files] == ["a.warc"]
    assert {Path(f).name: why.split(",")[0] for f, why in skipped.items()} == {
        "pipe.warc.gz": "a FIFO (named pipe)", "s.warc": "a socket"}
    assert all(why.endswith("never opened") for why in skipped.values())


def arc_file(path: Path, pages: list[tuple[str, bytes]]) -> Path:
    """A version-1 ARC file: the filedesc record, then one record per page (HTTP response)."""
    header_body = b"1 0 corpus-filter test\nURL IP-address Archive-date Content-type Archive-length\n"
    out = [b"filedesc://" + path.name.encode() + b" 0.0.0.0 20240101000000 text/plain "
           + str(len(header_body)).encode() + b"\n" + header_body + b"\n"]
    for url, html in pages:
        payload = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + html
        out.append(f"{url} 93.184.216.34 20240101000000 text/html {len(payload)}\n".encode() + payload + b"\n")
    path.write_bytes(b"".join(out))
    return path


def test_arc_records_get_the_same_ids_on_every_read(tmp_path):
    """warcio's arc2warc gives each ARC record a random WARC-Record-ID; ours must be stable."""
    path = arc_file(tmp_path / "two.arc", [(f"http://a.example/{i}", article_html(f"Post {i}")) for i in range(2)])
    first, report = read_all(path)
    second, _ = read_all(path)
    assert report.format == "arc" and [r.url for r in first] == ["http://a.example/0", "http://a.example/1"]
    assert [r.record_id for r in first] == [None, None]  # the extract stage derives path + offset ids
    assert [r.source_offset for r in first] == [r.source_offset for r in second]


def test_format_sniffing_does_not_backtrack_on_many_comments():
    """Every input file's first 64 KiB go through the HTML sniffing pattern, outside any
    per-record budget: 5 000 empty comments before non-HTML must not take exponential time."""
    import time

    head = b"<!---->" * 5_000 + b"not html"
    started = time.perf_counter()
    assert detect_format("file.bin", head) is None
    assert detect_format("file.bin", b"<!---->" * 5_000 + b"<html>") == "html"
    assert time.perf_counter() - started < 10.0  # milliseconds; backtracking would take years
