"""Features of the page-type model (filters/page_type.py)."""

from __future__ import annotations

import math

from filters.page_type import FULL_FEATURES, PAGE_FEATURES, page_features


def features(row: dict, names: tuple[str, ...] = FULL_FEATURES) -> dict[str, float]:
    return dict(zip(names, page_features(row, names), strict=True))


def test_page_features_are_a_prefix_of_full_features_and_unique():
    assert FULL_FEATURES[: len(PAGE_FEATURES)] == PAGE_FEATURES
    assert len(set(FULL_FEATURES)) == len(FULL_FEATURES)


def test_url_shape_of_an_article_and_of_a_category_page():
    article = features({"url": "https://news.example.org/2024/05/city-council-approves-new-cycling-lanes.html"})
    category = features({"url": "https://shop.example.com/category/kettles?page=2"})
    assert article["url_slug_words"] == 6 and article["url_has_year"] == 1 and article["url_ends_html"] == 1
    assert article["url_path_depth"] == 3 and article["url_has_query"] == 0
    assert category["url_words_collection"] == 1 and category["url_slug_words"] == 1 and category["url_has_query"] == 1


def test_url_words_count_per_group_in_segments_and_their_parts():
    values = features({"url": "https://example.com/help-center/docs/api-reference/"})
    assert values["url_words_documentation"] == 4  # help, docs, api, reference
    assert values["url_words_forum"] == values["url_words_product"] == 0
    assert features({"url": "https://example.com/"})["url_is_root"] == 1


def test_metadata_and_schema_features():
    row = {"url": "https://e.org/a", "title": "Kettles | Example Shop", "author": "Jo", "published": None,
           "signals": {"structure_schema_types": "offer,product"}}
    values = features(row)
    assert values["has_author"] == 1 and values["has_published"] == 0 and values["title_has_separator"] == 1
    assert values["schema_product"] == 1 and values["schema_article"] == 0


def test_missing_signals_are_nan_and_known_ones_numbers():
    values = features({"url": None, "word_count": 400, "signals": {"block_count": 8, "body_word_count": 800,
                                                                   "product_og": True}})
    assert math.isnan(values["url_path_depth"]) and math.isnan(values["gopher_word_count"])
    assert values["words_per_block"] == 50 and values["text_word_fraction_of_page"] == 0.5
    assert values["product_og"] == 1.0
