"""Seed 000 §1: each table row at both sides of its rule, and the seed's score examples."""

from __future__ import annotations

import pytest

from filters.page.article_score import WEIGHTS, article_score, url_components
from pages import FOOTER, JSON_LD_POST, NAV, OG_ARTICLE, html, page, paragraphs, words


def score(p, author=False, date=False) -> tuple[int, dict]:
    return article_score(p, author, date)


@pytest.mark.parametrize("path, component, expected", [
    ("/blog/cycling", "url_article_path", True),
    ("/p/cycling", "url_article_path", True),
    ("/blogging-tips/cycling", "url_article_path", False),
    ("/2024/05/cycling", "url_date", True),
    ("/2024/05/01/cycling", "url_date", True),
    ("/2024-05/cycling", "url_date", False),
    ("/en/blog/2024/great-post", "url_long_slug", True),
    ("/en/blog/great-post", "url_long_slug", False),
    ("/about", "url_shallow", True),
    ("/", "url_shallow", True),
    ("/docs/about", "url_shallow", False),
    ("/about-us/", "url_shallow", True),
    ("/contact.html", "url_shallow", True),
    ("/terms-and-conditions", "url_shallow", True),  # three words: still a site page
    ("/2024-annual-report", "url_shallow", True),  # only two words with a letter
    ("/long-hyphenated-headline-words/", "url_shallow", False),  # a post at the site root
    ("/why_we_moved_to_the_coast.html", "url_shallow", False),
    ("/stadtrat-beschliesst-neue-radwege-am-ring", "url_shallow", False),
    ("/tag/python/", "url_excluded", True),
    ("/search", "url_excluded", True),
    ("/about.html", "url_excluded", True),
    ("/blog/about-time", "url_excluded", False),
    ("/blog/tagged-photos", "url_excluded", False),
    ("/blog/page/2/", "url_paginated", True),
    ("/blog/page/two/", "url_paginated", False),
    ("/author/jane-doe/", "url_author_listing", True),
    ("/author/jane-doe/my-post", "url_author_listing", False),
])
def test_url_rows(path, component, expected):
    assert url_components(f"https://example.org{path}")[component] is expected


def test_paginated_query():
    assert url_components("https://example.org/blog?page=3")["url_paginated"]
    assert not url_components("https://example.org/blog?pages=3")["url_paginated"]


def test_components_carry_their_weights_and_sum_to_the_score():
    p = page(html(f"<h1>Cycling lanes</h1>{paragraphs(6, 60)}", head=JSON_LD_POST + OG_ARTICLE),
             "https://blog.example.org/blog/2024/05/cycling-lanes")
    total, signals = score(p, author=True, date=True)
    parts = {k.removeprefix("article_score_"): v for k, v in signals.items() if k.startswith("article_score_")}
    assert set(parts) == set(WEIGHTS)
    assert sum(parts.values()) == total
    for name, value in parts.items():
        assert value in (0, WEIGHTS[name])
    assert parts["jsonld_article"] == 10 and parts["og_article"] == 5 and parts["url_date"] == 10


@pytest.mark.parametrize("count, over_300, between", [(301, 20, 0), (300, 0, 10), (150, 0, 10), (149, 0, 0)])
def test_word_count_rows(count, over_300, between):
    _, signals = score(page(html(f"<div>{words(count)}</div>")))
    assert signals["body_word_count"] == count
    assert signals["article_score_words_over_300"] == over_300
    assert signals["article_score_words_150_300"] == between


def test_words_counted_without_nav_header_footer_script():
    body = f"<header>{words(200)}</header>{NAV}<div>{words(40)}</div><script>var x = 1;</script>{FOOTER}"
    _, signals = score(page(html(body)))
    assert signals["body_word_count"] == 40
    assert signals["article_score_very_short_text"] == -20


def test_very_short_text_boundary():
    assert score(page(html(f"<div>{words(49)}</div>")))[1]["article_score_very_short_text"] == -20
    assert score(page(html(f"<div>{words(50)}</div>")))[1]["article_score_very_short_text"] == 0


def test_exactly_one_h1():
    assert score(page(html("<h1>A</h1>")))[1]["article_score_one_h1"] == 15
    assert score(page(html("<h1>A</h1><h1>B</h1>")))[1]["article_score_one_h1"] == 0
    assert score(page(html("<h2>A</h2>")))[1]["article_score_one_h1"] == 0


def test_metadata_rows_follow_the_given_flags():
    p = page(html("<p>x</p>"))
    assert score(p, author=True)[1]["article_score_author_metadata"] == 10
    assert score(p, author=False)[1]["article_score_author_metadata"] == 0
    assert score(p, date=True)[1]["article_score_date_metadata"] == 10
    assert score(p, date=False)[1]["article_score_date_metadata"] == 0


