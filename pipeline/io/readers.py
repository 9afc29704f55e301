"""Readers: every record of every input file, accounted for.

WARC and ARC files (gzipped per record or not) are read with warcio (`pipeline/io/archives.py`
handles damage); plain HTML files (also gzipped) become one record each. Nothing is dropped
silently:

* response and resource records become `RawRecord`s (rows later);
* request, metadata, warcinfo, revisit, conversion and continuation records are not
  documents: they are counted per type in the file's `FileReport`;
* a damaged region (broken gzip member, unparsable WARC header, garbage between records)
  becomes one `RawRecord` of type `corrupt` carrying the offset where the damage began, and
  reading resumes at the next record boundary that can be found;
* a file that cannot be opened or recognised becomes one record of type `unreadable`.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import stat
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from pipeline.io.archives import read_archive
from pipeline.io.gzip_members import read_gzip_members
from pipeline.io.gzip_stream import read_member_stream
from pipeline.io.records import (
    ARC_LINE,
    GZIP_MAGIC,
    READ_BLOCK,
    WARC_LINE,
    FileReport,
    NonChunkedGzip,
    RawRecord,
    gunzip_head,
    over_hard_cap_note,
    payload_cap,
    read_within,
    starts_with_gzip,
)
from pipeline.store.storage import input_size, is_url, open_input, walk_url

__all__ = ["FileReport", "NonChunkedGzip", "RawRecord", "detect_format", "discover_inputs", "read_byte_range",
           "read_file", "read_stream_gzip"]

ARCHIVE_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz")
HTML_SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz")
# Files taken from a directory walk; any other file there is reported as skipped.
WALK_SUFFIXES = ARCHIVE_SUFFIXES + HTML_SUFFIXES + (".gz",)

# Possessive quantifiers: a head of many `<!---->` comments must not backtrack exponentially
# (this is matched on every input file, outside any per-record time budget).
_HTML_START = re.compile(rb"\s*+(?:<!--.*?-->\s*)*+<(?:!doctype\s+html|html|head|body|meta|title|script)\b",
                         re.IGNORECASE | re.DOTALL)


def discover_inputs(paths: list[str]) -> tuple[list[str], dict[str, str]]:
    """Expand INPUT arguments into files: directories walked recursively in sorted order.

    An INPUT may be a URL (`pipeline/store/storage.py`): a URL "directory" (an object-store prefix) is
    walked the same way. Returns (files, skipped) where skipped maps each path not read to why, so
    it can be reported rather than ignored: files in walked directories whose suffix is not one we
    read, and FIFOs, sockets and devices, named or walked, which are never opened (opening a FIFO
    waits for a writer, forever if none comes). Missing paths raise FileNotFoundError (a usage error
    for the CLI).
    """
    files: list[str] = []
    skipped: dict[str, str] = {}
    for arg in paths:
        if is_url(arg):
            walked = walk_url(arg)
            for child in walked if walked is not None else ():
                _take(child, child.rsplit("/", 1)[-1], None, files, skipped)
            if walked is None:
                files.append(arg)
            continue
        path = Path(arg)
        if path.is_dir():
            for found in sorted(p for p in path.rglob("*") if not p.is_dir()):
                _take(str(found), found.name, _not_a_regular_file(found), files, skipped)
        elif path.exists() or path.is_symlink():
            special = _not_a_regular_file(path)
            if special is None:
                files.append(arg)
            else:
                skipped[arg] = special
        else:
            raise FileNotFoundError(arg)
    # A file named twice (or both named and found in a walked directory) is read once.
    seen: set[str] = set()
    unique = []
    for name in files:
        key = _identity(name)
        if key not in seen:
            seen.add(key)
            unique.append(name)
    return unique, {name: why for name, why in skipped.items() if _identity(name) not in seen}


NOT_OUR_NAME = "name is not WARC/ARC/HTML (name the file to read it by its content)"


def _take(path: str, name: str, special: str | None, files: list[str], skipped: dict[str, str]) -> None:
    """A walked path: read if a regular file with one of our names, else skipped with why."""
    if special is not None:
        skipped[path] = special
    elif name.lower().endswith(WALK_SUFFIXES):
        files.append(path)
    else:
        skipped[path] = NOT_OUR_NAME


def _not_a_regular_file(path: Path) -> str | None:
    """Why `path` must not be opened (a FIFO, socket or device), or None."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None  # missing, a broken link or no permission: reading it says why
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kinds = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    kind = next((text for test, text in kinds if test(mode)), "a special file")
    return f"{kind}, not a regular file: never opened"


def _identity(path: str) -> str:
    return path if is_url(path) else os.path.realpath(path)


