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

import contextlib
import functools
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from filters.corpus.dedup import content_hash, simhash64, to_int64
from filters.corpus.minhash import signature as minhash_signature
from filters.extract.cascade import run_cascade
from filters.extract.cleanup import remove_cookie_overlays
from filters.metadata.dates import load_dateparser
from filters.metadata.fields import Metadata, extract_metadata, has_author, has_published_date, reading_time_minutes
from filters.page.article_score import article_score
from filters.page.content_type import is_html_media_type, resolve_media_type
from filters.page.domains import registered_domain
from filters.page.page_signals import classify, needs_js
from filters.page.page_structure import structure_signals
from filters.page.product import product_signals
from filters.page.url_rules import normalize_url, url_signals
from filters.parse.html import host_of, parse_html_bytes, url_hint
from filters.parse.parsed import Page
from filters.rules import reasons as decisions
from filters.rules.signals import check_signal_names
from filters.text.blocks import block_signals
from filters.text.c4 import nopunc_clean
from filters.text.gopher import gopher_signals
from filters.text.language_id import language_signals, load_model
from filters.text.quality import quality_signals
from filters.text.tokens import token_count
from pipeline.io.decode import decode_html
from pipeline.io.readers import FileReport, NonChunkedGzip, RawRecord, read_byte_range, read_file, read_stream_gzip
from pipeline.io.records import synthetic_id
from pipeline.params import Params
from pipeline.run.budget import PageTimeout, time_budget
from pipeline.run.executors import TaskFailure
from pipeline.run.timings import Timings
from pipeline.store.schema import ROW_SCHEMA, Row, empty_row, rows_to_table
from pipeline.store.storage import input_size, input_url
from pipeline.store.workdir import Location, file_key, finished_summary, outputs_for, part_outputs_for, write_summary
from pipeline.store.writers import crash_point, fail_point, parquet_writer, staged_file


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
        row = _base_row(raw)
        row["reasons"].append("error.task")
        row["error"] = message if row["error"] is None else f"{row['error']}; {message}"
        return _finish(row, params)

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
    bar = tqdm(total=_file_size(task.path), desc=os.path.basename(task.path), unit="B", unit_scale=True,
               leave=False, disable=not task.progress)
    try:
        with staged_file(parquet_path) as tmp_path, parquet_writer(tmp_path, ROW_SCHEMA) as writer:
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
    the language model (~0.4 s), dateparser (~0.2 s), the public suffix list, and the page-type
    model when the gate uses it. Under load that cold start alone could exceed a short budget and
    time out an ordinary page."""
    load_model()
    load_dateparser()
    registered_domain("www.example.co.uk")
    if params is not None and params.extract.gate.min_page_article_probability is not None:
        from pipeline.page_model import load_model as load_page_model

        load_page_model(params.extract.gate.model)


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
        row = _base_row(raw)
        row["reasons"].append("error.timeout")
        row["error"] = f"error.timeout: the record took more than {budget:g} s"
        return _finish(row, params)


def record_to_row(raw: RawRecord, params: Params, timings: Timings, extract_all: bool = False) -> Row:
    """Every extract-time signal and reason of one record. Never raises for bad content."""
    row = _base_row(raw)
    signals: dict[str, Any] = row["signals"]
    if raw.record_type == "corrupt":
        signals.update(input_corrupt=True, corrupt_region_bytes=raw.corrupt_region_bytes)
        return _finish(row, params)
    if raw.record_type == "unreadable":
        signals["input_unreadable"] = True
        return _finish(row, params)

    declared = raw.warc_content_type if raw.record_type == "resource" else raw.http_content_type
    if raw.record_type == "file":
        declared = "text/html"
    row["content_type"] = resolve_media_type(declared, raw.identified_payload_type, raw.payload)
    signals.update(
        is_html=is_html_media_type(row["content_type"]),
        payload_bytes=raw.payload_bytes,
        payload_declared_bytes=raw.payload_declared_bytes,
        warc_truncated=raw.warc_truncated,
    )
    _add_url_signals(row, params)
    if raw.payload is None:
        # Not kept because it is over a size cap: the params' (the rule fires too) or the reader's
        # own hard cap when extract.read.max_payload_bytes is null (the rule is off; the reason is not).
        row["reasons"].append("record.too_large")
        return _finish(row, params)
    if _fires(row, params, ("record",)):
        return _finish(row, params)

    started = time.perf_counter()
    decoded = decode_html(raw.payload, raw.http_content_type)
    timings.add("decode", started)
    row.update({"encoding": decoded.encoding, "encoding_source": decoded.source})
    signals.update(undecodable_char_fraction=round(decoded.undecodable_char_fraction, 6),
                   html_bytes=len(decoded.data))
    if _fires(row, params, ("record",)):
        return _finish(row, params)

    started = time.perf_counter()
    tree = parse_html_bytes(decoded.data, decoded.encoding)
    timings.add("parse", started)
    if tree is None:
        row["word_count"] = 0
        return _finish(row, params)
    if raw.record_type == "file":
        row["url"] = url_hint(tree) or input_url(raw.source_file)
        row["host"] = host_of(row["url"])
        _add_url_signals(row, params)
    page = Page(tree, row["url"])

    metadata = None
    with _step(row, timings, "metadata"):
        metadata = extract_metadata(page, raw.warc_date)
        _add_metadata(row, metadata)
    with _step(row, timings, "article_score"):
        score, score_signals = article_score(page, has_author(page, metadata), has_published_date(page, metadata))
        row["article_score"] = score
        signals.update(score_signals)
    with _step(row, timings, "page_signals"):
        signals.update(classify(page))
        signals.update(needs_js(page))
    # Product and structure signals describe the page before extraction: the page-type model
    # reads them, so they are known before the gate decides.
    with _step(row, timings, "product"):
        signals.update(product_signals(page))
    with _step(row, timings, "structure"):
        signals.update(structure_signals(page))
    if params.extract.gate.min_page_article_probability is not None:
        with _step(row, timings, "page_model"):
            signals["page_article_probability"] = page_article_probability(row, params)
    gated = extraction_gated(row, params)
    signals["extraction_gated"] = gated
    if gated and not extract_all:
        return _finish(row, params)

    with _step(row, timings, "extract", reason="error.extract"):
        signals["cookie_overlays_removed_count"] = remove_cookie_overlays(page.tree)
        cascade = params.extract.cascade
        result = run_cascade(page, cascade.selection, cascade.precision_link_code_fraction, on_time=timings.add_seconds)
        row.update({"text": result.text, "extractor": result.extractor, "word_count": result.word_count})
        signals.update(result.trace)
        if result.text:
            signals.update(block_signals(result.body_blocks))
            signals["reading_time_minutes"] = reading_time_minutes(result.word_count)
        _add_page_text_signals(signals, result.word_count)
    if row["text"]:
        with _step(row, timings, "text_filters"):
            signals.update(text_signals(row["text"]))
            signals.update(quality_signals(result.blocks, len(decoded.data), row["title"], row["author"],
                                           row["published"]))
        minhash = params.extract.minhash
        if minhash.permutations is not None:
            with _step(row, timings, "minhash"):
                signals["minhash"] = minhash_signature(row["text"], minhash.permutations, minhash.shingle_words)
    return _finish(row, params)


def page_article_probability(row: Row, params: Params) -> float:
    """The pre-extraction page-type model's article probability for the row as computed so far
    (URL, title, metadata, page, product and structure signals)."""
    from pipeline.page_model import ARTICLE, load_model

    model = load_model(params.extract.gate.model)
    return round(float(model.page.probabilities([row])[0, ARTICLE]), 6)


def extraction_gated(row: Row, params: Params) -> bool:
    """Whether the page is left unextracted: a rule of a pre-extraction group fires on the signals
    computed so far (record, URL, the article score where its rule is on, and the pre-extraction
    page-type model: `article.page_model`, the model's article probability under
    `extract.gate.min_page_article_probability`).

    Extraction (trafilatura and readability) is most of a page's time, so this is where clear
    non-articles are turned away, each with its reason code. With `--extract-all` gated pages are
    extracted too, and their reasons stay these (`decisions.applicable`).
    """
    return _fires(row, params, decisions.PRE_EXTRACTION_GROUPS)


# Gopher's own lower bound on document length: statistics of fewer words say nothing about a page.
GOPHER_MIN_MEASURED_WORDS = 50


def text_signals(text: str) -> dict[str, Any]:
    """The text filters' signals, computed once per extracted page; thresholds are select-stage rules.

    C4 NoPunc removes lines first and Gopher sees the cleaned text (docs/filters.md); the
    stored `text` stays as extracted. When the removal leaves fewer than 50 words of a text that
    has more, the Gopher statistics of that remainder would blame the page for what C4 did (a
    700-word article whose paragraphs end in hashtags got `gopher.word_count` and
    `gopher.median_word_length`): Gopher then measures the text as extracted
    (`gopher_measured_uncleaned`), so its reasons describe the page (`gopher.symbol_ratio` for the
    hashtags), and `c4.removed_words` names the removal. Gopher's required words are English, so
    that signal is left null for text identified as another language (the allow-list decides).
    """
    signals: dict[str, Any] = {"token_count": token_count(text), "content_hash": content_hash(text),
                               "simhash64": to_int64(simhash64(text)) if text.split() else None}
    signals.update(language_signals(text))
    cleaned, c4 = nopunc_clean(text)
    signals.update(c4)
    uncleaned = c4["c4_kept_word_count"] < GOPHER_MIN_MEASURED_WORDS <= len(text.split())
    signals["gopher_measured_uncleaned"] = uncleaned
    signals.update(gopher_signals(text if uncleaned else cleaned))
    if signals["text_language"] != "en":
        signals["gopher_stop_word_count"] = None
    return signals


def _add_url_signals(row: Row, params: Params) -> None:
    url = row["url"]
    row["normalized_url"] = normalize_url(url) if url else None
    row["signals"].update(url_signals(url, params.extract.url.exclude_regex))


def _add_metadata(row: Row, meta: Metadata) -> None:
    row.update({
        "title": meta.title,
        "author": meta.author,
        "published": meta.published,
        "updated": meta.updated,
        "description": meta.description,
        "site_name": meta.site_name,
        "canonical_url": meta.canonical_url,
        "language": meta.language,
        "tags": list(meta.tags) or None,
    })


def _add_page_text_signals(signals: dict[str, Any], words: int) -> None:
    """The extracted word count, but only for pages classified as shells or walls.

    These are the signals of the page.* rules: a JS shell, cookie wall or paywall is rejected
    only when the extraction also found too little text (the classification alone is not a
    verdict: many walled pages still carry their full article in the HTML).
    """
    shell = bool(signals.get("page_is_js_spa") or signals.get("needs_js"))
    signals["js_shell_extracted_words"] = words if shell else None
    signals["cookie_wall_extracted_words"] = words if signals.get("page_is_cookie_walled") else None
    signals["paywall_extracted_words"] = words if signals.get("page_is_paywalled") else None


@contextlib.contextmanager
def _step(row: Row, timings: Timings, name: str, reason: str | None = None) -> Iterator[None]:
    """Time one step; an exception inside it becomes `error.<step>` and the page goes on."""
    started = time.perf_counter()
    try:
        yield
    except Exception as exc:  # one bad page or one filter bug must not stop the file
        code = reason or f"error.{name}"
        row["reasons"].append(code)
        message = f"{code}: {type(exc).__name__}: {exc}"[:500]
        row["error"] = message if row["error"] is None else f"{row['error']}; {message}"
    finally:
        timings.add(name, started)


def _base_row(raw: RawRecord) -> Row:
    row = empty_row()
    row.update({
        "id": raw.record_id or _synthetic_id(raw),
        "warc_record_id": raw.record_id,
        "url": raw.url,
        "host": host_of(raw.url),
        "source_file": raw.source_file,
        "source_offset": raw.source_offset,
        "warc_date": raw.warc_date,
        "http_status": raw.http_status,
        "record_type": raw.record_type,
        "error": raw.error or raw.content_encoding_error,
    })
    return row


def _synthetic_id(raw: RawRecord) -> str:
    return synthetic_id(raw.source_file, raw.source_offset, raw.record_type)


def _values(row: Row) -> dict[str, Any]:
    return {**row, **row["signals"]}


def _fires(row: Row, params: Params, groups: tuple[str, ...]) -> bool:
    return bool(decisions.decide(decisions.rules_for("extract", groups), _values(row), params))


def _finish(row: Row, params: Params) -> Row:
    """Apply the extract-stage rules; a gated page keeps only its pre-extraction reasons."""
    check_signal_names(row["signals"])
    rules = decisions.applicable(decisions.rules_for("extract"), bool(row["signals"].get("extraction_gated")))
    fired = decisions.decide(rules, _values(row), params)
    row["reasons"] = decisions.in_pipeline_order([*row["reasons"], *fired])
    return row


def _file_size(path: str) -> int:
    try:
        return input_size(path)
    except OSError:
        return 0
