"""readability-lxml for text only: its `Document` without the link rewriting its HTML output needs.

readability-lxml cleans its input with lxml's `Cleaner(javascript=True)`, which rewrites every
link to drop `javascript:` URLs and deletes `on*` attributes, and then makes every link absolute
against the page URL: 40 % of readability's time on trafilatura-eval, spent on attributes that
neither its scoring (text and link text lengths) nor our blocks (text, link text) ever read.
`TextDocument` parses as readability does (hidden and `display:none` elements dropped from the
tree it is given, as readability drops them, then the same Cleaner minus those two rewrites, and
only iframe sources made absolute: readability's video pattern reads them) and inherits
everything else, but for two passes rewritten to do the same with less work (see their
docstrings). `tests/filters/test_readability_text.py` checks that the blocks are the ones
readability's own `Document` gives.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any
from urllib.parse import urljoin

from lxml.etree import XPath, tounicode
from lxml.html import HtmlElement, fragment_fromstring
from lxml_html_clean import Cleaner
from readability import Document
from readability.readability import REGEXES

# readability.cleaners.html_cleaner, less `javascript` (link and on* attribute rewriting).
_CLEANER = Cleaner(scripts=True, javascript=False, comments=True, style=True, links=True, meta=False,
                   add_nofollow=False, page_structure=False, processing_instructions=True, embedded=False,
                   frames=False, forms=False, annoying_tags=False, remove_tags=None, remove_unknown_tags=False,
                   safe_attrs_only=False)

_WITH_CLASS_OR_ID = XPath(".//*[@class or @id]")
_INLINE_TAGS = frozenset({"a", "b", "cite", "code", "em", "font", "i", "small", "span", "strong", "sub", "sup", "u"})


# readability.readability.clean's patterns, compiled once (it passes them as strings per call)
_LONG_SPACE = re.compile(r"\s{255,}")
# readability's `\s*\n\s*`, which backtracks quadratically on a long run of spaces without a line
# break (6 s on 100 000): the same matches (a whole whitespace run holding a line break), started
# only where a run starts and never given back.
_LINE_BREAK = re.compile(r"(?<![^\S\n])[^\S\n]*+\n\s*+")
_TABS_AND_SPACES = re.compile(r"\t|[ \t]{2,}")


def _text_length(element: HtmlElement) -> int:
    """readability's `text_length`: the length of `clean(element.text_content())`."""
    text = _LONG_SPACE.sub(" " * 255, element.text_content() or "")
    text = _LINE_BREAK.sub("\n", text)
    return len(_TABS_AND_SPACES.sub(" ", text).strip())


def _starts_block_tag(tag: str) -> bool:
    """`divToPElementsRe` finds a match at this element's start in readability's test string, the
    `str()` of the serialized bytes, where a non-ASCII name is written as `\\x..` escapes."""
    opening = "<" + tag if tag.isascii() else str(b"<" + tag.encode("utf-8"))
    return REGEXES["divToPElementsRe"].search(opening) is not None


def _inside_code(element: HtmlElement) -> bool:
    """readability's `ancestor-or-self::pre | ancestor-or-self::code`, stopping at the first one."""
    return element.tag in ("pre", "code") or next(element.iterancestors("pre", "code"), None) is not None


def _holds_main_content(element: HtmlElement) -> bool:
    """readability's `descendant-or-self::main | …::article | …::math`, stopping at the first one
    (the XPath union collects and sorts them all, compiled anew on every call)."""
    return next(element.iter("main", "article", "math"), None) is not None


class TextDocument(Document):
    """`readability.Document` over a parsed tree, for `summary()`'s text."""

    _link_lengths: dict[Any, int] | None = None

    def score_paragraphs(self) -> dict[Any, dict[str, Any]]:
        """readability's scoring, each link's text length measured once: the link density of a
        candidate counts the links of all its descendants, and candidates nest (a paragraph's parent
        and grandparent). Nothing changes the tree while it scores."""
        self._link_lengths = {}
        try:
            return super().score_paragraphs()
        finally:
            self._link_lengths = None

    def get_link_density(self, elem: HtmlElement) -> float:
        """readability's link density (`findall(".//a")` text over the element's, as `text_length`)."""
        lengths = self._link_lengths
        link_length = 0
        for link in elem.findall(".//a"):
            if lengths is None:
                link_length += _text_length(link)
            else:
                if link not in lengths:
                    lengths[link] = _text_length(link)
                link_length += lengths[link]
        return float(link_length) / max(_text_length(elem), 1)

    def remove_unlikely_candidates(self) -> None:
        """readability's pass over the elements with a class or an id (the others it skips), with its
        two patterns searched once per distinct "class id" string (a page repeats a few hundred of
        them over thousands of elements), its XPath subtree tests made by walking the tree (see
        `_inside_code`, `_holds_main_content`), and no debug message formatted per removal (the
        log call formats it first)."""
        unlikely: dict[str, bool] = {}
        for elem in _WITH_CLASS_OR_ID(self.html):
            features = "{} {}".format(elem.get("class", ""), elem.get("id", ""))
            if len(features) < 2:
                continue
            if features not in unlikely:
                unlikely[features] = bool(REGEXES["unlikelyCandidatesRe"].search(features)) and not (
                    REGEXES["okMaybeItsACandidateRe"].search(features))
            if (
                unlikely[features]
                and elem.tag not in ("html", "body")
                and not _inside_code(elem)
                and not _holds_main_content(elem)
            ):
                elem.drop_tree()

    def transform_misused_divs_into_paragraphs(self) -> None:
        """readability's pass. Its first loop turns a `<div>` into a `<p>` when the serialization of
        its children holds no block tag (`divToPElementsRe`); serializing each `<div>`'s subtree,
        nested ones again for every ancestor, cost more than the rest of readability. Here the
        same test is made on the tag names (XML serialization escapes every other `<`), stopping
        at the first block tag. The second loop is readability-lxml 0.9's, as it is."""
        for elem in self.tags(self.html, "div"):
            if not any(_starts_block_tag(e.tag) for child in elem for e in child.iter() if isinstance(e.tag, str)):
                elem.tag = "p"

        for elem in self.tags(self.html, "div"):
            children = list(elem)
            paragraph = None
            if elem.text and elem.text.strip():
                p = fragment_fromstring("<p/>")
                p.text = elem.text
                elem.text = None
                elem.insert(0, p)
                paragraph = p

            for child in children:
                if child.tag == "br":
                    paragraph = None
                    continue
                if child.tag not in _INLINE_TAGS or REGEXES["divToPElementsRe"].search(tounicode(child, method="html")):
                    paragraph = None
                    continue
                if paragraph is None:
                    paragraph = fragment_fromstring("<p/>")
                    child.addprevious(paragraph)
                paragraph.append(child)

            for pos, child in reversed(list(enumerate(elem))):
                if child.tail and child.tail.strip():
                    p = fragment_fromstring("<p/>")
                    p.text = child.tail
                    child.tail = None
                    elem.insert(pos + 1, p)
                if child.tag == "br":
                    child.drop_tree()

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
