"""The shared vocabularies: one reading of @type, one consent-platform list, one set of JS roots."""

from __future__ import annotations

import pytest

from filters.core.vocabulary import (
    ARTICLE_TYPES,
    CONSENT_PLATFORMS,
    consent_platform,
    schema_type,
    schema_types,
)
from pages import html, page


@pytest.mark.parametrize("value, expected", [
    ("NewsArticle", "NewsArticle"),
    ("https://schema.org/NewsArticle", "NewsArticle"),
    ("http://schema.org/NewsArticle", "NewsArticle"),
    ("schema:NewsArticle", "NewsArticle"),
    (" Article ", "Article"),
    ("", None),
    ("https://schema.org/", None),
    (None, None),
    (3, None),
])
def test_schema_type(value, expected):
    assert schema_type(value) == expected


def test_schema_types_of_an_object():
    assert schema_types({"@type": ["WebPage", "https://schema.org/Article", 7, None]}) == {"WebPage", "Article"}
    assert schema_types({"@type": "schema:BlogPosting"}) == {"BlogPosting"}
    assert schema_types({"name": "no type"}) == set()
    assert schema_types("not an object") == set()


def test_article_types_include_the_seeds_five():
    assert {"Article", "BlogPosting", "NewsArticle", "TechArticle", "ScholarlyArticle"} <= ARTICLE_TYPES


def test_page_types_are_read_through_the_vocabulary():
    head = ('<script type="application/ld+json">{"@graph": [{"@type": "https://schema.org/NewsArticle"},'
            ' {"@type": ["schema:WebPage", "Thing"]}]}</script>')
    assert page(html("", head=head)).json_ld_types() == {"NewsArticle", "WebPage", "Thing"}


def test_consent_platform_by_id_class_and_prefix():
    assert consent_platform("onetrust-banner-sdk", None) == "OneTrust"
    assert consent_platform(None, "wrapper cky-consent-container") == "CookieYes v3"
    assert consent_platform("sp_message_container_12345", "") == "Sourcepoint"
    assert consent_platform("cookie-recipes", "cookie-monster") is None
    assert consent_platform(None, None) is None


def test_every_consent_platform_is_found_by_its_own_selectors():
    for name, ids, classes, prefixes in CONSENT_PLATFORMS:
        for element_id in ids:
            assert consent_platform(element_id, None) is not None, name
        for token in classes:
            assert consent_platform(None, token) is not None, name
        for prefix in prefixes:
            assert consent_platform(prefix + "x", None) is not None, name
