"""Non-chunked gzip (several records per member, typically one member for the whole file), read as
it inflates (pipeline/io/gzip_stream.py): damage at random offsets keeps every record inflated
before it, size limits apply per record, never per member."""

from __future__ import annotations

import gzip
import io
import random
import re
import zlib
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from conftest import ROOT, SHARED
from damage import Truth, build_warc, good_prefix, read_like_extract, split_members
from pipeline.io import records as records_module


def sources() -> list[tuple[str, bytes]]:
    found = [("generated", build_warc(seed=5, pages=12, mean_page_bytes=4_000).data),
             ("data/sample", (ROOT / "data" / "sample" / "sample.warc.gz").read_bytes())]
    shared = SHARED / "corpora" / "warcio-testdata" / "example.warc.gz"
    if shared.is_file():
        found.append(("warcio example.warc.gz", shared.read_bytes()))
    return found


def read(tmp_path: Path, data: bytes, name: str = "whole.warc.gz", max_payload: int | None = 5_000_000):
    path = tmp_path / name
    path.write_bytes(data)
    return read_like_extract(path, max_payload)


def check(records, report, truth: list[Truth], clean: dict[int, records_module.RawRecord], intact_until: int,
          damaged: bool) -> None:
    documents = [r for r in records if r.record_type in ("response", "resource")]
    corrupt = [r for r in records if r.record_type == "corrupt"]
    by_offset = {r.source_offset: r for r in documents}
    # Every record inflated completely before the damage is read, as in the clean file.
    for record in truth:
        if record.offset + record.length > intact_until or record.rec_type not in ("response", "resource"):
            continue
        assert record.offset in by_offset, f"record at {record.offset} before the damage ({intact_until}) lost"
        assert by_offset[record.offset].url == clean[record.offset].url
        assert by_offset[record.offset].payload == clean[record.offset].payload
    # No damaged record is read as a good one (when it has a digest, the only check such a file has).
    digested = {t.offset for t in truth if t.has_block_digest}
    for record in documents:
        assert record.source_offset in clean, f"a record at {record.source_offset} that the clean file has not"
        if record.source_offset in digested:
            assert record.payload == clean[record.source_offset].payload
    # Every ground-truth document is read, or lies in or after a corrupt region.
    first_corrupt = min((r.source_offset for r in corrupt), default=None)
    for record in truth:
        if record.rec_type in ("response", "resource") and record.offset not in by_offset:
            assert first_corrupt is not None and record.offset >= first_corrupt, record
    # Corrupt regions never cover a record read; the report counts them.
    for region in corrupt:
        assert region.corrupt_region_bytes is not None and region.corrupt_region_bytes >= 0
        end = region.source_offset + region.corrupt_region_bytes
        assert not any(region.source_offset <= r.source_offset < end for r in documents)
    assert report.record_types["corrupt"] == len(corrupt)
    assert not damaged or corrupt, "damage zlib sees must leave a corrupt row"


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_damage_anywhere_in_a_whole_file_member_keeps_every_record_before_it(tmp_path, damage):
    rng = random.Random(f"whole-file {damage}")
    for name, per_record in sources():
        original, truth = split_members(per_record)
        whole = gzip.compress(original, compresslevel=6, mtime=0)
        clean_records, clean_report = read(tmp_path, whole)
        clean = {r.source_offset: r for r in clean_records if r.record_type in ("response", "resource")}
        assert not any(r.record_type == "corrupt" for r in clean_records), name
        assert len(clean) == sum(t.rec_type in ("response", "resource") for t in truth), name
        positions = sorted(rng.randrange(len(whole)) for _ in range(25)) + [len(whole) // 2, len(whole) - 10]
        for position in positions:
            data = bytearray(whole)
            if damage == "flip":
                data[position] ^= rng.randrange(1, 256)
            else:
                del data[position:]
            try:
                intact = gzip.decompress(bytes(data)) == original
            except (OSError, EOFError, zlib.error):
                intact = False
            records, report = read(tmp_path, bytes(data))
            check(records, report, truth, clean, good_prefix(bytes(data), original), damaged=not intact)


def test_a_bad_crc_trailer_keeps_every_record_and_leaves_a_corrupt_row(tmp_path):
    original, truth = split_members(build_warc(seed=6, pages=8, mean_page_bytes=3_000).data)
    data = bytearray(gzip.compress(original, mtime=0))
    data[-6] ^= 0xFF  # inside the CRC-32
    records, report = read(tmp_path, bytes(data))
    documents = [r for r in records if r.record_type == "response"]
    assert [r.source_offset for r in documents] == [t.offset for t in truth if t.rec_type == "response"]
    (corrupt,) = [r for r in records if r.record_type == "corrupt"]
    assert "CRC-32 does not match" in corrupt.error
    assert corrupt.source_offset >= truth[-1].offset  # after the last record's content
    assert sum(report.record_types[t] for t in ("request", "metadata", "warcinfo")) == len(truth) - len(documents)


def test_damage_in_one_member_resumes_at_the_next(tmp_path):
    """Two multi-record members: damage in the first loses the rest of it only."""
    original, truth = split_members(build_warc(seed=7, pages=10, mean_page_bytes=3_000).data)
    cut = truth[len(truth) // 2].offset
    first, second = gzip.compress(original[:cut], mtime=0), gzip.compress(original[cut:], mtime=0)
    data = bytearray(first + second)
    data[len(first) // 2] ^= 0x55
    records, _ = read(tmp_path, bytes(data))
    corrupt = [r for r in records if r.record_type == "corrupt"]
    assert len(corrupt) >= 1 and "resumed at the gzip member at offset" in corrupt[-1].error
    second_half = [t for t in truth if t.offset >= cut and t.rec_type == "response"]
    read_urls = [r.url for r in records if r.record_type == "response"]
    assert [t.url for t in second_half] == read_urls[-len(second_half):]


def big_records(count: int, payload_bytes: int) -> bytes:
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=False)
    for index in range(count):
        body = (b"<p>%d</p>" % index) * (payload_bytes // 8)
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(f"http://big.example/{index}", "response",
                                                      payload=io.BytesIO(body), http_headers=http))
    return out.getvalue()


def test_a_member_inflating_past_the_hard_cap_keeps_every_record(tmp_path, monkeypatch):
    """Limits are per record: a clean whole-file member larger than the cap loses nothing, and
    gives the rows the same records give gzipped one per member."""
    monkeypatch.setattr(records_module, "MAX_INFLATED", 1_000_000)
    original = big_records(12, 200_000)  # 2.4 MB inflated
    whole, _ = read(tmp_path, gzip.compress(original, compresslevel=1), "whole.warc.gz", max_payload=100_000)
    per_record_data = b"".join(gzip.compress(r) for r in re.split(rb"(?=WARC/1\.\d\r\n)", original) if r)
    per_record, _ = read(tmp_path, per_record_data, "per-record.warc.gz", max_payload=100_000)
    for rows in (whole, per_record):
        assert [r.url for r in rows] == [f"http://big.example/{i}" for i in range(12)]
        assert all(r.record_type == "response" and r.payload is None and r.payload_bytes > 100_000 for r in rows)


def test_a_record_past_the_hard_cap_in_a_member_stops_that_member_only(tmp_path, monkeypatch):
    monkeypatch.setattr(records_module, "MAX_INFLATED", 1_000_000)
    first = big_records(3, 50_000)
    bomb = big_records(1, 3_000_000)
    data = gzip.compress(first + bomb + first, compresslevel=1) + gzip.compress(first, compresslevel=1)
    records, report = read(tmp_path, data, max_payload=None)
    kinds = [(r.record_type, r.url) for r in records]
    assert kinds[:3] == [("response", f"http://big.example/{i}") for i in range(3)]
    assert kinds[3] == ("response", "http://big.example/0") and records[3].payload is None
    assert kinds[4][0] == "corrupt" and "decompression bomb" in records[4].error
    assert kinds[5:] == [("response", f"http://big.example/{i}") for i in range(3)]  # the next member
    assert report.record_types["corrupt"] == 1
