"""readability-lxml for text only: its `Document` without the link rewriting its HTML output needs.

readability-lxml cleans its input with lxml's `Cleaner(javascript=True)`, which rewrites every
link to drop `javascript:` URLs and deletes `on*` attributes, and then makes every link absolute
against the page URL: 40 % of readability's time on trafilatura-eval, spent on attributes that
neither its scoring (text and link text lengths) nor our blocks (text, link text) ever read.
`TextDocument` parses as readability does (hidden and `display:none` elements dropped from the
tree it is given, as readability drops them, then the same Cleaner minus those two rewrites, and
only iframe sources made absolute: readability's video pattern reads them) and inherits
everything else, but for the passes that cost most, rewritten to do the same with less work (see
their docstrings): `remove_unlikely_candidates`, `transform_misused_divs_into_paragraphs`,
`score_paragraphs` and `sanitize`, with text lengths counted rather than cleaned
(`_cleaned_length`). `tests/filters/test_readability_text.py` checks that the blocks are the
ones readability's own `Document` gives, and each rewritten pass against readability's on random
trees.
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
from readability.readability import REGEXES, is_video_url

# readability.cleaners.html_cleaner, less `javascript` (link and on* attribute rewriting).
_CLEANER = Cleaner(scripts=True, javascript=False, comments=True, style=True, links=True, meta=False,
                   add_nofollow=False, page_structure=False, processing_instructions=True, embedded=False,
                   frames=False, forms=False, annoying_tags=False, remove_tags=None, remove_unknown_tags=False,
                   safe_attrs_only=False)

_WITH_CLASS_OR_ID = XPath(".//*[@class or @id]")
_INLINE_TAGS = frozenset({"a", "b", "cite", "code", "em", "font", "i", "small", "span", "strong", "sub", "sup", "u"})


# readability's `clean` rewrites whitespace in three substitutions, `\s{255,}` -> 255 spaces,
# `\s*\n\s*` -> "\n" and `\t|[ \t]{2,}` -> " ", then strips the text; its callers only want the
# length. Each substitution acts within one run of whitespace, and a run of one character stays
# one character, so only the runs of two or more can change the length.
_WHITESPACE_RUN = re.compile(r"\s\s+")
_SPACES_AND_TABS = re.compile(r"[ \t]{2,}")


def _cleaned_run_length(run: str) -> int:
    """The length `clean` leaves of one run of two or more whitespace characters between words."""
    if len(run) >= 255 or "\n" in run:
        return 1  # 255 spaces that `[ \t]{2,}` makes one, or a single line break
    length = len(run)
    for stretch in _SPACES_AND_TABS.findall(run):
        # `\t` wins over `[ \t]{2,}`: each tab that starts the stretch becomes a space on its own,
        # and what follows (a space, then anything) becomes one space
        rest = stretch.lstrip("\t")
        if len(rest) > 1:
            length -= len(rest) - 1
    return length


def _cleaned_length(text: str) -> int:
    """`len(readability.readability.clean(text))` without building the cleaned text: the stripped
    length less what `clean` takes out of each inner whitespace run (one scan instead of three
    substitutions, the line-break one quadratic on a long run of spaces)."""
    text = text.strip()
    length = len(text)
    for run in _WHITESPACE_RUN.findall(text):
        length -= len(run) - _cleaned_run_length(run)
    return length


def _text_length(element: HtmlElement) -> int:
    """readability's `text_length`: the length of `clean(element.text_content())`."""
    return _cleaned_length(element.text_content() or "")


def _starts_block_tag(tag: str) -> bool:
    """`divToPElementsRe` finds a match at this element's start in readability's test string, the
    `str()` of the serialized bytes, where a non-ASCII name is written as `\\x..` escapes."""
    opening = "<" + tag if tag.isascii() else str(b"<" + tag.encode("utf-8"))
    return REGEXES["divToPElementsRe"].search(opening) is not None


def _words_of(pattern: re.Pattern[str]) -> tuple[str, ...]:
    """The words of a case-insensitive pattern that is one alternation of lowercase ASCII words, as
    readability's unlikely and maybe-candidate patterns are (checked: a new readability-lxml whose
    patterns are more than words fails here rather than answering differently)."""
    words = tuple(pattern.pattern.split("|"))
    if not pattern.flags & re.IGNORECASE or not all(
            word.replace("-", "").isalpha() and word.isascii() and word.islower() for word in words):
        raise ValueError(f"not a case-insensitive alternation of lowercase words: {pattern.pattern!r}")
    return words


