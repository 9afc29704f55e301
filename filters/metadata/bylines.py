"""Authors and dates found in the page's markup rather than its metadata (docs/filters.md, "Metadata").

These DOM selectors are the last resort of the metadata priority: for the author
`address[rel=author]`, `[rel=author]`, `[itemprop=author]`, `.by-line, .byline, .author-name,
.author`, then a "By Firstname Lastname" line under the headline (the article header); for the
date `[itemprop=datePublished]` (`time[datetime]` is read by `filters.metadata.fields`). DOM scans cost
about a quarter of a parse each, so `Dom` runs each at most once per call, and only if asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cached_property
from itertools import islice

from lxml import etree
from lxml.html import HtmlElement

from filters.parse.parsed import clean_text

# A byline is one line: "By Jane Doe and John Roe, Staff Writers | March 3, 2024" fits; a paragraph
# that happens to start with "By" does not.
BYLINE_MAX_CHARS = 120
# Elements after the headline searched for a "By ..." line, and headlines tried (a logo may be an h1).
BYLINE_WINDOW = 40
HEADLINES_TRIED = 3
# DOM elements tried per selector before giving up.
DOM_CANDIDATES = 5


def author_names(names: Iterable[str]) -> list[str]:
    """Author values as names (`is_name`): "By" and leading punctuation dropped, values that are no
    person's name refused, duplicates (ignoring case) dropped."""
    kept: list[str] = []
    for raw in names:
        name = clean_text(_BY_PREFIX.sub("", raw, count=1))
        name = clean_text(_LEADING_PUNCTUATION.sub("", name)) if name else None  # ", USA TODAY": a broken join
        if name and is_name(name) and name.casefold() not in (k.casefold() for k in kept):
            kept.append(name)
    return kept


def _has_email(value: str) -> bool:
    """Whether a word of `value` is an e-mail address (`ann@example.org`, `<ann@example.org>`); read
    word by word, in linear time, not by a regex that backtracks on a run of `@`."""
    return any(word.find("@") > 0 and "." in word.rsplit("@", 1)[1] for word in value.split())


def is_name(value: str) -> bool:
    """Whether an author value can be a person's name: not a URL or a profile (`@ann`, `/ann`; an OG
    `article:author` is often a profile URL, `twitter:creator` a handle), not an e-mail address, not
    a role or placeholder a template puts there (`ROLE_WORDS`: "admin", "Webmaster", "The Author",
    "undefined"), and not without a letter (an account number)."""
    if _URL_LIKE.match(value) or value.startswith(("@", "/")) or _has_email(value):
        return False
    return value.casefold() not in ROLE_WORDS and any(char.isalpha() for char in value)


class Dom:
    """DOM look-ups for one call; each tree scan runs at most once, and only if asked."""

    def __init__(self, tree: HtmlElement) -> None:
        self.tree = tree

    @cached_property
    def body(self) -> HtmlElement:
        root = self.tree.getroottree().getroot()
        body = root.find("body")
        return body if body is not None else root

    @cached_property
    def marked(self) -> list[HtmlElement]:
        """Every body element with an itemprop, a rel, or an author/byline-like class (one scan)."""
        return _MARKED(self.body)

    @cached_property
    def itemprops(self) -> list[HtmlElement]:
        # The wider scan, when it already ran, holds every itemprop element too.
        marked = self.__dict__.get("marked")
        elements = marked if marked is not None else _ITEMPROP(self.body)
        return [element for element in elements if element.get("itemprop")]

    def with_itemprop(self, name: str) -> list[HtmlElement]:
        return [element for element in self.itemprops if name in element.get("itemprop", "").split()]

    def headlines(self) -> Iterator[HtmlElement]:
        return islice(self.tree.iter("h1"), HEADLINES_TRIED)


def itemprop_dates(dom: Dom, name: str) -> Iterator[tuple[str, str]]:
    for element in dom.with_itemprop(name)[:DOM_CANDIDATES]:
        value = clean_text(element.get("content") or element.get("datetime") or _element_text(element))
        if value:
            yield value, "itemprop"


