"""A page's posts as its JSON-LD states them (`source: jsonld`): forum software often writes the
thread's posts, a Q&A page's question and answers, or an article's comments into schema.org objects,
text included, cleaner than any markup.

Input: the page's JSON-LD objects (`Page.json_ld`). Output (`jsonld_units`): `Posting`s in document
order. What is read: every object of a contribution's type (`POSTING_KINDS`) that names its author
(an FAQ's questions and answers, the page's own, name none) with a text of at least
`MIN_TEXT_CHARS` characters (`text`, `articleBody` or `reviewBody`; HTML in it read as blocks on
lines), found at the top level, as a page's `mainEntity`, in an `ItemList`'s items, and under
another object's `comment`, `acceptedAnswer`, `suggestedAnswer` and `review` (an article's comments,
a product's reviews: the article or product itself is not a contribution). A `Review` is one only
under another object's `review`: a review standing alone is the page's own article (a critic's). Each one's author
(`author.name` or a plain string) and date (`datePublished`, else `dateCreated`) as written, and its
rating (`reviewRating.ratingValue`) for a review.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree
from lxml.html import fragment_fromstring

from filters.core.vocabulary import schema_types
from filters.metadata.jsonld import clean_ld
from filters.parse.parsed import clean_text
from filters.segment.units import own_text

# schema.org types of one person's contribution, by segment kind.
POSTING_KINDS = {"DiscussionForumPosting": "post", "SocialMediaPosting": "post", "Comment": "comment",
                 "Question": "question", "Answer": "answer", "Review": "review"}
TEXT_PROPERTIES = ("text", "articleBody", "reviewBody")
# Properties holding the contributions made on an object.
NESTED_PROPERTIES = ("mainEntity", "comment", "acceptedAnswer", "suggestedAnswer", "review", "itemListElement", "item")
MIN_TEXT_CHARS = 25  # as a unit of the page's markup (units.MIN_UNIT_CHARS)
MAX_DEPTH = 12  # nesting followed (a reply to a reply ...); deeper objects are a damaged or hostile graph


@dataclass(frozen=True)
class Posting:
    text: str
    kind: str
    author: str | None
    published: str | None
    rating: float | None


def jsonld_units(objects: list[dict[str, Any]]) -> list[Posting]:
    """The contributions the page's JSON-LD states, in document order, each once (by its text)."""
    found: list[Posting] = []
    seen: set[str] = set()
    for obj in objects:
        for posting in _postings(obj, 0):
            if posting.text not in seen:
                seen.add(posting.text)
                found.append(posting)
    return found


def _postings(obj: Any, depth: int, under: str | None = None) -> Iterator[Posting]:
    """The contributions in `obj`, found under the property `under` of its parent (None at the top)."""
    if depth > MAX_DEPTH:
        return
    if isinstance(obj, list):
        for item in obj:
            yield from _postings(item, depth + 1, under)
        return
    if not isinstance(obj, dict):
        return
    kind = next((POSTING_KINDS[name] for name in sorted(schema_types(obj)) if name in POSTING_KINDS), None)
    if kind is not None and (kind != "review" or under == "review"):
        text, name = _text(obj), _author(obj.get("author"))
        if text is not None and len(text) >= MIN_TEXT_CHARS and name is not None:
            score = _rating(obj) if kind == "review" else None
            yield Posting(text, kind, name, _date(obj), score)
    for name in NESTED_PROPERTIES:
        if name in obj:
            yield from _postings(obj[name], depth + 1, name)


def _text(obj: dict[str, Any]) -> str | None:
    for name in TEXT_PROPERTIES:
        value = obj.get(name)
        if not isinstance(value, str):
            continue
        value = html.unescape(value) if "&" in value else value  # a <script> is not entity-decoded
        text = _html_text(value) if "<" in value else clean_text(value)
        if text:
            return text
    return None


def _html_text(markup: str) -> str | None:
    """Text written as HTML, blocks on lines (the units' own text: quotes of other posts left out)."""
    try:
        fragment = fragment_fromstring(markup, create_parent="div")
    except (etree.ParserError, ValueError):
        return clean_ld(markup)
    return own_text(fragment)[0] or None


def _author(value: Any) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name")
    return clean_ld(value)


def _date(obj: dict[str, Any]) -> str | None:
    for name in ("datePublished", "dateCreated"):
        value = clean_ld(obj.get(name))
        if value:
            return value
    return None


def _rating(obj: dict[str, Any]) -> float | None:
    rating = obj.get("reviewRating")
    value = rating.get("ratingValue") if isinstance(rating, dict) else None
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None
