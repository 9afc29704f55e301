"""The steps of the extract stage for one record, declared in the order they run (`STEPS`).

`record_to_row` (`pipeline/stages/extract.py`) runs them in turn over one `Record`: each step
reads what the steps before it left (the row, the decoded payload, the parsed page, the
metadata, the extraction) and adds its signals. Every step is timed under its name
(stats.json `timings`, "extract.NAME") and isolated: an exception inside it becomes the reason
`error.NAME` and the record goes on, or, for a step the later ones
cannot do without (`required`), the row is finished there. A step returns True when the row is
complete (a damaged region, a rule that already rejects the record, a page the gate turns away).

The gate is a step: the steps before it describe the page from its URL and HTML and are cheap;
the steps after it extract the main text and measure it, and run only on pages the gate lets
through (or on every page with `--extract-all`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from filters.core.vocabulary import HTMLDATE_SOURCE
from filters.corpus.dedup import content_hash, simhash64, to_int64
from filters.corpus.minhash import sketch
from filters.extract.cascade import CascadeResult, run_cascade
from filters.extract.cleanup import remove_cookie_overlays
from filters.metadata.ages import age_days, read_age, shown_age
from filters.metadata.dates import infer_date, parse_date_line
from filters.metadata.fields import Metadata, extract_metadata, has_author, has_published_date, reading_time_minutes
from filters.page.article_score import article_score
from filters.page.content_type import is_html_media_type, resolve_media_type
from filters.page.page_signals import classify, needs_js
from filters.page.page_structure import structure_signals
from filters.page.product import product_signals
from filters.page.url_rules import normalize_url, url_signals
from filters.page_model.decision import page_article_probability
from filters.parse.html import host_of, parse_html_bytes, url_hint
from filters.parse.parsed import Page
from filters.rules import reasons
from filters.rules.signals import check_signal_names
from filters.segment.segments import Segment, page_segments
from filters.text.blocks import block_signals
from filters.text.measure import text_signals
from filters.text.quality import quality_signals
from filters.text.tokens import shingle_words, word_count
from pipeline.io.decode import Decoded, decode_html
from pipeline.io.records import RawRecord, synthetic_id
from pipeline.params import Params
from pipeline.run.budget import check_budget
from pipeline.run.timings import Timings
from pipeline.store.schema import Row, empty_row
from pipeline.store.storage import input_url


@dataclass
class Record:
    """One record on its way to a row: what the steps have found so far."""

    raw: RawRecord
    params: Params
    timings: Timings
    extract_all: bool
    row: Row
    decoded: Decoded | None = None
    page: Page | None = None
    metadata: Metadata | None = None
    extraction: CascadeResult | None = None
    date_inferred: bool = False  # htmldate was asked (`step_inferred_date`)

    @property
    def signals(self) -> dict[str, Any]:
        return self.row["signals"]


@dataclass(frozen=True)
class Step:
    """One step: `run(record)` adds to the record and returns True when the row is complete. Its
    name, under which it is timed and its exceptions become `error.NAME`, is its function's:
    `step_article_score` is the step `article_score`."""

    run: Callable[[Record], bool | None]
    # Later steps cannot go on without this one: an exception in it finishes the row.
    required: bool = False
    # Runs only when this holds (default: always).
    when: Callable[[Record], bool] | None = None
    # Runs even after an earlier step completed the row (a page the gate turned away is still
    # segmented: its posts are judged on their own). Such a step adds data beside the page: an
    # exception in it is written in the row's `error`, never a reason (`run_steps`).
    after_complete: bool = False

    @property
    def name(self) -> str:
        return self.run.__name__.removeprefix("step_")


def run_steps(record: Record, steps: tuple[Step, ...]) -> None:
    """Run `steps` in order until one completes the row; after that only the `after_complete` ones."""
    complete = False
    for step in steps:
        check_budget()  # a timeout lost inside the step before (in a finalizer) ends the record here
        if (complete and not step.after_complete) or (step.when is not None and not step.when(record)):
            continue
        started = time.perf_counter()
        try:
            complete = bool(step.run(record)) or complete
        except Exception as exc:  # one bad page or one filter bug must not stop the file
            if step.after_complete:
                # A step that adds data beside the page (its segments) must not change the page's
                # fate: its failure is written in `error` and counted, not made a reason.
                add_error(record.row, f"error.{step.name}", exc, reason=False)
            else:
                add_error(record.row, f"error.{step.name}", exc)
                complete = step.required or complete
        finally:
            record.timings.add(step.name, started)


def add_error(row: Row, code: str, exc: Exception, reason: bool = True) -> None:
    """`code` and the exception in the row's `error`; with `reason`, `code` among its reasons too."""
    if reason:
        row["reasons"].append(code)
    message = f"{code}: {type(exc).__name__}: {exc}"[:500]
    row["error"] = message if row["error"] is None else f"{row['error']}; {message}"


