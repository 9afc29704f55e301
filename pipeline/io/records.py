"""Records as read: the `RawRecord` every later stage starts from, the per-file `FileReport`,
and turning one warcio record into a `RawRecord` (payload read to the cap, HTTP transfer and
content encodings undone from memory, decompression capped).

The raw payload is read first and the encodings are undone afterwards, so an exception while
reading means the *file* is damaged, while a body with a bad `Content-Encoding` is only a
property of that record.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader, ChunkedDataReader
from warcio.exceptions import ArchiveLoadFailed

from pipeline.store.storage import open_input

DOCUMENT_TYPES = ("response", "resource")
GZIP_MAGIC = b"\x1f\x8b"
_WARCIO_LOG = logging.getLogger("warcio")
READ_BLOCK = 1 << 16
# The reader's own hard cap, whatever extract.read.max_payload_bytes says (null included): a payload,
# a gzipped HTML file or a Content-Encoding body larger than this is counted to here and not kept
# (record.too_large), and a single-record gzip member inflating past it is a decompression bomb.
MAX_INFLATED = 1 << 30
# Bytes of a payload of unknown length held while it is read; a longer one within the cap is read
# a second time, so a payload over the cap never costs more memory than this.
HOLD_BYTES = 64 << 20
WARC_LINE = re.compile(rb"WARC/\d\.\d+\r?\n")
# ARC v1 record header: URL IP-address Archive-date(14+ digits) Content-type Archive-length
ARC_LINE = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*:\S* \S+ \d{14}\d* \S+ \S+\r?\n")
# What parsing a damaged record can raise, in warcio or here (a header whose name a flipped bit
# changed leaves warcio with None where it expects a string).
PARSE_ERRORS = (ArchiveLoadFailed, zlib.error, EOFError, ValueError, LookupError, OSError, AttributeError,
                 TypeError)


@dataclass
class RawRecord:
    """One record as read, before decoding: what every later stage starts from."""

    source_file: str
    source_offset: int
    record_type: str  # response | resource | file | corrupt | unreadable
    record_id: str | None = None
    url: str | None = None
    warc_date: datetime | None = None
    http_status: int | None = None
    http_content_type: str | None = None
    warc_content_type: str | None = None
    identified_payload_type: str | None = None
    payload: bytes | None = None
    payload_bytes: int | None = None
    payload_declared_bytes: int | None = None
    warc_truncated: bool | None = None
    content_encoding_error: str | None = None
    corrupt_region_bytes: int | None = None
    error: str | None = None


@dataclass
class FileReport:
    """Accounting for one input file; becomes an entry of stats.json `files`."""

    path: str
    format: str | None = None
    record_types: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    # Where reading stopped (a byte-range task: the first member boundary at or after its end).
    # Not part of the accounting: `pipeline/stages/extract_tasks.py` checks ranges join with it.
    stopped_at: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "format": self.format,
            "record_types": dict(sorted(self.record_types.items())),
            "errors": list(self.errors),
        }


class NonChunkedGzip(Exception):
    """The gzip stream holds several records in one member: offsets cannot be seeked."""


def gunzip_head(head: bytes) -> bytes | None:
    try:
        return zlib.decompressobj(31).decompress(head, 4096)
    except zlib.error:
        return None


def starts_with_gzip(path: str) -> bool:
    with open_input(path) as fh:
        return fh.read(2) == GZIP_MAGIC


def payload_cap(max_payload_bytes: int | None) -> int:
    """The size above which a payload is not kept: the params' limit, never above the hard cap."""
    return MAX_INFLATED if max_payload_bytes is None else min(max_payload_bytes, MAX_INFLATED)


def over_hard_cap_note(size: int) -> str:
    return (f"payload of {size if size <= MAX_INFLATED else f'more than {MAX_INFLATED}'} bytes is over the "
            f"reader's own limit of {MAX_INFLATED} bytes (extract.read.max_payload_bytes is null); counted, "
            f"not kept")