@pytest.mark.parametrize("ld_type, expected", [
    ('"NewsArticle"', 10), ('["WebPage", "TechArticle"]', 10), ('"Organization"', 0), ('"WebPage"', 0)])
def test_json_ld_type_row(ld_type, expected):
    head = f'<script type="application/ld+json">{{"@type": {ld_type}}}</script>'
    assert score(page(html("<p>x</p>", head=head)))[1]["article_score_jsonld_article"] == expected


def test_json_ld_graph_type():
    head = ('<script type="application/ld+json">{"@context":"https://schema.org","@graph":['
            '{"@type":"WebSite"},{"@type":"Article","headline":"x"}]}</script>')
    assert score(page(html("<p>x</p>", head=head)))[1]["article_score_jsonld_article"] == 10


def test_og_type_row():
    assert score(page(html("", head=OG_ARTICLE)))[1]["article_score_og_article"] == 5
    assert score(page(html("", head='<meta property="og:type" content="website">')))[1][
        "article_score_og_article"] == 0


def test_paragraph_row_counts_only_paragraphs_of_20_chars():
    four = "".join("<p>twenty characters long!</p>" for _ in range(4))
    three_and_short = "".join("<p>twenty characters long!</p>" for _ in range(3)) + "<p>short one</p>"
    assert score(page(html(four)))[1]["article_score_paragraphs_over_3"] == 5
    assert score(page(html(three_and_short)))[1]["article_score_paragraphs_over_3"] == 0


def test_outbound_links_are_other_hosts():
    external = "".join(f"<a href='https://site{i}.example.com/x'>l</a>" for i in range(21))
    internal = "".join(f"<a href='https://www.blog.example.org/p/{i}'>l</a><a href='/rel/{i}'>r</a>"
                       for i in range(30))
    assert score(page(html(external)))[1]["article_score_many_outbound_links"] == -10
    assert score(page(html(external[: external.rfind("<a")])))[1]["article_score_many_outbound_links"] == 0
    assert score(page(html(internal)))[1]["outbound_link_count"] == 0


def test_rel_next_prev():
    assert score(page(html("", head='<link rel="next" href="/page/3/">')))[1]["article_score_rel_next_prev"] == -15
    assert score(page(html('<a rel="prev" href="/page/1/">older</a>')))[1]["article_score_rel_next_prev"] == -15
    assert score(page(html('<a rel="nofollow" href="/x">x</a>')))[1]["article_score_rel_next_prev"] == 0


# Seed 000 §1 "Score Examples": one realistic page per row, the score must land in the range.
TEASERS = "".join(f"<article><h2><a href='/blog/post-{i}'>Post number {i} about city life</a></h2>"
                  f"<p>{words(18)}</p></article>" for i in range(10))


def full_post():
    return page(html(f"{NAV}<article><h1>Cycling lanes cut commute times</h1><p class='byline'>By Ada Byron</p>"
                     f"{paragraphs(7, 70)}</article>{FOOTER}", head=JSON_LD_POST + OG_ARTICLE),
                "https://blog.example.org/blog/cycling-lanes-cut-commute-times")


def short_post():
    return page(html(f"{NAV}<article><h1>A quick note</h1>{paragraphs(4, 45)}</article>{FOOTER}"),
                "https://blog.example.org/blog/a-quick-note")


def listing():
    return page(html(f"{NAV}<h1>Blog</h1>{TEASERS}{FOOTER}"), "https://blog.example.org/blog/")


def tag_page():
    return page(html(f"{NAV}<h1>Posts tagged: cycling</h1>{TEASERS[:600]}{FOOTER}"),
                "https://blog.example.org/tag/cycling/")


def home_page():
    links = "".join(f"<li><a href='https://partner{i}.example.net/'>Partner {i}</a></li>" for i in range(25))
    return page(html(f"{NAV}<h1>Example Blog</h1><div>{words(120)}</div><ul>{links}</ul>{FOOTER}"),
                "https://blog.example.org/")


def paginated():
    head = '<link rel="prev" href="/blog/page/1/"><link rel="next" href="/blog/page/3/">'
    return page(html(f"{NAV}{TEASERS}{FOOTER}", head=head), "https://blog.example.org/blog/page/2/")


@pytest.mark.parametrize("build, author, date, low, high", [
    (full_post, True, True, 70, 90),
    (short_post, False, False, 40, 55),
    (listing, False, False, 5, 25),
    (tag_page, False, False, -30, -5),
    (home_page, False, False, -20, 10),
    (paginated, False, False, -20, 0),
])
def test_seed_score_examples(build, author, date, low, high):
    total, _ = score(build(), author, date)
    assert low <= total <= high


def test_threshold_separates_articles_from_listings():
    assert score(full_post(), True, True)[0] >= 35 and score(short_post())[0] >= 35
    assert all(score(build())[0] < 35 for build in (listing, tag_page, home_page, paginated))
