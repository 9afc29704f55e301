"""Stage 1, extract: input files -> one Parquet file of rows per input file.

A task is the unit of resume and of parallelism: `extract_file` reads one input file, or one
byte range of a large gzipped WARC (`pipeline/io/byte_ranges.py`; `pipeline/stages/extract_tasks.py`
plans the tasks and merges a file's ranges), turns every record into a row (signals,
extract-stage reasons, text) and writes `WORKDIR/extract/<key>.parquet` (a range: its part)
atomically, then `<key>.json` with the accounting.
The JSON is written last, so its presence marks a finished task for `--resume`; an older JSON
is removed before a task is re-extracted, so it can never vouch for a newer Parquet file.
The work directory's layout and resume checks are in `pipeline/store/workdir.py` (bump its
`FORMAT_VERSION` when the rows written here change meaning), the per-record time budget in
`pipeline/run/budget.py`, the step timings in `pipeline/run/timings.py`.
"""

from __future__ import annotations

import functools
import gc
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from filters.page.domains import registered_domain
from filters.text.language_id import load_language_model
from pipeline.faults import crash_point, fail_point
from pipeline.io.readers import FileReport, NonChunkedGzip, RawRecord, read_byte_range, read_file, read_stream_gzip
from pipeline.params import Params
from pipeline.run.budget import PageTimeout, time_budget
from pipeline.run.executors import TaskFailure
from pipeline.run.timings import Timings
from pipeline.stages.steps import STEPS, Record, base_row, finish, run_steps
from pipeline.store.schema import ROW_SCHEMA, Row, rows_to_table
from pipeline.store.storage import input_size
from pipeline.store.workdir import Location, file_key, finished_summary, outputs_for, part_outputs_for, write_summary
from pipeline.store.writers import parquet_writer, staged_file

# An input file under this size (one HTML page, a small WARC) gives a work file of a few rows,
# written with snappy: zstd's setup for each of the row schema's ~180 column chunks took 8.6 ms
# to write a one-row file (snappy 3.5 ms), more than parsing the page; over thousands of small
# files that was a third of the extract stage. Larger inputs keep zstd's smaller files.
SMALL_INPUT_BYTES = 1 << 20


@dataclass(frozen=True)
class ExtractTask:
    path: str
    workdir: str
    params: Params
    extract_all: bool = False
    resume: bool = False
    # Show a per-file progress bar (bytes of the file read). Only the CLI sets it, for a single
    # worker on a terminal: a large WARC otherwise shows nothing until it is finished.
    progress: bool = False
    # A byte range (start, end) of a gzipped WARC/ARC of `file_format` (pipeline/io/byte_ranges.py);
    # None: the whole file.
    byte_range: tuple[int, int] | None = None
    file_format: str | None = None


def extract_file(task: ExtractTask) -> dict[str, Any]:
    """Process one task; returns its accounting (also written beside the Parquet file).

    A byte range whose members hold several records each (non-chunked gzip) writes nothing and
    returns `{"non_chunked": True}`: its file must be read as one stream.
    """
    if task.resume:
        done = finished_task(task)
        if done is not None:
            return done
    fail_point("extract.task")
    return _extract(task, record_to_row_within_budget)


def extract_failed(task: ExtractTask, failure: TaskFailure) -> dict[str, Any]:
    """The output of a task that failed on every attempt of the executor: its file or byte range
    read again here without extraction, one `error.task` row per record (corrupt and unreadable
    regions get their usual rows), so no record is lost; the failure is in its accounting
    (`failed_tasks`, and stats.json's)."""
    message = f"error.task: the task failed {failure.attempts} time(s): {failure.error}"[:500]

    def failed_row(raw: RawRecord, params: Params, timings: Timings, extract_all: bool) -> Row:
        if raw.record_type in ("corrupt", "unreadable"):
            return record_to_row(raw, params, timings, extract_all)
        row = base_row(raw)
        row["reasons"].append("error.task")
        row["error"] = message if row["error"] is None else f"{row['error']}; {message}"
        return finish(row, params)

    byte_range = list(task.byte_range) if task.byte_range is not None else None
    return _extract(task, failed_row, failure={"path": task.path, "byte_range": byte_range,
                                               "attempts": failure.attempts, "error": failure.error})


RowMaker = Callable[[RawRecord, Params, Timings, bool], Row]


def _extract(task: ExtractTask, to_row: RowMaker, failure: dict[str, Any] | None = None) -> dict[str, Any]:
    parquet_path, json_path = task_outputs(task)
    parquet_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.unlink(missing_ok=True)
    try:
        summary = _write_rows(task, parquet_path, to_row, streaming=False)
    except NonChunkedGzip:
        if task.byte_range is not None:
            return {"path": task.path, "non_chunked": True, "resumed": False}
        summary = _write_rows(task, parquet_path, to_row, streaming=True)
    if failure is not None:
        summary["errors"].append(message_of(failure))
        summary["failed_tasks"] = [failure]
    write_summary(json_path, summary, task.path, task.params, task.extract_all)
    summary["resumed"] = False
    return summary