def read_within(open_stream: Callable[[], contextlib.AbstractContextManager[IO[bytes]]], cap: int,
                count_to: int | None = None) -> tuple[bytes | None, int]:
    """A stream of unknown length, kept only if at most `cap` bytes: (bytes, size), or (None, size)
    with the size counted to at most `count_to` (default `MAX_INFLATED`) + 1.

    At most `HOLD_BYTES` are held while reading; a stream longer than that yet within the cap is
    opened and read a second time, so memory stays bounded by what is finally kept."""
    count_to = MAX_INFLATED if count_to is None else count_to
    parts: list[bytes] | None = []
    size = 0
    with open_stream() as fh:
        while size <= max(cap, count_to) and (chunk := fh.read(READ_BLOCK)):
            size += len(chunk)
            if parts is not None and size <= min(cap, HOLD_BYTES):
                parts.append(chunk)
            else:
                parts = None
            if size > cap and size > count_to:
                break
    if size > cap:
        return None, min(size, max(cap, count_to) + 1)
    if parts is not None:
        return b"".join(parts), size
    with open_stream() as fh:
        data = fh.read(cap + 1)
    return (data, len(data)) if len(data) <= cap else (None, len(data))


def drain(fh: io.BufferedIOBase | object) -> int:
    """Count the bytes left in `fh` without keeping them, up to `MAX_INFLATED` (past that the
    count stops: a gzip bomb is not inflated to the end)."""
    total = 0
    while total <= MAX_INFLATED and (chunk := fh.read(READ_BLOCK)):  # type: ignore[union-attr]
        total += len(chunk)
    return total


def quietly(iterator: ArchiveIterator, sink: io.StringIO) -> Iterator[object]:
    """Iterate while capturing what warcio writes to stderr or logs, so it lands in the report.

    stderr is redirected only inside `next()` (the consumer may print between records); the
    log handler stays for the whole iteration since only warcio's own logger is touched.
    """
    handler = logging.StreamHandler(sink)
    handler.terminator = "\n\n"
    _WARCIO_LOG.addHandler(handler)
    _WARCIO_LOG.propagate = False
    try:
        while True:
            with contextlib.redirect_stderr(sink):
                record = next(iterator, None)
            if record is None:
                return
            yield record
    finally:
        _WARCIO_LOG.removeHandler(handler)
        _WARCIO_LOG.propagate = True


def clean_message(text: str, limit: int = 200) -> str:
    """One printable line: whitespace collapsed, non-ASCII bytes escaped (messages may quote
    binary garbage), cut to `limit` characters."""
    line = " ".join(str(text).split())
    line = line.encode("ascii", errors="backslashreplace").decode("ascii")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def note_warnings(text: str, report: FileReport) -> None:
    for block in text.strip().split("\n\n"):
        line = clean_message(block)
        if line:
            report.errors.append(f"warcio: {line}")


def _record_id(headers: object, report: FileReport) -> str | None:
    """The WARC-Record-ID; None for ARC, which has none: warcio's arc2warc invents a random uuid on
    every read, which made the same ARC file give other ids (and other shards) on every run."""
    if report.format == "arc":
        return None
    return headers.get_header("WARC-Record-ID")  # type: ignore[attr-defined]


def record_from_warcio(path: str, offset: int, record: object, max_payload_bytes: int | None,
                       report: FileReport) -> Iterator[RawRecord]:
    rec_type = record.rec_type  # type: ignore[attr-defined]
    report.record_types[rec_type] += 1
    if rec_type not in DOCUMENT_TYPES:
        return
    headers = record.rec_headers  # type: ignore[attr-defined]
    http = record.http_headers  # type: ignore[attr-defined]
    raw, raw_size, counted_to_the_end = _read_limited(record.raw_stream, max_payload_bytes,  # type: ignore[attr-defined]
                                                      getattr(record, "length", None))
    missing = getattr(record.raw_stream, "limit", 0)  # type: ignore[attr-defined]
    if missing and missing > 0 and counted_to_the_end:
        # The file ends (or the member breaks off) before the record's declared length: the
        # record on disk is incomplete, unlike a crawler's deliberate WARC-Truncated.
        report.record_types[rec_type] -= 1
        report.record_types["corrupt"] += 1
        message = f"record cut off: {missing} of its declared bytes are missing"
        report.errors.append(f"corrupt record at offset {offset}: {message}")
        yield RawRecord(path, offset, "corrupt", url=headers.get_header("WARC-Target-URI"),
                        record_id=_record_id(headers, report), error=message,
                        corrupt_region_bytes=raw_size)
        return
    result = RawRecord(
        source_file=path,
        source_offset=offset,
        record_type=rec_type,
        record_id=_record_id(headers, report),
        url=headers.get_header("WARC-Target-URI"),
        warc_date=parse_warc_date(headers.get_header("WARC-Date")),
        warc_content_type=headers.get_header("Content-Type"),
        identified_payload_type=headers.get_header("WARC-Identified-Payload-Type"),
        payload_declared_bytes=_int_or_none(headers.get_header("Content-Length")),
        warc_truncated=headers.get_header("WARC-Truncated") is not None,
    )
    if http is not None and rec_type == "response":
        result.http_status = _int_or_none(http.get_statuscode()) or 0
        result.http_content_type = http.get_header("Content-Type")
    if raw is None:
        result.payload_bytes = raw_size
        if max_payload_bytes is None:
            result.error = over_hard_cap_note(raw_size)
        yield result
        return
    result.payload, result.content_encoding_error = decode_http_body(raw, http, max_payload_bytes)
    if result.payload is None:  # the decoded body is over the cap: counted, not kept
        result.payload_bytes = payload_cap(max_payload_bytes) + 1
    else:
        result.payload_bytes = len(result.payload)
    yield result


