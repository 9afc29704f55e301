"""Build multi-member WARC files the way crawlers write them, and damage them the way disks,
networks and tools do: random byte flips anywhere, a lost block, a duplicated member, two files
concatenated, a member cut short. Each damage function returns the bytes and the ground truth
(which members are untouched), so a test can check that every intact record is read.

Used by the reader tests, the hypothesis fuzz tests and `benchmarks/fuzz.py`.
"""

from __future__ import annotations

import io
import random
import re
import uuid
import zlib
from dataclasses import dataclass

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

_WORDS = ("river town council market bridge morning evening winter summer harbour library school garden "
          "road station farmer baker teacher doctor visitor museum festival rain wind stone timber window "
          "the and of to with that in a walked built opened closed visited quiet busy old new").split()


@dataclass(frozen=True)
class Member:
    """One gzip member (or, uncompressed, one record) of a generated file."""

    offset: int
    length: int
    rec_type: str
    url: str | None
    record_id: str


@dataclass
class Built:
    data: bytes
    members: list[Member]

    def documents(self) -> list[Member]:
        return [m for m in self.members if m.rec_type in ("response", "resource")]


def _page(rng: random.Random, index: int, size: int) -> bytes:
    words: list[str] = []
    total = 0
    while total < size:
        word = rng.choice(_WORDS)
        words.append(word)
        total += len(word) + 1
    paragraphs = " ".join(words).split(" the ")
    body = "".join(f"<p>{p.capitalize()}.</p>" for p in paragraphs if p)
    return (f"<!doctype html><html><head><title>Page {index}</title></head>"
            f"<body><article><h1>Page {index}</h1>{body}</article></body></html>").encode()


def build_warc(seed: int, pages: int = 60, gzip: bool = True, mean_page_bytes: int = 20_000,
               with_requests: bool = True) -> Built:
    """A Common Crawl-shaped WARC: warcinfo, then request/response/metadata per page, one gzip
    member per record when `gzip`. Page sizes vary (a few hundred bytes to ~3x the mean)."""
    rng = random.Random(seed)
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=gzip)
    members: list[Member] = []

    def ids() -> dict[str, str]:
        """Fixed ids and dates, so the same seed gives the same bytes."""
        return {"WARC-Record-ID": f"<urn:uuid:{uuid.UUID(int=rng.getrandbits(128), version=4)}>",
                "WARC-Date": "2021-03-04T05:06:07Z"}

    def write(record) -> None:
        start = out.tell()
        writer.write_record(record)
        members.append(Member(start, out.tell() - start, record.rec_type,
                              record.rec_headers.get_header("WARC-Target-URI"),
                              record.rec_headers.get_header("WARC-Record-ID")))

    info = writer.create_warcinfo_record(f"gen-{seed}.warc.gz", {"software": "tests/damage.py"})
    info.rec_headers.replace_header("WARC-Record-ID", ids()["WARC-Record-ID"])
    info.rec_headers.replace_header("WARC-Date", "2021-03-04T05:06:07Z")
    write(info)
    for index in range(pages):
        url = f"http://site{index % 7}.example/{seed}/{index}"
        if with_requests:
            request = StatusAndHeaders("GET / HTTP/1.1", [("Host", f"site{index % 7}.example")],
                                       is_http_request=True)
            write(writer.create_warc_record(url, "request", http_headers=request, warc_headers_dict=ids()))
        body = _page(rng, index, int(rng.expovariate(1 / mean_page_bytes)) + 200)
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
        write(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http,
                                        warc_headers_dict=ids()))
        if with_requests:
            write(writer.create_warc_record(url, "metadata", payload=io.BytesIO(b"fetchTimeMs: 12\r\n"),
                                            warc_content_type="application/warc-fields", warc_headers_dict=ids()))
    return Built(out.getvalue(), members)


