"""Property tests (hypothesis) of the readers on damaged and quirky archives.

Invariants, whatever the damage: reading ends (no exception escapes, no endless loop); every
member or record the damage did not touch is read, at its offset, with its URL; the rest is
corrupt regions that cover no intact member; the file report counts what was yielded.
`benchmarks/fuzz.py` runs the same properties for longer, and through `pipeline run`.
"""

from __future__ import annotations

import gzip

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SHARED
from damage import Damaged, Member, build_warc, problems, read_like_extract

DOCS = ("response", "resource")
# derandomize: the same 80 examples on every run, so CI is not a lottery over the known misses below;
# `benchmarks/fuzz.py` keeps searching with fresh random cases.
FUZZ = settings(max_examples=80, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
GZIPPED = build_warc(seed=101, pages=12, mean_page_bytes=3_000)
PLAIN = build_warc(seed=102, pages=12, gzip=False, mean_page_bytes=3_000)


def check(records: list, report: object, damaged: Damaged) -> None:
    found, _, _ = problems(records, report, damaged)
    assert not found, f"{damaged.what}: {found[:3]}"


def touched(members: list[Member], positions: set[int]) -> list[Member]:
    return [m for m in members if not any(m.offset <= p < m.offset + m.length for p in positions)]


flips = st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)), min_size=1, max_size=12)


@FUZZ
@given(changes=flips, gzipped=st.booleans())
def test_byte_flips(tmp_path_factory, changes, gzipped):
    built = GZIPPED if gzipped else PLAIN
    data = bytearray(built.data)
    positions = {int(fraction * len(data)) for fraction, _ in changes}
    for (fraction, value) in changes:
        data[int(fraction * len(data))] ^= value
    path = tmp_path_factory.mktemp("flip") / ("f.warc.gz" if gzipped else "f.warc")
    path.write_bytes(bytes(data))
    records, report = read_like_extract(path)
    # An uncompressed file has no checksum: a flip inside a payload leaves a readable record,
    # a flip in a header may make it unreadable; either way the untouched records are read.
    check(records, report, Damaged(bytes(data), touched(built.members, positions), f"flips {changes}"))


@FUZZ
@given(fraction=st.floats(0, 1, exclude_min=True, exclude_max=True), gzipped=st.booleans())
def test_truncation(tmp_path_factory, fraction, gzipped):
    built = GZIPPED if gzipped else PLAIN
    cut = int(fraction * len(built.data))
    path = tmp_path_factory.mktemp("cut") / ("t.warc.gz" if gzipped else "t.warc")
    path.write_bytes(built.data[:cut])
    records, report = read_like_extract(path)
    whole = [m for m in built.members if m.offset + m.length <= cut]
    check(records, report, Damaged(built.data[:cut], whole, f"cut at {cut}"))
    partial = [m for m in built.members if m.offset < cut < m.offset + m.length]
    if partial and gzipped:  # the cut member is one corrupt region, at its offset
        assert [r.source_offset for r in records if r.record_type == "corrupt"] == [partial[0].offset]


@FUZZ
# +1 to +4 end inside the closing CRLF CRLF: tolerated (test_damage.py), not a lie to catch.
@given(index=st.integers(0, 11), delta=st.integers(-5000, 5000).filter(lambda d: d < 0 or d > 4))
def test_content_length_lies(tmp_path_factory, index, delta):
    responses = [m for m in PLAIN.members if m.rec_type == "response"]
    target = responses[index]
    head = PLAIN.data[target.offset:target.offset + 4000]
    start = head.index(b"Content-Length: ") + len(b"Content-Length: ")
    end = head.index(b"\r\n", start)
    declared = max(0, int(head[start:end]) + delta)
    lie = str(declared).encode()
    data = PLAIN.data[:target.offset + start] + lie + PLAIN.data[target.offset + end:]
    shift = len(lie) - (end - start)
    intact = [m if m.offset < target.offset else Member(m.offset + shift, m.length, m.rec_type, m.url, m.record_id)
              for m in PLAIN.members if m is not target]
    path = tmp_path_factory.mktemp("lie") / "l.warc"
    path.write_bytes(data)
    records, report = read_like_extract(path)
    check(records, report, Damaged(data, intact, f"Content-Length of record {index} off by {delta}"))
    assert target.offset in [r.source_offset for r in records if r.record_type == "corrupt"]


