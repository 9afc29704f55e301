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


def test_the_page_models_schema_groups_agree_with_the_vocabulary():
    """The page-type model groups schema.org types by the page they describe (its features, frozen
    with its training); where the vocabulary says what a type is, the groups agree with it: its
    article group holds article types only, its product group product types only, and no product
    type sits in another group."""
    from filters.core.vocabulary import ARTICLE_TYPES, CONTRIBUTION_TYPES, PRODUCT_TYPES
    from filters.page_model.words import SCHEMA_GROUPS

    articles = {name.lower() for name in ARTICLE_TYPES}
    assert set(SCHEMA_GROUPS["article"]) <= articles
    assert set(SCHEMA_GROUPS["product"]) <= PRODUCT_TYPES
    assert set(SCHEMA_GROUPS["forum"]) - {"qapage"} <= set(CONTRIBUTION_TYPES)
    for group, names in SCHEMA_GROUPS.items():
        if group != "product":
            assert not set(names) & PRODUCT_TYPES, group
        if group in ("collection", "service"):
            assert not set(names) & articles, group