_UNLIKELY_WORDS = _words_of(REGEXES["unlikelyCandidatesRe"])
_MAYBE_CANDIDATE_WORDS = _words_of(REGEXES["okMaybeItsACandidateRe"])


def _unlikely_candidate(features: str) -> bool:
    """readability's verdict on an element's "class id" string: `unlikelyCandidatesRe` finds a word
    and `okMaybeItsACandidateRe` none. On ASCII text, case-insensitive matching is matching the
    lowercased text (the Unicode case pairs `re.IGNORECASE` adds, as the Kelvin sign for k, involve
    non-ASCII characters), and substring tests are several times faster than the alternations."""
    if not features.isascii():
        return bool(REGEXES["unlikelyCandidatesRe"].search(features)) and not (
            REGEXES["okMaybeItsACandidateRe"].search(features))
    lowered = features.lower()
    return any(word in lowered for word in _UNLIKELY_WORDS) and not any(
        word in lowered for word in _MAYBE_CANDIDATE_WORDS)


def _inside_code(element: HtmlElement) -> bool:
    """readability's `ancestor-or-self::pre | ancestor-or-self::code`, stopping at the first one."""
    return element.tag in ("pre", "code") or next(element.iterancestors("pre", "code"), None) is not None


def _holds_main_content(element: HtmlElement) -> bool:
    """readability's `descendant-or-self::main | …::article | …::math`, stopping at the first one
    (the XPath union collects and sorts them all, compiled anew on every call)."""
    return next(element.iter("main", "article", "math"), None) is not None


