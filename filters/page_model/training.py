"""Fitting the page-type model on labelled rows: 5-fold cross-validation grouped by registered
domain (one site's pages are never on both sides), thresholds chosen on the out-of-fold
probabilities (`filters.page_model.measures`), then both models fitted again on all rows.

Input: rows as select writes them (every signal, every other rule's reasons), their labels
(`PAGE_TYPES`) and what every other rule keeps. Output: the model file's text
(`filters.page_model.model.model_document`) and the training summary the card is written from.
Same rows in the same order give a byte-identical file.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from filters.page.domains import registered_domain
from filters.page_model.features import FULL_FEATURES, PAGE_FEATURES, PAGE_TYPES, page_features
from filters.page_model.measures import (
    LONG_ARTICLE_TOKENS,
    best_threshold,
    confusion,
    gate_trade,
    keep_rates,
    recall_threshold,
    select_measures,
)
from filters.page_model.model import model_document
from filters.page_model.text_model import TEXT_FEATURE, Stacked, stacked

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

# Reasons the keep rates look through: the article-score gate's (`article.*`), which the pre-extraction
# model replaces, and de-duplication's (`dup.*`): a labelled page that repeats another labelled page (the
# same record in two files, a copy under another URL) is in the dataset once, as the copy kept, and
# counting the dropped copy as a page lost would count one page twice.
LOOKED_THROUGH_REASONS = ("article.", "dup.")


def kept_by_other_rules(rows: Sequence[dict[str, Any]]) -> np.ndarray:
    """Whether each row has no reason but those of `LOOKED_THROUGH_REASONS`: what every other rule keeps."""
    return np.array([not [code for code in row["reasons"] if not code.startswith(LOOKED_THROUGH_REASONS)]
                     for row in rows], dtype=bool)

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
    the held-out fold (`filters.page_model.text_model.stacked`)."""
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


