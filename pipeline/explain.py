"""`pipeline explain`: one record's every signal and reason, as a run over the given inputs decides it.

The tool a user reaches for when a page was rejected and they want to know why. The record is read
from an HTML file, or chosen in WARC/ARC files or directories by its exact URL (and `--offset`
where the URL occurs more than once, each other record named). Explain is a use of the engine:
the inputs are extracted and selected as `pipeline run` does (`judged_by_engine`, into a scratch
directory), so its verdict, reasons, de-duplication and segments are the run's; the rows a
duplicate collides with are named by the keys they share. The details (signals, page-type model
contributions, extraction trace) come from the record's own extraction (`explain_row`), which is
the same computation.
"""

from __future__ import annotations

import json
import tempfile
import textwrap
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

import polars as pl

from filters.corpus.minhash import jaccard
from filters.page_model.decision import columns_of, is_parsed
from filters.page_model.features import LANGUAGE_FEATURES, PAGE_TYPES, page_features
from filters.rules import reasons
from filters.rules.signals import SIGNALS
from filters.text.tokens import UNSPACED_TEXT_FRACTION, unspaced_fraction, words
from pipeline.io.readers import FileReport, NonChunkedGzip, RawRecord, discover_inputs, read_file, read_stream_gzip
from pipeline.params import Params
from pipeline.run.timings import Timings
from pipeline.stages.extract import record_to_row_within_budget
from pipeline.stages.segments import segment_params


class NotFound(Exception):
    """No record matches (a usage error for the CLI)."""


def find_record(inputs: list[str], url: str | None, params: Params, offset: int | None = None) -> RawRecord:
    """The record whose target URI is exactly `url` (at `offset` where several are); without `url`,
    the one record of the inputs (one HTML file, a WARC of one page). Inputs of several records
    without `url`, a URL held by several records without `offset`, and a URL that matches only with
    another trailing slash are refused (`NotFound`), naming the records to choose from."""
    files, _ = discover_inputs(inputs)
    where = ", ".join(inputs)
    max_bytes = params.extract.read.max_payload_bytes
    if url is None:
        found = list(islice((raw for path in files for raw in _records(path, max_bytes)), URLS_LISTED + 1))
        if len(found) == 1:
            return found[0]
        if not found:
            raise NotFound(f"no record in {where}")
        listed = ", ".join(raw.url or f"(no URL, offset {raw.source_offset})" for raw in found[:URLS_LISTED])
        raise NotFound(f"{where} holds several records: name one with --url (the first: {listed})")
    exact, near = [], []
    for path in files:
        for raw in _records(path, max_bytes):
            if raw.url == url:
                exact.append(raw)
            elif (raw.url or "").rstrip("/") == url.rstrip("/"):
                near.append(raw)
    if offset is not None:
        chosen = [raw for raw in exact if raw.source_offset == offset]
        if chosen:
            return chosen[0]
        raise NotFound(f"no record with URL {url} at offset {offset} in {where}"
                       + (f"; it is at {_places(exact)}" if exact else ""))
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        raise NotFound(f"{len(exact)} records have the URL {url}: {_places(exact)}; choose one with --offset")
    if near:
        raise NotFound(f"no record with URL {url} in {where}; records of another trailing slash: "
                       + "; ".join(f"{raw.url} ({_places([raw])})" for raw in near[:URLS_LISTED]))
    raise NotFound(f"no record with URL {url} in {where}")


def _places(records: list[RawRecord]) -> str:
    return ", ".join(f"{raw.source_file} offset {raw.source_offset}" for raw in records[:URLS_LISTED]) + (
        f" and {len(records) - URLS_LISTED} more" if len(records) > URLS_LISTED else "")


URLS_LISTED = 3  # URLs named when --url is missing


def _records(path: str, max_bytes: int | None) -> Iterator[RawRecord]:
    """The records of one input, as the extract stage reads them: a gzip file that is one member
    for many records (a whole-file-gzipped WARC) as a stream."""
    try:
        yield from read_file(path, max_bytes, FileReport(path))
    except NonChunkedGzip:
        yield from read_stream_gzip(path, max_bytes, FileReport(path))


