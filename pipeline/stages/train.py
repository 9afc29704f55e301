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
import math
import re
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
# The card's gate trade table (docs/benchmarks.md, "The gate"): what other recalls would extract and keep.
GATE_TRADE_RECALLS = (0.95, 0.97, 0.98, 0.985, 0.99, 0.995, 1.0)
# The card's keep rates per language: the language of the extracted text (else the page's declared one).
LANGUAGE_GROUPS = ("en", "de", "other")
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
            inner, held = text.per_fold.get(fold, (np.zeros(len(training)), np.zeros(len(testing))))
            training, testing = np.column_stack([training, inner]), np.column_stack([testing, held])
        booster = fit(training, labels[~held_out])
        probabilities[held_out] = booster.predict(testing, num_threads=1)
    return probabilities


def recall_threshold(article_probability: np.ndarray, is_article: np.ndarray, recall: float) -> float:
    """The highest threshold that keeps at least `recall` of the articles (probability >= it)."""
    scores = np.sort(article_probability[is_article])
    if not len(scores):
        return 0.0
    index = int(np.floor((1 - recall) * len(scores)))
    return math.floor(float(scores[min(index, len(scores) - 1)]) * 10_000) / 10_000  # 4 decimals, rounded down


def keep_rates(article_probability: np.ndarray, labels: Sequence[str], threshold: float,
               other_rules_keep: np.ndarray | None = None) -> dict[str, float]:
    """Share of the pages of each type kept at `threshold` (and by the other rules, if given)."""
    kept = article_probability >= threshold
    if other_rules_keep is not None:
        kept &= other_rules_keep
    types = np.asarray(labels)
    return {page_type: round(float(kept[types == page_type].mean()), 4)
            for page_type in PAGE_TYPES if (types == page_type).any()}


def language_group(row: dict[str, Any]) -> str:
    """`en`, `de` or `other` (`LANGUAGE_GROUPS`): the language of the row's extracted text, else the
    language its metadata declares (`de-AT` is `de`); a page with neither is `other`."""
    signals = row.get("signals") or {}
    language = signals.get("text_language") or re.split(r"[-_]", (row.get("language") or "").strip().lower())[0]
    return language if language in LANGUAGE_GROUPS[:-1] else "other"


def keep_rates_by_language(rows: Sequence[dict[str, Any]], article_probability: np.ndarray, labels: Sequence[str],
                           threshold: float, other_rules_keep: np.ndarray) -> dict[str, dict[str, Any]]:
    """For each language group: its pages by type, and the share of each type the whole pipeline keeps."""
    groups = np.array([language_group(row) for row in rows])
    types = np.asarray(labels)
    table: dict[str, dict[str, Any]] = {}
    for group in LANGUAGE_GROUPS:
        mine = groups == group
        if mine.any():
            table[group] = {"pages": {page_type: int((mine & (types == page_type)).sum())
                                      for page_type in PAGE_TYPES if (mine & (types == page_type)).any()},
                            "kept": keep_rates(article_probability[mine], list(types[mine]), threshold,
                                               other_rules_keep[mine])}
    return table


# The article targets count the articles whose own text has at least this many tokens: the length
# rule drops shorter ones by design.
LONG_ARTICLE_TOKENS = 200
TRADE_THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)


def threshold_trade(rows: Sequence[dict[str, Any]], article_probability: np.ndarray, labels: Sequence[str],
                    other_rules_keep: np.ndarray, long_text: np.ndarray | None = None,
                    chosen: float | None = None) -> list[dict[str, Any]]:
    """The whole pipeline's keep rates per type at other select thresholds (`TRADE_THRESHOLDS`, and the
    `chosen` one), out of fold, with the articles of each language group and the articles whose own
    text has at least `LONG_ARTICLE_TOKENS` tokens (`long_text`), all of them and the non-English ones:
    the card's table to re-tune `select.page.min_article_probability` by."""
    groups = np.array([language_group(row) for row in rows])
    is_article = np.asarray(labels) == "article"
    table = []
    for threshold in sorted({*TRADE_THRESHOLDS, *([chosen] if chosen is not None else [])}):
        kept = other_rules_keep & (article_probability >= threshold)
        by_language = {group: round(float(kept[is_article & (groups == group)].mean()), 4)
                       for group in LANGUAGE_GROUPS if (is_article & (groups == group)).any()}
        entry = {"threshold": threshold, "kept": keep_rates(article_probability, labels, threshold, other_rules_keep),
                 "articles_by_language": by_language}
        if long_text is not None and (is_article & long_text).any():
            long_articles = is_article & long_text
            entry["long_articles"] = round(float(kept[long_articles].mean()), 4)
            foreign = long_articles & (groups != "en")
            entry["long_articles_not_english"] = round(float(kept[foreign].mean()), 4) if foreign.any() else None
        table.append(entry)
    return table