def _element_text(element: HtmlElement) -> str | None:
    """Collapsed text of an element; None for page-sized containers (`<body class="author">`), whose
    text is never a byline and costs a pass over the page to collect."""
    if element.tag in _CONTAINER_TAGS:
        return None
    # Text nodes joined with a space: `<span>By</span><a>Jane Doe</a><time>March 3</time>` is
    # "By Jane Doe March 3", not "ByJane DoeMarch 3".
    return clean_text(" ".join(element.itertext()))


_CONTAINER_TAGS = frozenset({"html", "body", "main", "article", "section"})
# Cheap prefilters in the scan (every string function costs a pass over the page); exact tokens
# are checked in Python.
# A superset of what the author rules accept (rel tokens containing "author", class tokens
# ending in author/byline/by-line); Python then checks tokens exactly. Narrow on purpose: every
# element matched here becomes a Python object. Found from the attributes (`@class[...]/..`): a
# predicate on every element (`*[contains(@class, ...)]`) costs twice as much.
_MARKED = etree.XPath("descendant::*/@itemprop/.. | descendant::*/@rel[contains(., 'author')]/.. "
                      "| descendant::*/@class[contains(., 'author') or contains(., 'byline') "
                      "or contains(., 'by-line')]/..")
_ITEMPROP = etree.XPath("descendant::*/@itemprop/..")


def dom_authors(dom: Dom) -> Iterator[tuple[list[str], str]]:
    """The DOM author selectors in order, then a "By Firstname Lastname" line."""
    marked = dom.marked
    rel = [element for element in marked if element.tag != "link" and "author" in tokens(element, "rel")]
    rel.sort(key=lambda element: element.tag != "address")  # address[rel=author] first
    for element in rel[:DOM_CANDIDATES]:
        names = _byline_names(_element_text(element), strict=False)
        if names:
            yield names, "byline"
    for element in dom.with_itemprop("author")[:DOM_CANDIDATES]:
        if element.tag in ("meta", "link"):  # <meta itemprop=author> is already in Page.meta
            continue
        name_elements = [child for child in element.iterdescendants(etree.Element)
                         if "name" in (child.get("itemprop") or "").split()]
        holder = name_elements[0] if name_elements else element
        names = _byline_names(clean_text(holder.get("content")) or _element_text(holder), strict=False)
        if names:
            yield names, "itemprop"
    classed = [element for element in marked if any(_BYLINE_CLASS.match(t) for t in tokens(element, "class"))]
    for element in classed[:DOM_CANDIDATES]:
        names = _byline_names(_element_text(element), strict=False)
        if names:
            yield names, "byline"
    for names in _by_lines(dom):
        yield names, "byline"


def _by_lines(dom: Dom) -> Iterator[list[str]]:
    """"By Firstname Lastname" at the start of a short element among the first ones after a headline.

    Bylines sit under the headline (the article header); looking only there keeps the
    check cheap and keeps "By the time we arrived ..." in a comment thread from counting.
    """
    for headline in dom.headlines():
        for element in islice(_following(headline), BYLINE_WINDOW):
            if _BY_PREFIX.match(element.text or ""):
                names = _byline_at(element)
                if names:
                    yield names
                    return


def _following(headline: HtmlElement) -> Iterator[HtmlElement]:
    """Elements after `headline` in document order, up to the end of its article/main/section."""
    node: HtmlElement | None = headline
    while node is not None and node.tag not in _CONTAINER_TAGS:
        for sibling in node.itersiblings():
            yield from sibling.iter(etree.Element)
        node = node.getparent()


def _byline_at(element: HtmlElement) -> list[str] | None:
    # `<span>By</span> <a>Jane Doe</a>`: the name is beside the prefix, so look one level up too.
    for candidate in (element, element.getparent()):
        text = _element_text(candidate) if candidate is not None else None
        if text is None:
            return None
        names = _byline_names(text, strict=True)
        prefix = _BY_PREFIX.match(text)
        if names or prefix is None or prefix.end() < len(text):
            return names
    return None


