"""The page-type model file: reading, writing and predicting with it.

The file is JSON, read without pickle (a model file is input, and unpickling runs code): the class
names, and for each of the two models (`page`: before extraction, `full`: in select) its feature
names, LightGBM's text dump of its trees (`Booster.model_to_string`; predicted through LightGBM's
C API, `filters.page_model.booster`, without importing its Python package) and the threshold it was
trained with (`min_article_probability`, the one stored value of each threshold). The `full` model
may read the text model's article probability (`filters.page_model.text_model`), whose weights it
then carries as `text`.
`training` is what it was fitted on and how it measured; the card beside the file says the same
for people. A model is loaded once per process (`load_model`, cached by path).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from filters.page_model.booster import BoosterError, Predictor, load_booster
from filters.page_model.features import FULL_FEATURES, PAGE_FEATURES, PAGE_TYPES, page_features
from filters.page_model.text_model import TEXT_FEATURE, TextModel

MODEL_FORMAT = "corpus-filter/page-type-model/1"
# Shipped with the package: trained by `pipeline train` on the labelled pages (see its card).
DEFAULT_MODEL = Path(__file__).resolve().parent / "page_type.json"
ARTICLE = PAGE_TYPES.index("article")


class ModelError(ValueError):
    """The model file is missing, unreadable or not a page-type model."""


@dataclass(frozen=True)
class TreeModel:
    """One of the two models: its features, its trees and its article-probability threshold."""

    features: tuple[str, ...]
    booster: Predictor  # the trees (`filters.page_model.booster`)
    model_text: str  # LightGBM's text dump of them
    min_article_probability: float
    text: TextModel | None = None  # the text model, when `TEXT_FEATURE` is a feature

    def matrix(self, rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
        """The rows' feature values, one row per input row, columns in `features` order."""
        named = tuple(name for name in self.features if name != TEXT_FEATURE)
        matrix = np.array([page_features(row, named) for row in rows], dtype=np.float64).reshape(len(rows), len(named))
        if self.text is None:
            return matrix
        text = self.text.feature(rows, ARTICLE, len(PAGE_TYPES))
        return np.insert(matrix, self.features.index(TEXT_FEATURE), text, axis=1)

    def probabilities(self, rows: Sequence[Mapping[str, Any]]) -> np.ndarray:
        """Class probabilities, one row per input row, columns in `PAGE_TYPES` order."""
        if not rows:
            return np.zeros((0, len(PAGE_TYPES)))
        matrix = self.matrix(rows)
        return self.booster.predict(matrix).reshape(len(rows), len(PAGE_TYPES))

    def contributions(self, row: Mapping[str, Any], top: int = 5) -> list[tuple[str, float]]:
        """The features that moved the article class's raw score most for `row` (LightGBM's tree
        contributions, SHAP values in log-odds), largest effect first."""
        matrix = self.matrix([row])
        values = np.asarray(_package_booster(self.model_text).predict(matrix, pred_contrib=True, num_threads=1))
        values = values.reshape(-1)
        width = len(self.features) + 1  # each class: one value per feature, then the bias
        article = values[ARTICLE * width: ARTICLE * width + len(self.features)]
        order = np.argsort(-np.abs(article), kind="stable")[:top]
        return [(self.features[i], round(float(article[i]), 4)) for i in order]


@dataclass(frozen=True)
class PageTypeModel:
    page: TreeModel
    full: TreeModel
    training: dict[str, Any]
    path: str

    @property
    def version(self) -> str:
        return str(self.training.get("version", "unknown"))


def model_document(page: dict[str, Any], full: dict[str, Any], training: dict[str, Any]) -> str:
    """The model file's text: `page` and `full` each {"features", "booster" (model string),
    "min_article_probability"}, `full` with "text" (`TextModel.to_document`) when it reads the text model."""
    document = {"format": MODEL_FORMAT, "classes": list(PAGE_TYPES), "page": page, "full": full,
                "training": training}
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


@functools.lru_cache(maxsize=4)
def read_document(path: str | None = None) -> dict[str, Any]:
    """The model file at `path` (default: the one shipped with the package) as JSON, checked to be
    a page-type model; read once per process (callers must not change it)."""
    where = Path(path) if path else DEFAULT_MODEL
    try:
        document = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the page-type model {where}: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != MODEL_FORMAT:
        raise ModelError(f"{where} is not a page-type model (format {MODEL_FORMAT!r} expected)")
    if tuple(document.get("classes") or ()) != PAGE_TYPES:
        raise ModelError(f"{where}: classes {document.get('classes')} differ from {list(PAGE_TYPES)}")
    return document


def stored_thresholds(path: str | None = None) -> tuple[float, float]:
    """(gate, select) thresholds stored in the model file: the `page` and the `full` model's
    `min_article_probability`."""
    document = read_document(path)
    try:
        return (float(document["page"]["min_article_probability"]),
                float(document["full"]["min_article_probability"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{path or DEFAULT_MODEL}: no stored threshold ({exc})") from None


@functools.lru_cache(maxsize=4)
def load_model(path: str | None = None) -> PageTypeModel:
    """The model at `path` (default: the one shipped with the package), loaded once per process."""
    where = Path(path) if path else DEFAULT_MODEL
    document = read_document(path)
    stages = {}
    for name, known in (("page", PAGE_FEATURES), ("full", (*FULL_FEATURES, TEXT_FEATURE))):
        part = document.get(name) or {}
        features = tuple(part.get("features") or ())
        unknown = sorted(set(features) - set(known))
        if not features or unknown:
            raise ModelError(f"{where}: the {name} model's features are missing or unknown: {unknown}")
        try:
            booster = load_booster(part["booster"])
        except BoosterError as exc:
            raise ModelError(f"{where}: the {name} model's trees: {exc}") from None
        stages[name] = TreeModel(features, booster, part["booster"], float(part["min_article_probability"]),
                                 _text_model(where, part) if TEXT_FEATURE in features else None)
    return PageTypeModel(stages["page"], stages["full"], document.get("training") or {}, str(where))


@functools.lru_cache(maxsize=2)
def _package_booster(model_text: str) -> Any:
    """`lightgbm.Booster` of the model text, for what only the Python package does (tree contributions)."""
    import lightgbm  # imported here: `pipeline explain` pays for it, a run does not

    return lightgbm.Booster(model_str=model_text)


def _text_model(where: Path, part: Mapping[str, Any]) -> TextModel:
    if not isinstance(part.get("text"), dict):
        raise ModelError(f"{where}: the full model reads {TEXT_FEATURE} but carries no text model")
    try:
        return TextModel.from_document(part["text"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{where}: unreadable text model: {exc}") from None
