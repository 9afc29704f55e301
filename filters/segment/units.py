"""A page's repeated units (posts, answers, comments) from its structure, and each unit's own text.

Input: a parsed page (`filters.parse.parsed.Page`). Output: `Unit`s in page order, each with its
own text (quoted posts, signatures, buttons and scripts left out). Two sources, generic only:
schema.org microdata (`itemtype` Comment, Answer, Question, DiscussionForumPosting, SocialMediaPosting)
and, without it, the sibling elements of one shape (tag and class words less digits) that repeat
under one parent and together hold most of the page's words. A unit inside another (a comment
under an answer) is a unit of its own and left out of the other's text. No site rules.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from lxml.html import HtmlElement

from filters.text.tokens import words

# schema.org types of one person's contribution to a page (microdata `itemtype`).
UNIT_TYPES = ("comment", "answer", "question", "discussionforumposting", "socialmediaposting")
# Parts of a unit that are not its own text (a class or id word, split at - and _): quotes of other
# posts, signatures, votes, badges, reactions, sharing and reply controls.
LEFT_OUT = frozenset(("quote", "quotes", "uncited", "signature", "sig", "vote", "votes", "badge", "badges",
                      "reactions", "share", "sharing", "button", "buttons"))
_MARK_WORDS = re.compile(r"[\s_-]+")
SKIPPED_TAGS = frozenset(("script", "style", "template", "noscript", "button", "form", "svg"))
# A unit holds blocks: a paragraph or list item of text alone is part of one, never a unit.
BLOCK_TAGS = frozenset(("div", "p", "article", "section", "ul", "ol", "li", "blockquote", "pre", "table", "header",
                        "footer", "aside", "h1", "h2", "h3", "h4", "h5", "h6"))
MIN_UNIT_WORDS = 5  # a repeated element with fewer words is furniture (a date, a counter)
MIN_UNITS = 2
MIN_SHARE = 0.3  # the repeated units hold at least this share of the page's words
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Unit:
    element: HtmlElement
    text: str
    source: str  # "microdata" or "repeated"


def own_text(element: HtmlElement, others: frozenset[HtmlElement] = frozenset()) -> str:
    """The unit's text with quotes, signatures, controls, scripts and the `others` units inside it
    left out, blocks on lines."""
    parts: list[str] = []

    def walk(node: HtmlElement) -> None:
        if not isinstance(node.tag, str) or node.tag in SKIPPED_TAGS or _left_out(node) \
                or (node is not element and node in others):
            return
        if node.text:
            parts.append(node.text)
        for child in node:
            walk(child)
            if child.tail:
                parts.append(child.tail)
        if node.tag in ("p", "div", "li", "br", "pre", "h1", "h2", "h3", "h4", "tr"):
            parts.append("\n")

    walk(element)
    lines = (" ".join(line.split()) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


def _left_out(node: HtmlElement) -> bool:
    marks = f"{node.get('class', '')} {node.get('id', '')}".lower()
    if LEFT_OUT.intersection(_MARK_WORDS.split(marks)):
        return True
    # a quotation of another post names it (`<cite>X wrote:</cite>`); other blockquotes are the post's own
    return node.tag == "blockquote" and node.find(".//cite") is not None


def shape(element: HtmlElement) -> tuple[str, str]:
    """What repeats: the tag and the class words with their digits removed (`post-123` is `post-`)."""
    classes = sorted({_DIGITS.sub("", word) for word in (element.get("class") or "").split()})
    return element.tag, " ".join(classes)


def microdata_units(body: HtmlElement) -> list[HtmlElement]:
    return [element for element in body.iter() if isinstance(element.tag, str)
            and (element.get("itemtype") or "").rstrip("/").rsplit("/", 1)[-1].lower() in UNIT_TYPES]


def repeated_units(body: HtmlElement, page_words: int) -> list[HtmlElement]:
    """The units of the best shape: among the groups of same-shape siblings that hold blocks, those
    holding at least half the words the largest holds (and `MIN_SHARE` of the page), the one with
    the most members; then every element of a like shape (`alike`) under their parent, so replies
    nested in a comment are units too."""
    groups: list[tuple[HtmlElement, tuple[str, str], int, int]] = []  # parent, shape, members, words
    for parent in body.iter():
        if not isinstance(parent.tag, str):
            continue
        by_shape: dict[tuple[str, str], list[int]] = defaultdict(list)
        for child in parent:
            if isinstance(child.tag, str) and child.tag not in SKIPPED_TAGS and _holds_blocks(child):
                count = len(words(own_text(child)))
                if count >= MIN_UNIT_WORDS:
                    by_shape[shape(child)].append(count)
        groups += [(parent, key, len(counts), sum(counts)) for key, counts in by_shape.items()
                   if len(counts) >= MIN_UNITS and sum(counts) >= MIN_SHARE * page_words]
    if not groups:
        return []
    most = max(held for *_, held in groups)
    parent, key, _, _ = max((group for group in groups if group[3] >= most / 2), key=lambda group: group[2])
    return [element for element in parent.iterdescendants() if isinstance(element.tag, str)
            and alike(shape(element), key) and _holds_blocks(element)]


def alike(one: tuple[str, str], other: tuple[str, str]) -> bool:
    """The same tag, and a class word in common or no class at all (a reply marked `comment
    oneline` is of a `comment contain full`'s kind)."""
    first, second = set(one[1].split()), set(other[1].split())
    return one[0] == other[0] and (bool(first & second) or not (first or second))


def _holds_blocks(element: HtmlElement) -> bool:
    return any(isinstance(child.tag, str) and child.tag in BLOCK_TAGS for child in element.iterdescendants())


def units(body: HtmlElement) -> list[Unit]:
    """The page's units in page order (none when nothing repeats)."""
    marked = microdata_units(body)
    if len(marked) >= MIN_UNITS:  # a unit inside another (a comment under an answer) is left out of it
        inside = frozenset(marked)
        return [Unit(element, own_text(element, inside), "microdata") for element in marked]
    page_words = len(words(own_text(body)))
    found = repeated_units(body, page_words)
    inside = frozenset(found)
    return [Unit(element, own_text(element, inside), "repeated") for element in found]
