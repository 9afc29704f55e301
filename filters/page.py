"""A parsed page and the views of it that several filters share, each computed once.

Seed 000 computes its article score and page signals "from a single HTML parse"; `Page` holds
that parse (an lxml tree) and caches what more than one filter reads: the JSON-LD objects, the
`<meta>` tags, and the visible text with navigation and scripts stripped. Filters never
modify the tree: extractors that need to cut it up work on their own copy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cached_property
from typing import Any

from lxml.html import HtmlElement

from filters.text import word_count

# Seed 000 §1/§2: word counts are taken "after stripping nav/header/footer" (and, per §2,
# script/style/template). <noscript> text stays: it is what a non-JS reader sees, and seed 000
# §3 looks for "enable JavaScript" messages in it.
STRIPPED_TAGS: tuple[str, ...] = ("nav", "header", "footer", "script", "style", "template")
_VISIBLE_TEXT = "//body//text()[not(ancestor::{})]".format(" or ancestor::".join(STRIPPED_TAGS))
_JSON_LD_TYPES = ("application/ld+json",)
_JSON_TRAILING_COMMA = re.compile(r",\s*([\]}])")


class Page:
    """One page: its URL and its lxml tree, with shared views computed lazily once."""

    def __init__(self, tree: HtmlElement, url: str | None = None) -> None:
        self.tree = tree
        self.url = url

    @cached_property
    def body_text(self) -> str:
        """Visible text of <body> without nav/header/footer/script/style/template."""
        return " ".join(" ".join(self.tree.xpath(_VISIBLE_TEXT)).split())

    @cached_property
    def body_word_count(self) -> int:
        return word_count(self.body_text)

    @cached_property
    def meta(self) -> dict[str, list[str]]:
        """`<meta>` contents by lower-cased `name`, `property`, `itemprop` or `http-equiv`."""
        found: dict[str, list[str]] = {}
        for element in self.tree.iter("meta"):
            content = element.get("content")
            if content is None:
                continue
            for attribute in ("property", "name", "itemprop", "http-equiv"):
                key = element.get(attribute)
                if key:
                    found.setdefault(key.strip().lower(), []).append(content.strip())
        return found

    def meta_first(self, *keys: str) -> str | None:
        """First non-empty content among `keys`, in the order given."""
        for key in keys:
            for value in self.meta.get(key, ()):
                if value:
                    return value
        return None

    @cached_property
    def json_ld(self) -> list[dict[str, Any]]:
        """Every JSON-LD object on the page, `@graph` members and list items flattened out."""
        objects: list[dict[str, Any]] = []
        for script in self.tree.iter("script"):
            if (script.get("type") or "").strip().lower() not in _JSON_LD_TYPES:
                continue
            data = _load_json(script.text or "")
            if data is not None:
                objects.extend(_flatten(data))
        return objects

    def json_ld_types(self) -> set[str]:
        """All `@type` values of the JSON-LD objects (a type may be a string or a list)."""
        types: set[str] = set()
        for obj in self.json_ld:
            value = obj.get("@type")
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str):
                    types.add(item.rsplit("/", 1)[-1])
        return types


def _load_json(text: str) -> Any:
    text = text.strip()
    if not text:
        return None
    if text.startswith("<!--"):
        text = text.removeprefix("<!--").removesuffix("-->").strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:  # the most common hand-written mistake: trailing commas
        return json.loads(_JSON_TRAILING_COMMA.sub(r"\1", text))
    except ValueError:
        return None


def _flatten(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, list):
        for item in data:
            yield from _flatten(item)
    elif isinstance(data, dict):
        graph = data.get("@graph")
        if isinstance(graph, list):
            yield from _flatten(graph)
        if "@type" in data or graph is None:
            yield data
