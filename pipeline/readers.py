"""Readers: every record of every input file, accounted for.

WARC and ARC files (gzipped per record or not) are read with warcio; plain HTML files (also
gzipped) become one record each. Nothing is dropped silently:

* response and resource records become `RawRecord`s (rows later);
* request, metadata, warcinfo, revisit, conversion and continuation records are not
  documents: they are counted per type in the file's `FileReport`;
* a damaged region (broken gzip member, unparsable WARC header, garbage between records)
  becomes one `RawRecord` of type `corrupt` carrying the offset where the damage began, and
  reading resumes at the next record boundary that can be found;
* a file that cannot be opened or recognised becomes one record of type `unreadable`.

The raw payload is read first and HTTP transfer/content encodings are undone afterwards from
memory, so an exception while reading means the *file* is damaged, while a body with a bad
`Content-Encoding` is only a property of that record.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import logging
import os
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import BufferedReader, ChunkedDataReader
from warcio.exceptions import ArchiveLoadFailed

DOCUMENT_TYPES = ("response", "resource")
GZIP_MAGIC = b"\x1f\x8b"
ARCHIVE_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz")
HTML_SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz")
# Files taken from a directory walk; any other file there is reported as skipped.
WALK_SUFFIXES = ARCHIVE_SUFFIXES + HTML_SUFFIXES + (".gz",)

_WARCIO_LOG = logging.getLogger("warcio")
_READ_BLOCK = 1 << 16
_SCAN_BLOCK = 1 << 20
_WARC_LINE = re.compile(rb"WARC/\d\.\d+\r?\n")
# ARC v1 record header: URL IP-address Archive-date(14+ digits) Content-type Archive-length
_ARC_LINE = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*:\S* \S+ \d{14}\d* \S+ \S+\r?\n")
_HTML_START = re.compile(rb"\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body|meta|title|script)\b",
                         re.IGNORECASE | re.DOTALL)


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

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "format": self.format,
            "record_types": dict(sorted(self.record_types.items())),
            "errors": list(self.errors),
        }


class NonChunkedGzip(Exception):
    """The gzip stream holds several records in one member: offsets cannot be seeked."""


def discover_inputs(paths: list[str]) -> tuple[list[str], list[str]]:
    """Expand INPUT arguments into files: directories walked recursively in sorted order.

    Returns (files, skipped) where skipped lists files in walked directories whose suffix is
    not one we read, so they can be reported rather than ignored. Missing paths raise
    FileNotFoundError (a usage error for the CLI).
    """
    files: list[str] = []
    skipped: list[str] = []
    for arg in paths:
        path = Path(arg)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file() or p.is_symlink()):
                (files if child.name.lower().endswith(WALK_SUFFIXES) else skipped).append(str(child))
        elif path.exists() or path.is_symlink():
            files.append(arg)
        else:
            raise FileNotFoundError(arg)
    # A file named twice (or both named and found in a walked directory) is read once.
    seen: set[str] = set()
    unique = []
    for name in files:
        key = os.path.realpath(name)
        if key not in seen:
            seen.add(key)
            unique.append(name)
    return unique, [name for name in skipped if os.path.realpath(name) not in seen]


def detect_format(path: str, head: bytes) -> str | None:
    """'warc', 'arc' or 'html' from the first bytes, else from the file name; None if neither."""
    sample = _gunzip_head(head) if head.startswith(GZIP_MAGIC) else head
    if sample is not None:
        if sample.startswith(b"WARC/"):
            return "warc"
        if sample.startswith(b"filedesc://") or _ARC_LINE.match(sample):
            return "arc"
        if _HTML_START.match(sample.lstrip(b"\xef\xbb\xbf")):
            return "html"
    name = path.lower().removesuffix(".gz")
    if name.endswith(".warc"):
        return "warc"
    if name.endswith(".arc"):
        return "arc"
    if name.endswith((".html", ".htm")):
        return "html"
    return None


def read_file(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Yield every document, corrupt region or unreadable marker of one input file."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_READ_BLOCK)
    except OSError as exc:
        report.errors.append(f"unreadable: {exc.strerror or exc}")
        report.record_types["unreadable"] += 1
        yield _unreadable(path, f"cannot open: {exc.strerror or exc}")
        return
    if not head:
        report.format = detect_format(path, head)
        if report.format == "html":
            report.record_types["file"] += 1
            yield RawRecord(path, -1, "file", payload=b"", payload_bytes=0)
        else:
            report.errors.append("empty file: no records")
        return
    report.format = detect_format(path, head)
    if report.format is None:
        report.errors.append("not a WARC, ARC or HTML file")
        report.record_types["unreadable"] += 1
        yield _unreadable(path, "not a WARC, ARC or HTML file")
    elif report.format == "html":
        yield from _read_html_file(path, max_payload_bytes, report)
    else:
        try:
            yield from _read_archive(path, max_payload_bytes, report)
        except OSError as exc:
            report.errors.append(f"unreadable: {exc}")
            report.record_types["unreadable"] += 1
            yield _unreadable(path, f"read failed: {exc}")


def _unreadable(path: str, message: str) -> RawRecord:
    return RawRecord(path, -1, "unreadable", error=message)


def _gunzip_head(head: bytes) -> bytes | None:
    try:
        return zlib.decompressobj(31).decompress(head, 4096)
    except zlib.error:
        return None


def _read_html_file(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    limit = None if max_payload_bytes is None else max_payload_bytes + 1
    opener = gzip.open if _starts_with_gzip(path) else open
    try:
        with opener(path, "rb") as fh:
            payload = fh.read(limit) if limit is not None else fh.read()
            size = len(payload)
            if limit is not None and size == limit:
                size += _drain(fh)
    except (OSError, EOFError, zlib.error) as exc:
        report.errors.append(f"corrupt gzip: {exc}")
        report.record_types["corrupt"] += 1
        yield RawRecord(path, 0, "corrupt", error=f"corrupt gzip: {exc}",
                        corrupt_region_bytes=Path(path).stat().st_size)
        return
    report.record_types["file"] += 1
    too_large = max_payload_bytes is not None and size > max_payload_bytes
    yield RawRecord(path, -1, "file", payload=None if too_large else payload, payload_bytes=size)


def _starts_with_gzip(path: str) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == GZIP_MAGIC


def _drain(fh: io.BufferedIOBase | object) -> int:
    total = 0
    while chunk := fh.read(_READ_BLOCK):  # type: ignore[attr-defined]
        total += len(chunk)
    return total


def _read_archive(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Iterate records, turning each damaged region into one `corrupt` record and resuming."""
    is_gzip = _starts_with_gzip(path)
    is_arc = report.format == "arc"
    file_size = Path(path).stat().st_size
    with open(path, "rb") as fh:
        position: int | None = 0
        while position is not None:
            warnings = io.StringIO()
            iterator: ArchiveIterator | None = None
            current_start = position
            try:
                if not _is_record_start(fh, position, is_gzip, is_arc):
                    raise ArchiveLoadFailed("no WARC/ARC record starts here")
                fh.seek(position)
                # ARC parsing accepts almost any line with five fields, so it is only allowed in
                # ARC files; in a WARC file garbage must fail loudly and become a corrupt region.
                iterator = ArchiveIterator(fh, arc2warc=is_arc)
                for record in _quietly(iterator, warnings):
                    current_start = iterator.offset
                    yield from _document(path, current_start, record, max_payload_bytes, report)
                position = None
                trailing = _trailing_garbage(fh, iterator.offset, file_size)
                if trailing is not None:
                    position = yield from _corrupt(fh, path, report, trailing, iterator.offset,
                                                   is_gzip, is_arc, file_size)
            except ArchiveLoadFailed as exc:
                if "non-chunked gzip" in str(exc):
                    raise NonChunkedGzip(path) from exc
                position = yield from _corrupt(fh, path, report, exc, _damage_start(iterator, current_start),
                                               is_gzip, is_arc, file_size)
            except (zlib.error, EOFError, ValueError, KeyError, IndexError, OSError) as exc:
                position = yield from _corrupt(fh, path, report, exc, _damage_start(iterator, current_start),
                                               is_gzip, is_arc, file_size)
            finally:
                _note_warnings(warnings.getvalue(), report)


