"""The extract stage's tasks: which files are read whole and which in byte ranges, and how a
file's ranges become its one output.

`run_extract` plans the tasks (`pipeline/io/byte_ranges.py`), maps `extract_file` over them with
an executor, then, for each file read in ranges, checks that every range stopped exactly where
the next one starts and merges the ranges' rows and accounting, in file order, into the file's
`<key>.parquet` and `<key>.json`: the same rows and the same accounting as one whole-file read.
A file whose ranges do not join (an end that was not a member start of the whole-file walk) or
whose gzip members hold several records is read again as one task. Ranges are the unit of
`--resume` until their file is merged; the merged file is then the unit, and its parts go.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyarrow as pa

from pipeline.faults import crash_point
from pipeline.io.byte_ranges import plan_ranges
from pipeline.run.executors import Executor, TaskFailure
from pipeline.run.timings import merge_timings
from pipeline.stages.extract import ExtractTask, extract_failed, extract_file, finished_task
from pipeline.store.schema import ROW_SCHEMA
from pipeline.store.storage import input_size, parquet_file
from pipeline.store.workdir import outputs_for, part_outputs_for, remove_parts, write_summary
from pipeline.store.writers import parquet_writer, staged_file


@dataclass
class ExtractRun:
    """What `run_extract` did: one summary per input file (in input order), and how much of it
    came from an earlier run's output."""

    summaries: list[dict[str, Any]]
    resumed_files: int = 0
    resumed_ranges: int = 0
    ranges: int = 0
    reread_files: int = 0


def run_extract(inputs: Sequence[str], template: ExtractTask, executor: Executor) -> ExtractRun:
    """Extract every input file; `template` holds the settings shared by every task (its path is
    ignored)."""
    params = template.params
    if not template.resume:
        remove_parts(template.workdir)
    run = ExtractRun(summaries=[])
    done: dict[str, dict[str, Any]] = {}
    tasks: list[ExtractTask] = []
    for path in inputs:
        summary = finished_task(replace(template, path=path)) if template.resume else None
        if summary is not None:
            remove_parts(template.workdir, path)  # a run killed after merging left them
            done[path] = summary
            continue
        file_format, ranges = plan_ranges(path, params.extract.task_bytes)
        if len(ranges) == 1:
            tasks.append(replace(template, path=path))
        else:
            tasks += [replace(template, path=path, byte_range=byte_range, file_format=file_format, progress=False)
                      for byte_range in ranges]
            run.ranges += len(ranges)
    results = _run(executor, tasks)
    run.resumed_files = sum(1 for summary in done.values() if summary.get("resumed"))
    run.resumed_ranges = sum(1 for task, result in zip(tasks, results, strict=True)
                             if task.byte_range is not None and result.get("resumed"))

    reread: list[str] = []
    for path, parts in _by_file(tasks, results).items():
        if parts is None:
            continue
        if _joined(parts):
            done[path] = _merge(path, parts, template)
        else:
            reread.append(path)
    whole = [replace(template, path=path, resume=False, progress=False) for path in reread]
    for path, summary in zip(reread, _run(executor, whole), strict=True):
        remove_parts(template.workdir, path)
        done[path] = summary
    for task, result in zip(tasks, results, strict=True):
        if task.byte_range is None:
            done[task.path] = result
    run.reread_files = len(reread)
    run.summaries = [done[path] for path in inputs]
    return run


def _run(executor: Executor, tasks: list[ExtractTask]) -> list[dict[str, Any]]:
    """`extract_file` over `tasks`; a task that failed every attempt (`TaskFailure`) gets its
    records as `error.task` rows, written here (`extract_failed`)."""
    results = executor.map(extract_file, tasks, "extract", [_task_bytes(task) for task in tasks])
    return [extract_failed(task, result) if isinstance(result, TaskFailure) else result
            for task, result in zip(tasks, results, strict=True)]