def message_of(failure: dict[str, Any]) -> str:
    """A failed task as one line of a file's `errors`."""
    where = f" (bytes {failure['byte_range'][0]}-{failure['byte_range'][1]})" if failure["byte_range"] else ""
    return f"task{where} failed {failure['attempts']} time(s), its records are error.task rows: {failure['error']}"


def task_outputs(task: ExtractTask) -> tuple[Location, Location]:
    """The Parquet file and the JSON summary of a task: its file's, or its byte range's part."""
    if task.byte_range is None:
        return outputs_for(task.workdir, task.path)
    return part_outputs_for(task.workdir, task.path, *task.byte_range)


def finished_task(task: ExtractTask) -> dict[str, Any] | None:
    """The stored summary (marked `resumed`) if the task's outputs are complete and current."""
    done = finished_summary(task.path, task.params, task.extract_all, *task_outputs(task))
    if done is not None:
        done["resumed"] = True
    return done


def _write_rows(task: ExtractTask, parquet_path: Location, to_row: RowMaker, streaming: bool) -> dict[str, Any]:
    report = FileReport(task.path)
    timings = Timings()
    max_bytes = task.params.extract.read.max_payload_bytes
    if task.byte_range is not None:
        records = read_byte_range(task.path, task.file_format or "warc", *task.byte_range, max_bytes, report)
    else:
        records = (read_stream_gzip if streaming else read_file)(task.path, max_bytes, report)
    batch: list[Row] = []
    rows = 0
    size = _file_size(task.path)
    bar = tqdm(total=size, desc=os.path.basename(task.path), unit="B", unit_scale=True,
               leave=False, disable=not task.progress)
    compression = "snappy" if task.byte_range is None and size < SMALL_INPUT_BYTES else "zstd"
    try:
        with staged_file(parquet_path) as tmp_path, parquet_writer(tmp_path, ROW_SCHEMA, compression) as writer:
            started = time.perf_counter()
            for raw in records:
                timings.add("read", started)
                if raw.source_offset > bar.n and not streaming:
                    bar.update(raw.source_offset - bar.n)
                batch.append(to_row(raw, task.params, timings, task.extract_all))
                if len(batch) >= task.params.extract.rows_per_row_group:
                    writer.write_table(rows_to_table(batch))
                    crash_point("extract.batch")
                    rows += len(batch)
                    batch.clear()
                started = time.perf_counter()
            if batch or rows == 0:
                writer.write_table(rows_to_table(batch))
                rows += len(batch)
        crash_point("extract.published")
    finally:
        bar.close()
    summary = report.to_dict()
    summary.update(rows=rows, key=file_key(task.path), timings=timings.to_dict())
    if task.byte_range is not None:
        summary.update(byte_range=list(task.byte_range), stopped_at=report.stopped_at)
    return summary


@functools.cache
def warm_up(params: Params | None = None) -> None:
    """Load, once per process, what the first page would otherwise load inside its time budget:
    the language model (~1 s, in a thread of its own while this one goes on), the public suffix
    list, and the page-type model when the gate uses it. Under load that cold start alone could
    exceed a short budget and time out an ordinary page. dateparser (0.5 to 1.4 s) is left to the
    first date the standard library cannot read: many runs never need it (docs/benchmarks.md,
    "Fixed cost")."""
    load_language_model(background=True)
    registered_domain("www.example.co.uk")
    if params is not None and params.extract.gate.use_page_model:
        from filters.page_model.model import load_model as load_page_model

        load_page_model(params.extract.gate.model)
    # What is loaded now lives as long as the process: the cyclic garbage collector need not scan
    # it again. Each full collection otherwise walks the million or so objects of lxml, trafilatura,
    # polars and the models, during the run and in `_return_free_memory` after it.
    gc.freeze()


def record_to_row_within_budget(raw: RawRecord, params: Params, timings: Timings,
                                extract_all: bool = False) -> Row:
    """`record_to_row` under the per-record budget; past it the record gets `error.timeout`.

    The budget is a SIGALRM timer (`pipeline/run/budget.py`), so it also stops a pathological page
    inside an extractor. Without SIGALRM (not the main thread, or not POSIX) the record runs
    without a budget.
    """
    budget = params.extract.page_time_budget_seconds
    warm_up(params)
    try:
        with time_budget(budget):
            return record_to_row(raw, params, timings, extract_all)
    except PageTimeout:
        row = base_row(raw)
        row["reasons"].append("error.timeout")
        row["error"] = f"error.timeout: the record took more than {budget:g} s"
        return finish(row, params)


def record_to_row(raw: RawRecord, params: Params, timings: Timings, extract_all: bool = False) -> Row:
    """Every extract-time signal and reason of one record: the declared steps
    (`pipeline/stages/steps.py`, `STEPS`) in order, until one completes the row, then the
    extract-stage rules. Never raises for bad content."""
    record = Record(raw, params, timings, extract_all, base_row(raw))
    run_steps(record, STEPS)
    return finish(record.row, params)


def _file_size(path: str) -> int:
    try:
        return input_size(path)
    except OSError:
        return 0
