"""WARC and ARC files read record by record, each damaged region one `corrupt` record.

* gzipped files (one member per record) are read member by member: a member is inflated and its
  CRC-32 checked before its record is parsed, and reading resumes at the next offset where a
  gzip member inflates to a record header;
* uncompressed WARC records are read only when their declared Content-Length ends where the next
  header (or the file) does;
* uncompressed ARC files go through warcio, resynchronised at the next header line after an
  error.

A damaged region becomes one `RawRecord` of type `corrupt` with the offset where it began and
its length; every intact record around it is read.
"""

from __future__ import annotations

import io
import re
import zlib
from collections import Counter
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.limitreader import LimitReader

from pipeline import records
from pipeline.records import (
    ARC_LINE,
    GZIP_MAGIC,
    PARSE_ERRORS,
    READ_BLOCK,
    WARC_LINE,
    FileReport,
    NonChunkedGzip,
    RawRecord,
    clean_message,
    gunzip_head,
    note_warnings,
    quietly,
    record_from_warcio,
    starts_with_gzip,
)

_SCAN_BLOCK = 1 << 20
# Inflated bytes of one gzip member kept in memory (a Common Crawl record is at most ~1 MB).
_MEMBER_BUFFER = 64 << 20


def read_archive(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Records of a WARC or ARC file, each damaged region as one `corrupt` record.

    A gzipped file is read member by member (`_read_gzip_members`), an uncompressed WARC record
    by record with its declared length checked against the next record (`_read_plain_warc`);
    an uncompressed ARC file goes through warcio with resynchronisation on errors.
    """
    if _is_gzipped_archive(path, report.format == "arc"):
        yield from _read_gzip_members(path, max_payload_bytes, report)
    elif report.format == "warc":
        yield from _read_plain_warc(path, max_payload_bytes, report)
    else:
        yield from _read_warcio_resync(path, max_payload_bytes, report)


def _is_gzipped_archive(path: str, is_arc: bool) -> bool:
    """Gzip magic at the start, or (first member damaged) no record header at the start and a
    gzip member holding one further on."""
    if starts_with_gzip(path):
        return True
    with open(path, "rb") as fh:
        if _is_record_start(fh, 0, False, is_arc):
            return False
        return find_next_boundary(fh, 1, True, is_arc) is not None


# --- gzipped WARC/ARC: one member at a time --------------------------------------------------------
@dataclass
class _Member:
    """One gzip member: where it ends, its inflated bytes (None when larger than the buffer), or
    why it could not be inflated."""

    start: int
    end: int = 0
    data: bytes | None = None
    error: Exception | None = None


def _inflate_member(fh: io.BufferedReader, start: int) -> _Member:
    """Inflate the gzip member at `start` to its end, checking its CRC-32 and length.

    A flipped bit anywhere in the compressed data or trailer fails the check, so a member that
    inflates here is byte-for-byte what the writer wrote (a flip in the header's time stamp or
    OS byte is harmless and passes). Up to `_MEMBER_BUFFER` inflated bytes are kept so the
    records can be parsed without inflating twice.
    """
    fh.seek(start)
    inflater = zlib.decompressobj(31)
    parts: list[bytes] | None = []
    inflated = 0
    head = b""
    consumed = 0
    while not inflater.eof:
        chunk = fh.read(READ_BLOCK)
        if not chunk:
            return _Member(start, error=EOFError("gzip member cut off by the end of the file"))
        try:
            out = inflater.decompress(chunk)
        except zlib.error as exc:
            return _Member(start, error=exc)
        consumed += len(chunk)
        if inflated < 4096:
            head += out[:4096]
        inflated += len(out)
        if inflated > records.MAX_INFLATED:
            return _Member(start, error=_Bomb(f"gzip member inflates to more than {records.MAX_INFLATED} bytes "
                                              f"(a decompression bomb?)"), data=head)
        if parts is not None:
            if inflated > _MEMBER_BUFFER:
                parts = None
            else:
                parts.append(out)
    end = start + consumed - len(inflater.unused_data)
    return _Member(start, end, None if parts is None else b"".join(parts))


class _Bomb(ValueError):
    """Inflating went past `records.MAX_INFLATED`."""


class _MemberStream(io.RawIOBase):
    """The inflated bytes of one gzip member, streamed (for members too large to buffer)."""

    def __init__(self, fh: io.BufferedReader, start: int) -> None:
        super().__init__()
        self._fh = fh
        self._position = start
        self._inflater = zlib.decompressobj(31)
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        while not self._pending and not self._inflater.eof:
            self._fh.seek(self._position)
            chunk = self._fh.read(READ_BLOCK)
            if not chunk:
                break
            self._position += len(chunk)
            self._pending = self._inflater.decompress(chunk, len(buffer))
            # Input not consumed because of max_length waits in unconsumed_tail.
            self._position -= len(self._inflater.unconsumed_tail)
        if not self._pending and self._inflater.unconsumed_tail and not self._inflater.eof:
            self._pending = self._inflater.decompress(self._inflater.unconsumed_tail, len(buffer))
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def _read_gzip_members(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Every member is inflated and checked before its records are parsed; a member that fails
    is one `corrupt` record, and reading resumes at the next offset where a gzip member inflates
    to a record header, so damage never takes the rest of the file with it."""
    is_arc = report.format == "arc"
    file_size = Path(path).stat().st_size
    with open(path, "rb") as fh:
        position: int | None = 0
        while position is not None and position < file_size:
            if _only_padding(fh, position, file_size):
                break
            member = _inflate_member(fh, position)
            if member.error is not None:
                url = _head_url(member.data) if isinstance(member.error, _Bomb) else None
                position = yield from _corrupt(fh, path, report, member.error, position, True, is_arc, file_size,
                                               url=url)
                continue
            if member.data is not None and not _NOT_BLANK.search(member.data):
                position = member.end  # an empty member (some writers end files with one)
                continue
            if member.data is not None:
                stream: io.IOBase = io.BytesIO(member.data)
                # A member may begin with the previous record's closing blank lines (odd chunking).
                stream.seek(_LEADING_NEWLINES.match(member.data).end())  # type: ignore[union-attr]
            else:
                stream = _MemberStream(fh, position)
            yield from _member_records(path, member, stream, max_payload_bytes, report, is_arc)
            position = member.end


def _only_padding(fh: io.BufferedReader, position: int, file_size: int) -> bool:
    """Nothing but whitespace or NUL bytes from `position` to the end (padded files)."""
    if file_size - position > READ_BLOCK:
        return False
    fh.seek(position)
    return not fh.read().strip(b" \t\r\n\0")


def _member_records(path: str, member: _Member, stream: io.IOBase, max_payload_bytes: int | None,
                    report: FileReport, is_arc: bool) -> Iterator[RawRecord]:
    """The record(s) of one intact member. Its records are collected before any is yielded: a
    member whose content does not parse (a header that lies about its length, garbage) is one
    corrupt region, with nothing of it half-reported."""
    own = FileReport(path, report.format)
    found: list[RawRecord] = []
    warnings = io.StringIO()
    iterator = ArchiveIterator(stream, arc2warc=is_arc, block_size=READ_BLOCK * 4)
    try:
        for count, record in enumerate(quietly(iterator, warnings)):
            if count:
                # Several records in one member ("non-chunked" gzip): the records have no file
                # offsets of their own; the caller re-reads the file as one stream.
                raise NonChunkedGzip(path)
            if not record.rec_type:  # type: ignore[attr-defined]
                raise ArchiveLoadFailed("a record without a WARC-Type (or an empty header block)")
            found.extend(record_from_warcio(path, member.start, record, max_payload_bytes, own))
    except PARSE_ERRORS as exc:
        message = f"{type(exc).__name__}: {clean_message(str(exc))}"
        found = [RawRecord(path, member.start, "corrupt", url=_first_url(found), error=message)]
        own.record_types = Counter({"corrupt": 1})
        own.errors = [f"corrupt region at offset {member.start} ({member.end - member.start} bytes): {message}"]
    finally:
        note_warnings(warnings.getvalue(), own)
    for record in found:
        if record.record_type == "corrupt":
            record.corrupt_region_bytes = member.end - member.start
    report.record_types.update(own.record_types)
    report.errors.extend(own.errors)
    yield from found


def _first_url(records: list[RawRecord]) -> str | None:
    return next((r.url for r in records if r.url), None)


# --- uncompressed WARC: each declared length checked ---------------------------------------------
def _read_plain_warc(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """A record is read only when its declared Content-Length ends exactly where the next record
    (or the end of the file) begins. A length that lies in either direction would otherwise
    swallow the records after it or leave the rest of the record as garbage; instead the region
    from the lying header to the next real `WARC/` header is one corrupt record."""
    file_size = Path(path).stat().st_size
    with open(path, "rb") as fh:
        position: int | None = _skip_newlines(fh, 0, file_size)
        while position is not None and position < file_size:
            header = _plain_header(fh, position)
            end = None if header is None else position + header.size + header.content_length
            if header is None or end is None:
                position = yield from _corrupt(fh, path, report, ArchiveLoadFailed("no WARC header parses here"),
                                               position, False, False, file_size)
                continue
            after = _record_end(fh, end, file_size)
            if after is None or _swallows_records(fh, position + header.size, end):
                position = yield from _lying_length(fh, path, report, position, header, end, file_size)
                continue
            fh.seek(position)
            yield from _member_records(path, _Member(position, end), LimitReader(fh, end - position),
                                       max_payload_bytes, report, False)
            position = after


@dataclass
class _PlainHeader:
    size: int  # bytes up to and including the blank line
    content_length: int
    url: str | None
    record_id: str | None


_HEADER_LIMIT = 1 << 20
_NOT_BLANK = re.compile(rb"[^ \t\r\n]")
_LEADING_NEWLINES = re.compile(rb"[\r\n]*")
# NUL/blank bytes tolerated between a record's declared end and the next header (warcio's own
# test file has two NUL bytes there); more, or other bytes, and the declared length is wrong.
_TRAILER_SLACK = 16
_HEADER_FIELD = re.compile(rb"^([A-Za-z0-9-]+):[ \t]*(.*?)[ \t]*\r?$", re.MULTILINE)


def _plain_header(fh: io.BufferedReader, position: int) -> _PlainHeader | None:
    """The WARC header block at `position` if it starts with a version line, ends with a blank
    line within 1 MiB and declares a Content-Length; else None."""
    fh.seek(position)
    block = fh.read(READ_BLOCK)
    if not WARC_LINE.match(block):
        return None
    while True:
        match = re.search(rb"\r?\n\r?\n", block)
        if match or len(block) >= _HEADER_LIMIT:
            break
        more = fh.read(READ_BLOCK)
        if not more:
            break
        block += more
    if match is None:
        return None
    fields = {name.lower(): value for name, value in _HEADER_FIELD.findall(block[:match.start()])}
    length = fields.get(b"content-length", b"").strip()
    if not length.isdigit():
        return None
    def text(name: bytes) -> str | None:
        value = fields.get(name)
        return value.decode("utf-8", "replace") if value is not None else None
    return _PlainHeader(match.end(), int(length), text(b"warc-target-uri"), text(b"warc-record-id"))


def _skip_newlines(fh: io.BufferedReader, position: int, file_size: int) -> int | None:
    """The first offset at or after `position` that is not CR/LF (None at the end)."""
    while position < file_size:
        fh.seek(position)
        block = fh.read(READ_BLOCK)
        rest = block.lstrip(b"\r\n")
        if rest:
            return position + len(block) - len(rest)
        position += len(block)
    return None


def _record_end(fh: io.BufferedReader, end: int, file_size: int) -> int | None:
    """Where reading goes on if the record ends at `end` as declared: its content followed by the
    blank line pair of the WARC format, or newlines up to a header or the end of the file, or a
    few stray bytes (`_TRAILER_SLACK`) before the next header, which then become a small corrupt
    region of their own. None when the declared length cannot be right."""
    if end > file_size:
        return None
    fh.seek(end)
    trailer = fh.read(4)
    after = _skip_newlines(fh, end, file_size)
    if after is None:
        return file_size
    if trailer == b"\r\n\r\n" or trailer[:2] == b"\n\n":
        return after  # what follows, header or garbage, is the next iteration's business
    fh.seek(after)
    if after > end and WARC_LINE.match(fh.read(64)):
        return after
    following = find_next_boundary(fh, end, False, False)
    if following is None or following - end > _TRAILER_SLACK:
        return None
    fh.seek(end)
    stray = fh.read(following - end)
    # NUL or blank padding after the content: the length was right. Anything else is content
    # the length left out.
    return end if not stray.strip(b"\0 \t\r\n") else None


_RECORD_SEPARATOR = re.compile(rb"\r\n\r\n(?=WARC/\d\.\d+\r?\n)")


def _swallows_records(fh: io.BufferedReader, content_start: int, end: int) -> bool:
    """A declared length too long by exactly the records after it frames correctly, yet the
    content then holds a record separator and a WARC header whose own declared length ends at
    the same place (give or take the closing newlines): that record was swallowed. (A WARC file
    archived inside a resource ends four bytes earlier, with its last record's blank lines.)"""
    fh.seek(content_start)
    position = content_start
    tail = b""
    while position < end:
        block = fh.read(min(_SCAN_BLOCK, end - position))
        if not block:
            return False
        data = tail + block
        base = position - len(tail)
        for match in _RECORD_SEPARATOR.finditer(data):
            start = base + match.end()
            inner = _plain_header(fh, start)
            # The outer length may also stop inside the inner record's closing newlines.
            if inner is not None and -3 <= start + inner.size + inner.content_length - end <= 4:
                return True
        fh.seek(position + len(block))
        position += len(block)
        tail = data[-32:]
    return False


def _lying_length(fh: io.BufferedReader, path: str, report: FileReport, start: int, header: _PlainHeader,
                  end: int, file_size: int) -> Generator[RawRecord, None, int | None]:
    """The record whose declared length does not end where a record begins: one corrupt record
    from its header to the next real header (or to the end of the file); returns where reading
    resumes (None: at the end)."""
    resume = find_next_boundary(fh, start + 1, False, False)
    region_end = file_size if resume is None else resume
    if end > file_size and resume is None:
        message = f"record cut off: {end - file_size} of its declared bytes are missing"
    else:
        message = (f"declared Content-Length {header.content_length} does not end where the next record "
                   f"begins (the record spans {region_end - start - header.size} bytes)")
    report.errors.append(f"corrupt record at offset {start}: {message}")
    report.record_types["corrupt"] += 1
    yield RawRecord(path, start, "corrupt", url=header.url, record_id=header.record_id, error=message,
                    corrupt_region_bytes=region_end - start)
    return resume


# --- uncompressed ARC: warcio, resynchronised on errors ------------------------------------------
def _read_warcio_resync(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Iterate records, turning each damaged region into one `corrupt` record and resuming."""
    is_gzip = False
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
                iterator = ArchiveIterator(fh, arc2warc=is_arc)
                for record in quietly(iterator, warnings):
                    current_start = iterator.offset
                    yield from record_from_warcio(path, current_start, record, max_payload_bytes, report)
                position = None
                trailing = _trailing_garbage(fh, iterator.offset, file_size)
                if trailing is not None:
                    position = yield from _corrupt(fh, path, report, trailing, iterator.offset,
                                                   is_gzip, is_arc, file_size)
            except PARSE_ERRORS as exc:
                position = yield from _corrupt(fh, path, report, exc, _damage_start(iterator, current_start),
                                               is_gzip, is_arc, file_size)
            finally:
                note_warnings(warnings.getvalue(), report)


def _damage_start(iterator: ArchiveIterator | None, current_start: int) -> int:
    """Where the damage began: the record being parsed, never before the one last yielded."""
    return current_start if iterator is None else max(iterator.offset, current_start)


def _trailing_garbage(fh: io.BufferedReader, end: int, file_size: int) -> Exception | None:
    """After a clean iteration, bytes left past the last record (a cut-off record) are damage."""
    if end >= file_size:
        return None
    fh.seek(end)
    if not fh.read(READ_BLOCK).strip():
        return None
    return EOFError(f"{file_size - end} bytes after the last complete record could not be read")


def _head_url(head: bytes | None) -> str | None:
    match = re.search(rb"WARC-Target-URI: *([^\r\n]*)", head or b"")
    return match.group(1).decode("utf-8", "replace").strip() if match else None


def _corrupt(fh: io.BufferedReader, path: str, report: FileReport, exc: BaseException, start: int,
             is_gzip: bool, is_arc: bool, file_size: int, url: str | None = None) -> Iterator[RawRecord]:
    """Emit the corrupt-region record and return where reading resumes (None: at the end)."""
    resume = find_next_boundary(fh, start + 1, is_gzip, is_arc)
    end = file_size if resume is None else resume
    message = f"{type(exc).__name__}: {clean_message(str(exc))}"
    report.errors.append(f"corrupt region at offset {start} ({end - start} bytes): {message}")
    report.record_types["corrupt"] += 1
    yield RawRecord(path, start, "corrupt", url=url, error=message, corrupt_region_bytes=end - start)
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
        for candidate in _candidates(block, is_gzip, is_arc):
            offset = position + candidate
            if _is_record_start(fh, offset, is_gzip, is_arc):
                return offset
        if len(block) <= _SCAN_BLOCK:
            return None
        position += _SCAN_BLOCK


def _candidates(block: bytes, is_gzip: bool, is_arc: bool) -> Iterator[int]:
    if is_gzip:
        index = block.find(GZIP_MAGIC + b"\x08")
        while index != -1 and index < _SCAN_BLOCK:
            yield index
            index = block.find(GZIP_MAGIC + b"\x08", index + 1)
        return
    if not is_arc:
        # A WARC header is found wherever its version line is, even right after garbage that
        # does not end in a newline.
        for match in WARC_LINE.finditer(block):
            if match.start() < _SCAN_BLOCK:
                yield match.start()
        return
    for match in re.finditer(rb"\n", block):
        index = match.end()
        if index < _SCAN_BLOCK and block[index:index + 1] not in (b"\r", b"\n", b""):
            yield index


def _is_record_start(fh: io.BufferedReader, offset: int, is_gzip: bool, is_arc: bool) -> bool:
    fh.seek(offset)
    data = fh.read(READ_BLOCK)
    if is_gzip:
        head = gunzip_head(data)
        if head is None:
            return False
        data = head
    return bool(ARC_LINE.match(data) if is_arc else WARC_LINE.match(data))


