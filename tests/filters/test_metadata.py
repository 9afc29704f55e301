"""Metadata priority, author and date fallbacks, and language (docs/filters.md): each rule at both sides."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import lxml.html
import pytest

import filters.metadata.dates as dates_module
from filters.metadata.fields import (
    extract_metadata,
    has_author,
    has_published_date,
    language_of,
    normalise_language,
    parse_date,
    reading_time_minutes,
)
from filters.parse.parsed import Page

URL = "https://news.example.org/2024/03/river-story"
CAPTURE = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def make(head: str = "", body: str = "", lang: str | None = None, url: str | None = URL) -> Page:
    lang_attr = f' lang="{lang}"' if lang is not None else ""
    html = f"<!doctype html><html{lang_attr}><head>{head}</head><body>{body}</body></html>"
    return Page(lxml.html.document_fromstring(html), url)


def json_ld(data: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


def meta(key: str, content: str, attribute: str = "name") -> str:
    return f'<meta {attribute}="{key}" content="{content}">'


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


# --- priority: JSON-LD > Open Graph > Twitter Card > <meta> -------------------------------------------

TIERS = {
    "json-ld": json_ld({"@context": "https://schema.org", "@type": "NewsArticle", "headline": "LD title",
                        "author": {"@type": "Person", "name": "Lena Dorn"}, "datePublished": "2024-01-01",
                        "dateModified": "2024-02-01", "description": "LD description"}),
    "og": (meta("og:title", "OG title", "property") + meta("article:author", "Olga Gray", "property")
           + meta("article:published_time", "2024-01-02", "property")
           + meta("article:modified_time", "2024-02-02", "property")
           + meta("og:description", "OG description", "property")),
    "twitter": (meta("twitter:title", "Twitter title") + meta("twitter:creator", "Tina Twain")
                + meta("twitter:description", "Twitter description")),
    "meta": (meta("title", "Meta title") + meta("author", "Mark Meier") + meta("date", "2024-01-04")
             + meta("last-modified", "2024-02-04") + meta("description", "Meta description")),
}
EXPECTED = {
    "json-ld": ("LD title", "Lena Dorn", utc(2024, 1, 1), "LD description"),
    "og": ("OG title", "Olga Gray", utc(2024, 1, 2), "OG description"),
    "twitter": ("Twitter title", "Tina Twain", None, "Twitter description"),  # a card carries no date
    "meta": ("Meta title", "Mark Meier", utc(2024, 1, 4), "Meta description"),
}


@pytest.mark.parametrize("present", [
    ("json-ld", "og", "twitter", "meta"),
    ("og", "twitter", "meta"),
    ("twitter", "meta"),
    ("meta",),
])
def test_priority_json_ld_then_og_then_twitter_then_meta(present):
    page = make("<title>Tag title</title>" + "".join(TIERS[tier] for tier in present))
    found = extract_metadata(page)
    best = present[0]
    title, author, _, description = EXPECTED[best]
    assert (found.title, found.author, found.description) == (title, author, description)
    assert found.sources["title"] == found.sources["author"] == found.sources["description"] == best
    dated = next(tier for tier in present if EXPECTED[tier][2] is not None)
    assert found.published == EXPECTED[dated][2]
    assert found.sources["published"] == dated


def test_updated_follows_the_same_priority():
    assert extract_metadata(make(TIERS["og"] + TIERS["meta"])).updated == utc(2024, 2, 2)
    assert extract_metadata(make(TIERS["meta"])).updated == utc(2024, 2, 4)
    assert extract_metadata(make("")).updated is None


def test_title_falls_back_to_headline_h1_then_title_tag():
    body = '<h1 itemprop="headline">Headline h1</h1>'
    found = extract_metadata(make("<title>Tag title</title>", body))
    assert (found.title, found.sources["title"]) == ("Headline h1", "itemprop")
    found = extract_metadata(make("<title>Tag title</title>", "<h1>Plain h1</h1>"))
    assert (found.title, found.sources["title"]) == ("Tag title", "title-tag")
    assert extract_metadata(make("", "<p>No title at all</p>")).title is None


def test_strings_are_whitespace_collapsed_and_empty_is_none():
    page = make(meta("og:title", "  Two \n  words ", "property") + meta("description", "   "))
    found = extract_metadata(page)
    assert found.title == "Two words"
    assert found.description is None


# --- JSON-LD shapes ---------------------------------------------------------------------------------


def test_graph_prefers_the_article_over_other_objects():
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebPage", "name": "Page name", "description": "Page description", "inLanguage": "de"},
        {"@type": "Organization", "name": "Org name"},
        {"@type": "BreadcrumbList", "name": "Crumbs"},
        {"@type": "WebSite", "name": "River News"},
        {"@type": "BlogPosting", "headline": "Post headline", "datePublished": "2024-03-01T10:00:00Z"},
    ]}
    found = extract_metadata(make(json_ld(graph)))
    assert found.title == "Post headline"
    assert found.description == "Page description"  # the article has none: WebPage last
    assert found.site_name == "River News"
    assert found.published == utc(2024, 3, 1, 10)
    assert found.language == "de"


def test_type_may_be_a_list_and_a_full_iri():
    data = [{"@type": ["Thing", "NewsArticle"], "headline": "Listed type"},
            {"@type": "http://schema.org/WebPage", "name": "Page"}]
    assert extract_metadata(make(json_ld(data))).title == "Listed type"
    assert extract_metadata(make(json_ld({"@type": "http://schema.org/Article", "headline": "IRI"}))).title == "IRI"


def test_webpage_is_used_when_no_article_and_other_types_never():
    assert extract_metadata(make(json_ld({"@type": "WebPage", "name": "Only page"}))).title == "Only page"
    only_org = make(json_ld({"@type": "Organization", "name": "Org name"}) + "<title>Tag</title>")
    assert extract_metadata(only_org).title == "Tag"


def test_article_nested_as_main_entity_of_a_webpage():
    data = {"@type": "WebPage", "name": "Page", "mainEntity": {"@type": "Article", "headline": "Nested"}}
    assert extract_metadata(make(json_ld(data))).title == "Nested"


@pytest.mark.parametrize("author, expected", [
    ("Lena Dorn", "Lena Dorn"),
    ({"@type": "Person", "name": "Lena Dorn"}, "Lena Dorn"),
    ([{"@type": "Person", "name": "Lena Dorn"}, "Omar Ruiz", {"name": "Lena Dorn"}], "Lena Dorn, Omar Ruiz"),
    ({"@type": "Person", "givenName": "Lena", "familyName": "Dorn"}, "Lena Dorn"),
    ({"@id": "#lena"}, "Lena Dorn"),  # resolved through the @graph
])
def test_json_ld_author_shapes(author, expected):
    graph = {"@graph": [{"@type": "Article", "headline": "H", "author": author},
                        {"@type": "Person", "@id": "#lena", "name": "Lena Dorn"}]}
    page = make(json_ld(graph))
    assert extract_metadata(page).author == expected
    assert has_author(page)


def test_json_ld_author_without_a_name_is_no_author():
    page = make(json_ld({"@type": "Article", "headline": "H", "author": {"@id": "#nobody"}}))
    assert extract_metadata(page).author is None
    assert not has_author(page)


def test_publisher_name_is_the_json_ld_fallback_for_site_name():
    article = {"@type": "Article", "headline": "H", "publisher": {"@type": "Organization", "name": "Pub Co"}}
    assert extract_metadata(make(json_ld(article) + meta("og:site_name", "OG Site", "property"))).site_name == "Pub Co"
    assert extract_metadata(make(meta("og:site_name", "OG Site", "property"))).site_name == "OG Site"


def test_json_ld_strings_are_entity_decoded():
    page = make('<script type="application/ld+json">{"@type": "Article", "headline": "Salt &amp; Pepper"}</script>')
    assert extract_metadata(page).title == "Salt & Pepper"


# --- author fallbacks and the byline pattern -----------------------------------------------------------


@pytest.mark.parametrize("body, expected, source", [
    ('<address rel="author">Ana Lima</address><a rel="author" href="/u/x">Other Name</a>', "Ana Lima", "byline"),
    ('<a rel="author" href="/author/ana">View all posts by Ana Lima</a>', "Ana Lima", "byline"),
    ('<div itemprop="author" itemscope><img alt=""><span itemprop="name">Ana Lima</span><p>Bio</p></div>',
     "Ana Lima", "itemprop"),
    ('<p class="meta byline">By Ana Lima and Ben Ode | March 3, 2024</p>', "Ana Lima, Ben Ode", "byline"),
    ('<span class="post-author">Ana Lima</span>', "Ana Lima", "byline"),
    ('<h1>Story</h1><p>By Ana Lima</p><p>Text of the story.</p>', "Ana Lima", "byline"),
    ('<h1>Story</h1><div><span>By</span> <a href="/a">Ana Lima</a></div>', "Ana Lima", "byline"),
])
def test_dom_author_fallbacks(body, expected, source):
    page = make("", body)
    found = extract_metadata(page)
    assert (found.author, found.sources.get("author")) == (expected, source)
    assert has_author(page)


@pytest.mark.parametrize("body", [
    '<h1>Story</h1><p>By the river we walked</p>',  # lower-case words are not a name
    '<h1>Story</h1><p>By Tuesday</p>',  # one word is not a name
    '<h1>Story</h1><p>By Ana Lima, ' + "the towpath narrows between willows and slow water " * 4 + "</p>",
    '<p>By Ana Lima</p>',  # no headline: a "By" line alone is not looked for
    '<div class="comment-author">Troll Account</div>',  # a comment's author is not the article's
    '<div class="author"></div>',  # an empty author box
    '<h1>Story</h1><p>' + "Filler text. " * 5 + "</p>" * 1 + '<div>By the way, thanks.</div>',
])
def test_byline_negatives(body):
    page = make("", body)
    assert extract_metadata(page).author is None
    assert not has_author(page)


def test_by_line_under_the_article_headline_when_the_logo_is_an_h1():
    menu = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(30))  # longer than the window
    body = (f'<header><h1><a href="/">River News</a></h1><nav><ul>{menu}</ul></nav></header>'
            '<article><h1>Story</h1><p>By Ana Lima</p><p>Text.</p></article>')
    assert extract_metadata(make("", body)).author == "Ana Lima"


def test_by_prefix_is_dropped_from_metadata_names():
    assert extract_metadata(make(meta("author", "By Ana Lima"))).author == "Ana Lima"


def test_metadata_author_wins_over_a_byline():
    page = make(meta("author", "Meta Name"), '<h1>Story</h1><p class="byline">By Ana Lima</p>')
    assert extract_metadata(page).author == "Meta Name"


def test_profile_url_counts_for_has_author_but_is_not_a_name():
    page = make(meta("article:author", "https://www.facebook.com/ana.lima", "property") + meta("author", "Ana Lima"))
    found = extract_metadata(page)
    assert (found.author, found.sources["author"]) == ("Ana Lima", "meta")
    only_url = make(meta("article:author", "https://www.facebook.com/ana.lima", "property"))
    assert extract_metadata(only_url).author is None
    assert has_author(only_url)


@pytest.mark.parametrize("value", [
    "admin", "Webmaster", "The Author", "undefined", "Redaktion", "Staff", "Anonymous",  # roles and placeholders
    "ana.lima@example.org", "Ana Lima <ana@example.org>",  # e-mail addresses
    "223509017", "/ana-lima",  # an account number, a profile path
])
def test_a_value_that_is_no_persons_name_lets_the_next_tier_speak(value):
    page = make(meta("article:author", value, "property") + meta("author", "Ana Lima"))
    found = extract_metadata(page)
    assert (found.author, found.sources["author"]) == ("Ana Lima", "meta")
    assert extract_metadata(make(meta("author", value))).author is None


def test_leading_punctuation_is_no_part_of_a_name():
    # ", USA TODAY": a byline template joining an empty writer to the paper's name
    assert extract_metadata(make(meta("author", ", Ana Lima"))).author == "Ana Lima"
    assert extract_metadata(make(meta("author", "| Ana Lima"))).author == "Ana Lima"


@pytest.mark.parametrize("name", ["Ana Lima", "José Núñez", "李明", "Anna-Lena Weber", "Dr. Ana Lima", "Ana"])
def test_names_stay_names(name):
    assert extract_metadata(make(meta("author", name))).author == name


@pytest.mark.parametrize("head", [
    meta("article:author", "Ana Lima", "property"),
    json_ld({"@graph": [{"@type": "Organization", "name": "O"}, {"@type": "Recipe", "author": "Ana Lima"}]}),
    meta("twitter:creator", "@ana"),
    meta("author", "Ana Lima"),
])
def test_has_author_sources(head):
    assert has_author(make(head))


def test_has_author_false_without_any_author():
    assert not has_author(make("<title>T</title>", "<h1>Story</h1><p>Only the story, no byline.</p>"))


# --- "Published date in metadata" ----------------------------------------------------------------


@pytest.mark.parametrize("head, body", [
    (json_ld({"@type": "Article", "datePublished": "2024-03-01"}), ""),
    (json_ld({"@graph": [{"@type": "ImageObject", "datePublished": "2024-03-01"}]}), ""),
    (meta("article:published_time", "2024-03-01", "property"), ""),
    (meta("og:published_time", "2024-03-01", "property"), ""),
    (meta("date", "2024-03-01"), ""),
    (meta("DC.date", "2024-03-01"), ""),
    (meta("sailthru.date", "2024-03-01"), ""),
    (meta("parsely-pub-date", "2024-03-01"), ""),
    (meta("datePublished", "2024-03-01", "itemprop"), ""),
    ("", '<span itemprop="datePublished" content="2024-03-01">1 March</span>'),
])
def test_has_published_date_sources(head, body):
    assert has_published_date(make(head, body))


def test_has_published_date_false_for_bare_time_elements_and_nothing():
    listing = make("", '<ul><li><time datetime="2024-03-01">1 March</time></li></ul>')
    assert not has_published_date(listing)
    assert extract_metadata(listing).published == utc(2024, 3, 1)  # still the extraction fallback
    assert not has_published_date(make(meta("article:modified_time", "2024-03-01", "property")))
    assert not has_published_date(make(meta("date", "")))


def test_time_element_before_itemprop_and_after_metadata():
    body = '<span itemprop="datePublished">2024-02-01</span><time datetime="2024-02-02">2 Feb</time>'
    found = extract_metadata(make("", body))
    assert (found.published, found.sources["published"]) == (utc(2024, 2, 2), "time")
    found = extract_metadata(make(meta("date", "2024-02-03"), body))
    assert (found.published, found.sources["published"]) == (utc(2024, 2, 3), "meta")
    found = extract_metadata(make("", '<span itemprop="datePublished">2024-02-01</span>'))
    assert (found.published, found.sources["published"]) == (utc(2024, 2, 1), "itemprop")


def test_unparseable_candidate_falls_through_to_the_next():
    page = make(json_ld({"@type": "Article", "datePublished": "soon"}) + meta("date", "2024-02-03"))
    assert extract_metadata(page).published == utc(2024, 2, 3)


PAGES_FOR_SHORTCUT = [
    make(meta("article:author", "https://x.example/ana", "property")),
    make("", '<h1>Story</h1><p>By Ana Lima</p>'),
    make("", '<time datetime="2024-03-01">x</time><span itemprop="datePublished">not a date</span>'),
    make(meta("date", "garbage")),
    make("", "<p>nothing</p>"),
    make(TIERS["json-ld"]),
]


@pytest.mark.parametrize("page", PAGES_FOR_SHORTCUT)
def test_passing_metadata_gives_the_same_answers(page):
    found = extract_metadata(page)
    assert has_author(page, found) is has_author(page)
    assert has_published_date(page, found) is has_published_date(page)


# --- dates ------------------------------------------------------------------------------------------


def test_future_date_is_dropped_and_past_date_kept():
    assert parse_date("2024-06-01T00:00:00Z", CAPTURE) is None
    assert parse_date("2024-05-02T11:00:00Z", CAPTURE) == utc(2024, 5, 2, 11)  # within a day of skew
    assert parse_date("2024-04-30T00:00:00Z", CAPTURE) == utc(2024, 4, 30)
    assert parse_date("2024-06-01T00:00:00Z") == utc(2024, 6, 1)  # no capture time, nothing to compare
    page = make(meta("date", "2030-01-01") + meta("dc.date", "2024-04-01"))
    assert extract_metadata(page, CAPTURE).published == utc(2024, 4, 1)


def test_naive_capture_time_is_utc():
    assert parse_date("2024-05-03T00:00:00", datetime(2024, 5, 1, 12)) is None


@pytest.mark.parametrize("value, expected", [
    ("2024-03-01T10:00:00+02:00", utc(2024, 3, 1, 10)),  # the page's own wall clock: offsets dropped
    ("2024-03-01T10:00:00Z", utc(2024, 3, 1, 10)),
    ("2024-03-01T10:00:00 UTC", utc(2024, 3, 1, 10)),
    ("2024-03-01T10:00:00.123456789Z", utc(2024, 3, 1, 10, 0, 0, 123456)),
    ("2024-03-01", utc(2024, 3, 1)),
    ("2024-03-01T10:00:00", utc(2024, 3, 1, 10)),  # naive is UTC
    ("Fri, 01 Mar 2024 10:00:00 GMT", utc(2024, 3, 1, 10)),
    ("Fri, 01 Mar 2024 10:00:00 -0500", utc(2024, 3, 1, 10)),
    ("2024-3-1 9:05", utc(2024, 3, 1, 9, 5)),
    ("01.03.2024", utc(2024, 3, 1)),  # dotted dates are day first
    ("Di., 25.01.2022 - 14:45", utc(2022, 1, 25, 14, 45)),
    ("1709287200", utc(2024, 3, 1, 10)),
])
def test_parse_date_fast_path(value, expected, monkeypatch):
    def forbidden(text):
        raise AssertionError(f"dateparser called for {text!r}")

    monkeypatch.setattr(dates_module, "_parse_with_dateparser", forbidden)
    assert parse_date(value) == expected


@pytest.mark.parametrize("value, expected", [
    ("March 3, 2024", utc(2024, 3, 3)),
    ("3. März 2024", utc(2024, 3, 3)),
    ("le 3 mars 2024 à 10h00", utc(2024, 3, 3, 10)),
])
def test_parse_date_needs_dateparser(value, expected):
    assert parse_date(value) == expected


@pytest.mark.parametrize("value", [
    "", "   ", "not a date", "2024-13-45", "31.02.2024", "1985-05-01", "March 3",
    "2 hours ago", "1000 days ago", "vor 1000 Tagen",  # relative: would depend on the clock
    "x" * 200,
])
def test_parse_date_invalid(value):
    assert parse_date(value) is None


def test_dateparser_calls_are_budgeted_per_page(monkeypatch):
    calls = []
    monkeypatch.setattr(dates_module, "_parse_with_dateparser", lambda text, _language=None: calls.append(text))
    head = "".join(meta(key, f"someday 3 in {1999 + i}") for i, key in enumerate(("date", "dc.date", "pubdate")))
    assert extract_metadata(make(head)).published is None
    assert len(calls) == dates_module.SLOW_DATE_PARSES_PER_PAGE


# --- language ----------------------------------------------------------------------------------------

LANGUAGE_SOURCES = {
    "html-lang": ("fr-FR", ""),
    "og": (None, meta("og:locale", "de_DE", "property")),
    "json-ld": (None, json_ld({"@type": "Article", "headline": "H", "inLanguage": "es"})),
    "meta-http-equiv": (None, meta("content-language", "it", "http-equiv")),
    "meta-name": (None, meta("language", "nl")),
}


@pytest.mark.parametrize("first, expected", [
    ("html-lang", "fr"), ("og", "de"), ("json-ld", "es"), ("meta-http-equiv", "it"), ("meta-name", "nl"),
])
def test_language_sources_in_seed_order(first, expected):
    order = list(LANGUAGE_SOURCES)
    present = order[order.index(first):]
    lang = LANGUAGE_SOURCES["html-lang"][0] if first == "html-lang" else None
    page = make("".join(LANGUAGE_SOURCES[name][1] for name in present), "<p>x</p>", lang=lang)
    assert language_of(page) == expected
    assert extract_metadata(page).language == expected


def test_language_is_never_guessed_from_text():
    page = make("<title>English</title>", "<p>" + "This page is plainly written in English. " * 20 + "</p>")
    assert language_of(page) is None
    assert "language" not in extract_metadata(page).sources


@pytest.mark.parametrize("lang", ["", "*", "x-default", "i-klingon", "und", "e1", "englishish"])
def test_junk_html_lang_falls_through(lang):
    assert language_of(make(meta("og:locale", "pt_BR", "property"), lang=lang)) == "pt"


def test_json_ld_in_language_object():
    data = {"@type": "Article", "inLanguage": {"@type": "Language", "name": "Spanish", "alternateName": "es"}}
    assert language_of(make(json_ld(data))) == "es"


@pytest.mark.parametrize("value, expected", [
    ("en-GB", "en"), ("pt_BR", "pt"), ("EN", "en"), ("zh-Hans-CN", "zh"), ("English", "en"), ("de, en", "de"),
    ("haw", "haw"), ("", None), ("*", None), ("x-default", None), ("und", None), ("e4", None), (None, None),
    # deprecated, three-letter and macrolanguage members: the code language ID gives
    ("iw", "he"), ("in-ID", "id"), ("jw", "jv"), ("eng", "en"), ("ger", "de"), ("deu-CH", "de"), ("cmn-Hans", "zh"),
    ("mul", None), ("zxx", None), ("i-klingon", None), ("Français", "fr"), ("francais", "fr"),
])
def test_normalise_language(value, expected):
    assert normalise_language(value) == expected


# --- canonical URL, tags, reading time ------------------------------------------------------------------


def test_canonical_is_resolved_to_absolute():
    og_url = meta("og:url", "https://o.example/", "property")
    found = extract_metadata(make('<link rel="Canonical" href="/2024/03/river-story?ref=x">' + og_url))
    assert found.canonical_url == "https://news.example.org/2024/03/river-story?ref=x"
    assert found.sources["canonical_url"] == "link"
    found = extract_metadata(make(meta("og:url", "/from-og", "property")))
    assert (found.canonical_url, found.sources["canonical_url"]) == ("https://news.example.org/from-og", "og")


def test_canonical_uses_base_href_and_refuses_what_cannot_be_absolute():
    page = make('<base href="https://cdn.example.net/site/"><link rel="canonical" href="story">')
    assert extract_metadata(page).canonical_url == "https://cdn.example.net/site/story"
    assert extract_metadata(make('<link rel="canonical" href="/relative">', url=None)).canonical_url is None
    assert extract_metadata(make('<link rel="canonical" href="javascript:void(0)">')).canonical_url is None


def test_tags_merged_deduplicated_order_kept():
    head = (json_ld({"@type": "Article", "headline": "H", "keywords": "rivers, Herons"})
            + meta("article:tag", "herons", "property") + meta("article:tag", "Mills", "property")
            + meta("keywords", "rivers,towpaths,  mills ,"))
    found = extract_metadata(make(head))
    assert found.tags == ("rivers", "Herons", "Mills", "towpaths")
    assert found.sources["tags"] == "json-ld+og+meta"
    listed = json_ld({"@type": "Article", "keywords": ["a", "b", {"@type": "DefinedTerm", "name": "c"}, "A"]})
    assert extract_metadata(make(listed)).tags == ("a", "b", "c")
    assert extract_metadata(make("")).tags == ()


@pytest.mark.parametrize("words, minutes", [(0, 1), (1, 1), (200, 1), (201, 2), (400, 2), (401, 3)])
def test_reading_time(words, minutes):
    assert reading_time_minutes(words) == minutes


# --- odd pages ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("head, body", [
    ('<script type="application/ld+json">{"@type": "Article", "headline": </script>', ""),
    (json_ld({"@type": 7, "author": 5, "datePublished": ["", None, 3], "keywords": {}, "inLanguage": [[1]],
              "publisher": [[{"name": "x"}]], "mainEntityOfPage": {"@id": 3}, "headline": {"@value": ""}}), ""),
    (json_ld([[], "x", 1, None]), ""),
    (meta("date", "99999-99-99") + '<link rel="canonical" href="http://[broken">', ""),
    ("", '<address rel="author"></address><div itemprop="author"><meta itemprop="name"></div><h1></h1>'),
    ("", "<h1>t</h1><!-- By Ana Lima --><p>By</p>"),
])
def test_odd_pages_never_raise(head, body):
    page = make(head, body)
    found = extract_metadata(page, CAPTURE)
    assert found.published is None or found.published.tzinfo is not None
    has_author(page)
    has_published_date(page)
    language_of(page)


def test_page_from_a_fragment_root():
    page = Page(lxml.html.fromstring('<div><h1 itemprop="headline">Only a div</h1></div>'), None)
    assert extract_metadata(page).title == "Only a div"


def test_dates_are_read_in_the_declared_language(monkeypatch):
    seen = []
    monkeypatch.setattr(dates_module, "_parse_with_dateparser", lambda text, language=None: seen.append(language))
    page = make(meta("date", "25 janvier 2024 à 10h"))
    page.tree.getroottree().getroot().set("lang", "fr-FR")
    extract_metadata(page)
    assert seen == ["fr"]


# --- inferred dates (htmldate) and their provenance ------------------------------------------------


def test_a_page_without_a_declared_date_gets_htmldate_s_date_marked_inferred():
    page = make(body="<h1>Flood</h1><p>The river rose.</p>", url="https://example.org/2019/05/17/flood.html")
    before = lxml.html.tostring(page.tree)
    found = extract_metadata(page, CAPTURE)
    assert (found.published, found.sources["published"]) == (utc(2019, 5, 17), "htmldate")
    assert lxml.html.tostring(page.tree) == before  # htmldate prunes a copy, never the shared tree
    assert extract_metadata(page, CAPTURE, infer_dates=False).published is None  # presets/seed.yaml
    assert not has_published_date(page, found)  # an inferred date is not "date in metadata"


def test_a_declared_date_wins_and_htmldate_is_not_asked(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("htmldate asked although the page declares its date")

    monkeypatch.setattr(dates_module, "infer_date", forbidden)
    monkeypatch.setattr("filters.metadata.fields.infer_date", forbidden)
    page = make(meta("article:published_time", "2021-02-03", "property"), url="https://example.org/2019/05/17/a")
    found = extract_metadata(page, CAPTURE)
    assert (found.published, found.sources["published"]) == (utc(2021, 2, 3), "og")


def test_an_inferred_date_is_never_after_the_capture_day():
    page = make(body="<p>Text</p>", url="https://example.org/2024/06/20/later.html")
    assert extract_metadata(page, CAPTURE).published is None  # captured 2024-05-01
    assert extract_metadata(page, utc(2024, 6, 20, 9)).published == utc(2024, 6, 20)


# --- authors: names, not handles or publishers -----------------------------------------------------


def test_a_twitter_handle_is_not_a_name_and_the_next_tier_speaks():
    page = make(meta("twitter:creator", "@riverdesk") + meta("author", "Jane Doe"))
    found = extract_metadata(page)
    assert (found.author, found.sources["author"]) == ("Jane Doe", "meta")
    assert extract_metadata(make(meta("twitter:creator", "@riverdesk"))).author is None


@pytest.mark.parametrize("creator", ["MozDevNet", "@jane_doe", "BSS", "github"])
def test_a_twitter_username_without_its_at_sign_is_no_author_and_the_next_tier_speaks(creator):
    assert extract_metadata(make(meta("twitter:creator", creator))).author is None
    page = make(meta("twitter:creator", creator) + meta("author", "Jane Doe"))
    assert extract_metadata(page).author == "Jane Doe"
    assert has_author(make(meta("twitter:creator", creator)))  # the page still declares one (the article score)


def test_a_twitter_creator_written_as_a_name_is_read():
    assert extract_metadata(make(meta("twitter:creator", "Tina Twain"))).author == "Tina Twain"


def test_an_organisation_named_as_author_comes_after_a_person_anywhere():
    organisation = {"@type": "NewsArticle", "headline": "H", "author": {"@type": "Organization", "name": "Desk Inc"}}
    page = make(json_ld(organisation) + meta("author", "Jane Doe"))
    assert extract_metadata(page).author == "Jane Doe"
    assert extract_metadata(make(json_ld(organisation))).author == "Desk Inc"  # the last resort
    person = {**organisation, "author": {"@type": "Person", "name": "Lena Dorn"}}
    assert extract_metadata(make(json_ld(person) + meta("author", "Jane Doe"))).author == "Lena Dorn"


@pytest.mark.parametrize("byline, expected", [
    ('<span>By</span><a href="/a">Amy Roeder</a>', "Amy Roeder"),
    ('<a href="/a">Luke Kim</a><time>December 3, 2024</time>', "Luke Kim"),
    ('<a href="/u">changingtimes</a> » Sat Feb 15, 2025 9:01 pm', "changingtimes"),
    ("<a>Theresa May</a>", "Theresa May"),  # a month name that is part of a name, not a date
])
def test_a_byline_s_pieces_are_spaced_and_its_date_cut_off(byline, expected):
    page = make(body=f'<article><h1>Story</h1><div class="byline">{byline}</div><p>Text.</p></article>')
    assert extract_metadata(page).author == expected