def _byline_names(text: str | None, strict: bool) -> list[str] | None:
    """Names in a byline; `strict` (free text) wants "By" and capitalised names of 2-5 words.

    Without `strict` (an element marked as the author's) any label before the name is dropped.

    "By Jane Doe, Staff Writer | March 3" -> ["Jane Doe"]; strict refuses "By the river we walked"
    (a lower-case word is not part of a name) and "By Tuesday" (one word).
    """
    if not text or len(text) > BYLINE_MAX_CHARS:
        return None
    prefix = (_BY_PREFIX if strict else _AUTHOR_PREFIX).match(text)
    if strict and prefix is None:
        return None
    rest = text[prefix.end():] if prefix else text
    head = _BYLINE_END.split(rest, 1)[0].strip(" .:;")
    names = [name.strip() for name in _NAME_JOIN.split(head) if name.strip()]
    if not names or any(_URL_LIKE.match(name) for name in names):
        return None
    if strict:
        return names if all(_looks_like_name(name) for name in names) else None
    return names if all(any(char.isalpha() for char in name) for name in names) else None


def _looks_like_name(name: str) -> bool:
    words = name.split()
    if not 2 <= len(words) <= 5 or not words[0][0].isupper():
        return False
    return all(
        word.lower() in _NAME_PARTICLES or (word[0].isupper() and not any(char.isdigit() for char in word))
        for word in words
    )


def tokens(element: HtmlElement, attribute: str) -> list[str]:
    """`rel` and `class` tokens, lower-cased (HTML matches them case-insensitively in practice)."""
    return (element.get(attribute) or "").lower().split()


_NAME_PARTICLES = frozenset({
    "van", "von", "de", "der", "den", "da", "di", "del", "della", "du", "la", "le", "bin", "al", "ibn", "dos", "das",
})
# The byline classes `.by-line, .byline, .author-name, .author`, also with a prefix (`post-author`,
# `c-byline`), but not `comment-author`: a comment's author is not the article's.
_BYLINE_CLASS = re.compile(r"^(?!comment)(?:[\w-]*[-_])?(?:author|author-name|by-?line)$")
_BY_PREFIX = re.compile(r"^\s*(?:(?:written|posted|words|story|text)\s+)?by\b\s*:?\s*", re.IGNORECASE)
# In an element already marked as the author's, a label before the name in any of the crawl's
# common languages: "View all posts by Jane Doe", "von Redaktion", "Autor: Jane Doe".
_AUTHOR_PREFIX = re.compile(
    r"^(?:.{0,40}?\b(?:by|von|vom|par|por|door)\b|\s*(?:author|autor|autorin|auteur|autore)\b)\s*:?\s*",
    re.IGNORECASE,
)
# Leading whitespace is taken only where its run starts (`(?<!\s)`): with a bare `\s*`/`\s+`, every
# start inside a long run rescanned the run (quadratic; tests/filters/test_regex_safety.py).
# The name ends at a separator, a word that starts the date or place ("on", "updated"), a number, or
# a date written with its month (and weekday) name: "Jane Doe December 3, 2024", "jdoe » Sat Feb 15".
_BYLINE_END = re.compile(
    r"(?:(?<!\s)\s+)?[,|·•—–/(»]\s*|(?<!\s)\s+(?:-\s+|(?:on|at|in|for|updated|published|posted)\b|\d"
    r"|(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    r"[a-z]*\.?\s+\d)",
    re.IGNORECASE,
)
_NAME_JOIN = re.compile(r"(?<!\s)\s+(?:and|und|et|y)\s+|(?:(?<!\s)\s+)?&\s*", re.IGNORECASE)
_URL_LIKE = re.compile(r"^(?:https?:)?//|^www\.", re.IGNORECASE)
# a separator before the name: a profile path's `/` is not one (`is_name` refuses it)
_LEADING_PUNCTUATION = re.compile(r"^[\s,;:|·•—–-]+")
# Roles and placeholders a template puts where a writer's name goes, in the crawl's common languages.
ROLE_WORDS = frozenset((
    "admin", "administrator", "administrador", "administrateur", "staff", "editor", "editors", "the editors",
    "webmaster", "author", "the author", "authors", "guest", "guest author", "anonymous", "anonym", "anonyme",
    "anónimo", "unknown", "undefined", "null", "none", "n/a", "redaktion", "die redaktion", "rédaction",
    "la rédaction", "redacción", "redazione", "redactie", "editorial", "editorial team", "editorial staff",
    "staff writer", "staff writers", "contributor", "team", "the team", "moderator", "user",
))

