"""A parsed page and the views of it that several filters share, each computed once.

The article score and page classification (docs/filters.md) read a single HTML parse; `Page` holds
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

from lxml import etree
from lxml.html import HtmlElement

from filters.core.vocabulary import schema_types
from filters.text.tokens import word_count

# The article score and page classification count words "after stripping nav/header/footer" (and
# script/style/template). <noscript> text stays: it is what a non-JS reader sees, and the needs_js
# check looks for "enable JavaScript" messages in it.
STRIPPED_TAGS: tuple[str, ...] = ("nav", "header", "footer", "script", "style", "template")
_STRUCTURAL = frozenset({"nav", "header", "footer", "template"})
# Text nodes straight under script/style are code, never visible. A predicate on every text
# node (`[not(parent::script)]`, let alone `ancestor::`) costs more than the parse itself, so
# all text nodes and the code nodes are fetched separately and the code ones dropped in order.
_TEXT_NODES = etree.XPath("//body//text()", smart_strings=False)
_CODE_NODES = etree.XPath("//body//script/text() | //body//style/text()", smart_strings=False)
_TEXT_NODES_BELOW = etree.XPath(".//text()", smart_strings=False)
_EXTERNAL_SCRIPTS = etree.XPath("count(//script[@src != ''])")
_HREFS = etree.XPath("//a/@href", smart_strings=False)
_CODE_NODES_BELOW = etree.XPath(".//script/text() | .//style/text()", smart_strings=False)
_JSON_LD_TYPES = ("application/ld+json",)
# Pre-filtered in XPath so the many other <script> elements never become Python objects.
_JSON_LD_SCRIPTS = etree.XPath("//script[contains(@type, 'ld+json') or contains(@type, 'LD+JSON')]")
_JSON_TRAILING_COMMA = re.compile(r",\s*([\]}])")


class Page:
    """One page: its URL and its lxml tree, with shared views computed lazily once."""

    def __init__(self, tree: HtmlElement, url: str | None = None) -> None:
        self.tree = tree
        self.url = url

    @cached_property
    def _visible_words(self) -> list[str]:
        return " ".join(_without_code(_TEXT_NODES(self.tree), _CODE_NODES(self.tree))).split()

    @cached_property
    def visible_text(self) -> str:
        """All text of <body> a reader could see (script/style excluded), whitespace-collapsed,
        lower-cased: what the page-classification keyword detectors (JS messages, cookie walls, paywalls) read."""
        return " ".join(self._visible_words).lower()

    @cached_property
    def visible_word_count(self) -> int:
        """Words (`filters.text.tokens.words`) of `visible_text`."""
        return word_count(self.visible_text)

    @cached_property
    def external_script_count(self) -> int:
        """`<script src>` elements (page classification's SPA path B and needs_js signal 3)."""
        return int(_EXTERNAL_SCRIPTS(self.tree))

    @cached_property
    def hrefs(self) -> list[str]:
        """The `href` of every `<a>`, in document order (the article score's outbound links, the
        product signals' cart links)."""
        return _HREFS(self.tree)

    @cached_property
    def body_word_count(self) -> int:
        """Words (`filters.text.tokens.words`) of <body> without nav/header/footer/script/style/template.

        The article score counts these. Computed as all visible words minus those inside
        the outermost nav/header/footer/template elements, which is exact and avoids testing
        every text node's ancestors.
        """
        count = self.visible_word_count
        for element in self.tree.iter(*_STRUCTURAL):
            if _has_structural_ancestor(element):
                continue
            visible = _without_code(_TEXT_NODES_BELOW(element), _CODE_NODES_BELOW(element))
            count -= word_count(" ".join(visible))  # the texts' words: none spans the space between two
        return count

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
        for script in _JSON_LD_SCRIPTS(self.tree):
            if (script.get("type") or "").strip().lower() not in _JSON_LD_TYPES:
                continue
            data = _load_json(script.text or "")
            if data is not None:
                objects.extend(_flatten(data))
        return objects

    def json_ld_types(self) -> set[str]:
        """The bare schema.org type names of all JSON-LD objects (`vocabulary.schema_types`)."""
        types: set[str] = set()
        for obj in self.json_ld:
            types |= schema_types(obj)
        return types


def clean_text(value: Any) -> str | None:
    """A string with its whitespace runs collapsed to single spaces; None for a blank or non-string."""
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    return text or None


def _without_code(texts: list[str], code: list[str]) -> list[str]:
    """`texts` minus the `code` text nodes; both lists are in document order, `code` a subsequence."""
    if not code:
        return texts
    kept = []
    pending = iter(code)
    next_code = next(pending, None)
    for text in texts:
        if text is next_code or text == next_code:
            next_code = next(pending, None)
            continue
        kept.append(text)
    return kept


def _has_structural_ancestor(element: HtmlElement) -> bool:
    parent = element.getparent()
    while parent is not None:
        if parent.tag in _STRUCTURAL:
            return True
        parent = parent.getparent()
    return False


def _load_json(text: str) -> Any:
    text = text.strip()
    if not text:
        return None
    if text.startswith("<!--"):
        text = text.removeprefix("<!--").removesuffix("-->").strip()
    # RecursionError: JSON nested deeper than Python's recursion limit (a hostile page) is as
    # unreadable as a syntax error, and must not fail every filter that reads JSON-LD.
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:  # the most common hand-written mistake: trailing commas
        return json.loads(_JSON_TRAILING_COMMA.sub(r"\1", text))
    except (ValueError, RecursionError):
        return None


def _flatten(data: Any) -> Iterator[dict[str, Any]]:
    """The objects in nested lists and `@graph`s, in document order, a graph's members before the
    object holding them. A stack rather than recursion: the nesting is the page's to choose."""
    pending: list[tuple[Any, bool]] = [(data, False)]  # (item, its @graph already flattened)
    while pending:
        item, expanded = pending.pop()
        if isinstance(item, list):
            pending.extend((member, False) for member in reversed(item))
        elif isinstance(item, dict):
            graph = item.get("@graph")
            if isinstance(graph, list) and not expanded:
                pending.append((item, True))
                pending.extend((member, False) for member in reversed(graph))
            elif "@type" in item or graph is None:
                yield item
