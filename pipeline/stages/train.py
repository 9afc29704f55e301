"""`pipeline train LABELS... --out MODEL`: fit the page-type model on labelled pages.

A LABELS argument is a JSON label file (an object mapping each page's URL to its page type, as a
string or as an object with a `page_type` field, the WCXB format; `NAME.labels.json` or
`NAME.json` labels the WARC beside it, `NAME.warc.gz` or `NAME.warc`), or `WARC=TYPE` (every HTML
page of that WARC has that type). Types are `filters.page_model.features.PAGE_TYPES`; labelled
pages the WARC lacks and unlabelled HTML pages are counted and left out.

This module reads the labels and extracts every page of the labelled WARCs (`--extract-all`), then
selects with the model's rules off, so each page has every signal and the other rules' reasons;
`filters.page_model.training` fits and measures the model. Same inputs and params give a
byte-identical model file.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from filters.page_model.card import model_card
from filters.page_model.features import PAGE_TYPES
from filters.page_model.measures import LONG_ARTICLE_TOKENS
from filters.page_model.training import kept_by_other_rules, train_model
from filters.text.tokens import token_count

LABEL_SUFFIXES = (".labels.json", ".json")
WARC_SUFFIXES = (".warc.gz", ".warc")
ATTRIBUTION = (
    "WCXB, the Web Content Extraction Benchmark, by Murrough Foley (CC-BY-4.0, "
    "https://creativecommons.org/licenses/by/4.0/); trafilatura's evaluation pages by Adrien Barbaresi and the "
    "trafilatura contributors (Apache-2.0), with page-type labels made for corpus-filter; "
    "scrapinghub/product-extraction-benchmark (MIT)"
)


class LabelError(ValueError):
    """A label file or LABELS argument that cannot be used (one line for the user)."""


@dataclass(frozen=True)
class LabelSource:
    warc: Path
    labels: dict[str, str] | None  # URL -> type; None: every HTML page has `fixed_type`
    fixed_type: str | None = None
    # URL -> tokens of the page's own text, where the labels give it (WCXB's `main_content`)
    reference_tokens: dict[str, int] | None = None


def label_sources(arguments: Sequence[str]) -> list[LabelSource]:
    """The WARCs and labels that LABELS arguments name (see the module docstring)."""
    return [_source(argument) for argument in arguments]


def _source(argument: str) -> LabelSource:
    if "=" in argument and not argument.endswith(".json"):
        path, page_type = argument.rsplit("=", 1)
        _check_type(page_type, argument)
        warc = Path(path)
        if not warc.is_file():
            raise LabelError(f"{argument}: no such WARC: {path}")
        return LabelSource(warc, None, page_type)
    label_file = Path(argument)
    if not label_file.is_file():
        raise LabelError(f"label file not found: {argument}")
    return LabelSource(_warc_beside(label_file), read_labels(label_file), reference_tokens=reference_tokens(label_file))


def _warc_beside(label_file: Path) -> Path:
    name = label_file.name
    stem = next((name[: -len(suffix)] for suffix in LABEL_SUFFIXES if name.endswith(suffix)), name)
    for suffix in WARC_SUFFIXES:
        candidate = label_file.with_name(stem + suffix)
        if candidate.is_file():
            return candidate
    raise LabelError(f"{label_file}: no WARC beside it ({stem}.warc.gz or {stem}.warc)")


def read_labels(path: Path) -> dict[str, str]:
    """URL -> page type from a JSON label file; a clear error for anything else."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LabelError(f"{path}: not a JSON label file ({exc})") from None
    if not isinstance(data, dict) or not data:
        raise LabelError(f"{path}: expected a JSON object mapping URLs to page types")
    labels: dict[str, str] = {}
    for url, value in data.items():
        page_type = value.get("page_type") if isinstance(value, dict) else value
        _check_type(page_type, f"{path}: {url}")
        labels[url] = str(page_type)
    return labels


