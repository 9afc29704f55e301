"""What `pipeline train` measures on out-of-fold probabilities: keep rates per type and per
language group, the select threshold within the non-article ceilings, the trade at other select
thresholds and other gate recalls, and the confusion matrix; the figures of the model card
(`filters/page_model/card.py`) and of `benchmarks/language_cv.py`."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from filters.page_model.features import PAGE_TYPES

# The card's gate trade table (docs/benchmarks.md, "The gate"): what other recalls would extract and keep.
GATE_TRADE_RECALLS = (0.95, 0.97, 0.98, 0.985, 0.99, 0.995, 1.0)
# The card's keep rates per language: the language of the extracted text (else the page's declared one).
LANGUAGE_GROUPS = ("en", "de", "other")
_TAG_SEPARATOR = re.compile(r"[-_]")  # of a declared language tag: `de-AT`, `pt_BR`


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
    language = signals.get("text_language") or _TAG_SEPARATOR.split((row.get("language") or "").strip().lower())[0]
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
    the card's table to re-tune `select.page.min_kept_type_probability` by."""
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


def select_measures(rows: Sequence[dict[str, Any]], article_probability: np.ndarray, labels: Sequence[str],
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
