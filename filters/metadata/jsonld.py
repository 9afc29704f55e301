"""JSON-LD as metadata reads it: which objects speak for the page, and how their values are read.

The metadata priority (docs/filters.md) puts JSON-LD first among metadata sources: structured
data is the most trusted. A page often carries several objects (the article, its WebPage, the
WebSite, the publisher, breadcrumbs): the article-like one is read first, a WebPage-like one
next ("WebPage last"), then every other object in document order. Author and publisher values
may be strings, objects, `@id` references to another object, or lists of these.

Types are read through `filters.core.vocabulary.schema_types`, the one reading of `@type`.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from filters.core.vocabulary import ARTICLE_TYPES, ORGANISATION_TYPES, WEBPAGE_TYPES, schema_types
from filters.parse.parsed import Page, clean_text


@dataclass(frozen=True)
class JsonLd:
    """One pass over `page.json_ld`: the objects to read fields from, best first, and an @id index."""

    main: tuple[dict[str, Any], ...]  # the first article-like object, then the first WebPage-like one
    ordered: tuple[dict[str, Any], ...]  # `main`, then every other object in document order
    by_id: dict[str, dict[str, Any]]
    website_name: str | None

    @classmethod
    def of(cls, page: Page) -> JsonLd:
        article: dict[str, Any] | None = None
        webpage: dict[str, Any] | None = None
        website_name: str | None = None
        by_id: dict[str, dict[str, Any]] = {}
        objects = [obj for obj in page.json_ld if isinstance(obj, dict)]
        for obj in objects:
            identifier = obj.get("@id")
            if isinstance(identifier, str):
                by_id.setdefault(identifier, obj)
            types = schema_types(obj)
            if types & ARTICLE_TYPES:
                article = obj if article is None else article
            elif types & WEBPAGE_TYPES:
                webpage = obj if webpage is None else webpage
                entity = obj.get("mainEntity")  # WebPage{mainEntity: Article} is not flattened by Page
                if article is None and schema_types(entity) & ARTICLE_TYPES:
                    article = entity
            elif website_name is None and "WebSite" in types:
                website_name = clean_ld(obj.get("name"))
        main = tuple(obj for obj in (article, webpage) if obj is not None)
        rest = tuple(obj for obj in objects if not any(obj is chosen for chosen in main))
        return cls(main=main, ordered=main + rest, by_id=by_id, website_name=website_name)

    def names(self, value: Any) -> list[str]:
        """Names in an author/publisher value: a string, an object, an @id, or a list of them."""
        if isinstance(value, list):
            return [name for item in value if not isinstance(item, list) for name in self.names(item)]
        if isinstance(value, str):
            name = clean_ld(value)
            return [name] if name else []
        if not isinstance(value, dict):
            return []
        value = self.resolved(value)
        name = clean_ld(value.get("name"))
        if name is None:
            parts = (value.get("givenName"), value.get("familyName"))
            name = clean_ld(" ".join(part for part in parts if isinstance(part, str)))
        return [name] if name else []

    def resolved(self, value: Any) -> Any:
        """An object that only points at another (`{"@id": ...}`, no name) as the object it points at."""
        if isinstance(value, dict) and "name" not in value and isinstance(value.get("@id"), str):
            return self.by_id.get(value["@id"], value)
        return value

    def is_organisation(self, value: Any) -> bool:
        """Whether an author value names only organisations (`Organization` and its subtypes)."""
        objects = [self.resolved(item) for item in (value if isinstance(value, list) else [value])]
        return bool(objects) and all(isinstance(obj, dict) and bool(schema_types(obj) & ORGANISATION_TYPES)
                                     for obj in objects)


def first_of(items: list[Any], read: Callable[[Any], str | None]) -> str | None:
    """The first item of a JSON-LD list that `read` makes something of (nested lists are skipped)."""
    for item in items:
        found = read(item) if not isinstance(item, list) else None
        if found:
            return found
    return None


def ld_string(value: Any) -> str | None:
    """A JSON-LD literal: a string, `{"@value": ...}`, or the first usable item of a list."""
    if isinstance(value, list):
        return first_of(value, ld_string)
    if isinstance(value, dict):
        value = value.get("@value")
    return clean_ld(value)


def clean_ld(value: Any) -> str | None:
    # JSON-LD sits in a <script>, which the HTML parser does not entity-decode, and templates
    # often escape it anyway ("Tom &amp; Jerry").
    if isinstance(value, str) and "&" in value:
        value = html.unescape(value)
    return clean_text(value)