def _touched(members: list[Member], positions: list[int]) -> set[int]:
    """Indexes of members containing any of `positions`."""
    starts = [m.offset for m in members]
    touched = set()
    for position in positions:
        low, high = 0, len(starts) - 1
        while low < high:  # last member starting at or before position
            middle = (low + high + 1) // 2
            if starts[middle] <= position:
                low = middle
            else:
                high = middle - 1
        touched.add(low)
    return touched


@dataclass
class Damaged:
    """A damaged file and its ground truth: the members left byte-for-byte intact, as they are
    now placed in the damaged file (offsets shift after a removed block or a duplicate)."""

    data: bytes
    intact: list[Member]
    what: str


def flip_bytes(built: Built, seed: int, flips: int) -> Damaged:
    """`flips` random bytes anywhere in the file each XOR-ed with a random non-zero value."""
    rng = random.Random(seed)
    data = bytearray(built.data)
    positions = [rng.randrange(len(data)) for _ in range(flips)]
    for position in positions:
        data[position] ^= rng.randrange(1, 256)
    touched = _touched(built.members, positions)
    intact = [m for i, m in enumerate(built.members) if i not in touched]
    return Damaged(bytes(data), intact, f"{flips} random byte flips (seed {seed})")


def lose_block(built: Built, seed: int, block: int = 4096) -> Damaged:
    """A disk block lost in the middle of the file: `block` bytes removed at a random place."""
    rng = random.Random(seed)
    start = rng.randrange(len(built.data) // 4, 3 * len(built.data) // 4)
    end = min(len(built.data), start + block)
    data = built.data[:start] + built.data[end:]
    intact = []
    for m in built.members:
        if m.offset + m.length <= start:
            intact.append(m)
        elif m.offset >= end:
            intact.append(Member(m.offset - (end - start), m.length, m.rec_type, m.url, m.record_id))
    return Damaged(data, intact, f"{end - start} bytes lost at {start}")


def cut_member(built: Built, seed: int) -> Damaged:
    """One member cut short, the next one intact (a partial write followed by a good one)."""
    rng = random.Random(seed)
    index = rng.randrange(1, len(built.members) - 1)
    victim = built.members[index]
    keep = rng.randrange(1, victim.length)
    cut = victim.length - keep
    data = built.data[:victim.offset + keep] + built.data[victim.offset + victim.length:]
    intact = [m if i < index else Member(m.offset - cut, m.length, m.rec_type, m.url, m.record_id)
              for i, m in enumerate(built.members) if i != index]
    return Damaged(data, intact, f"member {index} cut to {keep} of {victim.length} bytes")


def duplicate_member(built: Built, seed: int) -> Damaged:
    """One member written twice in a row (a retried write)."""
    rng = random.Random(seed)
    index = rng.randrange(len(built.members))
    victim = built.members[index]
    copy = built.data[victim.offset:victim.offset + victim.length]
    end = victim.offset + victim.length
    data = built.data[:end] + copy + built.data[end:]
    intact = []
    for i, m in enumerate(built.members):
        shifted = m if i <= index else Member(m.offset + victim.length, m.length, m.rec_type, m.url, m.record_id)
        intact.append(shifted)
        if i == index:
            intact.append(Member(end, m.length, m.rec_type, m.url, m.record_id))
    return Damaged(data, intact, f"member {index} duplicated")


def concatenate(first: Built, second: Built) -> Damaged:
    """Two WARC files concatenated (`cat a.warc.gz b.warc.gz`): valid, every record must be read."""
    shift = len(first.data)
    intact = first.members + [Member(m.offset + shift, m.length, m.rec_type, m.url, m.record_id)
                              for m in second.members]
    return Damaged(first.data + second.data, intact, "two files concatenated")


def garbage_between(built: Built, seed: int, size: int = 500) -> Damaged:
    """Random bytes inserted between two members."""
    rng = random.Random(seed)
    index = rng.randrange(1, len(built.members))
    at = built.members[index].offset
    junk = bytes(rng.randrange(256) for _ in range(size))
    data = built.data[:at] + junk + built.data[at:]
    intact = [m if i < index else Member(m.offset + size, m.length, m.rec_type, m.url, m.record_id)
              for i, m in enumerate(built.members)]
    return Damaged(data, intact, f"{size} random bytes before member {index}")


def problems(records: list, report: object, damaged: Damaged) -> tuple[list[str], int, int]:
    """What breaks the reader's invariants on `damaged`, plus (intact documents read, intact
    documents present). `records` are RawRecords, `report` the FileReport."""
    found: list[str] = []
    documents = ("response", "resource")
    read = {r.source_offset: r for r in records if r.record_type in documents}
    intact_docs = [m for m in damaged.intact if m.rec_type in documents]
    recovered = 0
    for member in intact_docs:
        record = read.get(member.offset)
        if record is None:
            found.append(f"intact record at {member.offset} not read")
        elif record.url != member.url:
            found.append(f"record at {member.offset} read with URL {record.url!r}, not {member.url!r}")
        else:
            recovered += 1
    ranges = [(m.offset, m.offset + m.length) for m in damaged.intact]
    for record in records:
        if record.record_type not in (*documents, "corrupt"):
            found.append(f"unexpected row type {record.record_type}")
        if record.record_type == "corrupt":
            start, end = record.source_offset, record.source_offset + (record.corrupt_region_bytes or 0)
            if any(r[0] < end and start < r[1] for r in ranges):
                found.append(f"corrupt region {start}-{end} covers an intact member")
    if report.record_types["corrupt"] != sum(r.record_type == "corrupt" for r in records):  # type: ignore[attr-defined]
        found.append("report's corrupt count differs from the corrupt rows")
    return found, recovered, len(intact_docs)


def read_like_extract(path: object, max_payload_bytes: int | None = 5_000_000) -> tuple[list, object]:
    """Read a file as the extract stage does: a non-chunked gzip is re-read as one stream."""
    from pipeline.io.readers import FileReport, NonChunkedGzip, read_file, read_stream_gzip

    report = FileReport(str(path))
    try:
        return list(read_file(str(path), max_payload_bytes, report)), report
    except NonChunkedGzip:
        report = FileReport(str(path))
        return list(read_stream_gzip(str(path), max_payload_bytes, report)), report


# --- non-chunked gzip: a whole file compressed as one member ----------------------------------------
@dataclass(frozen=True)
class Truth:
    offset: int  # in the inflated stream
    length: int
    rec_type: str
    url: str | None
    has_block_digest: bool


def split_members(per_record: bytes) -> tuple[bytes, list[Truth]]:
    """A gzip-per-record WARC as its inflated stream and each record's place in it (each member,
    inflated on its own, is one record)."""
    parts, truth, offset = [], [], 0
    rest = per_record
    while rest.strip(b"\0"):
        inflater = zlib.decompressobj(31)
        data = inflater.decompress(rest)
        rest = inflater.unused_data
        rec_type = re.search(rb"WARC-Type: *(\S+)", data)
        url = re.search(rb"WARC-Target-URI: *([^\r\n]+)", data)
        truth.append(Truth(offset, len(data), rec_type.group(1).decode() if rec_type else "?",
                           url.group(1).decode().strip() if url else None, b"WARC-Block-Digest" in data))
        parts.append(data)
        offset += len(data)
    return b"".join(parts), truth


def good_prefix(damaged: bytes, original: bytes) -> int:
    """How many inflated bytes of `damaged` are the original's: up to the first byte that differs
    or the last one inflated before zlib fails (the longest compressed prefix that inflates without
    an error, found by bisection)."""
    low, high = 0, len(damaged)
    while low < high:
        middle = (low + high + 1) // 2
        try:
            zlib.decompressobj(31).decompress(damaged[:middle])
            low = middle
        except zlib.error:
            high = middle - 1
    out = zlib.decompressobj(31).decompress(damaged[:low])
    return next((i for i, (a, b) in enumerate(zip(out, original, strict=False)) if a != b),
                min(len(out), len(original)))