def detect_format(path: str, head: bytes) -> str | None:
    """'warc', 'arc' or 'html' from the first bytes, else from the file name; None if neither."""
    sample = gunzip_head(head) if head.startswith(GZIP_MAGIC) else head
    if sample is not None:
        if sample.startswith(b"WARC/"):
            return "warc"
        if sample.startswith(b"filedesc://") or ARC_LINE.match(sample):
            return "arc"
        if _HTML_START.match(sample.lstrip(b"\xef\xbb\xbf")):
            return "html"
    # By name only where the bytes show an archive whose start is damaged: a gzip stream or member, or
    # a record header further on. A text file named .warc.gz is no archive: unreadable, not a corrupt region.
    name = path.lower().removesuffix(".gz")
    # a gzip stream (or what is left of one cut after a byte), or a damaged first member before others
    damaged = GZIP_MAGIC.startswith(head[:2]) or GZIP_MAGIC + b"\x08" in head
    if name.endswith(".warc") and (damaged or WARC_LINE.search(head) or b"WARC/".startswith(head)):
        return "warc"  # (the last: a file cut inside its first header line)
    if name.endswith(".arc") and (damaged or ARC_LINE.search(head) or b"filedesc://".startswith(head)):
        return "arc"
    if name.endswith((".html", ".htm")):
        return "html"
    return None


def read_file(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Yield every document, corrupt region or unreadable marker of one input file."""
    try:
        with open_input(path) as fh:
            head = fh.read(READ_BLOCK)
    except OSError as exc:
        report.errors.append(f"unreadable: {exc.strerror or exc}")
        report.record_types["unreadable"] += 1
        yield _unreadable(path, f"cannot open: {exc.strerror or exc}")
        return
    if not head:
        report.format = detect_format(path, head)
        if report.format == "html":
            report.errors.append("empty file: no content")
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
        yield from _unless_unreadable(path, read_archive(path, max_payload_bytes, report), report)


def read_byte_range(path: str, file_format: str, start: int, end: int, max_payload_bytes: int | None,
                    report: FileReport) -> Iterator[RawRecord]:
    """The records of a gzipped WARC/ARC from the member at `start` to the first member at or
    after `end` (`pipeline/io/byte_ranges.py` plans the ranges); `report.stopped_at` says where."""
    report.format = file_format
    records = read_gzip_members(path, max_payload_bytes, report, start, end)
    yield from _unless_unreadable(path, records, report)


def _unless_unreadable(path: str, records: Iterator[RawRecord], report: FileReport) -> Iterator[RawRecord]:
    """`records`, then one `unreadable` record if reading the file failed (an I/O error)."""
    try:
        yield from records
    except OSError as exc:
        report.errors.append(f"unreadable: {exc}")
        report.record_types["unreadable"] += 1
        yield _unreadable(path, f"read failed: {exc}")


def _unreadable(path: str, message: str) -> RawRecord:
    return RawRecord(path, -1, "unreadable", error=message)


def _read_html_file(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """One `file` record; a payload over the cap (`payload_cap`: the params' limit, or the hard cap
    when that is null) is counted up to the hard cap, never held whole (`read_within`)."""
    gzipped = starts_with_gzip(path)

    @contextlib.contextmanager
    def opened() -> Iterator[IO[bytes]]:
        with open_input(path) as raw, (gzip.GzipFile(fileobj=raw, mode="rb") if gzipped
                                       else contextlib.nullcontext(raw)) as fh:
            yield fh  # type: ignore[misc]  # a GzipFile is a binary stream

    try:
        payload, size = read_within(opened, payload_cap(max_payload_bytes))
    except (OSError, EOFError, zlib.error) as exc:
        report.errors.append(f"corrupt gzip: {exc}")
        report.record_types["corrupt"] += 1
        yield RawRecord(path, 0, "corrupt", error=f"corrupt gzip: {exc}",
                        corrupt_region_bytes=input_size(path))
        return
    report.record_types["file"] += 1
    note = over_hard_cap_note(size) if payload is None and max_payload_bytes is None else None
    yield RawRecord(path, -1, "file", payload=payload, payload_bytes=size, error=note)


def read_stream_gzip(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """A gzip file whose members hold several records each, read as it inflates
    (`pipeline/io/gzip_stream.py`).

    Offsets are then positions in the *decompressed* stream; the report says so.
    """
    report.errors.append("non-chunked gzip: one gzip member holds several records; "
                         "source_offset values are positions in the decompressed stream")
    try:
        with open_input(path) as fh:
            report.format = detect_format(path, fh.read(READ_BLOCK))
    except OSError:
        pass  # reading reports it
    yield from _unless_unreadable(path, read_member_stream(path, max_payload_bytes, report), report)
