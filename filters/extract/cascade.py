"""The extraction cascade: a page's main text from trafilatura, readability-lxml, the JSON-LD body or the DOM
heuristic, chosen by a policy (docs/filters.md, "Extraction").

Candidates run lazily, each at most once: `trafilatura` (`bare_extraction`, which copies the tree it is given,
with its own fallback comparison, `TRAFILATURA_FAST`; and a precision retry with `favor_precision=True` when more
than `PRECISION_LINK_CODE_FRACTION` of its characters are in links or code, which replaces it only when its
link/code share is lower), `readability` (readability-lxml on a copy of the tree without `<nav>` and `<footer>`),
`jsonld` (the first article object's `articleBody`, forum and social postings excluded) and `dom`
(`filters.extract.dom_fallback`). An exception inside one extractor is recorded and that candidate counts as empty.

Input: a parsed page. Output (`run_cascade`): the winner's text and blocks (mojibake repaired, boilerplate
removed), its word count (`filters.text.tokens.word_count`) and the `cascade_*` trace. Policies (`POLICIES`,
`extract.cascade.selection`): `cascade` (the default: each extractor only where the one before failed its
checks; why: docs/decisions.md), `agreement` (readability's second opinion on trafilatura's short blocks),
`seed` (the original best-of-two rule to the letter), `trafilatura_first`, `readability_first` and `jsonld_first`.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Any

import lxml.html
import pyarrow as pa

from filters.core.declarations import Count, Positive, Rule, Share, Signal, one_of
from filters.core.vocabulary import ARTICLE_TYPES, POSTING_TYPES, schema_types
from filters.extract.boilerplate import body_blocks, remove_boilerplate
from filters.extract.dom_fallback import dom_heuristic
from filters.extract.mojibake import fix_mojibake
from filters.parse.html import node_count
from filters.parse.parsed import Page
from filters.text.blocks import Block, blocks_from_element, blocks_from_text, link_code_char_fraction
from filters.text.tokens import word_count

READABILITY_MIN_WORDS = 50
TRAFILATURA_MIN_WORDS = 30
_MIN_WORDS = {"readability": READABILITY_MIN_WORDS, "trafilatura": TRAFILATURA_MIN_WORDS}
TRAFILATURA_PREFERENCE = 1.4
JSONLD_MIN_WORDS = 50
# Whose articleBody is the page's text: an article, not one post of a thread (see POSTING_TYPES).
BODY_TYPES = ARTICLE_TYPES - POSTING_TYPES
# `[^<>]`, not `[^>]`: a page of "<a<a<a…" without ">" made every "<" scan to the end.
_TAG = re.compile(r"<[a-zA-Z/!][^<>]*>")
# trafilatura's and readability's XPath expressions include some (`//p//text()`, unions of `//*`
# tests) whose cost grows with the square of the nodes they match, evaluated in one libxml2 call
# that the per-record SIGALRM budget cannot interrupt: 25 s for a page of 100 000 paragraphs, and
# 4.7 s for one of 30 000 elements and 45 000 text nodes. Above this many nodes (elements and
# text) they are skipped, recorded in `cascade_errors`, and the DOM heuristic, linear, takes
# over. Real pages stay well below: at most 32 000 nodes on trafilatura-eval and product-pages.
LIBRARY_MAX_NODES = 50_000
# trafilatura's `fast=True` skips its own fallback comparison with a readability port and jusText.
# Measured (docs/decisions.md): 30 % less trafilatura time, but the agreement policy's snippet
# score falls by 0.005 on trafilatura-eval and by 0.025 on the 2025 pages of wcxb-dev, and a rule
# that lets our readability candidate win instead recovers only half of that. So it stays off.
TRAFILATURA_FAST = False
# The precision retry's default trigger: more than this share of trafilatura's text in links or code.
PRECISION_LINK_CODE_FRACTION = 0.20
# HTML's navigation sections and section footers (WHATWG HTML, "the nav element", "the footer
# element") never hold an article's main text. readability scores them like any other element;
# without them its passes have a fifth less tree to walk (20 % of its time on trafilatura-eval)
# and the agreement policy's score did not change on either labelled corpus (docs/decisions.md).
READABILITY_PRUNED_TAGS = ("nav", "footer")
_LIBRARY_EXTRACTORS = frozenset({"trafilatura", "readability"})
AGREEMENT_SHORT_BLOCK_CHARS = 60
AGREEMENT_MIN_READABILITY_SHARE = 0.5
AGREEMENT_MIN_KEPT_SHARE = 0.5
# readability's second opinion is asked for only when trafilatura (>= 30 words) has at least this
# many short blocks (< 60 characters). Measured with benchmarks/readability_trigger.py on both
# labelled corpora (docs/decisions.md): readability changed the snippet score on 6 % of
# pages, as often for the worse as for the better at every count of short blocks, and ten or more
# keeps the score of asking on every page with a short block (0.9238 against 0.9266 on
# trafilatura-eval, 0.8410 against 0.8410 on wcxb-dev) while readability runs on 28 % and 66 % of
# pages instead of 88 % and 92 %. 1 gives the policy as it was (any short block).
AGREEMENT_MIN_SHORT_BLOCKS = 10
# ... and at least this many characters in them: ten short lines of a few words (dates, labels, a
# table's cells) are not the boilerplate readability drops. Measured with the same benchmark
# (docs/decisions.md, "Readability from 500 characters of short blocks"): 0 gives the ten blocks alone.
AGREEMENT_MIN_SHORT_BLOCK_CHARS = 500
# trafilatura's last resort (its `baseline`: the JSON-LD articleBody, an `<article>`'s or the body's
# whole text) returns one block without paragraphs; C4's line rule then reads a whole article as one
# line. From this many words in a single block, readability is asked for the paragraphs, and wins
# when it is credible (>= 50 words, between half and twice trafilatura's, in more than one block).
STRUCTURELESS_MIN_WORDS = 150


@dataclass
class Candidate:
    name: str
    blocks: list[Block] = field(default_factory=list)
    detail: str | None = None
    element: Any = None  # readability's output element

    @cached_property
    def words(self) -> int:  # the policies ask several times; the blocks never change
        return sum(word_count(block.text) for block in self.blocks)


@dataclass(frozen=True)
class CascadeResult:
    text: str | None
    extractor: str | None
    blocks: list[Block]
    word_count: int
    trace: dict[str, Any]
    # `blocks` without the leading headline repeat: what the article filter's block statistics measure
    body_blocks: list[Block] = field(default_factory=list)


class Candidates:
    """Runs each extractor at most once, on demand, recording words and failures."""

    def __init__(self, page: Page, precision_threshold: float = PRECISION_LINK_CODE_FRACTION,
                 on_time: Callable[[str, float], None] | None = None,
                 library_max_nodes: int | None = LIBRARY_MAX_NODES, trafilatura_fast: bool = TRAFILATURA_FAST,
                 agreement_min_short_blocks: int = AGREEMENT_MIN_SHORT_BLOCKS,
                 agreement_min_short_block_chars: int = AGREEMENT_MIN_SHORT_BLOCK_CHARS) -> None:
        self.page = page
        self.agreement_min_short_blocks = agreement_min_short_blocks
        self.agreement_min_short_block_chars = agreement_min_short_block_chars
        self.trafilatura_fast = trafilatura_fast
        self.precision_threshold = precision_threshold
        self.on_time = on_time
        self.library_max_nodes = library_max_nodes
        self._nodes: int | None = None
        self._done: dict[str, Candidate] = {}
        self.derived: dict[str, Candidate] = {}  # candidates a policy built from others
        self.errors: dict[str, str] = {}
        self.trace: dict[str, Any] = {}

    def get(self, name: str) -> Candidate:
        if name not in self._done:
            runner = {"jsonld": self._jsonld, "trafilatura": self._trafilatura, "readability": self._readability,
                      "dom": self._dom}[name]
            started = time.perf_counter()
            skipped = self._too_large_for(name)
            if skipped is not None:
                self.errors[name] = skipped
                self._done[name] = Candidate(name)
            else:
                try:
                    self._done[name] = runner()
                except Exception as exc:  # an extractor's bug or a pathological page: fall through
                    self.errors[name] = f"{type(exc).__name__}: {exc}"[:200]
                    self._done[name] = Candidate(name)
            if self.on_time is not None:
                self.on_time(f"extract.{name}", time.perf_counter() - started)
            self.trace[f"cascade_{name}_words"] = self._done[name].words
        return self._done[name]

    def words(self, name: str) -> int:
        return self.get(name).words

    def _too_large_for(self, name: str) -> str | None:
        """Why `name` must not run on this page (see `LIBRARY_MAX_NODES`), or None."""
        if name not in _LIBRARY_EXTRACTORS or self.library_max_nodes is None:
            return None
        nodes = self._node_count()
        if nodes <= self.library_max_nodes:
            return None
        return f"skipped: {nodes} nodes > {self.library_max_nodes} (cost grows with the square of the nodes)"

    def _node_count(self) -> int:
        if self._nodes is None:
            self._nodes = node_count(self.page.tree)
        return self._nodes

    def _jsonld(self) -> Candidate:
        for obj in self.page.json_ld:
            body = obj.get("articleBody")
            if schema_types(obj) & BODY_TYPES and isinstance(body, str) and body.strip():
                if _TAG.search(body):
                    body = lxml.html.fragment_fromstring(body, create_parent="div").text_content()
                return Candidate("jsonld", blocks_from_text(body))
        return Candidate("jsonld")

    def _trafilatura(self) -> Candidate:
        first = _run_trafilatura(self.page, False, self.trafilatura_fast)
        link_code = link_code_char_fraction(first.blocks)
        self.trace["cascade_trafilatura_link_code_fraction"] = round(link_code, 6)
        if link_code <= self.precision_threshold:
            return first
        self.trace["cascade_trafilatura_recall_words"] = first.words
        precise = _run_trafilatura(self.page, True, self.trafilatura_fast)
        self.trace["cascade_trafilatura_precision_words"] = precise.words
        # The retry exists to get rid of link/code text; keep it only if it did.
        precise_link_code = link_code_char_fraction(precise.blocks) if precise.blocks else 1.0
        return precise if precise_link_code < link_code else first

    def _readability(self) -> Candidate:
        element = readability_element(self.page.tree)
        return Candidate("readability", blocks_from_element(element) if element is not None else [], element=element)

    def _dom(self) -> Candidate:
        result = dom_heuristic(self.page.tree)
        return Candidate("dom", blocks_from_element(result.element), detail=result.step)


def trafilatura_body(tree: Any, favor_precision: bool, fast: bool) -> Any:
    """trafilatura's main content of `tree` as its XML body element (None when it finds none).

    `bare_extraction` takes the parsed tree (and copies it), and with `output_format="xml"` returns
    the unserialised `.body` with trafilatura's block structure (`p`, `head`, `list`/`item`,
    `quote`, `table`), which `blocks_from_element` reads; no text rendering, no metadata.
    """
    import trafilatura  # here, not at the top: the signal and rule registries import this module

    document = trafilatura.bare_extraction(tree, fast=fast, favor_precision=favor_precision, include_comments=False,
                                           include_tables=True, include_links=True, include_formatting=True,
                                           output_format="xml", deduplicate=False)
    return None if document is None else document.body  # type: ignore[union-attr]  # a Document for output_format="xml"


def readability_element(tree: Any) -> Any:
    """readability-lxml's main content of `tree` as an HTML element (None when it finds nothing).

    `readability.Document` accepts a parsed lxml tree as well as a string (readability-lxml 0.8.4;
    https://github.com/buriy/python-readability/issues/140): no second parse. It drops hidden elements from the tree
    it is given, so it gets a copy, and in that copy the page's `<nav>` and `<footer>` elements
    are removed first (`READABILITY_PRUNED_TAGS`). No `url`: it would only make every link
    absolute, which no block reads.
    """
    import readability  # here, not at the top: the signal and rule registries import this module

    pruned = copy.deepcopy(tree)
    for element in list(pruned.iter(*READABILITY_PRUNED_TAGS)):
        if element.getparent() is not None:
            element.drop_tree()  # its tail is text of the parent's and stays
    summary = readability.Document(pruned).summary(html_partial=True)
    return lxml.html.fromstring(summary) if summary.strip() else None


def _run_trafilatura(page: Page, favor_precision: bool, fast: bool) -> Candidate:
    name = "trafilatura_precision" if favor_precision else "trafilatura"
    body = trafilatura_body(page.tree, favor_precision, fast)
    return Candidate(name, blocks_from_element(body) if body is not None else [])


def page_headlines(page: Page) -> list[str]:
    """What the page calls its headline: `<title>`, og/twitter titles, JSON-LD headlines and `<h1>`s."""
    found = [page.meta_first("og:title"), page.meta_first("twitter:title")]
    title = page.tree.find(".//title")
    found.append(title.text_content() if title is not None else None)
    found += [obj.get("headline") or obj.get("name") for obj in page.json_ld if isinstance(obj.get("headline"), str)]
    found += [h1.text_content() for h1 in page.tree.iter("h1")]
    return [text for text in found if isinstance(text, str) and text.strip()]


Policy = Callable[[Candidates], tuple[str, str]]


def seed_policy(candidates: Candidates) -> tuple[str, str]:
    """The original best-of-two rule: with readability >= 50 words and trafilatura >= 30, trafilatura only with
    >= 1.4x readability's words, else readability; then readability >= 50; then trafilatura >= 30; then the DOM
    heuristic, which always returns something (the best element, the body, or the document).
    """
    r, t = candidates.words("readability"), candidates.words("trafilatura")
    r_min, t_min, preference = READABILITY_MIN_WORDS, TRAFILATURA_MIN_WORDS, TRAFILATURA_PREFERENCE
    if r >= r_min and t >= t_min:
        if t >= r * preference:
            return "trafilatura", f"both succeeded; trafilatura {t} >= {preference} x readability {r}"
        return "readability", f"both succeeded; trafilatura {t} < {preference} x readability {r}"
    if r >= r_min:
        return "readability", f"readability {r} >= {r_min}, trafilatura {t} < {t_min}"
    if t >= t_min:
        return "trafilatura", f"trafilatura {t} >= {t_min}, readability {r} < {r_min}"
    return "dom", f"readability {r} < {r_min} and trafilatura {t} < {t_min}: DOM heuristic"


def jsonld_first_policy(candidates: Candidates) -> tuple[str, str]:
    """Structured data first: the publisher's own articleBody when it is long enough, else `seed`."""
    j = candidates.words("jsonld")
    if j >= JSONLD_MIN_WORDS:
        return "jsonld", f"JSON-LD articleBody has {j} >= {JSONLD_MIN_WORDS} words"
    return seed_policy(candidates)


def _first_that_succeeds(candidates: Candidates, first: str, second: str) -> tuple[str, str]:
    """`first` when it has its minimum of words, else `second` (only then run), else DOM."""
    a, a_min = candidates.words(first), _MIN_WORDS[first]
    if a >= a_min:
        return first, f"{first} {a} >= {a_min}"
    b, b_min = candidates.words(second), _MIN_WORDS[second]
    if b >= b_min:
        return second, f"{first} {a} < {a_min}, {second} {b} >= {b_min}"
    return "dom", f"{first} {a} < {a_min} and {second} {b} < {b_min}: DOM heuristic"


def trafilatura_first_policy(candidates: Candidates) -> tuple[str, str]:
    """trafilatura when it succeeds (>= 30 words), else readability (>= 50), else DOM."""
    return _first_that_succeeds(candidates, "trafilatura", "readability")


def readability_first_policy(candidates: Candidates) -> tuple[str, str]:
    """readability when it succeeds (>= 50 words), else trafilatura (>= 30), else DOM."""
    return _first_that_succeeds(candidates, "readability", "trafilatura")




def agreement_blocks(candidates: Candidates) -> list[Block] | None:
    """trafilatura's blocks minus its short ones (< 60 characters) that readability's output does not
    contain, when readability is a credible second opinion (>= 50 words and >= half trafilatura's);
    None when the rule does not apply or would drop more than half of trafilatura's words.

    Short blocks are where trafilatura's boilerplate hides (share buttons, bylines, "Impressum",
    dates); readability, which keeps one dense subtree, rarely has them.
    """
    t_blocks = candidates.get("trafilatura").blocks
    t, r = candidates.words("trafilatura"), candidates.words("readability")
    if t < TRAFILATURA_MIN_WORDS or r < READABILITY_MIN_WORDS or r < AGREEMENT_MIN_READABILITY_SHARE * t:
        return None
    other = " ".join(" ".join(block.text.split()) for block in candidates.get("readability").blocks)
    kept = [block for block in t_blocks
            if block.chars >= AGREEMENT_SHORT_BLOCK_CHARS or " ".join(block.text.split()) in other]
    if sum(word_count(block.text) for block in kept) < AGREEMENT_MIN_KEPT_SHARE * t:
        return None
    return kept


def paragraphs_instead(candidates: Candidates) -> str | None:
    """Why readability replaces trafilatura, or None: trafilatura gave a long text as one block
    (`STRUCTURELESS_MIN_WORDS`, its structureless last resort) and readability found about the
    same amount of text in paragraphs (>= 50 words, between half and twice trafilatura's, in more
    than one block: readability's facet list of 2,800 words is not a 500-word article)."""
    blocks, t = candidates.get("trafilatura").blocks, candidates.words("trafilatura")
    if len(blocks) != 1 or t < STRUCTURELESS_MIN_WORDS:
        return None
    r, r_blocks = candidates.words("readability"), len(candidates.get("readability").blocks)
    share = AGREEMENT_MIN_READABILITY_SHARE
    if r < READABILITY_MIN_WORDS or not share * t <= r <= t / share or r_blocks < 2:
        return None
    return f"trafilatura {t} words in one block (no paragraphs); readability {r} words in {r_blocks} blocks"


def agreement_policy(candidates: Candidates) -> tuple[str, str]:
    """trafilatura first, cleaned by agreement with readability (see `agreement_blocks`).

    A long trafilatura text in a single block is its structureless last resort: readability's
    paragraphs replace it where readability agrees on the amount of text (`paragraphs_instead`).

    readability is asked only where it can change the outcome and plausibly improves it: when
    trafilatura failed (< 30 words), or has at least `agreement_min_short_blocks` short blocks
    (`AGREEMENT_MIN_SHORT_BLOCKS`, where the boilerplate it drops hides) holding at least
    `agreement_min_short_block_chars` characters together (`AGREEMENT_MIN_SHORT_BLOCK_CHARS`).
    Otherwise the winner is trafilatura's blocks, as `trafilatura_first_policy` gives at >= 30 words.
    """
    t = candidates.words("trafilatura")
    paragraphs = paragraphs_instead(candidates)
    if paragraphs is not None:
        return "readability", paragraphs
    blocks = candidates.get("trafilatura").blocks
    short_blocks = [block for block in blocks if block.chars < AGREEMENT_SHORT_BLOCK_CHARS]
    short, short_chars = len(short_blocks), sum(block.chars for block in short_blocks)
    if t >= TRAFILATURA_MIN_WORDS and (short < candidates.agreement_min_short_blocks
                                       or short_chars < candidates.agreement_min_short_block_chars):
        return "trafilatura", (f"trafilatura {t} words, {short} blocks under {AGREEMENT_SHORT_BLOCK_CHARS} characters "
                               f"({short_chars} characters; readability from {candidates.agreement_min_short_blocks} "
                               f"blocks and {candidates.agreement_min_short_block_chars} characters): "
                               f"readability not asked")
    kept = agreement_blocks(candidates)
    if kept is None:
        return trafilatura_first_policy(candidates)
    dropped = len(candidates.get("trafilatura").blocks) - len(kept)
    if dropped == 0:
        return "trafilatura", f"trafilatura {t} words; readability agrees on every short block"
    candidates.derived["agreement"] = Candidate(candidates.get("trafilatura").name, kept)
    return "agreement", (f"trafilatura {t} words, readability {candidates.words('readability')}: "
                         f"dropped {dropped} short trafilatura blocks readability does not have")


def cascade_policy(candidates: Candidates) -> tuple[str, str]:
    """A cascade: each extractor runs only where the one before failed its checks.

    trafilatura first (with `fast=False` it compares its own fallbacks, a readability port and
    jusText, on every call). readability-lxml only where trafilatura failed: fewer than 30 words, or a
    long text in one block, its structureless last resort (`paragraphs_instead`: readability's
    paragraphs replace it where it agrees on the amount of text). Then the publisher's JSON-LD
    `articleBody` (>= 50 words), then the DOM heuristic.
    """
    paragraphs = paragraphs_instead(candidates)
    if paragraphs is not None:
        return "readability", paragraphs
    t, t_min = candidates.words("trafilatura"), TRAFILATURA_MIN_WORDS
    if t >= t_min:
        return "trafilatura", f"trafilatura {t} >= {t_min}"
    r, r_min = candidates.words("readability"), READABILITY_MIN_WORDS
    if r >= r_min:
        return "readability", f"trafilatura {t} < {t_min}, readability {r} >= {r_min}"
    j = candidates.words("jsonld")
    if j >= JSONLD_MIN_WORDS:
        return "jsonld", f"trafilatura {t} < {t_min}, readability {r} < {r_min}, JSON-LD articleBody {j}"
    return "dom", f"trafilatura {t} < {t_min}, readability {r} < {r_min}, JSON-LD {j}: DOM heuristic"


POLICIES: dict[str, Policy] = {
    "cascade": cascade_policy,
    "agreement": agreement_policy,
    "seed": seed_policy,
    "jsonld_first": jsonld_first_policy,
    "trafilatura_first": trafilatura_first_policy,
    "readability_first": readability_first_policy,
}


def run_cascade(page: Page, policy: str = "cascade", precision_threshold: float = PRECISION_LINK_CODE_FRACTION,
                on_time: Callable[[str, float], None] | None = None,
                library_max_nodes: int | None = LIBRARY_MAX_NODES,
                agreement_min_short_blocks: int = AGREEMENT_MIN_SHORT_BLOCKS,
                agreement_min_short_block_chars: int = AGREEMENT_MIN_SHORT_BLOCK_CHARS) -> CascadeResult:
    """Pick the main text of `page` by `policy`; never raises for a bad page.

    `on_time(step, seconds)` is told how long each extractor took (for stats.json timings).
    `library_max_nodes`: trafilatura and readability are skipped on larger trees (None: never).
    """
    candidates = Candidates(page, precision_threshold, on_time, library_max_nodes,
                            agreement_min_short_blocks=agreement_min_short_blocks,
                            agreement_min_short_block_chars=agreement_min_short_block_chars)
    name, reason = POLICIES[policy](candidates)
    winner = candidates.derived[name] if name in candidates.derived else candidates.get(name)
    repaired, mojibake_blocks = fix_mojibake(winner.blocks)
    blocks, removed = remove_boilerplate(repaired)
    body = body_blocks(blocks, page_headlines(page))
    text = "\n\n".join(block.text for block in blocks) or None
    trace = dict(candidates.trace)
    trace.update(
        cascade_policy=policy,
        cascade_reason=reason if winner.detail is None else f"{reason} ({winner.detail})",
        cascade_errors="; ".join(f"{k}: {v}" for k, v in sorted(candidates.errors.items())) or None,
        boilerplate_blocks_removed_count=sum(removed.values()),
        mojibake_block_count=mojibake_blocks,
        headline_block_count=len(blocks) - len(body),
    )
    # The trafilatura candidate is named after the run that produced it (the precision retry or not).
    extractor = winner.name
    if name == "agreement":
        extractor = f"{extractor}+readability"
    return CascadeResult(text, extractor if text else None, blocks, word_count(text), trace, body)

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("cookie_overlays_removed_count", pa.int32(), "consent overlays removed before extraction"),
    Signal("cascade_policy", pa.string(), "selection policy that picked the winner"),
    Signal("cascade_reason", pa.string(), "why the winner won, with the word counts compared"),
    Signal("cascade_errors", pa.string(), "extractors that raised (with the exception) or were skipped: empty"),
    Signal("cascade_jsonld_words", pa.int32(), "words of the JSON-LD articleBody candidate (null: not run)"),
    Signal("cascade_trafilatura_words", pa.int32(), "words of the trafilatura candidate (after the precision retry)"),
    Signal("cascade_trafilatura_recall_words", pa.int32(), "words of the first trafilatura run, when it was retried"),
    Signal("cascade_trafilatura_precision_words", pa.int32(), "words of the favor_precision retry (null: no retry)"),
    Signal("cascade_trafilatura_link_code_fraction", pa.float64(), "share of trafilatura's text in links or code"),
    Signal("cascade_readability_words", pa.int32(), "words of the readability candidate (null: not run)"),
    Signal("cascade_dom_words", pa.int32(), "words of the DOM-heuristic candidate (null: not run)"),
    Signal("headline_block_count", pa.int32(), "leading blocks of text repeating the headline (not in block stats)"),
    Signal("boilerplate_blocks_removed_count", pa.int32(), "blocks removed by the boilerplate line filters"),
    Signal("mojibake_block_count", pa.int32(), "blocks whose mojibake (UTF-8 read as Latin-1/cp1252) was repaired"),
)
RULES: tuple[Rule, ...] = (
    Rule("extract.empty", "the extractor found no main text", "word_count", "==", "extract",
         constant=0),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class CascadeParams:
    # Which rule picks the winner among the candidates (filters/extract/cascade.py POLICIES); chosen
    # by measurement on both labelled corpora (docs/decisions.md, "The extraction cascade as a cascade").
    selection: Annotated[str, one_of(POLICIES)] = "cascade"
    # The precision retry (docs/filters.md, "Extraction"): re-run trafilatura with
    # favor_precision when more than this share of its text is in links or code.
    precision_link_code_fraction: Share = PRECISION_LINK_CODE_FRACTION
    # The agreement policy asks readability only when trafilatura has at least this many blocks
    # under 60 characters (or failed); 1: on every page with a short block (docs/filters.md, "Extraction").
    agreement_min_short_blocks: Positive = AGREEMENT_MIN_SHORT_BLOCKS
    # ... holding at least this many characters together (0: the blocks' count alone).
    agreement_min_short_block_chars: Count = AGREEMENT_MIN_SHORT_BLOCK_CHARS
