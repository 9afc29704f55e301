"""`pipeline train LABELS... --out MODEL`: fit the page-type model on labelled pages.

A LABELS argument is either
* a JSON label file: an object mapping each page's URL (the WARC-Target-URI) to its page type,
  given as a string (`"https://example.org/a": "article"`) or as an object with a `page_type`
  field (the WCXB labels format). The WARC it labels lies beside it: `NAME.labels.json` (or
  `NAME.json`) labels `NAME.warc.gz` (or `NAME.warc`);
* `WARC=TYPE`: every HTML page of that WARC has that type (a crawl of shop pages, say).
Types are those of `filters.page.page_type.PAGE_TYPES`. Pages the labels name but the WARC lacks, and
HTML pages of the WARC without a label, are counted and left out.

The labelled WARCs are extracted with every page extracted (`--extract-all`), and select runs
with the model's rule off, so each page has every signal and the reasons of the other rules.
The model is then measured by 5-fold cross-validation grouped by registered domain (the pages of
one site are never on both sides), its thresholds are chosen on the out-of-fold probabilities,
and it is fitted again on all pages. Same inputs and params give a byte-identical model file.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from filters.page.domains import registered_domain
from filters.page.page_type import FULL_FEATURES, PAGE_FEATURES, PAGE_TYPES, page_features
from filters.text.tokens import token_count
from pipeline.page_model import model_document
from pipeline.stages.train_card import model_card
from pipeline.stages.train_measures import (
    LONG_ARTICLE_TOKENS,
    best_threshold,
    confusion,
    gate_trade,
    keep_rates,
    recall_threshold,
    select_measures,
)
from pipeline.text_model import TEXT_FEATURE, Stacked, stacked

FOLDS = 5
ARTICLE = PAGE_TYPES.index("article")
# LightGBM on a few thousand pages: one thread and `deterministic` make the trees the same on
# every machine and run.
BOOSTER_PARAMS: dict[str, Any] = {
    "objective": "multiclass", "num_class": len(PAGE_TYPES), "learning_rate": 0.1, "num_leaves": 15,
    "min_data_in_leaf": 10, "feature_fraction": 0.8, "lambda_l2": 1.0, "deterministic": True,
    "num_threads": 1, "seed": 7, "verbose": -1, "force_col_wise": True,
}
# 150 rounds at 0.1 measured as 300 at 0.05 in cross-validation, in half the file (1.9 MB a model).
ROUNDS = 150
# The pre-extraction model only saves time: its threshold keeps this share of the training
# articles in cross-validation.
PAGE_ARTICLE_RECALL = 0.99
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


# Reasons the keep rates look through: the article-score gate's (`article.*`), which the pre-extraction
# model replaces, and de-duplication's (`dup.*`): a labelled page that repeats another labelled page (the
# same record in two files, a copy under another URL) is in the dataset once, as the copy kept, and
# counting the dropped copy as a page lost would count one page twice.
LOOKED_THROUGH_REASONS = ("article.", "dup.")


def kept_by_other_rules(rows: Sequence[dict[str, Any]]) -> np.ndarray:
    """Whether each row has no reason but those of `LOOKED_THROUGH_REASONS`: what every other rule keeps."""
    return np.array([not [code for code in row["reasons"] if not code.startswith(LOOKED_THROUGH_REASONS)]
                     for row in rows], dtype=bool)


def without_model(params: Any) -> Any:
    """`params` with the page-type model's own rules off (`article.page_model` before extraction,
    `page.not_article` in select): training must not be decided by the model it replaces."""
    from dataclasses import replace

    gate = replace(params.extract.gate, min_page_article_probability=None)
    page = replace(params.select.page, min_article_probability=None)
    return replace(params, extract=replace(params.extract, gate=gate), select=replace(params.select, page=page))


def fold_of(host: str | None) -> int:
    """The cross-validation fold of a page: by its registered domain, so one site is one fold."""
    site = registered_domain(host or "") or host or ""
    return int(hashlib.sha256(site.encode("utf-8")).hexdigest()[:8], 16) % FOLDS


def fit(matrix: np.ndarray, labels: np.ndarray) -> Any:
    import lightgbm

    return lightgbm.train(BOOSTER_PARAMS, lightgbm.Dataset(matrix, labels), num_boost_round=ROUNDS)


def out_of_fold(matrix: np.ndarray, labels: np.ndarray, folds: np.ndarray, text: Stacked | None = None) -> np.ndarray:
    """Each page's class probabilities from the model fitted without its fold; with `text`, the text
    model's article probability is the last column, on both sides from text models that never saw
    the held-out fold (`pipeline.text_model.stacked`)."""
    probabilities = np.zeros((len(labels), len(PAGE_TYPES)))
    for fold in range(FOLDS):
        held_out = folds == fold
        if held_out.all() or not held_out.any():
            continue
        training, testing = matrix[~held_out], matrix[held_out]
        if text is not None:
            # a fold the text model could not be fitted without (`fits_without`): its feature is missing
            inner, held = text.per_fold.get(fold, (np.full(len(training), np.nan), np.full(len(testing), np.nan)))
            training, testing = np.column_stack([training, inner]), np.column_stack([testing, held])
        booster = fit(training, labels[~held_out])
        probabilities[held_out] = booster.predict(testing, num_threads=1)
    return probabilities


def train_model(rows: Sequence[dict[str, Any]], labels: Sequence[str], other_rules_keep: np.ndarray,
                describe: dict[str, Any], progress: Callable[[str], None] = lambda _: None,
                long_text: np.ndarray | None = None) -> tuple[str, dict]:
    """(model file text, training summary) from labelled rows in a fixed order."""
    y = np.array([PAGE_TYPES.index(label) for label in labels])
    folds = np.array([fold_of(row.get("host")) for row in rows])
    is_article = y == ARTICLE
    parts: dict[str, dict[str, Any]] = {}
    summary: dict[str, Any] = {**describe, "pages": dict(sorted(Counter(labels).items())), "folds": FOLDS,
                               "rounds": ROUNDS, "booster_params": BOOSTER_PARAMS,
                               "page_article_recall": PAGE_ARTICLE_RECALL, "long_article_tokens": LONG_ARTICLE_TOKENS}
    without_gate = other_rules_keep
    out_of_fold_article: dict[str, np.ndarray] = {}
    for name, features in (("page", PAGE_FEATURES), ("full", FULL_FEATURES)):
        progress(f"{name} model: cross-validation")
        matrix = np.array([page_features(row, features) for row in rows], dtype=np.float64)
        text = None
        if name == "full":
            progress("text model: cross-validation")
            text = stacked(rows, y, folds, ARTICLE, len(PAGE_TYPES))
        oof = out_of_fold(matrix, y, folds, text)
        out_of_fold_article[name] = oof[:, ARTICLE]
        if name == "page":
            threshold = recall_threshold(oof[:, ARTICLE], is_article, PAGE_ARTICLE_RECALL)
            rates = keep_rates(oof[:, ARTICLE], labels, threshold)
            # the pipeline: what the pre-extraction model turns away never reaches select
            other_rules_keep = other_rules_keep & (oof[:, ARTICLE] >= threshold)
        else:
            threshold = best_threshold(oof[:, ARTICLE], labels, other_rules_keep)
            rates = keep_rates(oof[:, ARTICLE], labels, threshold, other_rules_keep)
            summary.update(select_measures(rows, oof[:, ARTICLE], labels, threshold, other_rules_keep, long_text))
        summary[f"{name}_threshold"] = threshold
        summary[f"{name}_keep_rates"] = rates
        summary[f"{name}_confusion"] = confusion(oof, labels)
        summary[f"{name}_accuracy"] = round(float((oof.argmax(axis=1) == y).mean()), 4)
        progress(f"{name} model: fitting on all {len(y)} pages")
        if text is not None:  # the final trees read each page's text feature out of fold
            matrix, features = np.column_stack([matrix, text.feature]), (*features, TEXT_FEATURE)
        booster = fit(matrix, y)
        parts[name] = {"features": list(features), "booster": booster.model_to_string(),
                       "min_article_probability": threshold}
        if text is not None:
            parts[name]["text"] = text.model.to_document()
    summary["gate_trade"] = gate_trade(out_of_fold_article["page"], out_of_fold_article["full"], labels, without_gate,
                                       parts["full"]["min_article_probability"])
    return model_document(parts["page"], parts["full"], summary), summary


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
