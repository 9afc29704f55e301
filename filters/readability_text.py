"""readability-lxml for text only: its `Document` without the link rewriting its HTML output needs.

readability-lxml cleans its input with lxml's `Cleaner(javascript=True)`, which rewrites every
link to drop `javascript:` URLs and deletes `on*` attributes, and then makes every link absolute
against the page URL: 40 % of readability's time on trafilatura-eval, spent on attributes that
neither its scoring (text and link text lengths) nor our blocks (text, link text) ever read.
`TextDocument` parses as readability does (hidden and `display:none` elements dropped from the
tree it is given, as readability drops them, then the same Cleaner minus those two rewrites, and
only iframe sources made absolute: readability's video pattern reads them) and inherits
everything else. `tests/filters/test_readability_text.py` checks that the blocks are the
ones readability's own `Document` gives.
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import urljoin

from lxml.html import HtmlElement
from lxml_html_clean import Cleaner
from readability import Document
from readability.readability import REGEXES

# readability.cleaners.html_cleaner, less `javascript` (link and on* attribute rewriting).
_CLEANER = Cleaner(scripts=True, javascript=False, comments=True, style=True, links=True, meta=False,
                   add_nofollow=False, page_structure=False, processing_instructions=True, embedded=False,
                   frames=False, forms=False, annoying_tags=False, remove_tags=None, remove_unknown_tags=False,
                   safe_attrs_only=False)


class TextDocument(Document):
    """`readability.Document` over a parsed tree, for `summary()`'s text."""

    def _parse(self, input: Any) -> HtmlElement:
        if not isinstance(input, HtmlElement):
            return super()._parse(input)
        self.encoding = "utf-8"
        for element in input.xpath("//*[@hidden]"):
            element.drop_tree()
        for element in input.xpath("//*[@style]"):
            if REGEXES["displayNoneRe"].search(element.get("style")):
                element.drop_tree()
        document = _CLEANER.clean_html(input)
        # The one link readability reads: an iframe's src must be absolute to match its video
        # pattern (it then writes "VIDEO" into the iframe, which becomes a block of text).
        base = self.url
        for element in document.iter("base"):
            if element.get("href"):
                base = urljoin(base or "", element.get("href").strip())
                break
        if base:
            for element in document.iter("iframe"):
                source = element.get("src")
                if source:  # make_links_absolute leaves a link it cannot join as it is
                    with contextlib.suppress(ValueError):
                        element.set("src", urljoin(base, source.strip()))
        return document
