"""Byte-range tasks: one large gzipped WARC or ARC file read by several workers at once.

A WARC gzipped per record (Common Crawl's layout) is a sequence of gzip members, each decompressible on its own,
so the file can be cut where a member starts. `plan_ranges` cuts it into ranges of about `extract.task_bytes`
bytes (`range_step`): from that far past a range's start it moves to the first offset where a gzip member
inflates to a record header, the search the reader uses to resume after damage (`pipeline/io/resync.py`), so
finding the cuts reads a few kilobytes per cut and inflates nothing twice. A range is read from its first
member until the reader reaches a member at or after its end (`read_byte_range` in `pipeline/io/readers.py`).

Read in sequence, the ranges give exactly the records of a whole-file read when every range stops where the
next one starts. One that stops elsewhere had an end that was no member start of the whole-file walk (gzip
magic and a WARC header inside a member's stored block); `pipeline/stages/extract_tasks.py` then reads that
file again as one task, as it does a file whose members hold several records each (non-chunked gzip).
Uncompressed WARC and ARC files, HTML files and files up to `task_bytes` are one range.
"""

from __future__ import annotations

from pipeline.io.archives import is_gzipped_archive
from pipeline.io.readers import detect_format
from pipeline.io.records import READ_BLOCK
from pipeline.io.resync import find_next_boundary
from pipeline.store.storage import input_size, open_input

ByteRange = tuple[int, int]


def range_step(remaining: int, task_bytes: int) -> int | None:
    """How far past a range's start to look for its end, given the bytes left in the file; None:
    the range runs to the end of the file.

    Ranges are `task_bytes` long until the last `2 * task_bytes` of the file, which are cut in
    halves, then quarters, down to about `task_bytes / 8`, so the tasks that run last are short
    and the workers finish close together (docs/decisions.md). The cuts depend on the file and
    `task_bytes` only, never on the number of workers, so `--resume` finds the same ranges with
    any `--workers`.
    """
    if remaining >= 2 * task_bytes:
        return task_bytes
    step = remaining // 2
    return step if step >= max(1, task_bytes // 8) else None


def plan_ranges(path: str, task_bytes: int) -> tuple[str | None, list[ByteRange]]:
    """The file's format and the (start, end) byte ranges it is read in, in file order.

    One range `(0, size)` unless the file is a gzipped WARC or ARC larger than `task_bytes`.
    Unreadable files are one range too: reading them reports why.
    """
    try:
        size = input_size(path)
        if size <= task_bytes:
            return None, [(0, size)]
        # Finding a cut reads around it (`find_next_boundary`); at a URL, nothing more ahead of it.
        with open_input(path, read_ahead=READ_BLOCK) as fh:
            file_format = detect_format(path, fh.read(READ_BLOCK))
            if file_format not in ("warc", "arc") or not is_gzipped_archive(path, file_format == "arc"):
                return file_format, [(0, size)]
            starts = [0]
            while (step := range_step(size - starts[-1], task_bytes)) is not None:
                start = find_next_boundary(fh, starts[-1] + step, True, file_format == "arc")
                if start is None:
                    break
                starts.append(start)
    except OSError:
        return None, [(0, 0)]
    return file_format, list(zip(starts, [*starts[1:], size], strict=True))