# ---- the steps, in the order of STEPS ------------------------------------------------------------

def step_input(record: Record) -> bool:
    """A damaged region or an unreadable file is its own row, with nothing else to measure."""
    raw = record.raw
    if raw.record_type == "corrupt":
        record.signals.update(input_corrupt=True, corrupt_region_bytes=raw.corrupt_region_bytes)
        return True
    if raw.record_type == "unreadable":
        record.signals["input_unreadable"] = True
        return True
    return False


def step_record(record: Record) -> bool:
    """Media type, payload sizes and URL signals; the record rules that need no decoding."""
    raw, row = record.raw, record.row
    declared = raw.warc_content_type if raw.record_type == "resource" else raw.http_content_type
    if raw.record_type == "file":
        declared = "text/html"
    row["content_type"] = resolve_media_type(declared, raw.identified_payload_type, raw.payload)
    record.signals.update(is_html=is_html_media_type(row["content_type"]), payload_bytes=raw.payload_bytes,
                          payload_declared_bytes=raw.payload_declared_bytes, warc_truncated=raw.warc_truncated)
    add_url_signals(row, record.params)
    if raw.payload is None:
        # Not kept because it is over a size cap: the params' (the rule fires too) or the reader's
        # own hard cap when extract.read.max_payload_bytes is null (the rule is off; the reason is not).
        row["reasons"].append("record.too_large")
        return True
    return fires(row, record.params, ("record",))


def step_decode(record: Record) -> bool:
    decoded = decode_html(record.raw.payload, record.raw.http_content_type)  # type: ignore[arg-type]  # step_record
    record.decoded = decoded
    record.row.update({"encoding": decoded.encoding, "encoding_source": decoded.source})
    record.signals.update(undecodable_char_fraction=round(decoded.undecodable_char_fraction, 6),
                          html_bytes=len(decoded.data))
    return fires(record.row, record.params, ("record",))


def step_parse(record: Record) -> bool:
    row, decoded = record.row, record.decoded
    assert decoded is not None
    tree = parse_html_bytes(decoded.data, decoded.encoding)
    if tree is None:
        row["word_count"] = 0
        return True
    if record.raw.record_type == "file":
        row["url"] = url_hint(tree) or input_url(record.raw.source_file)
        row["host"] = host_of(row["url"])
        add_url_signals(row, record.params)
    record.page = Page(tree, row["url"])
    return False


def step_metadata(record: Record) -> None:
    assert record.page is not None
    # htmldate's inferred date waits for the gate (`step_inferred_date`): nothing before it reads one
    record.metadata = extract_metadata(record.page, record.raw.warc_date, infer_dates=False)
    add_metadata(record.row, record.metadata)
    record.signals.update(published_source=record.metadata.sources.get("published"),
                          author_source=record.metadata.sources.get("author"))


def step_article_score(record: Record) -> None:
    page = record.page
    assert page is not None
    points, score_signals = article_score(page, has_author(page, record.metadata),
                                          has_published_date(page, record.metadata))
    record.row["article_score"] = points
    record.signals.update(score_signals)


def step_page_classes(record: Record) -> None:
    assert record.page is not None
    record.signals.update(classify(record.page))
    record.signals.update(needs_js(record.page))


def step_product(record: Record) -> None:
    assert record.page is not None
    record.signals.update(product_signals(record.page))


def step_structure(record: Record) -> None:
    assert record.page is not None
    record.signals.update(structure_signals(record.page))


def step_page_model(record: Record) -> None:
    gate = record.params.extract.gate
    record.signals["page_article_probability"] = page_article_probability(record.row, gate.model)


def step_inferred_date(record: Record) -> None:
    """htmldate's date of a page that declares none (`extract.metadata.infer_dates`), else the age
    its publication line shows (`extract.metadata.read_ages`: `shown_age`), only for a row whose
    date can be written: one that is extracted, or one the gate turned away whose segments take
    their era from it. The gate and the page-type model never read an inferred date
    (`has_published`, `has_published_date` count declared ones), so asking after the gate changes
    no page's fate. A row the gate turned away without segments skips it: `published_source`
    `not_inferred`."""
    assert record.page is not None
    record.date_inferred = True
    gated = record.signals.get("extraction_gated") and not record.extract_all
    if gated and not record.row.get("segments"):
        record.signals["published_source"] = NOT_INFERRED
        return
    settings = record.params.extract.metadata
    found = infer_date(record.page.tree, record.page.url, record.raw.warc_date) if settings.infer_dates else None
    if found is not None:
        record.row["published"] = found
        record.signals["published_source"] = HTMLDATE_SOURCE
    elif settings.read_ages:
        age = shown_age(record.page.tree, record.raw.warc_date, record.row["language"])
        record.signals["age_min_days"], record.signals["age_max_days"] = age_days(age, record.raw.warc_date)


