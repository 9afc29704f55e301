"""Features of the page-type model (filters/page_model/features.py)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from filters.page_model.features import FULL_FEATURES, PAGE_FEATURES, TEXT_SHAPE_CHARS, page_features


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


def test_short_url_markers_count_as_whole_segments_only():
    """`/r/` is a subreddit and `/p/` a product, but the `r` of an author's initials in a slug is neither."""
    assert features({"url": "https://www.reddit.com/r/woodworking/comments/abc123/my_first_table/"})[
        "url_words_forum"] == 2  # r, comments
    assert features({"url": "https://shop.example.com/p/12345"})["url_words_product"] == 1
    review = features({"url": "https://books.example.com/2017/09/rezi-love-is-war-sehnsucht-von-r-k-lilley.html"})
    recipe = features({"url": "https://www.example.de/rezepte/r/bienenstich-muffins"})
    shirt = features({"url": "https://blog.example.com/how-to-fold-a-t-shirt"})
    assert review["url_words_forum"] == 0 and shirt["url_words_forum"] == 0
    assert recipe["url_words_forum"] == 1  # a whole `/r/` segment is read as the marker it usually is


def test_metadata_and_schema_features():
    row = {"url": "https://e.org/a", "title": "Kettles | Example Shop", "author": "Jo", "published": None,
           "signals": {"structure_schema_types": "offer,product"}}
    values = features(row)
    assert values["has_author"] == 1 and values["has_published"] == 0 and values["title_has_separator"] == 1
    assert values["schema_product"] == 1 and values["schema_article"] == 0


@pytest.mark.parametrize("source, has_published", [("json-ld", 1), ("time", 1), ("htmldate", 0)])
def test_only_a_date_the_page_marks_up_is_a_published_date_for_the_model(source, has_published):
    row = {"url": "https://e.org/a", "published": datetime(2020, 1, 1, tzinfo=UTC),
           "signals": {"published_source": source}}
    assert features(row)["has_published"] == has_published


def test_missing_signals_are_nan_and_known_ones_numbers():
    values = features({"url": None, "word_count": 400, "signals": {"block_count": 8, "body_word_count": 800,
                                                                   "product_og": True}})
    assert math.isnan(values["url_path_depth"]) and math.isnan(values["gopher_word_count"])
    assert values["words_per_block"] == 50 and values["text_word_fraction_of_page"] == 0.5
    assert values["product_og"] == 1.0


def test_title_words_count_each_group_once_per_word():
    how_to = features({"title": "How to choose a kettle: 7 tips (a guide)"}, PAGE_FEATURES)
    assert how_to["title_words_article"] == 3  # how, tips, guide
    assert how_to["title_words_documentation"] == 1  # guide
    assert how_to["title_has_number"] == 1 and how_to["title_is_question"] == 0
    pricing = features({"title": "Pricing and plans | Example Platform"}, PAGE_FEATURES)
    assert pricing["title_words_service"] == 3 and pricing["title_words_article"] == 0
    assert features({"title": None}, PAGE_FEATURES)["title_words_service"] == 0
    assert features({"title": "Why do kettles scale?"}, PAGE_FEATURES)["title_is_question"] == 1


def test_prose_shape_of_an_article_and_of_a_marketing_page():
    article = features({"text": "We rode the new lanes on Monday. They were busy by eight.\n\n"
                                "The council says more will come. Our readers want them sooner."})
    assert article["prose_line_count"] == 2 and article["prose_sentence_line_fraction"] == 1
    assert article["prose_short_line_fraction"] == 0 and article["prose_words_per_sentence"] == 23 / 4
    assert article["prose_first_person_per_1k_words"] == 2 * 1000 / 23  # we, our
    assert article["prose_call_to_action_per_1k_words"] == 0
    marketing = features({"text": "Ship faster\nYour team, your rules\nGet started\nStart free\n$29 per seat"})
    assert marketing["prose_short_line_fraction"] == 1 and marketing["prose_sentence_line_fraction"] == 0
    assert marketing["prose_call_to_action_per_1k_words"] > 0 and marketing["prose_prices_per_1k_words"] > 0
    assert marketing["prose_second_person_per_1k_words"] > marketing["prose_first_person_per_1k_words"] == 0


def test_prose_of_a_page_without_text_is_missing_and_long_text_is_cut():
    assert math.isnan(features({"text": None})["prose_line_count"])
    assert math.isnan(features({"text": "  \n "})["prose_words_per_line"])
    long = features({"text": ("One sentence here.\n" * 100_000)})
    assert long["prose_line_count"] == math.ceil(TEXT_SHAPE_CHARS / len("One sentence here.\n"))  # the last one cut


def test_a_location_that_is_not_a_web_address_has_no_url_features():
    local = features({"url": "file:///home/me/crawl/blog/2024/05/a-long-story-about-lanes.html"})
    bucket = features({"url": "s3://bucket/crawl/blog/2024/05/a-long-story-about-lanes.html"})
    url_names = [name for name in FULL_FEATURES if name.startswith("url_")]
    assert url_names and all(math.isnan(local[name]) and math.isnan(bucket[name]) for name in url_names)
    web = features({"url": "https://example.org/blog/2024/05/a-long-story-about-lanes.html"})
    assert web["url_words_article"] == 2 and web["url_has_year"] == 1  # blog, story


def test_the_model_reads_registered_signals_known_before_their_stage():
    """The feature lists name signals by hand: each must be registered (a renamed signal would
    otherwise become a feature that is always missing), the page model's must be known before
    extraction, and none may be decided in select."""
    from filters.page_model.features import PAGE_SIGNALS, TEXT_SIGNALS
    from filters.rules.signals import SIGNALS, SIGNALS_BY_NAME

    assert [name for name in (*PAGE_SIGNALS, *TEXT_SIGNALS) if name not in SIGNALS_BY_NAME] == []
    order = [signal.name for signal in SIGNALS]
    gate = order.index("page_article_probability")  # the pre-extraction model's own output
    assert [name for name in PAGE_SIGNALS if order.index(name) > gate] == []
    select_stage = order.index("cdc_duplicated_fraction")  # from here on, signals select computes
    assert [name for name in TEXT_SIGNALS if order.index(name) >= select_stage] == []
