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

from collections.abc import Iterator

from pipeline.io.gzip_members import read_gzip_members
from pipeline.io.plain_warc import read_plain_warc
from pipeline.io.records import FileReport, RawRecord, starts_with_gzip
from pipeline.io.resync import find_next_boundary, is_record_start, read_warcio_resync
from pipeline.store.storage import open_input


def read_archive(path: str, max_payload_bytes: int | None, report: FileReport) -> Iterator[RawRecord]:
    """Records of a WARC or ARC file, each damaged region as one `corrupt` record.

    A gzipped file is read member by member (`pipeline/io/gzip_members.py`), an uncompressed WARC record
    by record with its declared length checked against the next record (`pipeline/io/plain_warc.py`);
    an uncompressed ARC file goes through warcio with resynchronisation on errors
    (`pipeline/io/resync.py`).
    """
    if is_gzipped_archive(path, report.format == "arc"):
        yield from read_gzip_members(path, max_payload_bytes, report)
    elif report.format == "warc":
        yield from read_plain_warc(path, max_payload_bytes, report)
    else:
        yield from read_warcio_resync(path, max_payload_bytes, report)


def is_gzipped_archive(path: str, is_arc: bool) -> bool:
    """Gzip magic at the start, or (first member damaged) no record header at the start and a
    gzip member holding one further on."""
    if starts_with_gzip(path):
        return True
    with open_input(path) as fh:
        if is_record_start(fh, 0, False, is_arc):
            return False
        return find_next_boundary(fh, 1, True, is_arc) is not None
