"""One lxml parse per page, and the few things read straight off the tree.

Every later filter works on the tree this module returns, so a page is parsed once.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from filters.cleanup import strip_templates

# lxml refuses str input that still carries an XML encoding declaration.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)


def parse_html(text: str) -> HtmlElement | None:
    """Parse decoded HTML (templates stripped first, seed 000 §4); None when there is no document."""
    text = strip_templates(_XML_DECLARATION.sub("", text, count=1))
    if not text.strip():
        return None
    try:
        return lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError):
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
