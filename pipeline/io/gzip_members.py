"""Gzipped WARC/ARC files read one member at a time.

A member is inflated and its CRC-32 and length checked before its record is parsed; a member that
fails is one `corrupt` record, and reading resumes at the next offset where a gzip member inflates
to a record header, so damage never spreads to a neighbouring member.

A member found to hold a second record header where its first record ends ("non-chunked" gzip,
often a whole file compressed as one member) is not checked whole: `NonChunkedGzip` hands the file
to `pipeline/io/gzip_stream.py`, which reads records as the member inflates. It is found while
inflating, at the first record's declared end, so a damaged or huge whole-file member is handed
over, not turned into one corrupt record.
"""

from __future__ import annotations

import io
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from pipeline.io import records
from pipeline.io.gzip_stream import inflate_up_to_error
from pipeline.io.records import ARC_LINE, READ_BLOCK, WARC_LINE, FileReport, RawRecord
from pipeline.io.resync import corrupt_region, head_url
from pipeline.store.storage import input_size, open_input

# Inflated bytes of one gzip member kept in memory (a Common Crawl record is at most ~1 MB).
_MEMBER_BUFFER = 64 << 20
_NOT_BLANK = re.compile(rb"[^ \t\r\n]")
_LEADING_NEWLINES = re.compile(rb"[\r\n]*")
# Inflated bytes of a member searched for its first record's header, and bytes looked at where
# that record ends for a second header.
_HEAD_BYTES = 1 << 16
_NEXT_HEAD_BYTES = 256
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
_CONTENT_LENGTH = re.compile(rb"^content-length:[ \t]*(\d+)[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)


@dataclass
class Member:
    """One gzip member: where it ends, its inflated bytes (None when larger than the buffer), or
    why it could not be inflated."""

    start: int
    end: int = 0
    data: bytes | None = None
    error: Exception | None = None
    several_records: bool = False


def inflate_member(fh: IO[bytes], start: int, is_arc: bool = False) -> Member:
    """Inflate the gzip member at `start` to its end, checking its CRC-32 and length.

    A member whose inflated bytes hold another record header where the first record ends by its
    declared length is left there (`several_records`), whatever follows: damage or 1 GiB more.

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
    probe = _SecondRecordProbe(is_arc)
    while not inflater.eof:
        chunk = fh.read(READ_BLOCK)
        if not chunk:
            if probe.finish():
                return Member(start, several_records=True)
            return Member(start, error=EOFError("gzip member cut off by the end of the file"))
        try:
            out = inflater.decompress(chunk)
        except zlib.error as exc:
            if _holds_several_records(fh, start, is_arc):
                return Member(start, several_records=True)
            return Member(start, error=exc)
        consumed += len(chunk)
        if probe.feed(out):
            return Member(start, several_records=True)
        if inflated < 4096:
            head += out[:4096]
        inflated += len(out)
        if inflated > records.MAX_INFLATED:
            return Member(start, error=_Bomb(f"gzip member inflates to more than {records.MAX_INFLATED} bytes "
                                              f"(a decompression bomb?)"), data=head)
        if parts is not None:
            if inflated > _MEMBER_BUFFER:
                parts = None
            else:
                parts.append(out)
    end = start + consumed - len(inflater.unused_data)
    return Member(start, end, None if parts is None else b"".join(parts))


class _SecondRecordProbe:
    """Whether a member holds a second record: a WARC (or ARC) header line, after blank lines,
    where the first record ends by its declared Content-Length (ARC: length field). A length that
    lies inside an intact member points at payload bytes, not at a header, so such a member is
    still read (and judged) as one record."""

    def __init__(self, is_arc: bool) -> None:
        self._is_arc = is_arc
        self._head = b""
        self._seen = 0
        self._first_end: int | None = None
        self._following = b""
        self._decided = False

    def feed(self, out: bytes) -> bool:
        """Take the next inflated bytes; True once a second record header is seen."""
        start = self._seen
        self._seen += len(out)
        if self._decided:
            return False
        if self._first_end is None:
            self._head += out[:max(0, _HEAD_BYTES - len(self._head))]
            self._first_end = _declared_end(self._head, self._is_arc)
            if self._first_end is None:
                self._decided = len(self._head) >= _HEAD_BYTES
                return False
            known = self._head + out[len(self._head) - start:]  # the inflated bytes so far
            self._following = known[self._first_end:self._first_end + _NEXT_HEAD_BYTES]
        else:
            low = max(self._first_end, start)
            high = min(self._first_end + _NEXT_HEAD_BYTES, self._seen)
            if low < high:
                self._following += out[low - start:high - start]
        return self._verdict(final=len(self._following) >= _NEXT_HEAD_BYTES)

    def finish(self) -> bool:
        """The verdict on the bytes seen, when no more will come (the member ended or broke off)."""
        return not self._decided and self._first_end is not None and self._verdict(final=True)

    def _verdict(self, final: bool) -> bool:
        following = self._following.lstrip(b"\r\n")
        line = ARC_LINE if self._is_arc else WARC_LINE
        if line.match(following):
            self._decided = True
            return True
        self._decided = final or len(following) >= 64
        return False


def _holds_several_records(fh: IO[bytes], start: int, is_arc: bool) -> bool:
    """The probe over the damaged member at `start`, inflated again up to the byte where it fails
    (a failing call returns nothing, and the second header may be in the block that failed)."""
    probe = _SecondRecordProbe(is_arc)
    fh.seek(start)
    inflater = zlib.decompressobj(31)
    while not inflater.eof and (chunk := fh.read(READ_BLOCK)):
        saved = inflater.copy()
        try:
            out = inflater.decompress(chunk)
        except zlib.error:
            return probe.feed(inflate_up_to_error(saved, chunk)) or probe.finish()
        if probe.feed(out):
            return True
    return probe.finish()


def _declared_end(head: bytes, is_arc: bool) -> int | None:
    """Where the first record of inflated bytes `head` ends by its declared length; None when no
    complete header is in `head`."""
    position = _LEADING_NEWLINES.match(head).end()  # type: ignore[union-attr]
    if is_arc:
        line = ARC_LINE.match(head, position)
        length = line.group(0).split()[-1] if line else b""
        return line.end() + int(length) if line and length.isdigit() else None
    if not WARC_LINE.match(head, position):
        return None
    blank = _BLANK_LINE.search(head, position)
    if blank is None:
        return None
    declared = _CONTENT_LENGTH.search(head, position, blank.start() + 1)
    return blank.end() + int(declared.group(1)) if declared else None


class _Bomb(ValueError):
    """Inflating went past `records.MAX_INFLATED`."""


class _MemberStream(io.RawIOBase):
    """The inflated bytes of one gzip member, streamed (for members too large to buffer)."""

    def __init__(self, fh: IO[bytes], start: int) -> None:
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


def read_gzip_members(path: str, max_payload_bytes: int | None, report: FileReport, start: int = 0,
                      end: int | None = None) -> Iterator[RawRecord]:
    """Every member is inflated and checked before its records are parsed; a member that fails
    is one `corrupt` record, and reading resumes at the next offset where a gzip member inflates
    to a record header, so damage never takes the rest of the file with it.

    A byte-range task reads from the member at `start` until it reaches a member starting at or
    after `end`; where it stopped is left in `report.stopped_at`.
    """
    is_arc = report.format == "arc"
    file_size = input_size(path)
    end = file_size if end is None else min(end, file_size)
    with open_input(path) as fh:
        position: int | None = start
        while position is not None and position < end:
            if _only_padding(fh, position, file_size):
                break
            member = inflate_member(fh, position, is_arc)
            if member.several_records:
                raise records.NonChunkedGzip(path)
            if member.error is not None:
                url = head_url(member.data) if isinstance(member.error, _Bomb) else None
                position = yield from corrupt_region(fh, path, report, member.error, position, True, is_arc,
                                                     file_size, url=url)
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
            yield from member_records(path, member, stream, max_payload_bytes, report, is_arc)
            position = member.end
    report.stopped_at = file_size if position is None else position


def _only_padding(fh: IO[bytes], position: int, file_size: int) -> bool:
    """Nothing but whitespace or NUL bytes from `position` to the end (padded files)."""
    if file_size - position > READ_BLOCK:
        return False
    fh.seek(position)
    return not fh.read().strip(b" \t\r\n\0")


def member_records(path: str, member: Member, stream: io.IOBase, max_payload_bytes: int | None,
                   report: FileReport, is_arc: bool) -> Iterator[RawRecord]:
    """The record(s) of one intact member. Its records are collected before any is yielded: a
    member whose content does not parse (a header that lies about its length, garbage) is one
    corrupt region, with nothing of it half-reported."""
    own = FileReport(path, report.format)
    found: list[RawRecord] = []
    warnings = io.StringIO()
    iterator = ArchiveIterator(stream, arc2warc=is_arc, block_size=READ_BLOCK * 4)
    try:
        for count, record in enumerate(records.quietly(iterator, warnings)):
            if count:
                # Several records in one member ("non-chunked" gzip): the records have no file
                # offsets of their own; the caller re-reads the file as one stream.
                raise records.NonChunkedGzip(path)
            if not record.rec_type:  # type: ignore[attr-defined]
                raise ArchiveLoadFailed("a record without a WARC-Type (or an empty header block)")
            found.extend(records.record_from_warcio(path, member.start, record, max_payload_bytes, own))
    except records.PARSE_ERRORS as exc:
        message = f"{type(exc).__name__}: {records.clean_message(str(exc))}"
        found = [RawRecord(path, member.start, "corrupt", url=_first_url(found), error=message)]
        own.record_types = Counter({"corrupt": 1})
        own.errors = [f"corrupt region at offset {member.start} ({member.end - member.start} bytes): {message}"]
    finally:
        records.note_warnings(warnings.getvalue(), own)
    for record in found:
        if record.record_type == "corrupt":
            record.corrupt_region_bytes = member.end - member.start
    report.record_types.update(own.record_types)
    report.errors.extend(own.errors)
    yield from found


def _first_url(found: list[RawRecord]) -> str | None:
    return next((r.url for r in found if r.url), None)
