"""trafilatura's extraction sequence with its fallback comparison made on the cascade's readability candidate.

`trafilatura.bare_extraction` without `fast=True` runs its own readability port and jusText behind
its main extractor (`trafilatura.external.compare_extraction`) and adds a jusText candidate to its
recall escalation. The cascade computes readability anyway, so it paid for two readabilities per
page; with `fast=True` alone trafilatura skips the comparison, and lost text (trafilatura-eval,
`benchmarks/extraction.py`: agreement 0.9266 -> 0.9217). This module runs trafilatura's sequence
(`trafilatura.core.trafilatura_sequence`, trafilatura 2.3) step by step with trafilatura's own
functions and makes the comparison itself, with trafilatura's rules and constants:

1. trafilatura's main extractor (`extract_content`) on the page as trafilatura prunes and cleans it;
2. **comparison** (`compare_extraction`): readability's text replaces trafilatura's when
   `prefer_readability` says so (then trafilatura's `sanitize_tree` cleans and converts it); jusText
   is tried when the result is "unclean" (`UNCLEAN_TAGS` left in it) or shorter than the minimum,
   and kept by `accept_justext`;
3. baseline rescue of a short result (trafilatura's `baseline`; not in precision focus);
4. recall escalation of a short result covering little of the page (balanced focus only): steps
   1-2 again in recall focus, and a jusText candidate, each kept when clearly longer.

Fed trafilatura's own readability port, `run` returns exactly what `bare_extraction` without fast
mode returns (tested; all 980 trafilatura-eval pages in both focuses when this was written). Two
differences remain: readability is readability-lxml on the cascade's tree, not trafilatura's fork on
its pruned copy, and the options are fast mode's (see `options_for`).

trafilatura's XPath selections (the raw tree's pruning, the comment sections, in its main
extractor the body candidates and the pruning of boilerplate, and the cleaning before its page
text and jusText) are made by `trafilatura_paths`, which selects the same elements several times
faster; the main extractor, `html2txt` and `justext_rescue` are `trafilatura_extractor`'s copies
of trafilatura's, which use them. trafilatura's `baseline` still cleans with its own XPath.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import copy, deepcopy
from dataclasses import dataclass
from functools import cached_property

from lxml import etree
from trafilatura.baseline import _BLOCK_ELEMS, baseline
from trafilatura.core import (
    ESCALATION_ACCEPT_RATIO,
    ESCALATION_JUSTEXT_RATIO,
    ESCALATION_MAX_LENGTH,
    ESCALATION_PAGE_SHARE,
    _forum_thread_page,
)
from trafilatura.external import JUSTEXT_OVERRIDE_RATIO, SANITIZED_XPATH, sanitize_tree
from trafilatura.htmlprocessing import convert_tags, prune_unwanted_nodes, tree_cleaning
from trafilatura.settings import Extractor
from trafilatura.utils import trim

from filters.trafilatura_extractor import extract_content, html2txt, justext_rescue
from filters.trafilatura_paths import RAW_TREE_PRUNE, REMOVE_COMMENTS, REMOVE_COMMENTS_AND_LISTS

# What trafilatura's own extraction never leaves in a result: the tags of
# `trafilatura.external.SANITIZED_XPATH` (".//aside|.//audio|…"), searched with one `iter`.
UNCLEAN_TAGS = tuple(part.removeprefix(".//") for part in SANITIZED_XPATH.split("|"))
READABILITY_PREFERENCE_RATIO = 2  # readability's text "much longer" / trafilatura's "much longer"
RECALL_READABILITY_RATIO = 1.5  # recall focus: readability's text "substantially longer"
_CODE_TEXT = etree.XPath(".//script/text() | .//style/text()", smart_strings=False)
# Built once (trafilatura never changes an Extractor; the escalation changes a copy's focus).
_OPTIONS = {precision: Extractor(output_format="xml", fast=True, precision=precision, comments=False, tables=True,
                                 links=True, formatting=True)
            for precision in (False, True)}


@dataclass(frozen=True)
class Readability:
    """readability's output (an HTML element, or None when it found nothing)."""

    element: etree._Element | None

    @cached_property
    def text(self) -> str:
        if self.element is None:
            return ""
        return trim(etree.tostring(self.element, method="text", encoding="unicode"))


@dataclass(frozen=True)
class Result:
    """trafilatura's body (None: nothing extracted) and which fallback produced it (None: trafilatura)."""

    body: etree._Element | None
    fallback: str | None = None


def options_for(precision: bool) -> Extractor:
    """The options of the cascade's trafilatura run: no comments; tables, links and formatting kept.

    `fast`: its one effect on the steps run here is that the wild-text recovery of a short extraction
    keeps teaser-class blocks (trafilatura does so when nothing compares its result afterwards).
    Without it the cascade's policies measured within one page's snippets of this (agreement 0.9271
    against 0.9269, jsonld_first 0.9038 against 0.9040). No URL: it only makes link targets absolute,
    which no block reads. Format "xml": "python" also renders the text, which the cascade never reads.
    """
    return _OPTIONS[precision]


def prefer_readability(own: etree._Element, own_chars: int, readability: Readability, focus: str,
                       min_chars: int) -> bool:
    """readability's text replaces trafilatura's (`trafilatura.external._prefer_readability`)."""
    algo_chars = len(readability.text)
    if algo_chars in (0, own_chars) or own_chars > READABILITY_PREFERENCE_RATIO * algo_chars:
        return False
    not_json = not readability.text.startswith("{")  # readability grabbed raw JSON
    if own_chars == 0 or (algo_chars > READABILITY_PREFERENCE_RATIO * own_chars and not_json):
        return True
    if algo_chars > 2 * min_chars and structurally_deficient(own):
        return True
    if focus != "recall":
        return False
    if algo_chars > RECALL_READABILITY_RATIO * own_chars and not_json:
        return True
    # recall: readability recovers a headed article where trafilatura found no heading
    return own.find(".//head") is None and _has_subheading(readability.element) and algo_chars > own_chars