def _damage_start(iterator: ArchiveIterator | None, current_start: int) -> int:
    """Where the damage began: the record being parsed, never before the one last yielded."""
    return current_start if iterator is None else max(iterator.offset, current_start)


def _trailing_garbage(fh: io.BufferedReader, end: int, file_size: int) -> Exception | None:
    """After a clean iteration, bytes left past the last record (a cut-off gzip member) are damage."""
    if end >= file_size:
        return None
    fh.seek(end)
    if not fh.read(_READ_BLOCK).strip():
        return None
    return EOFError(f"{file_size - end} bytes after the last complete record could not be read")


def _quietly(iterator: ArchiveIterator, sink: io.StringIO) -> Iterator[object]:
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


def _note_warnings(text: str, report: FileReport) -> None:
    for block in text.strip().split("\n\n"):
        line = clean_message(block)
        if line:
            report.errors.append(f"warcio: {line}")


def _corrupt(fh: io.BufferedReader, path: str, report: FileReport, exc: BaseException, start: int,
             is_gzip: bool, is_arc: bool, file_size: int) -> Iterator[RawRecord]:
    """Emit the corrupt-region record and return where reading resumes (None: at the end)."""
    resume = find_next_boundary(fh, start + 1, is_gzip, is_arc)
    end = file_size if resume is None else resume
    message = f"{type(exc).__name__}: {clean_message(str(exc))}"
    report.errors.append(f"corrupt region at offset {start} ({end - start} bytes): {message}")
    report.record_types["corrupt"] += 1
    yield RawRecord(path, start, "corrupt", error=message, corrupt_region_bytes=end - start)
    return resume


