"""Is a payload HTML? Media type from headers, sniffing only when no header says anything.

Order: the HTTP Content-Type, then WARC-Identified-Payload-Type, and only when
both are missing a sniff of the first bytes (a WHATWG-style prefix check, not a guess from
the URL). A `resource` record's own WARC Content-Type plays the HTTP header's part.
"""

from __future__ import annotations

import re

HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})
SNIFFED_HTML = "text/html"

_HTML_PREFIX = re.compile(
    rb"\A(?:\s|\xef\xbb\xbf)*+(?:<!--.*?-->\s*)*+<(?:!doctype\s+html|html|head|body|title|meta|script|div|p|a|h1|table|br)"
    rb"[\s>/]",
    re.IGNORECASE | re.DOTALL,
)


def media_type(header_value: str | None) -> str | None:
    """`text/html; charset=utf-8` -> `text/html`; None for a missing or empty header."""
    if not header_value:
        return None
    value = header_value.split(";", 1)[0].strip().lower()
    return value or None


def looks_like_html(payload: bytes) -> bool:
    """True when the first 1 KB starts like an HTML document (after whitespace and comments)."""
    return bool(_HTML_PREFIX.match(payload[:1024]))


def resolve_media_type(declared: str | None, identified: str | None, payload: bytes | None) -> str | None:
    """The media type we believe, in that order; sniffed only when nothing is declared."""
    for value in (declared, identified):
        found = media_type(value)
        if found is not None:
            return found
    if payload and looks_like_html(payload):
        return SNIFFED_HTML
    return None


def is_html_media_type(value: str | None) -> bool:
    return value in HTML_MEDIA_TYPES
