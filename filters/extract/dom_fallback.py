"""The DOM heuristic, the extraction cascade's last candidate when readability and trafilatura both fail
(docs/filters.md, "Extraction"). Input: a parsed tree, worked on as a copy (the decomposition is destructive).
Output (`dom_heuristic`): the chosen element, always one, and how it was found.

1. Decompose nav/header/footer/aside, script/style/noscript, form controls and elements whose class or id holds
   an exclusion keyword; then take the first match of the priority selectors, in order, with >= 10 words **that
   also passes the validation chain** (text > 100 characters, more than 2 `<p>`, link/text ratio < 0.3, and an
   article indicator: a date, an author or a headline).
2. Else score every `<div>`/`<section>` by paragraph_words x (paragraph_words / words) and take the best with
   >= 10 paragraph words if it holds >= 55 % of the body's words (the dominance rule), else the whole body.
3. Else the body; without a body, the document itself ("the original HTML").

Words are `filters.text.tokens.word_count` (each character of a script written without spaces is a word).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from lxml import etree
from lxml.html import HtmlElement

from filters.text.tokens import word_count

PRIORITY_SELECTORS: tuple[str, ...] = (
    "article", "main", '[role="main"]', '[itemprop="articleBody"]', ".post-content", ".article-content",
    ".entry-content", ".post-body", ".article-body", "#article-content", "#post-content", "#entry-content",
    "#content", "#main-content", ".content-body", ".story-body", ".blog-post", ".post", ".single-content",
)
DECOMPOSE_TAGS: tuple[str, ...] = ("nav", "header", "footer", "aside", "script", "style", "noscript", "form",
                                   "button", "input", "select", "textarea")
DECOMPOSE_KEYWORDS: tuple[str, ...] = ("sidebar", "comment", "advertisement", "banner", "promo", "related", "share",
                                       "social", "newsletter", "cookie", "popup", "modal", "widget")
MIN_WORDS = 10
DOMINANCE = 0.55
# validation chain
MIN_TEXT_CHARS = 100
MIN_PARAGRAPHS = 2
MAX_LINK_TEXT_RATIO = 0.3


@dataclass(frozen=True)
class DomResult:
    element: HtmlElement
    step: str  # "selector:<css>", "density", "body", "document"


def _selector_xpath(css: str) -> str:
    if css.startswith("."):
        return f"//*[contains(concat(' ', normalize-space(@class), ' '), ' {css[1:]} ')]"
    if css.startswith("#"):
        return f"//*[@id='{css[1:]}']"
    if css.startswith("["):
        name, value = css[1:-1].split("=", 1)
        return f"//*[@{name}={value.replace(chr(34), chr(39))}]"
    return f"//{css}"


_SELECTORS = tuple((css, etree.XPath(_selector_xpath(css))) for css in PRIORITY_SELECTORS)
# XPath's `contains(translate(@class, 'ABC…', 'abc…'), k)` for 13 keywords on both attributes
# cost 20 µs an element, in one libxml2 call the per-record time budget cannot interrupt (16 s
# on a 5 MB page of 600 000 elements); one regex per attribute does the same test. ASCII case
# folding only, as `translate` did (re.IGNORECASE alone would also fold 'ſ' and the Kelvin sign).
_KEYWORDS = re.compile("|".join(map(re.escape, DECOMPOSE_KEYWORDS)), re.IGNORECASE | re.ASCII)
_DECOMPOSE_TAGS = frozenset(DECOMPOSE_TAGS)
_INDICATOR = etree.XPath(
    "boolean(.//time | .//*[@itemprop='datePublished' or @itemprop='author' or @itemprop='headline'] "
    "| .//h1 | .//h2 | .//*[@rel='author'] "
    "| .//*[contains(@class, 'author') or contains(@class, 'byline') or contains(@class, 'date')])")
_KEEP = frozenset({"html", "body"})


def words(element: HtmlElement) -> int:
    return word_count(element.text_content())


def dom_heuristic(tree: HtmlElement) -> DomResult:
    """The DOM heuristic on a copy of `tree`; never fails (the document itself is the last resort)."""
    doc = copy.deepcopy(tree)
    decompose(doc)
    for css, xpath in _SELECTORS:
        for element in xpath(doc):
            if words(element) >= MIN_WORDS and passes_validation_chain(element):
                return DomResult(element, f"selector:{css}")
    body = doc.find("body")
    container = body if body is not None else doc
    best = best_by_paragraph_density(doc)
    if best is not None:
        if words(best) / max(words(container), 1) >= DOMINANCE:
            return DomResult(best, "density")
        return DomResult(container, "body" if body is not None else "document")
    return DomResult(container, "body" if body is not None else "document")


def decompose(doc: HtmlElement) -> None:
    """Drop the elements below a <body> that step 1 decomposes, with their content (tails stay)."""
    doomed = [element for body in doc.iter("body") for element in body.iterdescendants()
              if _decomposed(element)]
    for element in doomed:
        if element.tag not in _KEEP and element.getparent() is not None:
            element.drop_tree()


def _decomposed(element: HtmlElement) -> bool:
    if element.tag in _DECOMPOSE_TAGS:
        return True
    if not isinstance(element.tag, str):
        return False
    return any(_KEYWORDS.search(value) for value in (element.get("class"), element.get("id")) if value)


def passes_validation_chain(element: HtmlElement) -> bool:
    """The validation chain, stages 2–5 (stage 1, "element exists", is the selector match itself)."""
    text = element.text_content()
    if len(text.strip()) <= MIN_TEXT_CHARS:
        return False
    if int(element.xpath("count(.//p)")) <= MIN_PARAGRAPHS:
        return False
    link_chars = sum(len(a.text_content()) for a in element.iter("a"))
    if link_chars / max(len(text), 1) >= MAX_LINK_TEXT_RATIO:
        return False
    return bool(_INDICATOR(element))


def best_by_paragraph_density(doc: HtmlElement) -> HtmlElement | None:
    best: HtmlElement | None = None
    best_score = -1.0
    for element in doc.iter("div", "section"):
        paragraph_words = sum(word_count(p.text_content()) for p in element.iter("p"))
        if paragraph_words < MIN_WORDS:
            continue
        density = paragraph_words / max(words(element), 1)
        score = paragraph_words * density
        if score > best_score:
            best, best_score = element, score
    return best
