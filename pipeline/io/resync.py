"""Finding where reading resumes after damage, and the warcio reader that does it for ARC files.

A damaged region becomes one `RawRecord` of type `corrupt` with the offset where it began and
its length (`corrupt_region`); reading goes on at the next offset where a record header is found
(`find_next_boundary`): in a gzipped file, a gzip member whose first bytes inflate to a header.
"""

from __future__ import annotations

import io
import re
from collections.abc import Generator, Iterator
from typing import IO

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from pipeline.io.records import (
    ARC_LINE,
    GZIP_MAGIC,
    PARSE_ERRORS,
    READ_BLOCK,
    WARC_LINE,
    FileReport,
    RawRecord,
    clean_message,
    gunzip_head,
    note_warnings,
    quietly,
    record_from_warcio,
)
from pipeline.store.storage import input_size, open_input

SCAN_BLOCK = 1 << 20


def read_warcio_resync(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Iterate records, turning each damaged region into one `corrupt` record and resuming."""
    is_gzip = False
    is_arc = report.format == "arc"
    file_size = input_size(path)
    with open_input(path) as fh:
        position: int | None = 0
        while position is not None:
            warnings = io.StringIO()
            iterator: ArchiveIterator | None = None
            current_start = position
            try:
                if not is_record_start(fh, position, is_gzip, is_arc):
                    raise ArchiveLoadFailed("no WARC/ARC record starts here")
                fh.seek(position)
                iterator = ArchiveIterator(fh, arc2warc=is_arc)
                for record in quietly(iterator, warnings):
                    current_start = iterator.offset
                    yield from record_from_warcio(path, current_start, record, max_payload_bytes, report)
                position = None
                trailing = _trailing_garbage(fh, iterator.offset, file_size)
                if trailing is not None:
                    position = yield from corrupt_region(fh, path, report, trailing, iterator.offset,
                                                         is_gzip, is_arc, file_size)
            except PARSE_ERRORS as exc:
                position = yield from corrupt_region(fh, path, report, exc, _damage_start(iterator, current_start),
                                                     is_gzip, is_arc, file_size)
            finally:
                note_warnings(warnings.getvalue(), report)


def _damage_start(iterator: ArchiveIterator | None, current_start: int) -> int:
    """Where the damage began: the record being parsed, never before the one last yielded."""
    return current_start if iterator is None else max(iterator.offset, current_start)


def _trailing_garbage(fh: IO[bytes], end: int, file_size: int) -> Exception | None:
    """After a clean iteration, bytes left past the last record (a cut-off record) are damage."""
    if end >= file_size:
        return None
    fh.seek(end)
    if not fh.read(READ_BLOCK).strip():
        return None
    return EOFError(f"{file_size - end} bytes after the last complete record could not be read")


def head_url(head: bytes | None) -> str | None:
    match = re.search(rb"WARC-Target-URI: *([^\r\n]*)", head or b"")
    return match.group(1).decode("utf-8", "replace").strip() if match else None


def corrupt_region(fh: IO[bytes], path: str, report: FileReport, exc: BaseException, start: int,
                   is_gzip: bool, is_arc: bool, file_size: int,
                   url: str | None = None) -> Generator[RawRecord, None, int | None]:
    """Emit the corrupt-region record and return where reading resumes (None: at the end)."""
    resume = find_next_boundary(fh, start + 1, is_gzip, is_arc)
    end = file_size if resume is None else resume
    message = f"{type(exc).__name__}: {clean_message(str(exc))}"
    report.errors.append(f"corrupt region at offset {start} ({end - start} bytes): {message}")
    report.record_types["corrupt"] += 1
    yield RawRecord(path, start, "corrupt", url=url, error=message, corrupt_region_bytes=end - start)
    return resume


def find_next_boundary(fh: IO[bytes], start: int, is_gzip: bool, is_arc: bool) -> int | None:
    """Offset of the first plausible record start at or after `start`, or None.

    In a gzipped file a record starts a gzip member whose first bytes inflate to a WARC or
    ARC header line; in a plain file it is a `WARC/1.x` or ARC header line after a newline.
    """
    position = start
    while True:
        fh.seek(position)
        block = fh.read(SCAN_BLOCK + 64)
        if len(block) == 0:
            return None
        for candidate in _candidates(block, is_gzip, is_arc):
            offset = position + candidate
            if is_record_start(fh, offset, is_gzip, is_arc):
                return offset
        if len(block) <= SCAN_BLOCK:
            return None
        position += SCAN_BLOCK


def _candidates(block: bytes, is_gzip: bool, is_arc: bool) -> Iterator[int]:
    if is_gzip:
        index = block.find(GZIP_MAGIC + b"\x08")
        while index != -1 and index < SCAN_BLOCK:
            yield index
            index = block.find(GZIP_MAGIC + b"\x08", index + 1)
        return
    if not is_arc:
        # A WARC header is found wherever its version line is, even right after garbage that
        # does not end in a newline.
        for match in WARC_LINE.finditer(block):
            if match.start() < SCAN_BLOCK:
                yield match.start()
        return
    for match in re.finditer(rb"\n", block):
        index = match.end()
        if index < SCAN_BLOCK and block[index:index + 1] not in (b"\r", b"\n", b""):
            yield index


def is_record_start(fh: IO[bytes], offset: int, is_gzip: bool, is_arc: bool) -> bool:
    fh.seek(offset)
    data = fh.read(READ_BLOCK)
    if is_gzip:
        head = gunzip_head(data)
        if head is None:
            return False
        data = head
    return bool(ARC_LINE.match(data) if is_arc else WARC_LINE.match(data))