# `published_source` of a row that declares no date and that htmldate was not asked about (the gate
# turned it away and it has no segments: its date is written nowhere that a label reads).
NOT_INFERRED = "not_inferred"


def _date_to_infer(record: Record) -> bool:
    settings = record.params.extract.metadata
    return ((settings.infer_dates or settings.read_ages) and not record.date_inferred and record.page is not None
            and record.row["published"] is None)


def step_gate(record: Record) -> bool:
    gated = extraction_gated(record.row, record.params)
    record.signals["extraction_gated"] = gated
    return gated and not record.extract_all


def step_extract(record: Record) -> None:
    assert record.page is not None
    signals, timings = record.signals, record.timings
    signals["cookie_overlays_removed_count"] = remove_cookie_overlays(record.page.tree)
    cascade = record.params.extract.cascade
    result = run_cascade(record.page, cascade.selection, cascade.precision_link_code_fraction,
                         on_time=timings.add_seconds, agreement_min_short_blocks=cascade.agreement_min_short_blocks,
                         agreement_min_short_block_chars=cascade.agreement_min_short_block_chars)
    record.extraction = result
    record.row.update({"text": result.text, "extractor": result.extractor, "word_count": result.word_count})
    signals.update(result.trace)
    if result.text:
        signals.update(block_signals(result.body_blocks))
        signals["reading_time_minutes"] = reading_time_minutes(result.word_count)
    add_page_text_signals(signals, result.word_count)


def step_text_filters(record: Record) -> None:
    row, decoded, result = record.row, record.decoded, record.extraction
    assert decoded is not None and result is not None and row["text"]
    record.signals.update(text_signals(row["text"], record.params.extract.c4.run_together))
    # Metadata completeness counts a date the page declares, not one htmldate inferred.
    declared = row["published"] if record.signals.get("published_source") != HTMLDATE_SOURCE else None
    record.signals.update(quality_signals(result.blocks, len(decoded.data), row["title"], row["author"], declared))


def step_dedup_keys(record: Record) -> None:
    """The keys select's de-duplication compares: the content hash, the simhash and the MinHash
    signature (with its shingle count) of the written text."""
    text = record.row["text"]
    assert text
    record.signals.update(dedup_keys(text, record.params))


def dedup_keys(text: str, params: Params) -> dict[str, Any]:
    """content_hash, simhash64 when `extract.simhash` (the near method's, else null), and the MinHash
    signature with its shingle count when on."""
    words_of_text = shingle_words(text)  # one tokenisation for both sketches
    some_word = bool(text) and not text.isspace()  # `text.split()` without the list
    keys: dict[str, Any] = {"content_hash": content_hash(text),
                            "simhash64": to_int64(simhash64(text, words_of_text=words_of_text))
                            if params.extract.simhash and some_word else None}
    settings = params.extract.minhash
    if settings.permutations is not None:
        signature, shingles = sketch(text, settings.permutations, settings.shingle_words, words_of_text)
        keys.update(minhash=signature, minhash_shingles=shingles if signature is not None else None)
    return keys


def step_segments(record: Record) -> None:
    """The page's segments (`filters.segment`) with the text signals and de-duplication keys of
    each, in its row's `segments`: from the region of the extracted text, or from the whole page
    when it was not extracted (the gate turned it away)."""
    settings, page = record.params.segment, record.page
    assert settings is not None and page is not None
    # A page the gate turned away keeps its consent overlays: removing them costs about 4 ms a page
    # (median over wcxb-dev) and changes no forum page's posts (docs/segments.md).
    body = page.tree.find("body")
    if body is None:
        return
    found = page_segments(body, record.row["text"], page.json_ld)  # kept or dropped by the page's type in select
    found = found[:settings.max_per_page]
    budget = [SEGMENT_DATE_PARSES]
    record.row["segments"] = [segment_row(index, segment, record, budget) for index, segment in enumerate(found)]


# dateparser readings of segments' date lines a page may spend ("May 25, 2018"; about 1 to 20 ms each):
# the standard forms (ISO 8601, numeric dates) cost nothing and are always read.
SEGMENT_DATE_PARSES = 20


