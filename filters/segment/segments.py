"""A page's segments: its units (`units.py`) as the dataset sees them, each with its own text, its
kind, its author and date as the unit shows them, and the words of other posts quoted in it.

`page_segments(body, text, json_ld)` is what the pipeline calls after extraction: `body` is the
parsed page's `<body>` (never modified), `text` the extracted main text (None when the page was
not extracted). Nothing here depends on the page's type; what select needs to judge a segment is
stored with it: whether it is a part of the extracted text (`body_part`, `in_body`; rule
page.body_part drops those on pages the page-type model calls an article: an article's body is
never a segment, its comments are), and whether its page's units are `unsigned_part`s (none shows
an author or a machine-readable date, none is marked as a post by its id, class or JSON-LD, and
some hold the extracted text: the dated sections of one text rather than posts; rule
page.unsigned_part drops them on every page type but `forum` by default).
Kinds: microdata's, else a class word of the unit or its parent (`KIND_WORDS`), else `item` for units
mostly of link text, else `post`. The author and date elements read are left out of the text, and
so are a unit's lines that quote an earlier unit of the page (`without_quoted_lines`).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
from lxml import etree
from lxml.html import HtmlElement

from filters.core.declarations import Rule, Signal
from filters.metadata.dates import MAX_DATE_CHARS, may_be_full_date
from filters.segment.jsonld import jsonld_units
from filters.segment.units import (
    DATED,
    HEAD_CHARS,
    SKIPPED_TAGS,
    USER_LINK,
    Unit,
    alternating,
    below_any,
    counted_own_text,
    left_out,
    own_text,
    signature_line,
    size,
    units,
)
from filters.text.tokens import word_count

KINDS = ("post", "question", "answer", "comment", "review", "item")
# Class words (split at spaces, - and _) naming a unit's kind, on the unit or its parent.
KIND_WORDS = {"question": "question", "questions": "question", "answer": "answer", "answers": "answer",
              "comment": "comment", "comments": "comment", "reply": "comment", "replies": "comment",
              "review": "review", "reviews": "review"}
# A review's rating: an `itemprop` ratingValue or reviewRating, or an element with a class word
# starting so ("review-rating", "a-icon-star"); the number its `content`, `aria-label`, `title` or
# text shows first ("5.0 out of 5 stars"). Read into the segment, left out of its text.
RATING_PROPERTIES = ("reviewRating", "ratingValue")  # in the order read: the review's rating, then a value
RATING_PREFIXES = ("rating", "star")
OTHER_RATINGS = ("aggregateRating", "itemReviewed")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
# A date shown as text in an element with a class word `date` ("Reviewed in the United States on May
# 25, 2018"), when the unit has no machine-readable one: at most this many words.
MAX_DATE_WORDS = 12
# Attributes in which shops and comment systems write a date for their scripts ("2020-11-26T19:39:48",
# a Unix time): machine-readable, like a `<time datetime>`.
DATE_ATTRIBUTES = ("data-date", "data-datetime", "data-timestamp", "data-time")
# Class words of the element that shows a unit's author.
AUTHOR_WORDS = frozenset(("author", "username", "user", "poster", "nickname", "commenter", "person"))
MAX_AUTHOR_WORDS = 6
# Class words of a post's poster block (name, title, join date, message count, location).
POSTER_WORDS = AUTHOR_WORDS | frozenset(("profile", "postprofile", "userinfo", "member", "postauthor"))
ITEM_LINK_SHARE = 0.5  # units whose words are mostly link text are items of a list
# A unit at least this share of whose words are in lines of at least `BODY_LINE_WORDS` words that the
# extracted text holds is a part of that text (`in_body`).
BODY_SHARE = 0.5
BODY_LINE_WORDS = 12
# Furniture (`furniture`): a path from the unit that this share of at least this many units hold, with
# less than this share of each one's text, is the software's, not the writer's.
MIN_FURNITURE_UNITS = 2
FURNITURE_SHARE = 0.8
FURNITURE_MAX_SHARE = 0.4
FAMILY_OVERLAP = 0.5
FURNITURE_REPEAT = 0.3
_DIGIT = re.compile(r"\d")
# A line of a unit all of whose runs of this many words are in the units before it quotes them.
QUOTE_SPAN = 8
_WORD = re.compile(r"\w+")
_MARK_WORDS = re.compile(r"[\s_-]+")
_AUTHOR_MARKS = etree.XPath(".//*[@itemprop='author' or contains(concat(' ', @rel, ' '), ' author ') or @class]")
_DATE_CLASSES = etree.XPath(".//*[contains(@class, 'date')]")
_RATINGS = etree.XPath(".//*[" + " or ".join([*(f"@itemprop='{name}'" for name in RATING_PROPERTIES),
                                               *(f"contains(@class, '{prefix}')" for prefix in RATING_PREFIXES)]) + "]")
_DATES = etree.XPath(".//*[self::time[@datetime] or @itemprop='datePublished' or @itemprop='dateCreated' or "
                     + " or ".join(f"@{name}" for name in DATE_ATTRIBUTES) + "]")


# Registered in `filters.rules.signals` and `filters.rules.reasons`: a segment's own signals (null on
# pages) and rule.
SIGNALS: tuple[Signal, ...] = (
    Signal("review_rating", pa.float64(), "a review segment's rating as it shows it (\"5.0 out of 5 stars\" is 5.0; "
           "its scale is the site's), left out of its text (null: not a review, or none shown)"),
    Signal("body_part", pa.bool_(), "whether a segment is a part of its page's extracted text: at least half its words "
           "are in its lines of at least 12 words that the text holds (extract stage; null on pages, and where the "
           "page was not extracted)"),
    Signal("body_part_page_type", pa.string(), "a segment's page type when it is a part of its page's extracted text "
           "(body_part; select stage; null otherwise, and on pages)"),
    Signal("unsigned_part", pa.bool_(), "whether a segment's page shows its units as the parts of one text: none shows "
           "an author or a machine-readable date, none is marked as a post, and some are parts of the extracted text "
           "(extract stage; null on pages, and where the page was not extracted)"),
    Signal("unsigned_part_page_type", pa.string(), "a segment's page type when its page shows its units as the parts "
           "of one text (unsigned_part; select stage; null otherwise, and on pages)"),
    Signal("left_out_words", pa.int32(), "words a segment's unit shows that its text leaves out as the software's: "
           "its writer's and date's parts, the fields every unit holds, edit notices, signatures and controls; not "
           "quotes (quoted_words) nor replies nested in it (extract stage; null on pages, on units that declare their "
           "text as schema.org text, and on JSON-LD segments)"),
    Signal("shop_page_segment_kind", pa.string(), "a segment's kind when the page-type model calls its page one of "
           "segment.shop_page_types (select stage; null otherwise, and on pages)"),
)
RULES: tuple[Rule, ...] = (
    Rule("page.shop_segment", "a segment of a page the page-type model calls a shop, collection or service page "
         "(segment.shop_page_types) that is not of a kind kept there (segment.kinds_on_shop_pages: customer "
         "reviews), such as a product Q&A widget or a refund policy", "shop_page_segment_kind", "not_in", "select",
         params_key="segment.kinds_on_shop_pages"),
    Rule("page.body_part", "a segment that is a part of its page's extracted text on a page the page-type model calls "
         "one of segment.body_part_page_types (an article's sections, not the comments under it): the page row "
         "holds that text", "body_part_page_type", "in", "select", params_key="segment.body_part_page_types"),
    Rule("page.unsigned_part", "a segment of a page whose units show no writer (no author, no machine-readable date, "
         "none marked as a post) and hold part of the extracted text, on a page the page-type model calls one of "
         "segment.unsigned_part_page_types: the dated sections of one text, not posts", "unsigned_part_page_type",
         "in", "select", params_key="segment.unsigned_part_page_types"),
)


@dataclass(frozen=True)
class Segment:
    text: str  # the unit's own text, blocks on lines
    kind: str  # one of KINDS
    author: str | None  # as the unit shows it
    published: str | None  # as the unit shows it (a `datetime` or `content` attribute, or date text), unparsed
    quoted_words: int  # words of quoted posts left out of `text`
    source: str  # how the unit was found: "microdata", "marked" (by its post id or class), "repeated" or "jsonld"
    rating: float | None = None  # a review's rating as it shows it, left out of `text`
    # words the unit shows that `text` leaves out as the software's (its writer's and date's parts, the
    # fields every unit holds, edit notices, signatures, controls); None where it declares its text
    left_out_words: int | None = None
    # the full date the date element's tooltip gives (its `title`: "2/21/2024 5:00:00 AM" on "2 years ago")
    date_title: str | None = None
    body_part: bool | None = None  # whether the extracted text holds it (`in_body`); None: the page was not extracted
    unsigned_part: bool | None = None  # whether its page's units are the unsigned parts of one text; None: likewise


def page_segments(body: HtmlElement, text: str | None = None,
                  json_ld: list[dict[str, Any]] | None = None) -> list[Segment]:
    """The page's segments in page order (none when nothing repeats). With `text`, each records
    whether it is a part of the extracted text (`body_part`, `in_body`) and whether its page's units
    are `unsigned_part`s (some are such parts and none shows an author or a machine-readable date or
    is marked as a post): select decides by the page's final type. A page whose markup gives no unit
    gives the contributions its JSON-LD states (`json_ld`: `Page.json_ld`; `jsonld_units`), a single post among them."""
    found = units(body)
    inside = frozenset(unit.element for unit in found)
    software = furniture_everywhere([unit.element for unit in found], inside)
    seen: set[tuple[str, ...]] = set()  # the QUOTE_SPAN-word runs of the units before
    segments = []
    declared = False  # whether a unit shows an author or a machine-readable date
    for unit in found:
        name, name_element = author(unit.element, inside)
        date, date_element = published(unit.element, inside)
        declared = declared or name is not None or (date_element is not None and _declares_date(date_element))
        kind = declared_kind(unit)
        score, score_element = rating(unit.element, inside) if kind == "review" else (None, None)
        poster = poster_block(name_element, unit.element) if name_element is not None else None
        shown = frozenset(element for element in (name_element, poster, date_element, score_element)
                          if element is not None and 2 * size(element) < size(unit.element))
        if unit.source == "nested" and name is None:  # a reply signed at its end: "ann 於 2014/01/01 20:31 回覆"
            name, date, signed = _signed(unit.element)
            shown = shown | signed
        declared_own = declared_text(unit, inside, shown | software)
        own, quoted, left = (*declared_own, None) if declared_own is not None \
            else counted_own_text(unit.element, inside, shown | software)
        shown_words = word_count(own)
        own = without_signature(without_edit_notices(own))
        left = None if left is None else left + shown_words - word_count(own)
        own, repeated = without_quoted_lines(own, seen)
        if own:
            segments.append(Segment(own, kind or unit_kind(unit, own, inside), name, date, quoted + repeated,
                                    unit.source, score, left, date_title(date_element)))
    if not found and json_ld:
        segments = [Segment(posting.text, posting.kind, posting.author, posting.published, 0, "jsonld", posting.rating)
                    for posting in jsonld_units(json_ld)]
    if not segments or not text:
        return segments
    body_text = _plain(text)
    body_lines = _body_lines(text)
    parts = [in_body(segment.text, body_text, body_lines) for segment in segments]
    unsigned = not declared and all(segment.source not in ("marked", "jsonld") for segment in segments) and any(parts)
    return [dataclasses.replace(segment, body_part=part, unsigned_part=unsigned)
            for segment, part in zip(segments, parts, strict=True)]


def _signed(reply: HtmlElement) -> tuple[str | None, str | None, frozenset[HtmlElement]]:
    """A nested reply's writer (its signature line's link text), date (the line's text, unparsed)
    and the line, left out of its text (`signature_line`)."""
    line = signature_line(reply)
    if line is None:
        return None, None, frozenset()
    link = line.find(".//a")
    name = _shown_text(link) if link is not None else None
    return name or None, _shown_text(line), frozenset((line,))


# schema.org's property for a contribution's own text (a `Comment`'s, an `Answer`'s, a `Question`'s): where
# a microdata unit declares it, that is the unit's text, without the tags, votes, controls, comment box
# and answer count that the unit's element holds around it.
TEXT_PROPERTY = "text"
_TEXT_PROPERTIES = etree.XPath(f".//*[@itemprop='{TEXT_PROPERTY}']")


def declared_text(unit: Unit, others: frozenset[HtmlElement],
                  removed: frozenset[HtmlElement]) -> tuple[str, int] | None:
    """A microdata unit's own text as it declares it (`TEXT_PROPERTY` elements of its own, not of a unit
    nested in it, each read by `own_text`, a `<meta>`'s from its `content`), or None when it declares none."""
    if unit.source != "microdata":
        return None
    declared = [element for element in _TEXT_PROPERTIES(unit.element)
                if _outside(element, unit.element, others) and element not in others]
    if not declared:
        return None
    parts = [_content_text(element) if element.tag == "meta" else own_text(element, others, removed)
             for element in declared]
    return "\n".join(text for text, _ in parts if text), sum(quoted for _, quoted in parts)


def _content_text(meta: HtmlElement) -> tuple[str, int]:
    """A `<meta itemprop>`'s text: its `content`, lines kept, spaces normalised; no quote left out."""
    lines = (" ".join(line.split()) for line in (meta.get("content") or "").split("\n"))
    return "\n".join(line for line in lines if line), 0


# An edit notice the software prints under a post ("Last edited by ann on Tue Aug 27, 2019 10:03 pm,
# edited 1 time in total", "Zuletzt bearbeitet von ann, 12.03.2020"): a line of at most this many
# words that names an edit in the web's words (`EDIT_WORDS`) and shows a date, a time or a year.
MAX_EDIT_NOTICE_WORDS = 25
EDIT_WORDS = re.compile(r"\b(?:edited|bearbeitet|ge[äa]ndert|modifi[ée]|editado|modificato|bewerkt|redigerad)\b",
                        re.IGNORECASE)


YEAR = re.compile(r"\b(?:19|20)\d\d\b")  # "Last edited by a moderator Oct 6, 2020"


def without_edit_notices(own: str) -> str:
    """A unit's text less its edit notices (`EDIT_WORDS`, `DATED` or `YEAR`, at most
    `MAX_EDIT_NOTICE_WORDS` words), which are the software's, not the writer's."""
    lines = own.split("\n")
    kept = [line for line in lines if not (len(line.split()) <= MAX_EDIT_NOTICE_WORDS and EDIT_WORDS.search(line)
                                           and (DATED.search(line) or YEAR.search(line)))]
    return own if len(kept) == len(lines) else "\n".join(kept)


# A signature below a rule: a line of at least five `_` (a forum's signature separator) or e-mail's "-- ",
# then at most `MAX_SIGNATURE_BLOCK_WORDS` words to the end of the post. A row of dashes is as often a writer's
# own divider, and stays.
SIGNATURE_RULE = re.compile(r"_{5,}|--")  # a whole line, stripped
MAX_SIGNATURE_BLOCK_WORDS = 40  # not units.MAX_SIGNATURE_WORDS: that bounds a reply's one signature line


def without_signature(own: str) -> str:
    """A unit's text less the signature under its last rule (`SIGNATURE_RULE`), when the rule follows
    some text and at most `MAX_SIGNATURE_BLOCK_WORDS` words follow it."""
    lines = own.split("\n")
    for index in range(len(lines) - 1, 0, -1):
        if SIGNATURE_RULE.fullmatch(lines[index].strip()):
            if word_count(" ".join(lines[index + 1:])) <= MAX_SIGNATURE_BLOCK_WORDS:
                return "\n".join(lines[:index])
            break
    return own


def furniture_everywhere(found: list[HtmlElement], inside: frozenset[HtmlElement]) -> frozenset[HtmlElement]:
    """Furniture of each family of units (`furniture`), and in every unit the small parts placed as
    some family's furniture is (the same step under the same parent step, with a class word): a
    question is often a unit of its own shape whose controls are its answers' controls."""
    if len(found) < MIN_FURNITURE_UNITS:
        return frozenset()
    parts = {unit: _parts(unit, inside) for unit in found}
    learned = {element for family in families(found, parts) for element in furniture(family, parts)}
    placements = [(unit, place, element) for unit in found for place, element in _placements(unit, parts[unit])]
    placed = {place for _, place, element in placements if element in learned and "." in place[1]}
    for unit, place, element in placements:
        if (element not in learned and place in placed and not in_running_text(element)
                and parts[unit].chars[element] < FURNITURE_MAX_SHARE * parts[unit].chars[unit]):
            learned.add(element)
    return frozenset(learned)


def _placements(unit: HtmlElement, unit_parts: Parts) -> Iterator[tuple[tuple[str, str], HtmlElement]]:
    """Each part of a unit with its place: its parent's step (the unit's own for a child of the unit)
    and its own."""
    top = _step(unit)
    for path, elements in unit_parts.paths.items():
        place = (path[-2] if len(path) > 1 else top, path[-1])
        for element in elements:
            yield place, element


def families(found: list[HtmlElement], parts: dict[HtmlElement, Parts]) -> list[list[HtmlElement]]:
    """The page's units in families built alike: a unit joins the first family whose first member's
    children (`_step`s) share at least `FAMILY_OVERLAP` of theirs with its own (a question and its
    answers are one family, the comments under them another)."""
    grouped: list[tuple[frozenset[str], list[HtmlElement]]] = []
    for unit in found:
        own = frozenset(path[0] for path in parts[unit].paths if len(path) == 1)
        for first, members in grouped:
            union = len(first | own)
            if union and len(first & own) >= FAMILY_OVERLAP * union:
                members.append(unit)
                break
        else:
            grouped.append((own, [unit]))
    return [members for _, members in grouped]


def furniture(found: list[HtmlElement], parts_of: dict[HtmlElement, Parts]) -> frozenset[HtmlElement]:
    """The parts every unit holds in the same place with little text: the forum software's, not the
    writer's (the poster's profile block, the post's number and date line, its controls).

    A part is named by its path from the unit (tags and class words, numbers dropped:
    `div.postprofile > dl > dd`). A path that at least `FURNITURE_SHARE` of a family's units (at
    least `MIN_FURNITURE_UNITS`) hold, that holds less than `FURNITURE_MAX_SHARE` of the text of
    every unit holding it, and whose words repeat from unit to unit (`_repeated`, at least
    `FURNITURE_REPEAT`) is furniture; only the outermost such part is returned. The text a writer
    writes differs from post to post, however short: it is never such a part."""
    if len(found) < MIN_FURNITURE_UNITS:
        return frozenset()
    parts = [parts_of[unit] for unit in found]
    holders: dict[tuple[str, ...], int] = {}
    for unit_parts in parts:
        for path in unit_parts.paths:
            holders[path] = holders.get(path, 0) + 1
    common = {path for path, count in holders.items() if count >= FURNITURE_SHARE * len(found)}
    small: set[tuple[int, tuple[str, ...]]] = set()
    for index, (unit, unit_parts) in enumerate(zip(found, parts, strict=True)):
        total = unit_parts.chars[unit]
        small.update((index, path) for path in common & unit_parts.paths.keys()
                     if unit_parts.held(path) < FURNITURE_MAX_SHARE * total)
    furniture_paths = {path for path in common if all(
        path not in unit_parts.paths or (index, path) in small for index, unit_parts in enumerate(parts))
        and _repeated(path, parts) >= FURNITURE_REPEAT}
    outermost = {element for unit_parts in parts for path, elements in unit_parts.paths.items()
                 if path in furniture_paths and not any(path[:cut] in furniture_paths for cut in range(1, len(path)))
                 for element in elements if not in_running_text(element)}
    return frozenset(outermost)


def in_running_text(element: HtmlElement) -> bool:
    """Whether words stand beside `element` in its parent (an `@name` mention or a link inside a
    sentence, a line break between sentences): part of what the writer wrote, however often it
    repeats. A separator (" – ", " | ") is not a word."""
    parent = element.getparent()
    if parent is None:
        return False
    if _WORD.search(parent.text or "") or _WORD.search(element.tail or ""):
        return True
    return any(_WORD.search(sibling.tail or "") for sibling in element.itersiblings(preceding=True))


def _repeated(path: tuple[str, ...], parts: list[Parts]) -> float:
    """The mean share of a part's words that at least half the units holding the part hold there too:
    the software's labels and controls repeat ("Join Date", "Posts", "Reply"), the writers' words do
    not (one-line replies included). A number counts as repeated: the values the software fills in
    its fields vary (a post's number, a date, a post count), its labels do not."""
    held = [{word for element in unit_parts.paths[path] for word in _WORD.findall(" ".join(element.itertext()).lower())}
            for unit_parts in parts if path in unit_parts.paths]
    counts: dict[str, int] = {}
    for found_words in held:
        for word in found_words:
            counts[word] = counts.get(word, 0) + 1
    shares = [sum(2 * counts[word] >= len(held) or word.isdigit() for word in found_words) / len(found_words)
              for found_words in held if found_words]
    return sum(shares) / len(shares) if shares else 1.0  # no words: an icon, a button's frame


def _parts(unit: HtmlElement, inside: frozenset[HtmlElement]) -> Parts:
    """A unit's elements by their path from it (`furniture`), nested units and what they hold left out,
    and the characters of text each holds (whitespace runs as one; one pass, children first)."""
    found: dict[tuple[str, ...], list[HtmlElement]] = {}
    chars: dict[HtmlElement, int] = {}

    def walk(node: HtmlElement, path: tuple[str, ...]) -> int:
        held = _chars(node.text)
        for child in node:
            if isinstance(child.tag, str) and child not in inside:
                step = path + (_step(child),)
                found.setdefault(step, []).append(child)
                held += walk(child, step)
            held += _chars(child.tail)
        chars[node] = held
        return held

    walk(unit, ())
    return Parts(found, chars)


@dataclass(frozen=True)
class Parts:
    paths: dict[tuple[str, ...], list[HtmlElement]]
    chars: dict[HtmlElement, int]  # the unit's and each part's characters of text

    def held(self, path: tuple[str, ...]) -> int:
        return sum(self.chars[element] for element in self.paths[path])


def _chars(text: str | None) -> int:
    return len(" ".join(text.split())) + 1 if text and not text.isspace() else 0


# Steps remembered by tag and class value: a page's parts repeat a few hundred of them.
STEP_CACHE = 4096


def _step(element: HtmlElement) -> str:
    """An element's tag and class words, numbers dropped (`post-123` is every post's)."""
    return _step_of(element.tag, element.get("class") or "")


@functools.lru_cache(maxsize=STEP_CACHE)
def _step_of(tag: str, classes: str) -> str:
    words = sorted(word for word in _MARK_WORDS.split(classes.lower())
                   if word and not _DIGIT.search(word) and not alternating(word))
    return ".".join([tag, *words])


def without_quoted_lines(own: str, seen: set[tuple[str, ...]]) -> tuple[str, int]:
    """A unit's text less its lines of at least `QUOTE_SPAN` words all of whose `QUOTE_SPAN`-word runs
    are in `seen` (an earlier unit's: a quote of another post in plain or italic text, or a signature
    repeated under each post), and the words left out; adds the unit's runs to `seen`."""
    kept: list[str] = []
    dropped = 0
    runs: list[tuple[str, ...]] = []
    for line in own.split("\n"):
        found = _WORD.findall(line.lower())
        spans = [tuple(found[start:start + QUOTE_SPAN]) for start in range(len(found) - QUOTE_SPAN + 1)]
        if spans and all(span in seen for span in spans):
            dropped += len(found)
            continue
        kept.append(line)
        runs.extend(spans)
    seen.update(runs)
    return "\n".join(kept), dropped


def _plain(text: str) -> str:
    """Lower-cased `\\w+` runs joined by single spaces, framed by spaces for whole-word search."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def in_body(own: str, body_text: str, body_lines: tuple[str, ...] = ()) -> bool:
    """Whether at least `BODY_SHARE` of a unit's words are in lines of at least `BODY_LINE_WORDS`
    words that both it and the extracted text hold: its own lines that the text (`_plain`) holds, or
    the text's lines (`body_lines`, `_plain` each) that it holds, whichever covers more (a body given as
    one line, as JSON-LD gives it, holds the text's paragraphs). A part of the page's text, not a
    comment on it."""
    total = 0
    shared = 0
    for line in own.split("\n"):
        found = _WORD.findall(line.lower())
        total += len(found)
        if len(found) >= BODY_LINE_WORDS and f" {' '.join(found)} " in body_text:
            shared += len(found)
    if total == 0:
        return False
    if shared < BODY_SHARE * total and body_lines:
        plain = _plain(own)
        shared = max(shared, sum(line.count(" ") - 1 for line in body_lines if line in plain))
    return shared >= BODY_SHARE * total


def _body_lines(text: str) -> tuple[str, ...]:
    """The extracted text's distinct lines of at least `BODY_LINE_WORDS` words, `_plain` each."""
    lines = {_plain(line) for line in text.split("\n")}
    return tuple(sorted(line for line in lines if line.count(" ") - 1 >= BODY_LINE_WORDS))


def _marks(element: HtmlElement) -> list[str]:
    return _MARK_WORDS.split((element.get("class") or "").lower())


def poster_block(name_element: HtmlElement, unit: HtmlElement) -> HtmlElement | None:
    """The poster's block around the element naming the author: its outermost ancestor in the unit
    whose class words name a poster (`POSTER_WORDS`: `message-user`, `postprofile`, `userinfo`) and
    that holds less than `FURNITURE_MAX_SHARE` of the unit's text (title, join date, message count).
    What the software's furniture finds on a page of several posts, found on a thread's one post."""
    limit = FURNITURE_MAX_SHARE * size(unit)
    block = None
    for ancestor in name_element.iterancestors():
        if ancestor is unit:
            return block
        if not POSTER_WORDS.isdisjoint(_marks(ancestor)) and size(ancestor) < limit:
            block = ancestor
    return None


def declared_kind(unit: Unit) -> str | None:
    """Its microdata kind, else a kind named by a class word of the unit or its parent (`KIND_WORDS`)."""
    if unit.kind is not None:
        return unit.kind
    parent = unit.element.getparent()
    for element in (unit.element, parent):
        if element is None:
            continue
        for mark in _marks(element):
            if mark in KIND_WORDS:
                return KIND_WORDS[mark]
    return None


def unit_kind(unit: Unit, own: str, others: frozenset[HtmlElement] = frozenset()) -> str:
    """Its `declared_kind`, else `item` when its words are mostly link text (its own links: not those
    of the `others` units nested in it), else `post`."""
    declared = declared_kind(unit)
    if declared is not None:
        return declared
    link_words = word_count(" ".join(text for link in unit.element.iter("a") if _outside(link, unit.element, others)
                                     for text in link.itertext()))
    return "item" if link_words >= ITEM_LINK_SHARE * word_count(own) else "post"


def _outside(element: HtmlElement, unit: HtmlElement, others: frozenset[HtmlElement]) -> bool:
    """Whether `element` (inside `unit`) belongs to `unit` itself, not to a unit nested in it."""
    return not below_any(element, others, unit)


def _shown_text(element: HtmlElement) -> str:
    return element.get("content") or " ".join(" ".join(element.itertext()).split())


def author(unit: HtmlElement, others: frozenset[HtmlElement]) -> tuple[str | None, HtmlElement | None]:
    """The author as the unit shows it, and the element showing it: the first `itemprop=author` (its
    `itemprop=name` when it has one), `rel=author` link or element with an author class word
    (`AUTHOR_WORDS`) whose first link's text, or else whose text, has at most `MAX_AUTHOR_WORDS` words
    (a poster's block names the poster in its link, beside a title and a message count); else the
    first link to a user's page (`USER_LINK`) with such a text."""
    for element in _AUTHOR_MARKS(unit):
        marked = element.get("itemprop") == "author" or "author" in (element.get("rel") or "").split()
        if not marked and AUTHOR_WORDS.isdisjoint(_marks(element)):
            continue
        if not _outside(element, unit, others) or left_out(element):
            continue
        named = element.find(".//*[@itemprop='name']")
        link = element.find(".//a")
        for source in (named, link, element):
            if source is None:
                continue
            name = _shown_text(source)
            if name and word_count(name) <= MAX_AUTHOR_WORDS:
                return name, element
    for link in unit.iter("a"):
        if USER_LINK.search(link.get("href") or "") and _outside(link, unit, others):
            name = _shown_text(link)
            if name and word_count(name) <= MAX_AUTHOR_WORDS:
                return name, link
    return None, None


def published(unit: HtmlElement, others: frozenset[HtmlElement]) -> tuple[str | None, HtmlElement | None]:
    """The date as the unit shows it, and the element showing it: the first `<time datetime>`,
    `itemprop` datePublished or dateCreated, or element with a date attribute (`DATE_ATTRIBUTES`;
    its `datetime`, date or `content` attribute, else its text),
    else the text of the first element with a class word `date` of at most `MAX_DATE_WORDS` words,
    else its header's `date_line`; unparsed."""
    for element in _DATES(unit):
        if not _outside(element, unit, others):
            continue
        value = element.get("datetime") or next(filter(None, map(element.get, DATE_ATTRIBUTES)), None) \
            or _shown_text(element)
        if value:
            return value.strip(), element
    for element in _DATE_CLASSES(unit):
        if "date" in _marks(element) and _outside(element, unit, others):
            value = _shown_text(element)
            if value and word_count(value) <= MAX_DATE_WORDS:
                return value, element
    return date_line(unit, others)


# A date line in a unit's header (`date_line`): at most this many words beside the date or time.
MAX_DATE_LINE_WORDS = 4


def date_line(unit: HtmlElement, others: frozenset[HtmlElement]) -> tuple[str | None, HtmlElement | None]:
    """The first element among the unit's first `HEAD_CHARS` characters whose text is a date or a time
    (`DATED`) with at most `MAX_DATE_LINE_WORDS` words beside it, outside running text and nested units
    (the innermost such element in it) that shows a digit of its own (`_shows_digits`): the date line
    a forum prints as plain text ("19.11.2019, 16:38", "於 2016/12/31 20:33"); its text."""
    seen = 0
    line: tuple[str, HtmlElement] | None = None
    for element in unit.iterdescendants():
        if line is not None and line[1] not in element.iterancestors():
            break  # the innermost line found: a cell holding the name and the date holds the date's own element
        if seen > HEAD_CHARS:
            break
        if not isinstance(element.tag, str) or element.tag in SKIPPED_TAGS:
            continue
        seen += len(element.text or "")
        if _shows_digits(element) and _outside(element, unit, others) and not in_running_text(element):
            value = _shown_text(element)
            found = DATED.search(value) if value and word_count(value) <= MAX_DATE_WORDS else None
            if found is not None and word_count(value[:found.start()] + value[found.end():]) <= MAX_DATE_LINE_WORDS:
                line = value, element
        seen += len(element.tail or "")
    return line if line is not None else (None, None)


def date_title(element: HtmlElement | None) -> str | None:
    """The full date a unit's date element gives in a tooltip: the first `title` attribute of it or
    of an element in it that has the numbers of a full date (`may_be_full_date`). Comment and forum
    software show an age ("2 years ago", "posted 6 years ago") and put the day it stands for there."""
    if element is None:
        return None
    for part in element.iter():
        title = part.get("title") if isinstance(part.tag, str) else None
        if title and len(title) <= MAX_DATE_CHARS and may_be_full_date(title):
            return title.strip()
    return None


def _shows_digits(element: HtmlElement) -> bool:
    """Whether a digit stands in the element's own text or after one of its children: where a date
    line prints its date (read before its whole text is)."""
    return _DIGIT.search(element.text or "") is not None \
        or any(_DIGIT.search(child.tail or "") is not None for child in element)


def _declares_date(element: HtmlElement) -> bool:
    """Whether a unit's date element is machine-readable (a `<time datetime>` or a date property), not
    date text in an element named `date`: an article's dated parts show such text too."""
    return element.tag == "time" or element.get("itemprop") is not None \
        or any(element.get(name) for name in DATE_ATTRIBUTES)


def rating(unit: HtmlElement, others: frozenset[HtmlElement]) -> tuple[float | None, HtmlElement | None]:
    """A review's rating and the element showing it: its `itemprop` reviewRating, else a ratingValue
    that is not the reviewed item's (`OTHER_RATINGS`: a product's aggregate rating repeated in each
    review), else an element with a class word starting with one of `RATING_PREFIXES`."""
    candidates = _RATINGS(unit)
    for wanted in (*RATING_PROPERTIES, None):  # None: a class word starting with a rating prefix
        for element in candidates:
            marked = element.get("itemprop") == wanted if wanted is not None \
                else any(mark.startswith(RATING_PREFIXES) for mark in _marks(element))
            if not marked or not _outside(element, unit, others) or _rates_other(element, unit):
                continue
            value = element.find(".//*[@itemprop='ratingValue']")
            source = value if value is not None else element
            shown = source.get("content") or source.get("aria-label") or source.get("title") or _shown_text(source)
            number = _NUMBER.search(shown or "")
            if number is not None:
                return float(number.group().replace(",", ".")), element
    return None, None


def _rates_other(element: HtmlElement, unit: HtmlElement) -> bool:
    """Whether `element` is inside the reviewed item's description or its aggregate rating."""
    for ancestor in element.iterancestors():
        if ancestor is unit:
            return False
        if ancestor.get("itemprop") in OTHER_RATINGS:
            return True
    return False
