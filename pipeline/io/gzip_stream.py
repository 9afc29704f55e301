"""Gzipped WARC/ARC files whose members hold several records each ("non-chunked" gzip, often a whole file
compressed as one member), read as they inflate.

Such a file has no check per record: a member's CRC-32 covers all its records and is read only at its end. So
records are parsed from the inflated bytes as they come (memory stays bounded however large the member), each
record with a `WARC-Block-Digest` is checked against it, and size limits apply to each record
(`record.too_large`), never to the member. Where inflating fails (a zlib error, a CRC-32 or length mismatch, the
file ending inside a member, bytes between members that are not a member), every record read completely before
it is kept; the rest of the member is one `corrupt` record, and reading resumes at the next gzip member that
inflates to a record header. A deflate stream cannot be resumed in its middle, so the records between the damage
and the end of their member are lost. A CRC-32 that fails after the last record (a damaged trailer) keeps every
record and leaves a corrupt record for the trailer. Offsets are positions in the inflated stream (the members one
after the other); after a damaged region they go on from the bytes it inflated to, and a corrupt record's
`corrupt_region_bytes` counts inflated bytes too (its error names the file offsets).
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Generator, Iterator
from typing import IO, Any

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from pipeline.io import records
from pipeline.io.records import GZIP_MAGIC, PARSE_ERRORS, READ_BLOCK, FileReport, RawRecord
from pipeline.io.resync import find_next_boundary
from pipeline.store.storage import open_input

_PADDING = b"\0 \t\r\n"


class DamagedMember(Exception):
    """Inflating stopped: the member at `member_start` is damaged, cut off or followed by garbage."""

    def __init__(self, message: str, member_start: int) -> None:
        super().__init__(message)
        self.member_start = member_start


class InflatedStream(io.RawIOBase):
    """The inflated bytes of the gzip members from file offset `start` on, as a stream whose
    `tell()` is the inflated offset (starting at `inflated_start`). Raises `DamagedMember` where
    inflating fails, after every byte inflated before the damage has been read."""

    def __init__(self, fh: IO[bytes], start: int, inflated_start: int) -> None:
        super().__init__()
        self._fh = fh
        fh.seek(start)
        self.member_start = start
        self._inflater = zlib.decompressobj(31)
        self._input = b""
        self._input_offset = start  # file offset of self._input[0]
        self._pending = b""
        self._error: DamagedMember | None = None
        self._ended = False
        self._delivered = inflated_start
        self.produced = inflated_start  # inflated bytes produced, read or not

    def readable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._delivered

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        while not self._pending and not self._ended:
            if self._error is not None:
                raise self._error
            self._pending = self._inflate(len(buffer))
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        self._delivered += size
        return size

    def _inflate(self, max_length: int) -> bytes:
        if self._inflater.eof:
            self._next_member()
            return b""
        if not self._input:
            self._input = self._fh.read(READ_BLOCK)
            if not self._input:
                self._error = DamagedMember(f"the file ends inside the gzip member at offset {self.member_start}",
                                            self.member_start)
                return b""
        data, offset = self._input, self._input_offset
        saved = self._inflater.copy()
        try:
            out = self._inflater.decompress(data, max_length)
        except zlib.error as exc:
            out = inflate_up_to_error(saved, data)
            self._error = DamagedMember(f"gzip member at offset {self.member_start}: {_explain(exc)} (inflating "
                                        f"failed in file bytes {offset}-{offset + len(data)})", self.member_start)
            self.produced += len(out)
            return out
        rest = self._inflater.unused_data if self._inflater.eof else self._inflater.unconsumed_tail
        self._input_offset = offset + len(data) - len(rest)
        self._input = rest
        self.produced += len(out)
        return out

    def _next_member(self) -> None:
        """After a member's end: the next member, the end of the file (padding allowed), or damage."""
        while len(self._input) < len(GZIP_MAGIC) and (more := self._fh.read(READ_BLOCK)):
            self._input += more
        if self._input.startswith(GZIP_MAGIC):
            self.member_start = self._input_offset
            self._inflater = zlib.decompressobj(31)
            return
        while not self._input.strip(_PADDING):
            more = self._fh.read(READ_BLOCK)
            if not more:
                self._ended = True
                return
            self._input_offset += len(self._input)
            self._input = more
        garbage = self._input_offset + len(self._input) - len(self._input.lstrip(_PADDING))
        self._error = DamagedMember(f"bytes at offset {garbage} after a gzip member are not a gzip member", garbage)


def inflate_up_to_error(inflater: Any, data: bytes) -> bytes:
    """What `data` inflates to before the byte where inflating fails (a failing call returns
    nothing, so the records just before the damage would be lost with it)."""
    parts = []
    for index in range(len(data)):
        try:
            parts.append(inflater.decompress(data[index:index + 1]))
        except zlib.error:
            break
        if inflater.eof:
            break
    return b"".join(parts)