# The select threshold keeps the most articles these ceilings allow: the share of each group of
# non-article types that the whole pipeline keeps, out of fold (docs/filters.md, "Page types").
KEEP_CEILINGS: tuple[tuple[tuple[str, ...], float], ...] = (
    (("product",), 0.01), (("collection", "listing"), 0.05), (("service",), 0.10),
)
THRESHOLD_GRID = tuple(round(0.05 + 0.01 * step, 2) for step in range(95))  # 0.05, 0.06, ..., 0.99


def best_threshold(article_probability: np.ndarray, labels: Sequence[str], other_rules_keep: np.ndarray) -> float:
    """The select threshold: the lowest of `THRESHOLD_GRID` (the one that keeps the most articles) at
    which every group of `KEEP_CEILINGS` present in `labels` is kept at most at its ceiling, on
    out-of-fold probabilities; the grid's top when none is."""
    types = np.asarray(labels)
    memberships = [(np.isin(types, members), ceiling) for members, ceiling in KEEP_CEILINGS]
    groups = [(mine, ceiling) for mine, ceiling in memberships if mine.any()]
    for threshold in THRESHOLD_GRID:
        kept = other_rules_keep & (article_probability >= threshold)
        if all(kept[mine].mean() <= ceiling + 1e-12 for mine, ceiling in groups):
            return threshold
    return THRESHOLD_GRID[-1]


def confusion(probabilities: np.ndarray, labels: Sequence[str]) -> dict[str, dict[str, int]]:
    """Rows: true type; columns: the type with the highest probability."""
    predicted = probabilities.argmax(axis=1)
    table = {true: dict.fromkeys(PAGE_TYPES, 0) for true in PAGE_TYPES}
    for true, guess in zip(labels, predicted, strict=True):
        table[true][PAGE_TYPES[int(guess)]] += 1
    return {true: counts for true, counts in table.items() if sum(counts.values())}


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
            summary.update(_select_measures(rows, oof[:, ARTICLE], labels, threshold, other_rules_keep, long_text))
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


def _select_measures(rows: Sequence[dict[str, Any]], article_probability: np.ndarray, labels: Sequence[str],
                     threshold: float, other_rules_keep: np.ndarray, long_text: np.ndarray | None) -> dict[str, Any]:
    """The select model's card figures beyond its keep rates: alone, the other rules' ceiling, by
    language, at other thresholds, and the ceilings its threshold was chosen by."""
    return {
        "full_model_alone_keep_rates": keep_rates(article_probability, labels, threshold),
        "other_rules_and_page_model_keep_rates": keep_rates(np.ones(len(labels)), labels, 0.0, other_rules_keep),
        "full_keep_rates_by_language": keep_rates_by_language(rows, article_probability, labels, threshold,
                                                              other_rules_keep),
        "full_threshold_trade": threshold_trade(rows, article_probability, labels, other_rules_keep, long_text,
                                                threshold),
        "keep_ceilings": {" + ".join(members): ceiling for members, ceiling in KEEP_CEILINGS},
    }


def gate_trade(page_probability: np.ndarray, full_probability: np.ndarray, labels: Sequence[str],
               other_rules_keep: np.ndarray, full_threshold: float) -> list[dict[str, float]]:
    """For each article recall of `GATE_TRADE_RECALLS`, out of fold: the pre-extraction threshold
    that gives it, the share of articles, of other pages and of all pages extracted, and the share
    of articles the whole pipeline keeps (the select model at its threshold and every other rule)."""
    is_article = np.asarray(labels) == "article"
    table = []
    for recall in GATE_TRADE_RECALLS:
        threshold = recall_threshold(page_probability, is_article, recall) if recall < 1 else 0.0
        extracted = page_probability >= threshold
        kept = extracted & other_rules_keep & (full_probability >= full_threshold)
        table.append({"recall": recall, "threshold": threshold,
                      "articles_extracted": round(float(extracted[is_article].mean()), 4),
                      "others_extracted": round(float(extracted[~is_article].mean()), 4),
                      "all_extracted": round(float(extracted.mean()), 4),
                      "articles_kept": round(float(kept[is_article].mean()), 4)})
    return table


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