# Lies the reader does not catch yet (found by this test with random examples; listed in docs/reliability.md's
# note): a length that ends on a blank line inside the record's own content (-2221), one too long
# by exactly the two records after it plus four bytes (783), one that loses the next intact record
# (1979). strict: when one starts passing, take it out of this list.
@pytest.mark.xfail(strict=True, raises=AssertionError, reason="known uncaught Content-Length lie")
@pytest.mark.parametrize(("index", "delta"), [(7, -2221), (0, 783), (7, 1979)])
def test_content_length_lies_not_caught_yet(tmp_path_factory, index, delta):
    test_content_length_lies.hypothesis.inner_test(tmp_path_factory, index, delta)


header_values = st.sampled_from([
    ("WARC-Date", "2008-10-294T05:21:46-0700"), ("WARC-Date", "yesterday"), ("WARC-Date", ""),
    ("WARC-Record-ID", None), ("WARC-Record-ID", "not-a-urn"), ("WARC-Target-URI", "http://a b/c d"),
    ("WARC-Target-URI", "ht!tp://\x7f"), ("Content-Type", "application/http; msgtype=nonsense"),
    ("WARC/1.0", "WARC/0.18"), ("WARC/1.0", "WARC/1.1"), ("WARC-Truncated", "length"),
])


@FUZZ
@given(changes=st.lists(header_values, min_size=1, max_size=4), gzipped=st.booleans())
def test_garbage_header_values_are_read_not_dropped(tmp_path_factory, changes, gzipped):
    """Odd but parseable headers (bad dates, WARC/0.18, no Record-ID) must not lose the record."""
    text = gzip.decompress(GZIPPED.data) if gzipped else PLAIN.data
    records_raw = text.split(b"\r\n\r\nWARC/1.0\r\n")
    target = 3  # a request/response/metadata record past the warcinfo
    block = records_raw[target]
    for name, value in changes:
        if name == "WARC/1.0":
            continue  # the version line is the split token; rewritten below
        lines = block.split(b"\r\n")
        header_end = lines.index(b"")
        lines = [line for line in lines[:header_end] if not line.lower().startswith(name.lower().encode() + b":")] \
            + ([f"{name}: {value}".encode()] if value is not None else []) + lines[header_end:]
        block = b"\r\n".join(lines)
    version = next((v for n, v in changes if n == "WARC/1.0"), "WARC/1.0").encode()
    records_raw[target] = block
    joined = records_raw[0]
    for index, part in enumerate(records_raw[1:], start=1):
        joined += b"\r\n\r\n" + (version if index == target else b"WARC/1.0") + b"\r\n" + part
    path = tmp_path_factory.mktemp("hdr") / "h.warc"
    path.write_bytes(joined)
    records, report = read_like_extract(path)
    documents = [m for m in PLAIN.members if m.rec_type in DOCS]
    read = [r for r in records if r.record_type in DOCS]
    assert len(read) == len(documents), (changes, report.errors)
    assert not any(r.record_type == "corrupt" for r in records), (changes, report.errors)


REAL = sorted((SHARED / "corpora" / "warcio-testdata").glob("*")) if SHARED.is_dir() else []


@pytest.mark.skipif(not REAL, reason="../shared/corpora/warcio-testdata is not present (fresh clone)")
@FUZZ
@given(index=st.integers(0, max(0, len(REAL) - 1)), changes=flips, cut=st.floats(0.05, 1))
def test_real_files_damaged_never_stop_reading(tmp_path_factory, index, changes, cut):
    """warcio's own (partly broken) test files, flipped and cut: reading ends, accounting adds up."""
    data = bytearray(REAL[index].read_bytes())
    for fraction, value in changes:
        data[int(fraction * len(data))] ^= value
    data = data[:max(1, int(cut * len(data)))]
    path = tmp_path_factory.mktemp("real") / REAL[index].name
    path.write_bytes(bytes(data))
    records, report = read_like_extract(path)
    assert sum(r.record_type == "corrupt" for r in records) == report.record_types["corrupt"]
    assert all(r.record_type in (*DOCS, "corrupt", "unreadable") for r in records)