def segment_row(index: int, segment: Segment, record: Record, budget: list[int]) -> dict[str, Any]:
    """One segment as its page's row stores it (`pipeline.store.schema.SEGMENT`); reading its date
    line spends `budget` (`parse_date_line`)."""
    signals = text_signals(segment.text, record.params.extract.c4.run_together)
    signals.update(dedup_keys(segment.text, record.params))
    signals["review_rating"] = segment.rating
    signals["body_part"] = segment.body_part
    signals["unsigned_part"] = segment.unsigned_part
    signals["left_out_words"] = segment.left_out_words
    published = None
    for shown in (segment.date_title, segment.published):
        if published is None and shown:
            published = parse_date_line(shown, record.raw.warc_date, budget, signals.get("text_language"))
    if published is None and record.params.extract.metadata.read_ages:
        age = read_age(segment.published, record.raw.warc_date, signals.get("text_language"))
        signals["age_min_days"], signals["age_max_days"] = age_days(age, record.raw.warc_date)
    return {"segment_index": index, "segment_kind": segment.kind, "author": segment.author, "published": published,
            "language": signals.get("text_language"), "text": segment.text, "word_count": word_count(segment.text),
            "quoted_words": segment.quoted_words, "segment_source": segment.source, "signals": signals}


def _has_text(record: Record) -> bool:
    return bool(record.row["text"])


STEPS: tuple[Step, ...] = (
    Step(step_input, required=True),
    Step(step_record, required=True),
    Step(step_decode, required=True),
    Step(step_parse, required=True),
    Step(step_metadata),
    Step(step_article_score),
    Step(step_page_classes),
    # Product and structure signals describe the page before extraction: the page-type model
    # reads them, so they are known before the gate decides.
    Step(step_product),
    Step(step_structure),
    Step(step_page_model, when=lambda r: r.params.extract.gate.use_page_model),
    Step(step_gate, required=True),
    Step(step_inferred_date, when=_date_to_infer),  # an extracted row: before extraction changes the tree
    Step(step_extract),
    Step(step_text_filters, when=_has_text),
    Step(step_dedup_keys, when=_has_text),
    Step(step_segments, when=lambda r: r.params.segment is not None and r.page is not None, after_complete=True),
    Step(step_inferred_date, when=_date_to_infer, after_complete=True),  # a gated row: its segments decide
)


# ---- what the steps share ------------------------------------------------------------------------

def extraction_gated(row: Row, params: Params) -> bool:
    """Whether the page is left unextracted: a rule of a pre-extraction group fires on the signals
    computed so far (record, URL, the article score where its rule is on, and the pre-extraction
    page-type model: `article.page_model`, the model's article probability under its gate threshold).

    Extraction (trafilatura and readability) is most of a page's time, so this is where clear
    non-articles are turned away, each with its reason code. With `--extract-all` gated pages are
    extracted too, and their reasons stay these (`reasons.decide`).
    """
    return fires(row, params, reasons.PRE_EXTRACTION_GROUPS)


def add_url_signals(row: Row, params: Params) -> None:
    url = row["url"]
    row["normalized_url"] = normalize_url(url) if url else None
    row["signals"].update(url_signals(url, params.extract.url.exclude_regex))


def add_metadata(row: Row, meta: Metadata) -> None:
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


def add_page_text_signals(signals: dict[str, Any], words: int) -> None:
    """The extracted word count, but only for pages classified as shells or walls.

    These are the signals of the page.* rules: a JS shell, cookie wall or paywall is rejected
    only when the extraction also found too little text (the classification alone is not a
    verdict: many walled pages still carry their full article in the HTML).
    """
    shell = bool(signals.get("page_is_js_spa") or signals.get("needs_js"))
    signals["js_shell_extracted_words"] = words if shell else None
    signals["cookie_wall_extracted_words"] = words if signals.get("page_is_cookie_walled") else None
    signals["paywall_extracted_words"] = words if signals.get("page_is_paywalled") else None


def base_row(raw: RawRecord) -> Row:
    row = empty_row()
    row.update({
        "id": raw.record_id or synthetic_id(raw.source_file, raw.source_offset, raw.record_type),
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


def finish(row: Row, params: Params) -> Row:
    """Apply the extract-stage rules; a gated page keeps only its pre-extraction reasons."""
    check_signal_names(row["signals"])
    fired = reasons.decide(reasons.rules_for("extract"), reasons.values_of(row), params,
                           bool(row["signals"].get("extraction_gated")))
    row["reasons"] = reasons.in_pipeline_order([*row["reasons"], *fired])
    return row


def fires(row: Row, params: Params, groups: tuple[str, ...]) -> bool:
    return bool(reasons.decide(reasons.rules_for("extract", groups), reasons.values_of(row), params))
