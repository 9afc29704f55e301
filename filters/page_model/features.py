"""The page-type model's features: one function (`page_features`) for training and for the pipeline.

Input: a row as the pipeline stores it (`url`, `title`, `author`, `published`, `description`,
`article_score`, `word_count`, `text` and the `signals` mapping). Output: floats in the order of a
feature-name tuple, NaN where a value is missing (gradient-boosted trees route NaN on their own).
`PAGE_FEATURES` are known before extraction (URL, title, metadata, page, product and structure
signals: the gate's model reads only these); `FULL_FEATURES` add what extraction measures and the
shape of the stored text (the select model's). The word groups are `filters.page_model.words`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from filters.core.vocabulary import HTMLDATE_SOURCE
from filters.page_model.words import (
    BYLINE_PHRASES,
    CALLS_TO_ACTION,
    FIRST_PERSON,
    SCHEMA_GROUPS,
    SECOND_PERSON,
    TITLE_WORDS,
    URL_WORDS,
)
from filters.parse.html import web_address
from filters.text.tokens import word_count

PAGE_TYPES: tuple[str, ...] = ("article", "collection", "documentation", "forum", "listing", "product", "service")

_URL_WORD_FEATURES: tuple[str, ...] = tuple(f"url_words_{group}" for group in URL_WORDS)
# URL words this short (`/p/`, `/r/`, `/t/`, `/dp/`, `/kb/`) are path markers: they count as a whole
# path segment only, never as a piece of a slug (`/rezi-love-is-war-von-r-k-lilley`, `/t-shirt-guide`).
URL_MARKER_MAX_CHARS = 2
_URL_GROUPS_OF: dict[str, list[str]] = {}
for _group, _words in URL_WORDS.items():
    for _word in _words:
        _URL_GROUPS_OF.setdefault(_word, []).append(f"url_words_{_group}")
_SCHEMA_FEATURES = tuple(f"schema_{group}" for group in SCHEMA_GROUPS)

_TITLE_FEATURES: tuple[str, ...] = (*(f"title_words_{group}" for group in TITLE_WORDS), "title_is_question",
                                    "title_has_number")

# The shape of the extracted text, read from the stored `text` (its first TEXT_SHAPE_CHARS
# characters): articles are lines of sentences; marketing pages talk to "you" and call to
# action; listings, grids and docs are short lines, prices, numbers and labels.
TEXT_SHAPE_CHARS = 5_000
_PROSE_FEATURES: tuple[str, ...] = (
    "prose_line_count", "prose_short_line_fraction", "prose_sentence_line_fraction", "prose_question_line_fraction",
    "prose_colon_line_fraction", "prose_title_case_line_fraction", "prose_distinct_line_fraction",
    "prose_words_per_line", "prose_words_per_sentence", "prose_digit_fraction", "prose_prices_per_1k_words",
    "prose_first_person_per_1k_words", "prose_second_person_per_1k_words", "prose_call_to_action_per_1k_words",
    "prose_byline_phrases_per_1k_words",
)
_URL_SHAPE = ("url_path_depth", "url_slug_words", "url_slug_chars", "url_has_year", "url_has_long_number",
              "url_has_query", "url_is_root", "url_ends_html")
_TEXT_SHAPE = ("title_words", "title_has_separator", "has_title", "has_author", "has_published",
               "has_description", "article_score")

# Registered signals read as numbers. Left out: what select computes (duplicates, dataset
# balance), what depends on params (extraction_gated), identifiers and hashes.
PAGE_SIGNALS: tuple[str, ...] = (
    "html_bytes", "url_hard_excluded", "url_excluded_extension",
    "article_score_url_article_path", "article_score_url_date", "article_score_url_long_slug",
    "article_score_url_shallow", "article_score_url_excluded", "article_score_url_paginated",
    "article_score_url_author_listing", "article_score_words_over_300", "article_score_words_150_300",
    "article_score_one_h1", "article_score_author_metadata", "article_score_date_metadata",
    "article_score_jsonld_article", "article_score_og_article", "article_score_paragraphs_over_3",
    "article_score_many_outbound_links", "article_score_rel_next_prev", "article_score_very_short_text",
    "body_word_count", "h1_count", "paragraph_count", "outbound_link_count",
    "page_is_js_spa", "page_is_cookie_walled", "page_is_paywalled", "page_has_amp_url", "page_has_feed_url",
    "external_script_count", "needs_js",
    "product_schema_offer_item_count", "product_schema_item_count", "product_og", "product_cart_control_count",
    "product_quantity_selector_count", "product_price_count", "product_price_label_count",
    "product_identifier_label_count", "product_availability_phrase_count", "product_cart_link_count",
    "product_article_declared", "product_score",
    "structure_form_count", "structure_input_count", "structure_button_count", "structure_image_count",
    "structure_list_item_count", "structure_heading_count", "structure_table_count",
    "structure_article_element_count", "structure_time_element_count", "structure_nav_count",
    "structure_aside_count", "structure_iframe_count", "structure_link_count", "structure_link_word_fraction",
    "structure_post_count",
)
TEXT_SIGNALS: tuple[str, ...] = (
    "cascade_trafilatura_words", "cascade_readability_words", "cascade_jsonld_words",
    "cascade_trafilatura_link_code_fraction", "headline_block_count", "boilerplate_blocks_removed_count",
    "text_chars", "block_count", "longest_block_chars", "link_code_char_fraction", "large_block_char_fraction",
    "short_list_table_char_fraction", "token_count", "c4_line_count", "c4_removed_line_fraction",
    "c4_removed_word_fraction", "gopher_word_count", "gopher_median_word_length", "gopher_symbol_word_ratio",
    "gopher_alpha_word_fraction", "gopher_bullet_line_fraction", "gopher_ellipsis_line_fraction",
    "gopher_dup_line_fraction", "gopher_dup_line_char_fraction", "gopher_top_2gram_char_fraction",
    "text_language_confidence", "quality_paragraph_count", "quality_text_html_ratio", "quality_link_density",
)
_TEXT_DERIVED = ("word_count", "words_per_block", "text_word_fraction_of_page")

# The features read from word lists of several languages, and those counted in words of every
# script: what `pipeline explain` shows under "language".
LANGUAGE_FEATURES: tuple[str, ...] = (
    *_URL_WORD_FEATURES, *(f"title_words_{group}" for group in TITLE_WORDS), "title_words",
    "prose_first_person_per_1k_words", "prose_second_person_per_1k_words", "prose_call_to_action_per_1k_words",
    "prose_byline_phrases_per_1k_words", "prose_words_per_sentence", "prose_short_line_fraction",
)

PAGE_FEATURES: tuple[str, ...] = (*_URL_SHAPE, *_URL_WORD_FEATURES, *_TEXT_SHAPE, *_SCHEMA_FEATURES, *PAGE_SIGNALS,
                                  *_TITLE_FEATURES)
FULL_FEATURES: tuple[str, ...] = (*PAGE_FEATURES, *TEXT_SIGNALS, *_TEXT_DERIVED, *_PROSE_FEATURES)

_YEAR = re.compile(r"^(19|20)\d\d$")
_LONG_NUMBER = re.compile(r"\d{4,}")
_WORD_SPLIT = re.compile(r"[-_.+]")
_TITLE_WORD = re.compile(r"[^\W_]+")
_WORD = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")
_PRICE = re.compile(r"[$€£¥₹₽]\s?\d|\d\s?(?:[$€£¥₹₽円元]|zł)|\b(?:USD|EUR|GBP|CHF|PLN|RUB|JPY|CNY)\b")
_SENTENCE_END = re.compile(r"[.!?…。！？][\'\")\]”’]?$")
_SENTENCE_BREAK = re.compile(r"[.!?](?:\s|$)|[。！？]")
_SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " · ")


def page_features(row: Mapping[str, Any], names: tuple[str, ...] = FULL_FEATURES) -> list[float]:
    """The model's input for one row (a mapping with `url`, `title`, `author`, `published`,
    `description`, `article_score`, `word_count`, `text` and the `signals` mapping), in the order of
    `names`; NaN where a value is missing."""
    signals = row.get("signals") or {}
    values = {**_url_features(row.get("url")), **_text_shape(row), **_schema_features(signals)}
    values.update(_text_derived(row, signals))
    values.update(_title_words(row.get("title")))
    if any(name in _PROSE_FEATURES for name in names):
        values.update(_prose(row.get("text")))
    return [_number(values[name] if name in values else signals.get(name)) for name in names]


def _number(value: Any) -> float:
    if value is None:
        return math.nan
    return float(value)


def _url_features(url: Any) -> dict[str, float]:
    values: dict[str, float] = dict.fromkeys(_URL_WORD_FEATURES, 0.0)
    parts = web_address(url) if isinstance(url, str) else None
    if parts is None:  # no web address (the same page read from a bucket must get the same type)
        return dict.fromkeys((*_URL_WORD_FEATURES, *_URL_SHAPE), math.nan)
    segments = [segment for segment in parts.path.lower().split("/") if segment]
    slug = segments[-1] if segments else ""
    stem = slug.rsplit(".", 1)[0] if "." in slug else slug
    words = {*segments, *(word for segment in segments for word in _WORD_SPLIT.split(segment)
                          if len(word) > URL_MARKER_MAX_CHARS)}
    for word in words:
        for key in _URL_GROUPS_OF.get(word, ()):
            values[key] += 1.0
    values.update(
        url_path_depth=float(len(segments)),
        url_slug_words=float(len([word for word in _WORD_SPLIT.split(stem) if word])),
        url_slug_chars=float(len(stem)),
        url_has_year=float(any(_YEAR.match(segment) for segment in segments)),
        url_has_long_number=float(bool(_LONG_NUMBER.search(parts.path))),
        url_has_query=float(bool(parts.query)),
        url_is_root=float(not segments),
        url_ends_html=float(slug.endswith((".html", ".htm", ".php", ".aspx", ".asp", ".shtml"))),
    )
    return values


def _text_shape(row: Mapping[str, Any]) -> dict[str, float]:
    title = row.get("title") or ""
    return {
        "title_words": float(word_count(title)),
        "title_has_separator": float(any(separator in title for separator in _SEPARATORS)),
        "has_title": float(bool(title)),
        "has_author": float(bool(row.get("author"))),
        # A date the page declares or marks up; one htmldate inferred is not the page's metadata.
        "has_published": float(row.get("published") is not None
                               and (row.get("signals") or {}).get("published_source") != HTMLDATE_SOURCE),
        "has_description": float(bool(row.get("description"))),
        "article_score": _number(row.get("article_score")),
    }


def _schema_features(signals: Mapping[str, Any]) -> dict[str, float]:
    declared = set((signals.get("structure_schema_types") or "").split(","))
    return {f"schema_{group}": float(bool(declared & set(types))) for group, types in SCHEMA_GROUPS.items()}


def _text_derived(row: Mapping[str, Any], signals: Mapping[str, Any]) -> dict[str, float]:
    words = row.get("word_count")
    blocks = signals.get("block_count")
    page_words = signals.get("body_word_count")
    return {
        "word_count": _number(words),
        "words_per_block": words / blocks if words is not None and blocks else math.nan,
        "text_word_fraction_of_page": words / page_words if words is not None and page_words else math.nan,
    }


def _title_words(title: Any) -> dict[str, float]:
    lowered = title.lower() if isinstance(title, str) else ""
    words = set(_TITLE_WORD.findall(lowered))
    values = {f"title_words_{group}": float(len(words.intersection(group_words)))
              for group, group_words in TITLE_WORDS.items()}
    values["title_is_question"] = float("?" in lowered)
    values["title_has_number"] = float(bool(_DIGIT.search(lowered)))
    return values


def _prose(text: Any) -> dict[str, float]:
    if not isinstance(text, str) or not text.strip():
        return dict.fromkeys(_PROSE_FEATURES, math.nan)
    text = text[:TEXT_SHAPE_CHARS]
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    lowered = text.lower()
    words = _WORD.findall(lowered)  # for the person vocabularies
    line_count, text_words = len(lines), max(1, word_count(text))
    per_1k = 1000 / text_words
    return {
        "prose_line_count": float(line_count),
        "prose_short_line_fraction": sum(word_count(line) <= 6 for line in lines) / line_count,
        "prose_sentence_line_fraction": sum(bool(_SENTENCE_END.search(line)) for line in lines) / line_count,
        "prose_question_line_fraction": sum(line.endswith("?") for line in lines) / line_count,
        "prose_colon_line_fraction": sum(line.endswith(":") for line in lines) / line_count,
        "prose_title_case_line_fraction": sum(line.istitle() for line in lines) / line_count,
        "prose_distinct_line_fraction": len(set(lines)) / line_count,
        "prose_words_per_line": text_words / line_count,
        "prose_words_per_sentence": text_words / max(1, len(_SENTENCE_BREAK.findall(text))),
        "prose_digit_fraction": len(_DIGIT.findall(text)) / len(text),
        "prose_prices_per_1k_words": len(_PRICE.findall(text)) * per_1k,
        "prose_first_person_per_1k_words": sum(word in FIRST_PERSON for word in words) * per_1k,
        "prose_second_person_per_1k_words": sum(word in SECOND_PERSON for word in words) * per_1k,
        "prose_call_to_action_per_1k_words": sum(lowered.count(phrase) for phrase in CALLS_TO_ACTION) * per_1k,
        "prose_byline_phrases_per_1k_words": sum(lowered.count(phrase) for phrase in BYLINE_PHRASES) * per_1k,
    }
