"""One lxml parse per page, and the few things read straight off the tree.

Every later filter works on the tree this module returns, so a page is parsed once.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import SplitResult, urlsplit

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

# Before parsing (all on bytes, so the payload is never turned into a Python str):
# - the XML declaration;
# - `<template>` elements (pre-processing, docs/filters.md: lxml re-parents a template's children
#   into the body, so removing the element after parsing is not enough);
# - a first-line DOCTYPE with a system identifier, as trafilatura's own loader does (its comment
#   cites https://bugs.launchpad.net/lxml/+bug/1955915). Measured: on trafilatura-eval pages such
#   as buchperlen.wordpress.com, trafilatura run on a tree parsed with that line kept found 0
#   words, and 545 with it stripped; the text itself is unchanged;
# - control characters XML cannot hold (libxml2 stops or mangles text at them).
_XML_DECLARATION_BYTES = re.compile(rb"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_TEMPLATE_BYTES = re.compile(rb"<template\b[^>]*>.*?</template\s*>", re.IGNORECASE | re.DOTALL)
_DOCTYPE_BYTES = re.compile(rb"^\s*< ?! ?DOCTYPE[^>]*/[^<>]*>", re.IGNORECASE)
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
_UTF8_NONCHARACTERS = (b"\xef\xbf\xbe", b"\xef\xbf\xbf")  # U+FFFE, U+FFFF: not XML characters either
# Encodings whose bytes below 0x80 are ASCII, so tags and the clean-ups above can be matched on
# bytes; everything else (UTF-16/32) goes through Python's decoder.
_NOT_ASCII_COMPATIBLE = ("utf_16", "utf_32", "utf-16", "utf-32")

# libxml2 (2.14, bundled with lxml 6) stops an HTML parse at 256 levels of open elements: the
# rest of the page is not read, and no tree is deeper than that, which also keeps every
# recursive walker (ours, trafilatura's, readability's) far from Python's recursion limit. An
# element at the 256th level is the mark of a page that hit the limit (real pages: at most 43
# levels on trafilatura-eval). The probe is one XPath step per level, linear in the elements.
PARSER_MAX_DEPTH = 256
_AT_MAX_DEPTH = etree.XPath("boolean(/*" + "/*" * (PARSER_MAX_DEPTH - 1) + ")")
_NODE_COUNT = etree.XPath("count(//node())")
# lxml.html's own lookup is Python code run each time an element is touched from Python
# (4.5 million calls, 4 ms a page on trafilatura-eval), only to give <form>, <input>, <select>,
# <textarea> and <label> their form-API subclasses, which nothing here uses. This one is C.
_ELEMENT_CLASSES = etree.ElementDefaultClassLookup(element=HtmlElement, comment=lxml.html.HtmlComment,
                                                   pi=lxml.html.HtmlProcessingInstruction,
                                                   entity=lxml.html.HtmlEntity)


def parse_html(text: str) -> HtmlElement | None:
    """`parse_html_bytes` for HTML that is already text."""
    return parse_html_bytes(text.encode("utf-8", errors="replace"), "utf-8")


def parse_html_bytes(data: bytes, encoding: str) -> HtmlElement | None:
    """Parse a payload once for every filter and extractor; None when there is no document.

    libxml2 decodes in C, invalid sequences becoming U+FFFD, after the clean-ups above. Encodings
    libxml2 does not know, or that are not ASCII-compatible, are decoded in Python first.
    Comments and processing instructions are dropped at parse time: never content, and every
    later walk over the tree is spared them."""
    parser = _parser_for(encoding)
    if parser is None:
        return parse_html(data.decode(encoding, errors="replace"))  # re-encoded as UTF-8
    data = _XML_DECLARATION_BYTES.sub(b"", data, count=1)
    if b"<template" in data or b"<TEMPLATE" in data:
        data = _TEMPLATE_BYTES.sub(b"", data)
    first_line, newline, rest = data.partition(b"\n")
    if b"doctype" in first_line[:200].lower():
        data = _DOCTYPE_BYTES.sub(b"", first_line, count=1) + newline + rest
    if len(data.translate(None, _CONTROL_BYTES)) != len(data):
        data = data.translate(None, _CONTROL_BYTES)
    if encoding.replace("_", "-").lower() in ("utf-8", "utf8"):
        for noncharacter in _UTF8_NONCHARACTERS:
            if noncharacter in data:
                data = data.replace(noncharacter, b"")
    if not data.strip():
        return None
    try:
        return lxml.html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError):
        return None


@functools.lru_cache(maxsize=64)
def _parser_for(encoding: str) -> lxml.html.HTMLParser | None:
    """An HTML parser fixed to `encoding` (libxml2 name), or None when libxml2 does not know it."""
    if encoding.lower().startswith(_NOT_ASCII_COMPATIBLE):
        return None
    for name in dict.fromkeys((encoding, encoding.replace("_", "-"), encoding.upper().replace("_", "-"))):
        try:
            # no_network and huge_tree=False are lxml's defaults, spelled out because they are
            # invariants (tests/pipeline/test_security.py): the parser never fetches anything a
            # page names (libxml2's HTML parser loads no DTD and resolves no external entity
            # either way), and libxml2 keeps its limits: 256 levels of nesting, 10 MB per text
            # node or attribute value.
            parser = lxml.html.HTMLParser(encoding=name, collect_ids=False, default_doctype=False,
                                          remove_comments=True, remove_pis=True, no_network=True, huge_tree=False)
        except LookupError:
            continue
        parser.set_element_class_lookup(_ELEMENT_CLASSES)
        return parser
    return None


def depth_limit_reached(tree: HtmlElement) -> bool:
    """The page nests elements as deep as the parser goes (`PARSER_MAX_DEPTH`), so the parse
    stopped there and the rest of the page was never read."""
    return bool(_AT_MAX_DEPTH(tree))


def node_count(tree: HtmlElement) -> int:
    """Elements and text nodes of the tree (comments and processing instructions are dropped
    at parse time): what the cost of a whole-tree XPath grows with."""
    return int(_NODE_COUNT(tree))


def url_hint(tree: HtmlElement) -> str | None:
    """The page's own idea of its URL: `<base href>`, `<link rel=canonical>`, then `og:url`.

    Used for plain HTML files, which have no WARC-Target-URI. Only absolute http(s) URLs count.
    """
    candidates = (
        tree.xpath("//base/@href"),
        tree.xpath("//link[contains(concat(' ', normalize-space(translate(@rel, "
                   "'CANONICAL', 'canonical')), ' '), ' canonical ')]/@href"),
        tree.xpath("//meta[@property='og:url' or @name='og:url']/@content"),
    )
    for values in candidates:
        for value in values:
            value = value.strip()
            parts = web_address(value)  # None for a value urlsplit rejects (`http://[bad/x`)
            if parts is not None and parts.hostname:
                return value
    return None


def web_address(url: str | None) -> SplitResult | None:
    """The parts of an http(s) URL; None for none, one `urlsplit` rejects, or another scheme: a
    file's `file://` or `s3://` location says where a copy lies, not what the page is, so every
    URL signal reads a page from a bucket as the same file from a local disk."""
    if not url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    return parts if parts.scheme in ("http", "https") else None


def host_of(url: str | None) -> str | None:
    """Lower-cased host of an http(s) URL, the unit of same-site duplication."""
    parts = web_address(url)
    return (parts.hostname or None) if parts is not None else None