def find_next_boundary(fh: io.BufferedReader, start: int, is_gzip: bool, is_arc: bool) -> int | None:
    """Offset of the first plausible record start at or after `start`, or None.

    In a gzipped file a record starts a gzip member whose first bytes inflate to a WARC or
    ARC header line; in a plain file it is a `WARC/1.x` or ARC header line after a newline.
    """
    position = start
    while True:
        fh.seek(position)
        block = fh.read(_SCAN_BLOCK + 64)
        if len(block) == 0:
            return None
        for candidate in _candidates(block, is_gzip):
            offset = position + candidate
            if _is_record_start(fh, offset, is_gzip, is_arc):
                return offset
        if len(block) <= _SCAN_BLOCK:
            return None
        position += _SCAN_BLOCK


def _candidates(block: bytes, is_gzip: bool) -> Iterator[int]:
    if is_gzip:
        index = block.find(GZIP_MAGIC + b"\x08")
        while index != -1 and index < _SCAN_BLOCK:
            yield index
            index = block.find(GZIP_MAGIC + b"\x08", index + 1)
        return
    for match in re.finditer(rb"\n", block):
        index = match.end()
        if index < _SCAN_BLOCK and block[index:index + 1] not in (b"\r", b"\n", b""):
            yield index


def _is_record_start(fh: io.BufferedReader, offset: int, is_gzip: bool, is_arc: bool) -> bool:
    fh.seek(offset)
    data = fh.read(_READ_BLOCK)
    if is_gzip:
        head = _gunzip_head(data)
        if head is None:
            return False
        data = head
    return bool(_ARC_LINE.match(data) if is_arc else _WARC_LINE.match(data))


def _record_id(headers: object, report: FileReport) -> str | None:
    """The WARC-Record-ID; None for ARC, which has none: warcio's arc2warc invents a random uuid on
    every read, which made the same ARC file give other ids (and other shards) on every run."""
    if report.format == "arc":
        return None
    return headers.get_header("WARC-Record-ID")  # type: ignore[attr-defined]


def _document(path: str, offset: int, record: object, max_payload_bytes: int | None,
              report: FileReport) -> Iterator[RawRecord]:
    rec_type = record.rec_type  # type: ignore[attr-defined]
    report.record_types[rec_type] += 1
    if rec_type not in DOCUMENT_TYPES:
        return
    headers = record.rec_headers  # type: ignore[attr-defined]
    http = record.http_headers  # type: ignore[attr-defined]
    raw, raw_size = _read_limited(record.raw_stream, max_payload_bytes)  # type: ignore[attr-defined]
    missing = getattr(record.raw_stream, "limit", 0)  # type: ignore[attr-defined]
    if missing and missing > 0:
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
        yield result
        return
    result.payload, result.content_encoding_error = decode_http_body(raw, http)
    result.payload_bytes = len(result.payload)
    yield result


def _read_limited(stream: object, max_bytes: int | None) -> tuple[bytes | None, int]:
    """Read a payload up to the cap; past it, count the bytes but keep none."""
    chunks: list[bytes] = []
    total = 0
    while chunk := stream.read(_READ_BLOCK):  # type: ignore[attr-defined]
        total += len(chunk)
        if max_bytes is not None and total > max_bytes:
            chunks.clear()
            total += _drain(stream)
            return None, total
        chunks.append(chunk)
    return b"".join(chunks), total


def decode_http_body(raw: bytes, http: object | None) -> tuple[bytes, str | None]:
    """Undo chunked transfer and gzip/deflate/br content encoding; on failure keep the raw bytes."""
    if http is None:
        return raw, None
    encoding = (http.get_header("Content-Encoding") or "").strip().lower() or None  # type: ignore[attr-defined]
    if encoding not in BufferedReader.get_supported_decompressors():
        encoding = None
    chunked = (http.get_header("Transfer-Encoding") or "").strip().lower() == "chunked"  # type: ignore[attr-defined]
    if not chunked and encoding is None:
        return raw, None
    try:
        if chunked:
            reader: BufferedReader = ChunkedDataReader(io.BytesIO(raw), decomp_type=encoding)
        else:
            reader = BufferedReader(io.BytesIO(raw), decomp_type=encoding)
        return reader.read(), None
    except Exception as exc:  # a lying Content-Encoding is common on the web
        return raw, f"{type(exc).__name__}: {exc}"[:300]


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


def read_stream_gzip(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Fallback for a gzip file that is one member holding many records (not seekable).

    Offsets are then positions in the *decompressed* stream; the report says so.
    """
    report.errors.append("non-chunked gzip: one gzip member holds several records; "
                         "source_offset values are positions in the decompressed stream")
    with gzip.open(path, "rb") as fh:
        warnings = io.StringIO()
        iterator = ArchiveIterator(fh, arc2warc=True)
        current_start = 0
        try:
            for record in _quietly(iterator, warnings):
                current_start = iterator.offset
                yield from _document(path, current_start, record, max_payload_bytes, report)
        except (ArchiveLoadFailed, zlib.error, EOFError, ValueError, KeyError, IndexError, OSError) as exc:
            message = f"{type(exc).__name__}: {clean_message(str(exc))}"
            report.errors.append(f"corrupt stream after decompressed offset {current_start}: {message}")
            report.record_types["corrupt"] += 1
            yield RawRecord(path, max(iterator.offset, current_start), "corrupt", error=message)
        finally:
            _note_warnings(warnings.getvalue(), report)