def _explain(exc: zlib.error) -> str:
    text = str(exc)
    if "incorrect data check" in text:
        return f"{text} (its CRC-32 does not match: its data or its trailer is damaged)"
    if "incorrect length check" in text:
        return f"{text} (its inflated length does not match its trailer)"
    return text


def read_member_stream(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Every record of a non-chunked gzip file, each damaged region one `corrupt` record."""
    is_arc = report.format == "arc"
    with open_input(path) as fh:
        position: int | None = 0
        inflated = 0
        while position is not None:
            stream = InflatedStream(fh, position, inflated)
            failure = yield from _stream_records(path, stream, max_payload_bytes, report)
            if failure is None:
                return
            damage_start, exc = failure
            position = find_next_boundary(fh, stream.member_start + 1, True, is_arc)
            inflated = max(stream.produced, damage_start)
            where = "the end of the file" if position is None else f"the gzip member at offset {position}"
            message = f"{type(exc).__name__}: {records.clean_message(str(exc))}; reading resumed at {where}"
            report.errors.append(f"corrupt region at inflated offset {damage_start} "
                                 f"({inflated - damage_start} inflated bytes): {message}")
            report.record_types["corrupt"] += 1
            yield RawRecord(path, damage_start, "corrupt", error=message, corrupt_region_bytes=inflated - damage_start)


Failure = tuple[int, Exception]


def _stream_records(path: str, stream: InflatedStream, max_payload_bytes: int | None,
                    report: FileReport) -> Generator[RawRecord, None, Failure | None]:
    """The records of `stream` until it ends (None) or fails: then (where the damaged region
    begins, why). A record is yielded only once read to its end and its digest checked."""
    warnings = io.StringIO()
    end = stream.tell()  # of the last record read completely
    iterator = ArchiveIterator(stream, arc2warc=True, block_size=READ_BLOCK * 4, check_digests=True)
    try:
        for record in records.quietly(iterator, warnings):
            offset = iterator.offset
            own = FileReport(path, report.format)
            if not record.rec_type:  # type: ignore[attr-defined]
                return offset, ArchiveLoadFailed("a record without a WARC-Type (or an empty header block)")
            try:
                found = list(records.record_from_warcio(path, offset, record, max_payload_bytes, own))
            except (DamagedMember, *PARSE_ERRORS) as exc:
                return offset, exc
            if _counting_stopped(found):
                _merge(report, own)
                yield from found
                return stream.tell(), ValueError(f"the record at inflated offset {offset} is larger than "
                                                 f"{records.MAX_INFLATED} bytes; the rest of its member was "
                                                 f"not inflated (a decompression bomb?)")
            length = _content_end(offset, record) - offset
            failure: Failure | None = None
            misframed = iterator.err_count
            try:
                length = iterator.get_record_length()  # reads the blank lines after it
            except (DamagedMember, *PARSE_ERRORS) as exc:
                failure = offset + length, exc  # the record itself was read to its end
            # warcio counts a record whose declared length does not end at a blank line.
            problem = "its declared length does not end at a blank line" if iterator.err_count > misframed else None
            problem = _block_digest_problem(record) or problem
            if problem is not None:
                # Damage no CRC caught yet, or a lying length: what follows in this member cannot be
                # trusted (a damaged deflate stream inflates to garbage that can look like records).
                return offset, ValueError(f"the record at inflated offset {offset} is damaged: {problem}; "
                                          f"the rest of its gzip member is not read")
            _merge(report, own)
            yield from found
            if failure is not None:
                return failure
            end = offset + length
    except (DamagedMember, *PARSE_ERRORS) as exc:
        return end, exc
    finally:
        records.note_warnings(warnings.getvalue(), report)
    return None


def _content_end(offset: int, record: object) -> int:
    """Where a record's content ends: its header block and declared length past its offset."""
    headers = record.rec_headers  # type: ignore[attr-defined]
    return offset + (headers.total_len or 0) + (record.length or 0)  # type: ignore[attr-defined]


def _counting_stopped(found: list[RawRecord]) -> bool:
    """A record whose payload was counted only up to the hard cap: reading on would inflate the rest."""
    return any(r.payload_bytes is not None and r.payload_bytes > records.MAX_INFLATED for r in found)


def _block_digest_problem(record: object) -> str | None:
    """Why the record's WARC-Block-Digest fails, if it does. Payload digests are not judged:
    writers disagree on whether they cover a chunked body before or after de-chunking."""
    checker = getattr(record, "digest_checker", None)
    problems = checker.problems if checker is not None else []
    if any(problem.startswith("block digest failed") for problem in problems):
        return "its WARC-Block-Digest does not match its bytes"
    return None


def _merge(report: FileReport, own: FileReport) -> None:
    report.record_types.update(+own.record_types)  # a count taken back is not a type seen
    report.errors.extend(own.errors)