def _read_limited(stream: object, max_bytes: int | None, declared: int | None) -> tuple[bytes | None, int, bool]:
    """Read a payload up to the cap (`payload_cap`); past it, count the bytes but keep none. A
    record whose declared length is over the cap is counted from the start, never held. Returns
    (payload or None, bytes counted, whether counting reached the end: `drain` stops past
    `MAX_INFLATED`)."""
    cap = payload_cap(max_bytes)
    if declared is not None and declared > cap:
        counted = drain(stream)
        return None, counted, counted <= MAX_INFLATED
    chunks: list[bytes] = []
    total = 0
    while chunk := stream.read(READ_BLOCK):  # type: ignore[attr-defined]
        total += len(chunk)
        if total > cap:
            chunks.clear()
            counted = drain(stream)
            return None, total + counted, counted <= MAX_INFLATED
        chunks.append(chunk)
    return b"".join(chunks), total, True


def decode_http_body(raw: bytes, http: object | None, limit: int | None = None) -> tuple[bytes | None, str | None]:
    """Undo chunked transfer and gzip/deflate/br content encoding; on failure keep the raw bytes.

    Decoding stops past `limit` bytes (or `MAX_INFLATED`): the body is then (None, a note), so a
    gzip bomb in a `Content-Encoding: gzip` response costs at most the cap in time and
    `HOLD_BYTES` in memory (`read_within`)."""
    if http is None:
        return raw, None
    encoding = (http.get_header("Content-Encoding") or "").strip().lower() or None  # type: ignore[attr-defined]
    if encoding not in BufferedReader.get_supported_decompressors():
        encoding = None
    chunked = (http.get_header("Transfer-Encoding") or "").strip().lower() == "chunked"  # type: ignore[attr-defined]
    if not chunked and encoding is None:
        return raw, None

    def decoder() -> contextlib.AbstractContextManager[IO[bytes]]:
        if chunked:
            return contextlib.nullcontext(ChunkedDataReader(io.BytesIO(raw), decomp_type=encoding))
        return contextlib.nullcontext(BufferedReader(io.BytesIO(raw), decomp_type=encoding))

    cap = payload_cap(limit)
    try:
        body, _size = read_within(decoder, cap, cap)
    except Exception as exc:  # a lying Content-Encoding is common on the web
        return raw, f"{type(exc).__name__}: {exc}"[:300]
    if body is None:
        own = "" if limit is not None else " (the reader's own limit: extract.read.max_payload_bytes is null)"
        return None, f"decoded body is larger than {cap} bytes{own} (Content-Encoding {encoding}); not kept"
    return body, None


def parse_warc_date(value: str | None) -> datetime | None:
    if not value:
        return None
    text = value.strip().replace("Z", "+00:00")
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        digits = re.sub(r"\D", "", value)[:14]
        try:
            parsed = datetime.strptime(digits, "%Y%m%d%H%M%S")
        except ValueError:
            return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(str(value).strip()) if value is not None else None
    except ValueError:
        return None


def synthetic_id(source_file: str, source_offset: int, record_type: str | None) -> str:
    """The id of a row without a WARC-Record-ID (or whose WARC-Record-ID another copy of the
    record keeps): a hash of where it was read, unique because (file, offset, kind) is."""
    kind = "" if record_type in ("response", "resource", "file") else f"\0{record_type}"
    key = f"{source_file}\0{source_offset}{kind}"
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]
