"""Uncompressed WARC files, each record's declared Content-Length checked.

A record is read only when its declared length ends where the next header (or the file) does;
otherwise the region from its header to the next real `WARC/` header is one corrupt record.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import IO

from warcio.exceptions import ArchiveLoadFailed
from warcio.limitreader import LimitReader

from pipeline.io.gzip_members import Member, member_records
from pipeline.io.records import READ_BLOCK, WARC_LINE, FileReport, RawRecord
from pipeline.io.resync import SCAN_BLOCK, corrupt_region, find_next_boundary
from pipeline.store.storage import input_size, open_input


def read_plain_warc(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """A record is read only when its declared Content-Length ends exactly where the next record
    (or the end of the file) begins. A length that lies in either direction would otherwise
    swallow the records after it or leave the rest of the record as garbage; instead the region
    from the lying header to the next real `WARC/` header is one corrupt record."""
    file_size = input_size(path)
    with open_input(path) as fh:
        position: int | None = _skip_newlines(fh, 0, file_size)
        while position is not None and position < file_size:
            header = _plain_header(fh, position)
            if header is None or header.content_length is None:
                why = "no WARC header parses here" if header is None else "its Content-Length is not a number"
                position = yield from corrupt_region(fh, path, report, ArchiveLoadFailed(why), position, False,
                                                     False, file_size, url=header.url if header else None)
                continue
            end = position + header.size + header.content_length
            after = _record_end(fh, end, file_size)
            if after is None or _swallows_records(fh, position + header.size, end, after, file_size):
                position = yield from _lying_length(fh, path, report, position, header, end, file_size)
                continue
            fh.seek(position)
            yield from member_records(path, Member(position, end), LimitReader(fh, end - position),
                                      max_payload_bytes, report, False)
            position = after


@dataclass
class _PlainHeader:
    size: int  # bytes up to and including the blank line
    content_length: int | None  # None: not a number
    url: str | None
    record_id: str | None


_HEADER_LIMIT = 1 << 20
# NUL/blank bytes tolerated between a record's declared end and the next header (warcio's own
# test file has two NUL bytes there); more, or other bytes, and the declared length is wrong.
_TRAILER_SLACK = 16
_HEADER_FIELD = re.compile(rb"^([A-Za-z0-9-]+):[ \t]*(.*?)[ \t]*\r?$", re.MULTILINE)


def _plain_header(fh: IO[bytes], position: int) -> _PlainHeader | None:
    """The WARC header block at `position` if it starts with a version line and ends with a blank
    line within 1 MiB (its Content-Length None when not a number); else None."""
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

    def text(name: bytes) -> str | None:
        value = fields.get(name)
        return value.decode("utf-8", "replace") if value is not None else None
    return _PlainHeader(match.end(), int(length) if length.isdigit() else None, text(b"warc-target-uri"),
                        text(b"warc-record-id"))


def _skip_newlines(fh: IO[bytes], position: int, file_size: int) -> int | None:
    """The first offset at or after `position` that is not CR/LF (None at the end)."""
    while position < file_size:
        fh.seek(position)
        block = fh.read(READ_BLOCK)
        rest = block.lstrip(b"\r\n")
        if rest:
            return position + len(block) - len(rest)
        position += len(block)
    return None


def _record_end(fh: IO[bytes], end: int, file_size: int) -> int | None:
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
    if after > end and _header_at(fh, after, file_size):
        return after
    following = find_next_boundary(fh, end, False, False)
    if following is None or following - end > _TRAILER_SLACK:
        return None
    fh.seek(end)
    stray = fh.read(following - end)
    # NUL or blank padding after the content: the length was right. Anything else is content
    # the length left out.
    return end if not stray.strip(b"\0 \t\r\n") else None


def _header_at(fh: IO[bytes], position: int, file_size: int) -> bool:
    """The end of the file, or a WARC version line, at `position`."""
    if position >= file_size:
        return True
    fh.seek(position)
    return WARC_LINE.match(fh.read(64)) is not None


_RECORD_SEPARATOR = re.compile(rb"\r\n\r\n(?=WARC/\d\.\d+\r?\n)")


def _swallows_records(fh: IO[bytes], content_start: int, end: int, after: int, file_size: int) -> bool:
    """A declared length too long by exactly the records after it frames correctly, yet the
    content then holds a record separator and a WARC header whose own declared length ends at
    the same place (give or take the closing newlines): that record was swallowed. (A WARC file
    archived inside a resource ends four bytes earlier, with its last record's blank lines.)
    When no header follows the declared end (at `after`), a length that ends inside such an inner record
    swallowed its head (a blank line there frames like a record's end); a truncated WARC file
    archived inside a resource also ends inside its last record, but a real header follows it."""
    fh.seek(content_start)
    position = content_start
    tail = b""
    while position < end:
        block = fh.read(min(SCAN_BLOCK, end - position))
        if not block:
            return False
        data = tail + block
        base = position - len(tail)
        for match in _RECORD_SEPARATOR.finditer(data):
            start = base + match.end()
            inner = _plain_header(fh, start)
            if inner is None or inner.content_length is None:
                continue
            inner_end = start + inner.size + inner.content_length
            # The outer length may also stop inside the inner record's closing newlines.
            if -3 <= inner_end - end <= 4 or (start < end < inner_end and not _header_at(fh, after, file_size)):
                return True
        fh.seek(position + len(block))
        position += len(block)
        tail = data[-32:]
    return False


def _lying_length(fh: IO[bytes], path: str, report: FileReport, start: int, header: _PlainHeader,
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