def reference_tokens(path: Path) -> dict[str, int]:
    """URL -> tokens (`filters.text.tokens.token_count`) of the reference main text, for the label
    objects that carry one as `main_content` (the WCXB labels format); read after `read_labels`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {url: token_count(value["main_content"]) for url, value in data.items()
            if isinstance(value, dict) and isinstance(value.get("main_content"), str)}


def own_text_tokens(row: dict[str, Any], sources: Sequence[LabelSource]) -> int:
    """Tokens of a labelled page's own text: the reference's where the labels give one, else the
    longest of the extraction candidates (trafilatura, readability, JSON-LD, the text kept)."""
    for source in sources:
        if source.reference_tokens and row["url"] in source.reference_tokens \
                and Path(row["source_file"]).resolve() == source.warc.resolve():
            return source.reference_tokens[row["url"]]
    signals = row.get("signals") or {}
    return max(signals.get("cascade_trafilatura_words") or 0, signals.get("cascade_readability_words") or 0,
               signals.get("cascade_jsonld_words") or 0, signals.get("token_count") or 0)


def _check_type(page_type: Any, where: str) -> None:
    if page_type not in PAGE_TYPES:
        raise LabelError(f"{where}: page type {page_type!r} is not one of {', '.join(PAGE_TYPES)}")


def labelled_rows(rows: Sequence[dict[str, Any]], sources: Sequence[LabelSource]) -> tuple[list[dict[str, Any]],
                                                                                            list[str], dict[str, int]]:
    """The HTML rows that have a label, their labels, and counts of what was left out."""
    by_warc = {str(source.warc.resolve()): source for source in sources}
    kept, labels = [], []
    left_out: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    for row in rows:
        source = by_warc.get(str(Path(row["source_file"]).resolve()))
        signals = row.get("signals") or {}
        if source is None or not signals.get("is_html") or not signals.get("html_bytes"):
            continue
        page_type = source.fixed_type if source.labels is None else source.labels.get(row["url"])
        if page_type is None:
            left_out["html pages without a label"] += 1
            continue
        if (str(source.warc), row["url"]) in seen:
            left_out["repeated records of a labelled URL"] += 1
            continue
        seen.add((str(source.warc), row["url"]))
        kept.append(row)
        labels.append(page_type)
    for source in sources:
        if source.labels is not None:
            found = {url for warc, url in seen if warc == str(source.warc)}
            left_out["labelled URLs not in the WARC"] += len(set(source.labels) - found)
    return kept, labels, dict(left_out)


def without_model(params: Any) -> Any:
    """`params` with the page-type model's own rules off (`article.page_model` before extraction,
    `page.not_article` in select): training must not be decided by the model it replaces."""
    from dataclasses import replace

    gate = replace(params.extract.gate, use_page_model=False)
    page = replace(params.select.page, use_page_model=False)
    return replace(params, extract=replace(params.extract, gate=gate), select=replace(params.select, page=page))


def scratch_directory() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="pipeline-train-")


def read_rows(directory: Path) -> list[dict[str, Any]]:
    """The rows select wrote (accepted and rejected), in a fixed order."""
    files = sorted(directory.glob("accepted/*.parquet")) + sorted(directory.glob("rejected/*.parquet"))
    if not files:
        return []
    frame = pl.concat([pl.read_parquet(path) for path in files], how="diagonal_relaxed")
    return frame.sort(["source_file", "source_offset", "id"]).to_dicts()


@dataclass(frozen=True)
class Trained:
    pages: int  # labelled pages trained on
    card: Path
    summary: dict[str, Any]


def train_from_labels(labels: Sequence[str], label_names: Sequence[str], out: Path, params: Any, workers: int,
                      preload: Sequence[str] = ()) -> Trained:
    """`pipeline train`: extract every page of the labelled WARCs, select them with the other rules
    (to know what those reject), fit the page-type model, and write it to `out` with its card
    beside it. `label_names` name the inputs on the card. Raises `LabelError` on unusable labels."""
    from pipeline.run.executors import LocalExecutor
    from pipeline.stages.extract import ExtractTask
    from pipeline.stages.extract_tasks import run_extract
    from pipeline.stages.select import select
    from pipeline.store.workdir import prepare_workdir, write_manifest
    from pipeline.version import code_version

    params = without_model(params)
    sources = label_sources(labels)
    out.parent.mkdir(parents=True, exist_ok=True)
    with scratch_directory() as scratch, LocalExecutor(workers, preload=preload) as pool:
        workdir = str(Path(scratch) / "work")
        _say(f"extracting {len(sources)} labelled WARC(s), every page")
        prepare_workdir(workdir)
        inputs = [str(source.warc) for source in sources]
        run_extract(inputs, ExtractTask(path="", workdir=workdir, params=params, extract_all=True), pool)
        write_manifest(workdir, inputs, {}, params, True)
        _say("select with the other rules, to know what they reject")
        selected = Path(scratch) / "selected"
        select(workdir, str(selected), params)
        rows, labelled, left_out = labelled_rows(read_rows(selected), sources)
    if len(set(labelled)) < 2 or labelled.count("article") < 2:
        raise LabelError(f"too few labelled pages to train on: {dict(sorted(Counter(labelled).items()))} "
                         f"(needs articles and at least one other type)")
    other_rules_keep = kept_by_other_rules(rows)
    describe = {"version": code_version(), "inputs": list(label_names), "left_out": left_out,
                "attribution": ATTRIBUTION}
    long_text = np.array([own_text_tokens(row, sources) >= LONG_ARTICLE_TOKENS for row in rows], dtype=bool)
    text, summary = train_model(rows, labelled, other_rules_keep, describe, _say, long_text)
    out.write_text(text, encoding="utf-8")
    card = out.with_name(out.name.removesuffix(".json") + ".card.md")
    card.write_text(model_card(summary, out.name), encoding="utf-8")
    return Trained(len(rows), card, summary)


def _say(message: str) -> None:
    sys.stderr.write(f"pipeline train: {message}\n")