def explain_row(raw: RawRecord, params: Params, extract_all: bool = True) -> tuple[dict[str, Any], Timings]:
    """The row the pipeline would write, with select-stage reasons (no dedup) appended. With
    `extract_all`, a page the gate turned away is extracted for the explanation; its page type is
    still the one select gives the row a run writes (without that extraction)."""
    timings = Timings()
    row: dict[str, Any] = dict(record_to_row_within_budget(raw, params, timings, extract_all))
    as_run = row
    if extract_all and row["signals"].get("extraction_gated"):
        as_run = dict(record_to_row_within_budget(raw, params, Timings(), False))
    _add_page_type(as_run, params.select.page.model, params.select.page.keep_types)
    for name in ("page_type", "article_probability", "kept_type_probability", "page_type_probabilities",
                 "page_type_features", "text_model"):
        row[name] = as_run[name]
    kept_type = row.pop("kept_type_probability")
    if params.select.page.use_page_model and row["page_type"] is not None:
        row["signals"]["kept_type_probability"] = kept_type
    fired = reasons.decide(reasons.rules_for("select"), reasons.values_of(row), params,
                           bool(row["signals"].get("extraction_gated")))
    row["reasons"] = reasons.in_pipeline_order([*row["reasons"], *fired])
    row["kept"] = not row["reasons"]
    row["language_features"] = language_features(row)
    if params.segment is not None:
        judged = segment_params(params)
        for segment in row["segments"] or []:
            segment["reasons"] = reasons.decide(reasons.rules_for("select"), reasons.values_of(segment), judged)
            segment["kept"] = not segment["reasons"]
    return row, timings


