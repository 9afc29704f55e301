"""One lxml parse per page, and the few things read straight off the tree.

Every later filter works on the tree this module returns, so a page is parsed once.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import urlsplit

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from filters.cleanup import strip_templates

# lxml refuses str input that still carries an XML encoding declaration.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
# A first-line DOCTYPE with a system identifier is stripped before parsing, as trafilatura's own
# loader does (its comment cites https://bugs.launchpad.net/lxml/+bug/1955915). Measured: on
# trafilatura-eval pages such as buchperlen.wordpress.com, trafilatura run on a tree parsed with
# that line kept found 0 words, and 545 with it stripped; the text itself is unchanged.
_DOCTYPE = re.compile(r"^\s*< ?! ?DOCTYPE[^>]*/[^<>]*>", re.IGNORECASE)
# Characters XML cannot hold; libxml2 stops or mangles text at them. Rare (3 of 990 real pages),
# so a cheap membership test guards the regex, which would cost half a parse on every page.
_INVALID_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_INVALID_XML_CHAR_LIST = tuple(chr(c) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE, 0xFFFF))
# Comments and processing instructions are never content; dropping them at parse time spares
# every later walk over the tree.
_PARSER = lxml.html.HTMLParser(collect_ids=False, default_doctype=False, remove_comments=True, remove_pis=True)


def parse_html(text: str) -> HtmlElement | None:
    """Parse decoded HTML once for every filter and extractor; None when there is no document.

    Before parsing: the XML declaration, `<template>` elements (seed 000 §4), a first-line
    DOCTYPE (libxml2 bug above) and XML-invalid control characters are removed.
    """
    text = strip_templates(_XML_DECLARATION.sub("", text, count=1))
    first_line, newline, rest = text.partition("\n")
    if "doctype" in first_line[:200].lower():
        text = _DOCTYPE.sub("", first_line, count=1) + newline + rest
    if any(char in text for char in _INVALID_XML_CHAR_LIST):
        text = _INVALID_XML_CHARS.sub("", text)
    if not text.strip():
        return None
    try:
        return lxml.html.document_fromstring(text, parser=_PARSER)
    except (etree.ParserError, ValueError):
        return None


_TEMPLATE_BYTES = re.compile(rb"<template\b[^>]*>.*?</template\s*>", re.IGNORECASE | re.DOTALL)
_XML_DECLARATION_BYTES = re.compile(rb"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_DOCTYPE_BYTES = re.compile(rb"^\s*< ?! ?DOCTYPE[^>]*/[^<>]*>", re.IGNORECASE)
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
# Encodings whose bytes below 0x80 are ASCII, so tags and the clean-ups above can be matched on
# bytes; everything else (UTF-16/32) goes through Python's decoder.
_NOT_ASCII_COMPATIBLE = ("utf_16", "utf_32", "utf-16", "utf-32")


def parse_html_bytes(data: bytes, encoding: str) -> HtmlElement | None:
    """`parse_html` for a payload and its encoding: libxml2 decodes in C, invalid sequences
    becoming U+FFFD; the same clean-ups are applied to the bytes. Encodings libxml2 does not
    know, or that are not ASCII-compatible, are decoded in Python and parsed as text."""
    parser = _parser_for(encoding)
    if parser is None:
        return parse_html(data.decode(encoding, errors="replace"))
    data = _XML_DECLARATION_BYTES.sub(b"", data, count=1)
    if b"<template" in data or b"<TEMPLATE" in data:
        data = _TEMPLATE_BYTES.sub(b"", data)
    first_line, newline, rest = data.partition(b"\n")
    if b"doctype" in first_line[:200].lower():
        data = _DOCTYPE_BYTES.sub(b"", first_line, count=1) + newline + rest
    if len(data.translate(None, _CONTROL_BYTES)) != len(data):
        data = data.translate(None, _CONTROL_BYTES)
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
            return lxml.html.HTMLParser(encoding=name, collect_ids=False, default_doctype=False,
                                        remove_comments=True, remove_pis=True)
        except LookupError:
            continue
    return None


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
            if urlsplit(value).scheme in ("http", "https") and urlsplit(value).hostname:
                return value
    return None


def host_of(url: str | None) -> str | None:
    """Lower-cased host of an http(s) URL, the unit of same-site duplication."""
    if not url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https"):
        return None
    return parts.hostname or None
