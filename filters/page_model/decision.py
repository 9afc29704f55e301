"""The page-type model's decisions: its signals, its two rules, their params and their thresholds.

* Before extraction (the gate): the `page` model's article probability of a page from its URL and
  HTML (`page_article_probability`); `article.page_model` fires below the gate threshold and the
  page is not extracted.
* In select: the `full` model's probabilities from stored signals (`type_columns`): the page's
  most probable type (column `page_type`), its article probability and the summed probability of
  the kept types (`kept_type_probability`); `page.not_article` fires below the select threshold.

Each threshold is stored once, in the model file that was trained with it; a number in params
overrides it, and null (the default) means the model's own. `use_page_model: false` switches the
model and its rule off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import polars as pl
import pyarrow as pa

from filters.core.declarations import Count, Rule, Share, Signal, one_of
from filters.page_model.features import PAGE_TYPES
from filters.page_model.model import ARTICLE, TreeModel, load_model, stored_thresholds


@dataclass(frozen=True)
class GateParams:
    """`extract.gate`: what turns a page away before extraction (changing it re-extracts)."""

    # article.score (filters/page/article_score.py): the seed's article-score gate, below this
    # many points; null: off (35 in presets/seed.yaml).
    article_score_min: int | None = None
    # article.page_model: run the pre-extraction model (`page_article_probability`) and its rule.
    use_page_model: bool = True
    # article.page_model below this article probability; null: the model file's own gate threshold.
    min_page_article_probability: Share | None = None
    # The model file; null: the model shipped with the package (filters/page_model/page_type.json).
    model: str | None = None


@dataclass(frozen=True)
class SelectPageParams:
    """`select.page`: the page-level rules of select (re-tunable without re-extracting)."""

    # page.product (filters/page/product.py) at/above this `product_score`; null: off (5 in
    # presets/seed.yaml: the page-type model decides product pages).
    min_product_score: int | None = None
    # page.not_article: run the select model (columns `page_type`, `article_probability`) and its rule.
    use_page_model: bool = True
    # page.not_article below this probability of the kept types; null: the model file's own threshold.
    min_kept_type_probability: Share | None = None
    # page.several_posts (filters/page/page_structure.py) above this many whole posts on one page;
    # null: off (set it so when `keep_types` keeps listings).
    max_posts: Count | None = 1
    # The page types page.not_article keeps: their probabilities are added up.
    keep_types: Annotated[tuple[str, ...], one_of(PAGE_TYPES)] = ("article",)
    # The model file; null: the model shipped with the package.
    model: str | None = None


def gate_threshold(gate: GateParams) -> float | None:
    """The article probability below which `article.page_model` fires; None: the model is not run."""
    return _threshold(gate.use_page_model, gate.min_page_article_probability, gate.model, GATE)


def select_threshold(page: SelectPageParams) -> float | None:
    """The kept-type probability below which `page.not_article` fires; None: the model is not run."""
    return _threshold(page.use_page_model, page.min_kept_type_probability, page.model, SELECT)


GATE, SELECT = 0, 1  # positions in `stored_thresholds`


def _threshold(used: bool, given: float | None, model_path: str | None, which: int) -> float | None:
    if not used:
        return None
    return given if given is not None else stored_thresholds(model_path)[which]


# The signal every parsed page has and no unparsed one: the model reads only parsed pages.
PARSED_SIGNAL = "structure_link_count"


def is_parsed(signals: Mapping[str, Any]) -> bool:
    """Whether a row's page was parsed (the page-type model reads it); `parsed_expr` on a frame."""
    return signals.get(PARSED_SIGNAL) is not None


def parsed_expr() -> pl.Expr:
    """`is_parsed` over a frame of rows."""
    return pl.col("signals").struct.field(PARSED_SIGNAL).is_not_null()


def page_article_probability(row: Mapping[str, Any], model_path: str | None) -> float:
    """The gate's article probability of a row as the steps before extraction left it (URL, title,
    metadata, page, product and structure signals), rounded to 6 places."""
    model = load_model(model_path)
    return round(float(model.page.probabilities([row])[0, ARTICLE]), 6)


@dataclass(frozen=True)
class TypeColumns:
    """The select model's view of rows: most probable type, article and kept-type probabilities (6 places)."""

    page_type: list[str]
    article_probability: np.ndarray
    kept_type_probability: np.ndarray


def type_columns(rows: Sequence[Mapping[str, Any]], model: TreeModel, keep_types: Sequence[str]) -> TypeColumns:
    """The select model's columns for `rows` (stored rows of parsed pages)."""
    return columns_of(model.probabilities(rows), keep_types)


def columns_of(probabilities: np.ndarray, keep_types: Sequence[str]) -> TypeColumns:
    """The select model's columns from its probabilities (a row a page, a column a type of `PAGE_TYPES`)."""
    kept = [PAGE_TYPES.index(name) for name in keep_types]
    return TypeColumns([PAGE_TYPES[int(i)] for i in probabilities.argmax(axis=1)],
                       np.round(probabilities[:, ARTICLE], 6), np.round(probabilities[:, kept].sum(axis=1), 6))


def _gate_default(params: Any) -> float:
    return stored_thresholds(params.get("extract.gate.model"))[GATE]


def _select_default(params: Any) -> float:
    return stored_thresholds(params.get("select.page.model"))[SELECT]


# Registered in `filters.rules.signals` and `filters.rules.reasons`.
GATE_SIGNALS: tuple[Signal, ...] = (
    Signal("page_article_probability", pa.float64(), "pre-extraction page-type model: probability that the page "
           "is an article (null: model not run)"),
    Signal("extraction_gated", pa.bool_(), "a pre-extraction rule (url, article score) rejected the page"),
)
SELECT_SIGNALS: tuple[Signal, ...] = (
    Signal("kept_type_probability", pa.float64(), "page-type model: probability that the page is of a kept type "
           "(select.page.keep_types; select stage)"),
)
GATE_RULES: tuple[Rule, ...] = (
    Rule("article.page_model", "the pre-extraction page-type model (URL, title, metadata, page, product and "
         "structure signals) gives the page a low article probability: not extracted unless --extract-all",
         "page_article_probability", "<", "extract", params_key="extract.gate.min_page_article_probability",
         enabled_key="extract.gate.use_page_model", default_threshold=_gate_default),
)
SELECT_RULES: tuple[Rule, ...] = (
    Rule("page.not_article", "the page-type model gives the kept page types (select.page.keep_types, by default "
         "article) a probability below the threshold: a shop, category, listing, forum, documentation or "
         "marketing page", "kept_type_probability", "<", "select", params_key="select.page.min_kept_type_probability",
         enabled_key="select.page.use_page_model", default_threshold=_select_default),
)