class TextDocument(Document):
    """`readability.Document` over a parsed tree, for `summary()`'s text."""

    def score_paragraphs(self) -> dict[Any, dict[str, Any]]:
        """readability-lxml 0.9's scoring, with three savings that leave every score the same: text
        lengths from `_cleaned_length` (the paragraph's comma count is the raw text's, as `clean`
        only touches whitespace); each element's text length measured once (the link density of a
        candidate counts the links of all its descendants, and candidates nest: a paragraph's
        parent and grandparent), as nothing changes the tree while it scores; and no debug message
        formatted per candidate (the log call formats it first)."""
        lengths: dict[Any, int] = {}
        candidates: dict[Any, dict[str, Any]] = {}
        ordered = []
        for elem in self.tags(self._html(), "p", "pre", "td", "blockquote"):
            parent_node = elem.getparent()
            if parent_node is None:
                continue
            grand_parent_node = parent_node.getparent()

            inner_text = elem.text_content() or ""
            inner_text_len = lengths[elem] = _cleaned_length(inner_text)
            if inner_text_len < self.min_text_length:
                continue

            if parent_node not in candidates:
                candidates[parent_node] = self.score_node(parent_node)
                ordered.append(parent_node)
            if grand_parent_node is not None and grand_parent_node not in candidates:
                candidates[grand_parent_node] = self.score_node(grand_parent_node)
                ordered.append(grand_parent_node)

            content_score = 1
            content_score += inner_text.count(",") + 1
            content_score += min((inner_text_len / 100), 3)
            candidates[parent_node]["content_score"] += content_score
            if grand_parent_node is not None:
                candidates[grand_parent_node]["content_score"] += content_score / 2.0

        for elem in ordered:
            candidates[elem]["content_score"] *= 1 - self._link_density(elem, lengths)
        return candidates

    def get_link_density(self, elem: HtmlElement) -> float:
        """readability's link density (`findall(".//a")` text over the element's, as `text_length`)."""
        return self._link_density(elem, {})

    @staticmethod
    def _link_density(elem: HtmlElement, lengths: dict[Any, int]) -> float:
        """`get_link_density`, taking and keeping text lengths in `lengths` (elements to lengths)."""
        link_length = 0
        for link in elem.findall(".//a"):
            if link not in lengths:
                lengths[link] = _text_length(link)
            link_length += lengths[link]
        if elem not in lengths:
            lengths[elem] = _text_length(elem)
        return float(link_length) / max(lengths[elem], 1)

    def remove_unlikely_candidates(self) -> None:
        """readability's pass over the elements with a class or an id (the others it skips), with its
        verdict on the "class id" string (`_unlikely_candidate`) made once per distinct string (a
        page repeats a few hundred of them over thousands of elements), its XPath subtree tests
        made by walking the tree (`_inside_code`, `_holds_main_content`), and no debug message
        formatted per removal (the log call formats it first)."""
        unlikely: dict[str, bool] = {}
        for elem in _WITH_CLASS_OR_ID(self.html):
            features = "{} {}".format(elem.get("class", ""), elem.get("id", ""))
            if len(features) < 2:
                continue
            if features not in unlikely:
                unlikely[features] = _unlikely_candidate(features)
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
        same test is made on the tag names (XML serialization escapes every other `<`), once per
        distinct name, stopping at the first block tag. The second loop is readability-lxml 0.9's,
        as it is."""
        starts_block: dict[Any, bool] = {}  # tag (a function for comments) -> `_starts_block_tag`
        for elem in self.tags(self.html, "div"):
            for descendant in elem.iterdescendants():
                tag = descendant.tag
                if tag not in starts_block:
                    starts_block[tag] = isinstance(tag, str) and _starts_block_tag(tag)
                if starts_block[tag]:
                    break
            else:
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

    def sanitize(self, node: HtmlElement, candidates: dict[Any, dict[str, Any]], keep_all_images: bool = False) -> str:
        """readability-lxml 0.9's last pass, the same removals with less work: text lengths from
        `_text_length` (readability's own `clean` makes three substitutions), an element's six tag
        counts from one walk of its descendants instead of seven `findall`s, each measure taken
        when the test that reads it is reached, and no debug message formatted per element (the
        log calls format theirs first, an element's whole text among them)."""
        for header in self.tags(node, "h1", "h2", "h3", "h4", "h5", "h6"):
            if self.class_weight(header) < 0 or self.get_link_density(header) > 0.33:
                header.drop_tree()
        for elem in self.tags(node, "p"):
            if REGEXES["callToActionRe"].search(elem.text_content()) and self.get_link_density(elem) > 0.2:
                elem.drop_tree()
        for elem in self.tags(node, "form", "textarea"):
            elem.drop_tree()
        for elem in self.tags(node, "iframe"):
            if "src" in elem.attrib and is_video_url(elem.attrib["src"]):
                elem.attrib.pop("srcdoc", None)
                elem.text = "VIDEO"  # readability's: an empty iframe would not be written as <iframe></iframe>
            else:
                elem.drop_tree()

        allowed = self.get_preserved_elements(node)
        for elem in self.reverse_tags(node, "table", "ul", "div", "aside", "header", "footer", "section"):
            if elem in allowed:
                continue
            weight = self.class_weight(elem)
            content_score = candidates[elem]["content_score"] if elem in candidates else 0
            if weight + content_score < 0 or (
                    elem.text_content().count(",") < 10 and self._poor_content(elem, weight, allowed, keep_all_images)):
                elem.drop_tree()

        self.html = node
        return self.get_clean_html()

    def _poor_content(self, elem: HtmlElement, weight: int, allowed: dict[Any, bool], keep_all_images: bool) -> bool:
        """readability's removal test of a table, list or division with fewer than ten commas. An
        empty one next to a sibling with text stays, and protects the blocks below it (`allowed`)."""
        counts = dict.fromkeys(("p", "img", "li", "a", "embed", "input"), 0)
        hidden_inputs = 0
        for descendant in elem.iterdescendants("p", "img", "li", "a", "embed", "input"):
            counts[descendant.tag] += 1
            hidden_inputs += descendant.tag == "input" and descendant.get("type") == "hidden"
        counts["li"] -= 100
        counts["input"] -= hidden_inputs
        tag = elem.tag

        if keep_all_images and tag == "div" and counts["img"] >= 1:
            return False
        if counts["p"] and counts["img"] > 1 + counts["p"] * 1.3:
            return True
        if counts["li"] > counts["p"] and tag not in ("ol", "ul"):
            return True
        if counts["input"] > (counts["p"] / 3):
            return True
        content_length = _text_length(elem)
        if content_length < self.min_text_length and (counts["img"] == 0 or counts["img"] > 2):
            return True
        link_density = self.get_link_density(elem)
        if weight < 25:
            in_main_text = tag in ("ul", "section") and elem.xpath("ancestor::main | ancestor::article")
            if link_density > (0.25 if in_main_text else 0.2):
                return True
        elif link_density > 0.5:
            return True
        if (counts["embed"] == 1 and content_length < 75) or counts["embed"] > 1:
            return True
        if content_length:
            return False
        # readability's siblings: the first following and the first preceding one with text
        siblings = [next((length for length in map(_text_length, elem.itersiblings()) if length), 0),
                    next((length for length in map(_text_length, elem.itersiblings(preceding=True)) if length), 0)]
        if sum(siblings) > 1000:
            for protected in self.tags(elem, "table", "ul", "div", "section"):
                allowed[protected] = True
            return False
        return True

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
