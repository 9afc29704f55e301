"""Article score (docs/filters.md, "Scoring a page"): every row of its table with its weight.

Input: a parsed page and whether metadata found an author and a date. Output (`article_score`): the total in
points and one signal per row (`article_score_<component>`), so a user sees *why* a page scored what it did.
The threshold (35 in presets/seed.yaml) is `extract.gate.article_score_min`. Our readings where the table is
terse (docs/filters.md):
* soft-exclude patterns without a trailing slash ("path contains `/about`") match whole path segments, with an
  optional extension (`/about.html`), so `/blog/about-time` is not penalised; `/tag/` matches as written, and
  `/search` also matches `/search?q=...`; path depth counts non-empty segments (`/` is 0, `/about` is 1);
* "Single-segment path (home/about/etc)", −20 for "path depth ≤ 1", skips a headline slug (`is_headline_slug`);
* "Author listing" is `/author/` and at most one more segment (`/author/jane/`);
* words are the visible body text's without nav/header/footer/script/style/template; "outbound links" are
  `<a href>` to another host (`www.` ignored), relative links are internal.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pyarrow as pa
from lxml import etree

from filters.core.declarations import Rule, Signal
from filters.parse.html import host_of, web_address
from filters.parse.parsed import Page

ARTICLE_PATH_SEGMENTS = ("blog", "post", "posts", "article", "articles", "news", "story", "stories",
                         "essay", "essays", "journal", "write", "p")
EXCLUDED_SEGMENTS = ("tag", "tags", "category", "categories", "search", "login", "signup", "register",
                     "privacy", "terms", "contact", "about", "archive", "archives", "feed", "rss", "sitemap")
ARTICLE_JSON_LD_TYPES = frozenset({"Article", "BlogPosting", "NewsArticle", "TechArticle", "ScholarlyArticle"})

WEIGHTS: dict[str, int] = {
    "url_article_path": 15,
    "url_date": 10,
    "url_long_slug": 5,
    "url_shallow": -20,
    "url_excluded": -30,
    "url_paginated": -15,
    "url_author_listing": -10,
    "words_over_300": 20,
    "words_150_300": 10,
    "one_h1": 15,
    "author_metadata": 10,
    "date_metadata": 10,
    "jsonld_article": 10,
    "og_article": 5,
    "paragraphs_over_3": 5,
    "many_outbound_links": -10,
    "rel_next_prev": -15,
    "very_short_text": -20,
}
COMPONENT_SIGNALS: tuple[str, ...] = tuple(f"article_score_{name}" for name in WEIGHTS)

_DATE_IN_PATH = re.compile(r"\d{4}/\d{2}(/\d{2})?")
_ARTICLE_SEGMENT = re.compile(r"/(?:{})/".format("|".join(ARTICLE_PATH_SEGMENTS)))
_EXCLUDED = re.compile(r"/(?:{})(?:/|\.[a-z0-9]{{1,5}}$|$)".format("|".join(EXCLUDED_SEGMENTS)))
_PAGINATED_PATH = re.compile(r"/page/\d+/?$")
_PAGINATED_QUERY = re.compile(r"(?:^|&)page=\d+(?:&|$)")
_AUTHOR_LISTING = re.compile(r"/author/(?:[^/]+/?)?$")
SLUG_MIN_WORDS = 4
SLUG_MIN_ALPHA_WORDS = 3
_SLUG_SEPARATORS = re.compile(r"[-_]+")
_SEGMENT_EXTENSION = re.compile(r"\.[a-z0-9]{1,5}$")
_PARAGRAPH_MIN_CHARS = 20
_PARAGRAPHS = etree.XPath(f"count(//p[string-length(normalize-space()) >= {_PARAGRAPH_MIN_CHARS}])")
_LINK_HOST = re.compile(r"^[ \t]*(?:https?:)?//(?:[^/?#@\n]*@)?([^/?#:\s]+)", re.IGNORECASE | re.MULTILINE)
_OUTBOUND_LINK_LIMIT = 20
_RELS = etree.XPath("//link/@rel | //a/@rel", smart_strings=False)


def url_components(url: str | None) -> dict[str, bool]:
    """Which URL rows of the table apply (all False without a web address: see `web_address`)."""
    parts = web_address(url)
    if parts is None:
        return dict.fromkeys(("url_article_path", "url_date", "url_long_slug", "url_shallow", "url_excluded",
                              "url_paginated", "url_author_listing"), False)
    path = parts.path.lower() or "/"
    depth = len([segment for segment in path.split("/") if segment])
    return {
        "url_article_path": bool(_ARTICLE_SEGMENT.search(path if path.endswith("/") else path + "/")),
        "url_date": bool(_DATE_IN_PATH.search(path)),
        "url_long_slug": depth >= 4,
        "url_shallow": depth == 0 or (depth == 1 and not is_headline_slug(path.strip("/"))),
        "url_excluded": bool(_EXCLUDED.search(path)),
        "url_paginated": bool(_PAGINATED_PATH.search(path) or _PAGINATED_QUERY.search(parts.query.lower())),
        "url_author_listing": bool(_AUTHOR_LISTING.search(path)),
    }


def is_headline_slug(segment: str) -> bool:
    """A path segment that reads as a headline: >= `SLUG_MIN_WORDS` (4) hyphen- or underscore-separated words, at
    least `SLUG_MIN_ALPHA_WORDS` (3) of them with a letter (`/long-hyphenated-headline-words/`).

    The single-segment row's label says it is for home and about-like pages (`/`, `/about-us`, `/contact.html`,
    `/shop`); a headline slug at the site root is a post, as WordPress and Ghost publish them, and is not penalised.
    Four words keep `/terms-and-conditions` and `/frequently-asked-questions` (three) penalised.
    """
    words = [word for word in _SLUG_SEPARATORS.split(_SEGMENT_EXTENSION.sub("", segment)) if word]
    alphabetic = sum(any(c.isalpha() for c in word) for word in words)
    return len(words) >= SLUG_MIN_WORDS and alphabetic >= SLUG_MIN_ALPHA_WORDS


def content_components(page: Page, has_author: bool, has_date: bool) -> tuple[dict[str, bool], dict[str, int]]:
    """Which content rows apply, and the counts they were decided on."""
    words = page.body_word_count
    counts = {
        "body_word_count": words,
        "h1_count": sum(1 for _ in page.tree.iter("h1")),
        "paragraph_count": paragraph_count(page),
        "outbound_link_count": outbound_link_count(page),
    }
    og_type = (page.meta_first("og:type") or "").strip().lower()
    applies = {
        "words_over_300": words > 300,
        "words_150_300": 150 <= words <= 300,
        "one_h1": counts["h1_count"] == 1,
        "author_metadata": has_author,
        "date_metadata": has_date,
        "jsonld_article": bool(page.json_ld_types() & ARTICLE_JSON_LD_TYPES),
        "og_article": og_type == "article",
        "paragraphs_over_3": counts["paragraph_count"] > 3,
        "many_outbound_links": counts["outbound_link_count"] > _OUTBOUND_LINK_LIMIT,
        "rel_next_prev": has_rel_next_prev(page),
        "very_short_text": words < 50,
    }
    return applies, counts


def article_score(page: Page, has_author: bool, has_date: bool) -> tuple[int, dict[str, Any]]:
    """Total score and signals: one `article_score_<component>` (points) per table row, plus counts."""
    applies = url_components(page.url)
    content, counts = content_components(page, has_author, has_date)
    applies.update(content)
    signals: dict[str, Any] = {f"article_score_{name}": WEIGHTS[name] if hit else 0 for name, hit in applies.items()}
    signals.update(counts)
    return sum(signals[name] for name in COMPONENT_SIGNALS), signals


def paragraph_count(page: Page) -> int:
    """`<p>` elements with at least 20 characters of text, whitespace-normalised."""
    return int(_PARAGRAPHS(page.tree))


def outbound_link_count(page: Page) -> int:
    """`<a href>` pointing to another host than the page's (hosts read with a regex, not urlsplit:
    pages carry hundreds of links)."""
    own = _site(page.url)
    hrefs = "\n".join(page.hrefs)
    hosts = Counter(host.lower().removeprefix("www.") for host in _LINK_HOST.findall(hrefs))
    return sum(count for host, count in hosts.items() if host != own)


def has_rel_next_prev(page: Page) -> bool:
    values = _RELS(page.tree)
    return any({"next", "prev", "previous"} & set(value.lower().split()) for value in values)


def _site(url: str | None) -> str | None:
    host = host_of(url)
    return host.removeprefix("www.") if host else None

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    *(Signal(f"article_score_{name}", pa.int32(), f"article score points for '{name}'")
      for name in WEIGHTS),
    Signal("body_word_count", pa.int32(), "words of visible body text without nav/header/footer/script/style"),
    Signal("h1_count", pa.int32(), "<h1> elements"),
    Signal("paragraph_count", pa.int32(), "<p> elements with at least 20 characters"),
    Signal("outbound_link_count", pa.int32(), "<a href> links to another host"),
)
RULES: tuple[Rule, ...] = (
    Rule("article.score", "article score below the threshold; not extracted unless "
         "--extract-all", "article_score", "<", "extract", params_key="extract.gate.article_score_min"),
)