def judged_by_engine(inputs: list[str], params: Params, workers: int = 1) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Every page row and segment row a run over `inputs` with `params` writes: extract and select
    into a scratch directory as `pipeline run --workers N` does (no report; the same rows whatever N)."""
    from pipeline.run.executors import LocalExecutor
    from pipeline.stages.extract import ExtractTask
    from pipeline.stages.extract_tasks import run_extract
    from pipeline.stages.select import select
    from pipeline.store.workdir import prepare_workdir, write_manifest

    files, skipped = discover_inputs(inputs)
    with tempfile.TemporaryDirectory(prefix="pipeline-explain-") as scratch, LocalExecutor(workers) as executor:
        work, out = Path(scratch, "work"), Path(scratch, "out")
        prepare_workdir(str(work))
        run_extract(files, ExtractTask(path="", workdir=str(work), params=params), executor)
        write_manifest(str(work), files, skipped, params, False)
        select(str(work), str(out), params, executor=executor)
        pages = pl.read_parquet(sorted([*out.glob("accepted/*.parquet"), *out.glob("rejected/*.parquet")]))
        shards = sorted(out.glob("segments/*/*.parquet"))
        segments = pl.read_parquet(shards) if shards else pl.DataFrame()
    return pages, segments


def with_engine_verdict(row: dict[str, Any], pages: pl.DataFrame, segments: pl.DataFrame) -> dict[str, Any]:
    """`row` (`explain_row`'s) with the run's verdict: its reasons, split and era, the rows each of its
    duplicate reasons collides with (`collisions`), and each segment's verdict as select gave it."""
    place = (pl.col("source_file") == row["source_file"]) & (pl.col("source_offset") == row["source_offset"])
    found = pages.filter(place).to_dicts()
    if not found:  # not written: cannot happen for a record the run read
        raise NotFound(f"the run over the inputs wrote no row for {row['source_file']} offset {row['source_offset']}")
    judged = found[0]
    for name in ("id", "reasons", "kept", "split", "era", "era_date", "era_date_source", "published"):
        row[name] = judged[name]  # (`published`: a row the gate turned away is not dated by htmldate)
    row["signals"] = {**row["signals"], **{key: value for key, value in judged["signals"].items()
                                           if key in (*DUPLICATE_SIGNALS, "published_source")}}
    row["collisions"] = collisions(judged, pages)
    if row.get("segments") and segments.height:
        own = segments.filter(pl.col("page_id") == judged["id"]).select("segment_index", "reasons", "kept")
        verdicts = {segment["segment_index"]: segment for segment in own.to_dicts()}
        for segment in row["segments"]:
            verdict = verdicts.get(segment["segment_index"])
            if verdict is not None:
                segment["reasons"], segment["kept"] = verdict["reasons"], verdict["kept"]
    return row


# What de-duplication writes into a row's signals (filters/corpus/dedup.py), shown with the verdict.
DUPLICATE_SIGNALS = ("cdc_duplicated_fraction", "exact_duplicate", "url_duplicate", "record_duplicate",
                     "near_duplicate", "near_duplicate_containment", "cross_split_train_id")
COLLISIONS_LISTED = 5


def collisions(judged: dict[str, Any], pages: pl.DataFrame) -> dict[str, list[dict[str, Any]]]:
    """For each de-duplication reason of `judged`, the other rows of the run that share its key: the
    normalised or canonical URL (`dup.url`), the content hash (`dup.exact`), the WARC-Record-ID
    (`dup.record`), the most MinHash values (`dup.near`), the host (`dup.cdc`: its chunks were seen on
    the host's earlier pages), the train page (`dataset.cross_split`)."""
    others = pages.filter(pl.col("id") != judged["id"])
    signal = pl.col("signals").struct.field
    keys: dict[str, pl.Expr] = {
        "dup.url": (pl.col("normalized_url") == (judged["normalized_url"] or ""))
        | (pl.col("canonical_url") == (judged["canonical_url"] or "")),
        "dup.exact": signal("content_hash") == (judged["signals"].get("content_hash") or ""),
        "dup.record": pl.col("warc_record_id") == (judged["warc_record_id"] or ""),
        "dup.cdc": (pl.col("host") == (judged["host"] or "")) & pl.col("kept"),
        "dataset.cross_split": pl.col("id") == (judged["signals"].get("cross_split_train_id") or ""),
    }
    found: dict[str, list[dict[str, Any]]] = {}
    for code in judged["reasons"]:
        if code == "dup.near":
            found[code] = _nearest(judged, others)
        elif code in keys:
            found[code] = [_named(row) for row in others.filter(keys[code].fill_null(False))
                           .head(COLLISIONS_LISTED).to_dicts()]
    return found


def _nearest(judged: dict[str, Any], others: pl.DataFrame) -> list[dict[str, Any]]:
    """The rows whose MinHash signatures agree most with `judged`'s (`filters.corpus.minhash.jaccard`:
    the share of equal values, an estimate of the Jaccard similarity of their word 5-grams)."""
    mine = judged["signals"].get("minhash")
    if not mine:
        return []
    scored = []
    for row in others.to_dicts():
        theirs = row["signals"].get("minhash")
        if theirs and len(theirs) == len(mine):
            shared = jaccard(mine, theirs)
            if shared > 0:
                scored.append((shared, row))
    scored.sort(key=lambda item: (-item[0], item[1]["source_file"], item[1]["source_offset"]))
    return [{**_named(row), "minhash_agreement": round(shared, 3)} for shared, row in scored[:COLLISIONS_LISTED]]


def _named(row: dict[str, Any]) -> dict[str, Any]:
    return {"url": row["url"], "source_file": row["source_file"], "source_offset": row["source_offset"],
            "kept": row["kept"]}


def language_features(row: dict[str, Any]) -> dict[str, Any]:
    """What the pipeline reads of the page's language: the declared and the identified language,
    whether the text is written without spaces (then each character is a word, and the rules of
    word length do not apply: docs/filters.md, "Text in every script"), the page-type model's
    features that rest on word lists of several languages, and whether its text model reads the
    text's language (else its feature is missing and the page's shape decides)."""
    signals = row["signals"]
    text_words = words(row.get("text"))
    unspaced = unspaced_fraction(text_words)
    view: dict[str, Any] = {
        "declared_language": row.get("language"),
        "text_language": signals.get("text_language"),
        "text_language_confidence": signals.get("text_language_confidence"),
        "words": len(text_words),
        "unspaced_word_fraction": round(unspaced, 4),
        "written_without_spaces": unspaced >= UNSPACED_TEXT_FRACTION,
    }
    if signals.get("structure_link_count") is not None:  # parsed: the model's features exist
        values = page_features(row, LANGUAGE_FEATURES)
        view["model_features"] = {name: value for name, value in zip(LANGUAGE_FEATURES, values, strict=True)
                                  if value == value}  # NaN (not measured) left out
    if row.get("text_model"):
        view["text_model_languages"] = row["text_model"]["languages"]
        view["text_model_article_probability"] = row["text_model"]["article_probability"]
    return view


def _add_page_type(row: dict[str, Any], model_path: str | None = None, keep_types: tuple[str, ...] = ("article",)) \
        -> None:
    """The page-type model's view of the row, whatever the params: its type, its article and kept-type
    probabilities as select computes them (`type_columns`), the probability of each type, and the
    features that moved the article probability most (tree contributions)."""
    from filters.page_model.model import load_model

    row.update(page_type=None, article_probability=None, kept_type_probability=None, page_type_probabilities=None,
               page_type_features=None, text_model=None)
    if not is_parsed(row["signals"]):
        return
    model = load_model(model_path)
    probabilities = model.full.probabilities([row])[0]
    columns = columns_of(probabilities[None, :], keep_types)
    row["page_type"] = columns.page_type[0]
    row["article_probability"] = float(columns.article_probability[0])
    row["kept_type_probability"] = float(columns.kept_type_probability[0])
    row["page_type_probabilities"] = [round(float(value), 6) for value in probabilities]
    row["page_type_features"] = model.full.contributions(row)
    if model.full.text is not None:  # what the text model read: its article probability, or nothing
        value = float(model.full.text.feature([row], PAGE_TYPES.index("article"), len(PAGE_TYPES))[0])
        row["text_model"] = {"article_probability": round(value, 6) if value == value else None,
                             "languages": list(model.full.text.languages)}


def _print_segments(row: dict[str, Any], line: Any) -> None:
    """Each segment: its kind, author, date, words, verdict with its reasons, and its first words."""
    segments = row.get("segments")
    if segments is None:
        return
    kept = sum(1 for segment in segments if segment.get("kept"))
    line(f"\nsegments:     {len(segments)} ({kept} kept, as select judged them in the run)\n")
    for segment in segments:
        who = " ".join(str(value) for value in (segment["author"], segment["published"]) if value is not None)
        verdict = "KEPT" if segment.get("kept") else "REJECTED " + ", ".join(segment.get("reasons", []))
        line(f"  #{segment['segment_index']} {segment['segment_kind']:8} {segment['word_count']:5} words  "
             f"{verdict}{'  by ' + who if who else ''}\n")
        line(textwrap.indent(textwrap.shorten(segment["text"], 160, placeholder=" …"), "      ") + "\n")


def _values(rule: reasons.Rule, row: dict[str, Any], params: Params | None) -> str:
    """The page's value of the rule's signal, and the threshold it was compared with: `: 120 < 200`."""
    value = reasons.values_of(row).get(rule.signal)
    if rule.op in reasons.FLAG_OPS or value is None:
        return ""
    threshold = rule.threshold(params) if params is not None else None
    shown = f"{value:.4g}" if isinstance(value, float) else str(value)
    return f": {shown}" + (f" against {threshold}" if threshold is not None else "")


def _plain(value: Any) -> Any:
    """A signal's value as printed: binary values (the MinHash signature) in hex."""
    if isinstance(value, bytes):
        return value.hex()
    return value if isinstance(value, (int, float, str, bool)) else str(value)


def print_explanation(row: dict[str, Any], timings: Timings, out: TextIO, as_json: bool = False,
                      params: Params | None = None) -> None:
    if as_json:
        out.write(json.dumps(row, default=_plain, indent=1, sort_keys=True) + "\n")
        return
    line = out.write
    line(f"url:          {row['url']}\n")
    line(f"record:       {row['record_type']} at {row['source_file']}:{row['source_offset']}\n")
    line(f"status/type:  {row['http_status']} {row['content_type']}  encoding {row['encoding']} "
         f"({row['encoding_source']})\n")
    line(f"verdict:      {'KEPT' if row['kept'] else 'REJECTED'}\n")
    for code in row["reasons"]:
        rule = reasons.RULES_BY_CODE.get(code)
        detail = f"{rule.meaning} [{rule.describe()}{_values(rule, row, params)}]" if rule else row.get("error") or ""
        line(f"  - {code}: {detail}\n")
        for other in (row.get("collisions") or {}).get(code, []):
            agreement = f", {other['minhash_agreement']:.0%} of the MinHash" if "minhash_agreement" in other else ""
            line(f"      with {other['url']} ({other['source_file']} offset {other['source_offset']}, "
                 f"{'kept' if other['kept'] else 'rejected'}{agreement})\n")
    line("\nmetadata:\n")
    for key in ("title", "author", "published", "updated", "site_name", "language", "canonical_url",
                "normalized_url", "description", "tags"):
        if row.get(key) is not None:
            line(f"  {key:14} {row[key]}\n")
    line(f"\narticle score: {row['article_score']}\n")
    signals = row["signals"]
    for name in sorted(k for k in signals if k.startswith("article_score_") and signals[k]):
        line(f"  {name.removeprefix('article_score_'):24} {signals[name]:+d}\n")
    if row.get("page_type") is not None:
        shares = ", ".join(f"{name} {value:.3f}" for name, value in zip(PAGE_TYPES, row["page_type_probabilities"],
                                                                        strict=True))
        line(f"\npage type:    {row['page_type']} (article probability {row['article_probability']:.3f}; {shares})\n")
        line("  moved most (article log-odds):\n")
        for name, effect in row["page_type_features"]:
            line(f"    {name:36} {effect:+.3f}\n")
    view = row.get("language_features") or {}
    if view:
        script = "written without spaces: each character is a word" if view["written_without_spaces"] else "spaced"
        line(f"\nlanguage:     text {view['text_language']} ({_plain(view['text_language_confidence'])}), "
             f"declared {view['declared_language']}; {view['words']} words, {script} "
             f"({view['unspaced_word_fraction']:.0%} in scripts without spaces)\n")
        for name, value in (view.get("model_features") or {}).items():
            if value:
                line(f"  {name:36} {value:g}\n")
        if "text_model_languages" in view:
            read = ", ".join(view["text_model_languages"])
            probability = view["text_model_article_probability"]
            line(f"  text model (reads {read}): " + (f"article {probability:.3f}\n" if probability is not None
                                                    else "not this language: the page's shape decides\n"))
    line(f"\nextraction:   {row['extractor']} ({row['word_count']} words)\n")
    if signals.get("cascade_reason"):
        line(f"  why:        {signals['cascade_reason']}\n")
    if signals.get("cascade_errors"):
        line(f"  errors:     {signals['cascade_errors']}\n")
    line("\nsignals:\n")
    for signal in SIGNALS:
        value = signals.get(signal.name)
        if value is not None and not signal.name.startswith("article_score_"):
            line(f"  {signal.name:40} {_plain(value)}\n")
    _print_segments(row, line)
    if row.get("error"):
        line(f"\nerror: {row['error']}\n")
    line("\ntimings (ms): " + ", ".join(f"{k} {v * 1000:.1f}" for k, v in sorted(timings.seconds.items())) + "\n")
    if row.get("text"):
        preview = row["text"][:1200]
        line("\ntext:\n" + textwrap.indent(preview, "  ") + ("\n  …\n" if len(row["text"]) > 1200 else "\n"))