def _task_bytes(task: ExtractTask) -> int:
    """The task's weight in the progress bar: its bytes (at least 1, so empty files count)."""
    if task.byte_range is not None:
        return max(1, task.byte_range[1] - task.byte_range[0])
    try:
        return max(1, input_size(task.path))
    except OSError:
        return 1


def _by_file(tasks: list[ExtractTask], results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]] | None]:
    """The range results of each file read in ranges, in file order (None for whole-file tasks)."""
    grouped: dict[str, list[dict[str, Any]] | None] = {}
    for task, result in zip(tasks, results, strict=True):
        if task.byte_range is None:
            grouped[task.path] = None
        else:
            parts = grouped.setdefault(task.path, [])
            assert parts is not None
            parts.append(result)
    return grouped


def _joined(parts: list[dict[str, Any]]) -> bool:
    """Every range stopped exactly where the next one starts, and none was non-chunked gzip."""
    if any(part.get("non_chunked") for part in parts):
        return False
    return all(part["stopped_at"] == following["byte_range"][0] for part, following in itertools.pairwise(parts))


def _merge(path: str, parts: list[dict[str, Any]], template: ExtractTask) -> dict[str, Any]:
    """Concatenate the ranges' rows into the file's Parquet file and their accounting into its
    summary (written last: it marks the file finished), then remove the parts."""
    parquet_path, json_path = outputs_for(template.workdir, path)
    json_path.unlink(missing_ok=True)
    with staged_file(parquet_path) as tmp_path, parquet_writer(tmp_path, ROW_SCHEMA) as writer:
        for group in _row_groups(_part_tables(path, parts, template), template.params.extract.rows_per_row_group):
            writer.write_table(group)
        if not sum(part["rows"] for part in parts):
            writer.write_table(ROW_SCHEMA.empty_table())
    crash_point("extract.merged")
    summary = merged_summary(path, parts)
    write_summary(json_path, summary, path, template.params, template.extract_all)
    remove_parts(template.workdir, path)
    summary["resumed"] = False
    return summary


def _part_tables(path: str, parts: list[dict[str, Any]], template: ExtractTask) -> Iterator[pa.Table]:
    """The parts' rows in file order, one row group at a time."""
    for part in parts:
        source = parquet_file(part_outputs_for(template.workdir, path, *part["byte_range"])[0])
        for index in range(source.num_row_groups):
            yield source.read_row_group(index, use_threads=False)


def _row_groups(tables: Iterable[pa.Table], rows: int) -> Iterator[pa.Table]:
    """`tables` re-cut into tables of `rows` rows (the last one shorter).

    A byte range's part holds a few dozen rows; written as they come, a Common Crawl file's
    merged output would have thousands of row groups, and the metadata of each (one entry per
    column, about 0.15 MB here) is held by the writer until it closes and by every reader that
    opens the file: 131 row groups added 70 MB to extract's peak on a 283 MB WARC. Re-cut, the
    merged file has the row groups a single task would have written.
    """
    pending: list[pa.Table] = []
    held = 0
    for table in tables:
        pending.append(table)
        held += table.num_rows
        while held >= rows:
            joined = pa.concat_tables(pending)
            yield joined.slice(0, rows)
            rest = joined.slice(rows)
            pending, held = [rest], rest.num_rows
    if held:
        yield pa.concat_tables(pending)


def merged_summary(path: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One file's accounting from its ranges' (as one whole-file read writes it, timings summed)."""
    record_types: Counter[str] = Counter()
    for part in parts:
        record_types.update(part["record_types"])
    failed = [failure for part in parts for failure in part.get("failed_tasks", [])]
    return {
        "path": path,
        "format": parts[0]["format"],
        "record_types": dict(sorted(record_types.items())),
        "errors": [error for part in parts for error in part["errors"]],
        "rows": sum(part["rows"] for part in parts),
        "key": parts[0]["key"],
        "timings": merge_timings(part["timings"] for part in parts),
        **({"failed_tasks": failed} if failed else {}),
    }