def structurally_deficient(body: etree._Element) -> bool:
    """No text in any paragraph, or more tables than paragraphs."""
    paragraphs = body.findall(".//p")
    return not any(True for p in paragraphs for _ in p.itertext()) or len(body.findall(".//table")) > len(paragraphs)


def is_unclean(body: etree._Element) -> bool:
    return next(body.iter(*UNCLEAN_TAGS), None) is not None


def accept_justext(chars: int, justext_chars: int, unclean: bool) -> bool:
    """An unclean result may shrink (jusText dropped its boilerplate) but not below a third; a
    merely short one must grow."""
    if justext_chars == 0:
        return False
    if unclean:
        return chars <= JUSTEXT_OVERRIDE_RATIO * justext_chars
    return chars < justext_chars


def run(tree: etree._Element, precision: bool, readability: Callable[[], Readability]) -> Result:
    """trafilatura on `tree` (copied, never changed) with the comparison made on `readability()`."""
    options = options_for(precision)
    forum = _forum_thread_page(tree)
    tree = prune_unwanted_nodes(deepcopy(tree), RAW_TREE_PRUNE)
    if precision or not forum:
        tree = prune_unwanted_nodes(tree, REMOVE_COMMENTS_AND_LISTS)
    body, text, fallback = _extract_and_compare(tree, options, readability, prune_comments=precision and not forum)
    if not precision:
        if len(text) < options.min_extracted_size:
            baseline_body, baseline_text, baseline_chars = baseline(tree)
            if baseline_chars > len(text):
                body, text, fallback = baseline_body, baseline_text, None
        if 0 < len(text) < ESCALATION_MAX_LENGTH and len(text) < ESCALATION_PAGE_SHARE * page_chars_at_most(tree) \
                and len(text) < ESCALATION_PAGE_SHARE * len(html2txt(tree)):
            body, text, fallback = _escalate(tree, options, readability, (body, text, fallback))
    if len(text) < options.min_output_size:
        return Result(None)
    return Result(body, fallback)


def page_chars_at_most(tree: etree._Element) -> int:
    """An upper bound of `len(html2txt(tree))`, the page measure of the escalation, for a fraction
    of its cost (a copy and a cleaning walk over every element): html2txt keeps at most the
    non-space characters of the body's text less its script and style text, and splits its words
    only where it inserts a space, at the start of each block element's text and tail. So most
    results that cover enough of the page are known to without html2txt."""
    body = tree.find(".//body")
    if body is None:
        body = tree
    words = body.text_content().split()
    code_chars = sum(len("".join(text.split())) for text in _CODE_TEXT(body))
    block_elements = sum(1 for _ in body.iter(*_BLOCK_ELEMS))
    return max(0, sum(map(len, words)) - code_chars + len(words) + 2 * block_elements - 1)


def _escalate(tree: etree._Element, options: Extractor, readability: Callable[[], Readability],
              current: tuple[etree._Element, str, str | None]) -> tuple[etree._Element, str, str | None]:
    """A short result covering little of the page: steps 1-2 again in recall focus, and jusText on
    the page, each replacing it when clearly longer (jusText over-includes: the stricter bar)."""
    chars = len(current[1])
    recall_options = copy(options)
    recall_options.focus = "recall"
    recall = _extract_and_compare(tree, recall_options, readability)
    justext_body, justext_text = justext_rescue(deepcopy(tree), options)
    if len(justext_text) > len(recall[1]) and len(justext_text) > ESCALATION_JUSTEXT_RATIO * chars:
        return justext_body, justext_text, "justext"
    if len(recall[1]) >= options.min_extracted_size and len(recall[1]) > ESCALATION_ACCEPT_RATIO * chars:
        return recall
    return current


def _extract_and_compare(tree: etree._Element, options: Extractor, readability: Callable[[], Readability],
                         prune_comments: bool = False) -> tuple[etree._Element, str, str | None]:
    # trafilatura's _prepare_tree, less its copy of the cleaned tree for jusText: made again when
    # jusText runs (`tree` is not changed), which few pages need
    cleaned = convert_tags(tree_cleaning(copy(tree), options), options, None)
    if prune_comments:
        cleaned = prune_unwanted_nodes(cleaned, REMOVE_COMMENTS)
    body, text = extract_content(cleaned, options)
    if options.focus == "recall" and len(text) > options.min_extracted_size * 10:
        return body, text, None
    algo = readability()
    use_readability = prefer_readability(body, len(text), algo, options.focus, options.min_extracted_size)
    if use_readability:
        body, text = algo.element, algo.text
    unclean = is_unclean(body)
    if unclean or len(text) < options.min_extracted_size:
        justext_body, justext_text = justext_rescue(tree_cleaning(copy(tree), options), options)
        if accept_justext(len(text), len(justext_text), unclean):
            return justext_body, justext_text, "justext"
    if use_readability:
        body, text = sanitize_tree(deepcopy(algo.element), options)
        return body, text, "readability"
    return body, text, None


def _has_subheading(element: etree._Element | None) -> bool:
    return element is not None and next(element.iter("h2", "h3", "h4"), None) is not None
