"""A page's repeated units (posts, answers, comments, items) from its structure, and each unit's own text.

Input: a page's `<body>` (lxml, never modified). Output (`units`): `Unit`s in page order, from
generic markup only, no site rules:
* **microdata**: elements of a contribution's schema.org `itemtype` (`UNIT_TYPES`) that show their
  writer or date (`shows_writer`), with unmarked elements of a `close` shape that show theirs.
* **repeated**: same-shape siblings (`shape`: tag and class words cut at a digit) holding blocks
  and `MIN_UNIT_CHARS`, together `MIN_SHARE` of the page's text, that are a list of contributions
  (`is_list_of_posts`); elements of the shape elsewhere join them (`grown`).
* **marked**: elements the software marks as posts (`post_key`: `comment-12`, `post_3`, a
  `data-pid`-like attribute, the class `comment`), each lifted to its outermost wrapper
  (`lifted`), siblings of which are a list of contributions however small: the comments under an
  article. These groups compete with the repeated ones in `best_group`.

Sizes are characters of whitespace-normalised text counted by libxml2; only elements holding
`MIN_SHARE` of the page are walked into. A unit inside another is a unit of its own, left out of
the other's text (`own_text`: quotes, signatures, votes, badges and controls left out too).
Measured in docs/benchmarks.md ("Segments").
"""

from __future__ import annotations

import copy
import functools
import itertools
import re
from collections import defaultdict
from dataclasses import dataclass, field

from lxml import etree, html
from lxml.html import HtmlElement

from filters.core.vocabulary import CONTRIBUTION_TYPES
from filters.text.tokens import word_count

# schema.org types of one person's contribution to a page (microdata `itemtype`), by segment kind.
UNIT_TYPES = CONTRIBUTION_TYPES
# Parts of a unit that are not its own text, by class or id word (split at spaces, - and _; a word
# starting with one of `LEFT_OUT_PREFIXES`, as `reactionsBar`): quotes of other posts, signatures,
# votes, badges, reactions, sharing controls and buttons (`btn`, Bootstrap's). A `blockquote` or
# `aside` is a quote of another post when a class word starts or ends with `quote` (`ipsQuote`; not
# xenForo's `SelectQuoteContainer`, a post's own text) or it names its author (`data-author`,
# `data-quote`, a `<cite>`, or an attribution line just before it: "@ann said in Topic:").
QUOTE_WORDS = frozenset(("quote", "quotes", "quotebox", "quotecontent", "quotecontainer", "uncited"))
LEFT_OUT = QUOTE_WORDS | frozenset(("sig",))
LEFT_OUT_PREFIXES = ("signature", "vote", "voting", "badge", "reaction", "share", "sharing", "button", "btn")
# Words that name a post's text as often as its controls (`reply-content`): a control is short.
CONTROL_WORDS = frozenset(("reply", "permalink", "report"))
MAX_CONTROL_WORDS = 3
QUOTE_TAGS = frozenset(("blockquote", "aside"))
MAX_ATTRIBUTION_WORDS = 20
_MARK_WORDS = re.compile(r"[\s_-]+")
SKIPPED_TAGS = frozenset(("script", "style", "template", "noscript", "button", "svg", "select", "textarea", "input"))
# A form to write in (an answer or reply box, a sign-up): not the writer's text. A form that only wraps
# posts (a moderation form around a whole thread) has no such field.
_ENTRY_FIELDS = etree.XPath("descendant::textarea | descendant::input[@type='text' or @type='email' "
                            "or @type='password']")
HIDDEN_TEXT_TAGS = ("script", "style", "template", "noscript")
# A unit holds blocks: a paragraph or list item of text alone is part of one, never a unit.
BLOCK_TAGS = ("div", "p", "article", "section", "ul", "ol", "li", "blockquote", "pre", "table", "header",
              "footer", "aside", "h1", "h2", "h3", "h4", "h5", "h6")
LINE_TAGS = frozenset(("p", "div", "li", "br", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote",
                       "article", "section", "header", "footer", "ul", "ol", "table", "dd", "dt"))
CELL_TAGS = frozenset(("td", "th"))  # the cells of a row are its columns, not posts (a post is a row or a table)
MIN_UNIT_CHARS = 25  # a repeated element with fewer characters is furniture (a date, a counter)
MIN_UNITS = 2
MIN_SHARE = 0.3  # the repeated units hold at least this share of the page's text
# A group one member of which holds more than this share of the group's text is a layout (the
# article's column beside a sidebar), not a list of posts.
MAX_MEMBER_SHARE = 0.6
_DIGIT = re.compile(r"\d")
_MICRODATA = etree.XPath("descendant::*/@itemtype/..")  # from the attributes: cheaper than a predicate
# Sizes are characters of whitespace-normalised text, counted by libxml2.
_SIZE = etree.XPath("string-length(normalize-space(.))")
_XPATH_SPACES = " \t\r\n"  # the whitespace normalize-space collapses

# What shows a unit as one person's contribution rather than a part of one text: who wrote it or
# when. A `<time>`; a class naming an author, user name, avatar, poster, byline or date; a link to a
# user's page; a schema.org author or date property; or (`DATED`) a time of day or a numeric date
# near its start, or an age ("6 years ago"). Attribute values are read by libxml2 and searched as
# strings, in one pass each.
WRITER_CLASSES = ("author", "username", "user-name", "avatar", "poster", "byline", "date", "timestamp")
# A link to a user's page: a path segment, script or query parameter named so (`/members/ann.12/`,
# `/u/ann`, `/~ann`, `profile.php?id=12`, `memberlist.php?mode=viewprofile&u=12`, `?user_profile=4`).
USER_LINK = re.compile(r"(?:^|[\s/.])(?:users?|u|members?|memberlist|profiles?|people|person)(?:[/?]|\.php)|/~"
                       # or a query parameter naming one (`?user_profile=493`, `&showuser=12`, `?userid=7`)
                       r"|[?&;][a-z_]{0,12}(?:user|member|profile|poster)[a-z_]{0,12}=", re.IGNORECASE)
WRITER_PROPERTIES = ("author", "creator", "datePublished", "dateCreated")
_CLASSES = etree.XPath("descendant::*/@class", smart_strings=False)  # plain strings: cheaper
_LINKS = etree.XPath("descendant::a/@href", smart_strings=False)
_PROPERTIES = etree.XPath("descendant::*/@itemprop | descendant::a/@rel", smart_strings=False)
DATED = re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?!\d)|(?<!\d)\d{1,4}[./-]\d{1,2}[./-]\d{2,4}(?!\d)"
                   # an age, as comment software shows it: "6 years ago", "vor 3 Tagen", "il y a 2 jours" (what
                   # follows may stand without a space: normalize-space joins adjacent text nodes)
                   r"|\b\d+\s*(?:seconds?|minutes?|min|hours?|hrs?|days?|weeks?|months?|years?)\s+ago"
                   r"|\b(?:vor|il y a|hace)\s+\d+\s*(?:sekunden|minuten|stunden|tag(?:en)?|wochen?|monat(?:en)?|"
                   r"jahr(?:en)?|secondes?|minutes?|heures?|jours?|semaines?|mois|ans?|segundos?|minutos?|horas?|días?|"
                   r"semanas?|mes(?:es)?|años?)", re.IGNORECASE)
HEAD_CHARS = 300  # where a post shows its date: its header, before its text
_HEAD = etree.XPath(f"substring(normalize-space(.), 1, {HEAD_CHARS})", smart_strings=False)
# A post's id as forum and comment software writes it (`post_key`): an `id` whose part before its first
# digit ends with a word naming a post, comment, answer, reply or message, or the one letter phpBB
# (`p123`), Blogger (`c123`) and Reddit (`t1_…`) use (`post_`, `js-post-`, `div-comment-`, `Comment_`,
# `elComment_`, `msg`); or an attribute that holds one (`data-pid`, NodeBB's; `data-post-id`, ...). A
# plural names a list (WordPress's `recent-posts-2` and `top-posts-3` widgets), not a post.
POST_ID_PREFIX = re.compile(r"(?:^|[-_])(?:post|p|msg|message|comment|answer|reply|entry|thing_t|t|c|pb|review)"
                            r"[-_]?$", re.IGNORECASE)
# A one-letter prefix (`c181`) is also how content management systems number any block (TYPO3): it
# names a post only on an element with a class word naming one.
POST_CLASS_WORDS = frozenset(("post", "posts", "comment", "comments", "message", "reply", "answer", "thing", "review"))
POST_ID_ATTRIBUTES = ("data-pid", "data-post-id", "data-postid", "data-comment-id", "data-commentid",
                      "data-answerid", "data-reply-id", "data-review-id")
# An id that numbers a row of any software (`numbered_id`): letters, then a number of at least this
# many digits that ends it (`m217308`, `post-resp-142058978`): a database key. Shorter numbers count
# a page's sections and steps.
NUMBERED_ID_DIGITS = 3
# A class word whose last part (split at - and _) names one contribution in the web's own words
# (`comment`, `sub-comment`, `top-level-comment`, `reply`, `forum-reply`): a post's element. Each noun
# costs a scan of the page's class values (about 0.17 ms a page over wcxb-dev): `answer`, `review`
# and `message` found one more post each on the development pages, and are left to microdata. A plural
# names a list, and a first part (`post-text`, `comment-body`) names a part of a post.
UNIT_CLASS_NOUNS = frozenset(("comment", "reply"))
# `post` marks a post only as a class word of its own (phpBB's `post bg2`): as a last part it names a blog's
# article or a teaser as often (`blog-post`, `related-post`, `featured-post`).
POST_CLASS = "post"
MAX_WRAPPER_GROWTH = 1.5
# From the attributes, one scan each: two thirds of the time of one predicate tested on every element
# (0.84 against 1.30 ms a page over wcxb-dev), the same elements in page order.
_POST_MARKED = etree.XPath(" | ".join([
    "descendant::*/@id[translate(., '0123456789', '') != .]/..",  # an id with a number
    "descendant::*/@class[" + " or ".join(f"contains(., '{noun[1:]}')"
                                          for noun in sorted(UNIT_CLASS_NOUNS | {POST_CLASS})) + "]/..",
    *(f"descendant::*/@{name}/.." for name in POST_ID_ATTRIBUTES)]))

Shape = tuple[str, str]


@dataclass(frozen=True)
class Unit:
    element: HtmlElement
    source: str  # "microdata", "marked" (post ids or class, `post_id_groups`), "repeated" or "nested" (a reply in one)
    kind: str | None = None  # from its microdata type, when it has one


@dataclass(frozen=True)
class Group:
    parent: HtmlElement
    shape: Shape
    members: list[HtmlElement]
    size: int  # characters of text its members hold
    others: list[HtmlElement] = field(default_factory=list)  # for a group of posts marked as such: all of them


def _marks(element: HtmlElement) -> list[str]:
    return _MARK_WORDS.split(f"{element.get('class', '')} {element.get('id', '')}".lower())


def left_out(element: HtmlElement) -> bool:
    """Whether `element` is a quote of another post (`is_quote`), a signature or a control (`LEFT_OUT`,
    `LEFT_OUT_PREFIXES`, and `CONTROL_WORDS` on an element of at most `MAX_CONTROL_WORDS` words)."""
    if element.get("class") is None and element.get("id") is None and element.tag not in QUOTE_TAGS:
        return is_attribution(element)
    marks = _marks(element)
    if is_quote(element) or not LEFT_OUT.isdisjoint(marks) or any(mark.startswith(LEFT_OUT_PREFIXES) for mark in marks):
        return True
    return not CONTROL_WORDS.isdisjoint(marks) and word_count(" ".join(element.itertext())) <= MAX_CONTROL_WORDS


def is_quote(element: HtmlElement) -> bool:
    """Whether `element` quotes another post (`QUOTE_WORDS`, `QUOTE_TAGS`), or is the attribution
    line of one (`is_attribution`)."""
    marks = _marks(element)
    if not QUOTE_WORDS.isdisjoint(marks):
        return True
    if element.tag not in QUOTE_TAGS:
        return is_attribution(element)
    previous = element.getprevious()
    return (any(mark.startswith("quote") or mark.endswith("quote") for mark in marks)
            or element.find(".//cite") is not None
            or any(element.get(name) is not None for name in ("data-author", "data-quote", "data-username"))
            or (previous is not None and is_attribution(previous)))


def is_attribution(element: HtmlElement) -> bool:
    """Whether `element` is the line that names a quote's author just before its `blockquote`: at
    most `MAX_ATTRIBUTION_WORDS` words ending with a colon, with a link ("@ann said in Topic:")."""
    following = element.getnext()
    if not isinstance(element.tag, str) or following is None or following.tag != "blockquote" \
            or element.tag in QUOTE_TAGS:
        return False  # a comment or processing instruction names no one
    if element.tail and element.tail.strip():
        return False
    line = " ".join(element.itertext()).strip()
    return line.endswith(":") and word_count(line) <= MAX_ATTRIBUTION_WORDS and element.find(".//a") is not None


def holds_block(element: HtmlElement) -> bool:
    return next(element.iterdescendants(*BLOCK_TAGS), None) is not None


def size(element: HtmlElement) -> int:
    """Characters of the element's whitespace-normalised text."""
    return int(_SIZE(element))


def text_size(body: HtmlElement) -> int:
    """Characters of the body's text, less what its scripts, styles and templates hold (their text
    whitespace-normalised as the body's is: a script indented by a few thousand spaces, counted as it
    stands, once left a page of comments as good as empty, and its `<noscript>` taken for its content)."""
    hidden = sum(size(element) for element in body.iterdescendants(*HIDDEN_TEXT_TAGS) if element.text)
    return max(size(body) - hidden, 0)


# Shapes remembered by tag and class value: a page's children repeat a few hundred of them.
SHAPE_CACHE = 4096


def shape(element: HtmlElement) -> Shape:
    """What repeats: the tag and the class words, each cut at its first digit (`post-123` is `post-`,
    `id-t1_oq7x` is `id-t`: an id's number and what follows it vary from post to post), less the
    words that alternate from row to row (`alternating`: `rowodd`, `roweven`)."""
    return _shape_of(element.tag, element.get("class") or "")


@functools.lru_cache(maxsize=SHAPE_CACHE)
def _shape_of(tag: str, classes: str) -> Shape:
    return tag, " ".join(sorted({_DIGIT.split(word, 1)[0] for word in classes.split() if not alternating(word)}))


# Class words that alternate from one row of a list to the next (`odd`/`even`, `rowodd`/`roweven`,
# `post-alt`): the rows are of one shape all the same.
ALTERNATING_WORDS = frozenset(("odd", "even", "alt"))


def alternating(word: str) -> bool:
    """Whether a class word marks a row as odd or even: one of `ALTERNATING_WORDS`, alone, after `row`
    or as its last part (split at - and _)."""
    word = word.lower()
    return _MARK_WORDS.split(word)[-1] in ALTERNATING_WORDS or word.removeprefix("row") in ALTERNATING_WORDS


def alike(one: Shape, other: Shape) -> bool:
    """The same tag, and a class word in common or no class at all (a reply marked `comment
    oneline` is of a `comment contain full`'s kind)."""
    first, second = set(one[1].split()), set(other[1].split())
    return one[0] == other[0] and (bool(first & second) or not (first or second))


def post_key(element: HtmlElement) -> str | None:
    """What a post's mark shares with the other posts' (`POST_ID_PREFIX`, `POST_ID_ATTRIBUTES`,
    `numbered_id`, `UNIT_CLASS_NOUNS`): `@` and the attribute's name, or `#` and the id's part before
    its first digit, or `.` and the noun of a class word naming a contribution (`.comment` for SPIP's,
    Blogger's and WordPress themes' `comment`, `.post` for `single-post`); None for other elements."""
    for name in POST_ID_ATTRIBUTES:
        if element.get(name):
            return f"@{name}"
    ident = element.get("id") or ""
    prefix = _DIGIT.split(ident, 1)[0]
    if len(prefix) < len(ident) and POST_ID_PREFIX.search(prefix) \
            and (len(prefix.strip("-_")) > 1 or not POST_CLASS_WORDS.isdisjoint(_marks(element))):
        return f"#{prefix.lower()}"
    if numbered_id(prefix, ident[len(prefix):]):
        return f"#{prefix.lower()}"
    for word in (element.get("class") or "").lower().split():
        head = _MARK_WORDS.split(word)[-1]
        if head in UNIT_CLASS_NOUNS or word == POST_CLASS:
            return "." + head
    return None


def numbered_id(prefix: str, number: str) -> bool:
    """Whether an id of `prefix` (its part before its first digit) and `number` (the rest) numbers a
    row (`NUMBERED_ID_DIGITS`): letters, `-` and `_` (a letter first), then digits alone."""
    return (len(number) >= NUMBERED_ID_DIGITS and number.isdigit() and prefix[:1].isalpha()
            and all(char.isalpha() or char in "-_" for char in prefix))


def is_post_key(key: Shape) -> bool:
    return key[1][:1] in ("#", "@", ".")


def marked_posts(body: HtmlElement) -> dict[Shape, list[HtmlElement]]:
    """The elements marked as posts (`post_key`) that hold blocks, by (tag, key), in page order."""
    by_key: dict[Shape, list[HtmlElement]] = defaultdict(list)
    for element in _POST_MARKED(body):
        mark = post_key(element)
        if mark is not None and element.tag not in SKIPPED_TAGS and holds_block(element):
            by_key[(element.tag, mark)].append(element)
    return by_key


def post_id_groups(by_key: dict[Shape, list[HtmlElement]], headline: HtmlElement | None,
                   page: frozenset[HtmlElement]) -> list[Group]:
    """The posts marked as such (`post_key`) that hold blocks, each lifted to its outermost wrapper
    that holds no other post of its kind (`lifted`: a list of posts often wraps each in layout
    elements), grouped by parent; the groups that are a list of contributions
    (`is_list_of_posts`), however small a share of the page they hold: the comments under an
    article, a thread beside long sidebars. The shape of such a group is (tag, key), and its
    `others` are the page's other posts of the kind, lifted alike. `by_key`: the page's
    `marked_posts`; `page`: its `page_holders`."""
    groups: list[Group] = []
    for key, elements in by_key.items():
        if len(elements) < MIN_UNITS:
            continue
        found = len(groups)
        kept = [(element, held) for element in lifted(elements, page) if (held := size(element)) >= MIN_UNIT_CHARS]
        by_parent: dict[HtmlElement, list[tuple[HtmlElement, int]]] = defaultdict(list)
        for element, held in kept:
            by_parent[element.getparent()].append((element, held))
        for parent, members in by_parent.items():
            if len(members) >= MIN_UNITS and is_list_of_posts(members, headline, marked=True):
                groups.append(Group(parent, key, [element for element, _ in members],
                                    sum(held for _, held in members), [element for element, _ in kept]))
        if len(groups) == found:  # no sibling group of this kind: perhaps a chain
            groups.extend(_chain(elements, key, headline))
    return groups


def _chain(elements: list[HtmlElement], key: Shape, headline: HtmlElement | None) -> list[Group]:
    """The posts of one kind each nested in the one before (a post left unclosed in broken markup
    swallows the rest of the thread) as a group of their own; none when they are not such a chain.
    Each is a unit, and a post's own text leaves the posts nested in it out."""
    pairs = zip(elements, elements[1:], strict=False)
    if len(elements) < MIN_UNITS or not all(_inside(inner, outer) for outer, inner in pairs):
        return []
    members = [(element, size(element)) for element in elements]
    if not is_list_of_posts(members, headline, marked=True):
        return []
    return [Group(elements[0].getparent(), key, list(elements), members[0][1], list(elements))]


def page_holders(body: HtmlElement, headline: HtmlElement | None) -> frozenset[HtmlElement]:
    """The body and the elements that hold the page's `<main>` or its headline: no post's wrapper."""
    held = [element for element in (headline, next(body.iterdescendants("main"), None)) if element is not None]
    return frozenset([body, *held, *(ancestor for element in held for ancestor in element.iterancestors())])


def lifted(elements: list[HtmlElement], page: frozenset[HtmlElement]) -> list[HtmlElement]:
    """Each element lifted to its outermost ancestor that holds no other of `elements`, is not one of
    `page` (the body and what holds the page's main text or headline) and holds at most
    `MAX_WRAPPER_GROWTH` times its text (a wrapper, not a column), in page order."""
    holding: dict[HtmlElement, int] = defaultdict(int)
    for element in elements:
        holding[element] += 1
        for ancestor in element.iterancestors():
            holding[ancestor] += 1
    found = []
    for element in elements:
        top, parent = element, element.getparent()
        bound = None
        while parent is not None and parent not in page and holding[parent] == 1:
            bound = MAX_WRAPPER_GROWTH * size(element) if bound is None else bound
            if size(parent) > bound:
                break
            top, parent = parent, parent.getparent()
        found.append(top)
    return found


def microdata_kind(element: HtmlElement) -> str | None:
    """The segment kind of an element's schema.org `itemtype` (`UNIT_TYPES`), None for other types."""
    for name in (element.get("itemtype") or "").split():
        kind = UNIT_TYPES.get(name.rstrip("/").rsplit("/", 1)[-1].lower())
        if kind is not None:
            return kind
    return None


def shows_writer(element: HtmlElement) -> bool:
    """Whether the element shows who wrote it or when (`WRITER_CLASSES`, `USER_LINK`,
    `WRITER_PROPERTIES`, `DATED`)."""
    if next(element.iterdescendants("time"), None) is not None:
        return True
    classes = " ".join(_CLASSES(element)).lower()
    if any(word in classes for word in WRITER_CLASSES):
        return True
    if USER_LINK.search(" ".join(_LINKS(element))) is not None:
        return True
    properties = " ".join(_PROPERTIES(element))
    return any(name in properties for name in WRITER_PROPERTIES) or DATED.search(_HEAD(element)) is not None


def microdata_units(body: HtmlElement) -> list[Unit]:
    """Elements of a contribution's schema.org type that show their writer or date (an FAQ's
    questions and answers, written by the page's author, show neither)."""
    return [Unit(element, "microdata", kind) for element in _MICRODATA(body)
            if (kind := microdata_kind(element)) is not None and shows_writer(element)]


def sibling_groups(body: HtmlElement, total: int, headline: HtmlElement | None) -> list[Group]:
    """The groups of same-shape siblings holding blocks that are lists of contributions
    (`is_list_of_posts`, `headline`: the page's first `<h1>`) and hold together at least `MIN_SHARE`
    of the page's `total` characters. Only elements holding that share can be their parent, so the
    walk descends into those alone."""
    min_size = MIN_SHARE * total
    groups = []
    stack: list[tuple[HtmlElement, int | None]] = [(body, None)]
    while stack:
        parent, parent_size = stack.pop()
        by_shape: dict[Shape, list[tuple[HtmlElement, int]]] = defaultdict(list)
        known = parent_size if parent_size is not None and _wrapper(parent) else None
        for child in parent:
            # a child holding no block is no unit, nor holds one: it is never measured
            if not isinstance(child.tag, str) or child.tag in SKIPPED_TAGS or not holds_block(child):
                continue
            held = known if known is not None else size(child)
            if held >= min_size:
                stack.append((child, held))
            if held >= MIN_UNIT_CHARS:
                by_shape[shape(child)].append((child, held))
        if parent is body:
            continue  # the page's own regions (header, columns, footer), never a list of posts
        for key, members in by_shape.items():
            held_total = sum(held for _, held in members)
            if len(members) >= MIN_UNITS and key[0] not in CELL_TAGS and held_total >= min_size \
                    and is_list_of_posts(members, headline):
                groups.append(Group(parent, key, [child for child, _ in members], held_total))
    return groups


def _wrapper(parent: HtmlElement) -> bool:
    """Whether `parent`'s text is its one child's: it has no other child (nor comment) and no text of
    its own around it, so the child's size is the parent's."""
    child = next(iter(parent), None)  # once a parent: lxml's len() counts the children one by one
    if child is None or child.getnext() is not None:
        return False
    return not (parent.text or "").strip(_XPATH_SPACES) and not (child.tail or "").strip(_XPATH_SPACES)


def _dominated(members: list[tuple[HtmlElement, int]]) -> bool:
    return max(held for _, held in members) > MAX_MEMBER_SHARE * sum(held for _, held in members)


def _own_size(element: HtmlElement) -> int:
    """Its size less that of the elements of a like shape nested in it (the replies under a comment)."""
    key = shape(element)
    test = _class_test(key, element)
    if not test:
        return size(element)
    nested = {other for other in element.xpath(f"descendant::{key[0]}{test}") if alike(shape(other), key)}
    return size(element) - sum(size(other) for other in nested if not below_any(other, nested, element))


def below_any(element: HtmlElement, elements: set[HtmlElement] | frozenset[HtmlElement], top: HtmlElement) -> bool:
    """Whether an ancestor of `element` under `top` is one of `elements`."""
    for ancestor in element.iterancestors():
        if ancestor is top:
            return False
        if ancestor in elements:
            return True
    return False


def is_list_of_posts(members: list[tuple[HtmlElement, int]], headline: HtmlElement | None,
                     marked: bool = False) -> bool:
    """Whether same-shape siblings (element, size) are contributions rather than parts of a layout
    or of one text: at least half show their writer or date, none holds the page's `<main>` or its
    headline (the first `<h1>`), and, unless they are `marked` as posts by their ids, none holds more
    than `MAX_MEMBER_SHARE` of their text (less the replies nested in it): a long opening post is
    still a post."""
    if not marked and _dominated(members):
        largest = max(members, key=lambda member: member[1])[0]
        if _dominated([(element, _own_size(element) if element is largest else held) for element, held in members]):
            return False
    if any(holds_page(element, headline) for element, _ in members):
        return False
    showing, unseen = 0, len(members)
    for element, _ in members:
        showing += shows_writer(element)
        unseen -= 1
        if 2 * showing >= len(members):
            return True
        if 2 * (showing + unseen) < len(members):
            return False
    return False


def holds_page(element: HtmlElement, headline: HtmlElement | None) -> bool:
    """Whether `element` holds the page's `<main>` or its headline (its first `<h1>`)."""
    return next(element.iterdescendants("main"), None) is not None \
        or (headline is not None and _inside(headline, element))


def best_group(groups: list[Group]) -> Group | None:
    """Of the groups holding at least half the text the largest holds, the one with the most members."""
    if not groups:
        return None
    most = max(group.size for group in groups)
    return max((group for group in groups if group.size >= most / 2), key=lambda group: len(group.members))


def _class_test(key: Shape, example: HtmlElement) -> str:
    """An XPath predicate that every element of shape `key` passes (its class words that carry no
    digits); empty when there is none."""
    plain = [word for word in (example.get("class") or "").split() if word in key[1].split() and "'" not in word]
    return "[" + " or ".join(f"contains(@class, '{word}')" for word in plain) + "]" if plain else ""


def grown(body: HtmlElement, group: Group) -> list[HtmlElement]:
    """The group's members, with the elements of exactly its shape elsewhere in the page and those of
    a like shape under its parent, in page order; none that holds the page's `<main>` or headline
    (`holds_page`). A group without class words does not grow: a bare `div` is of every layout's shape."""
    chosen = set(group.members)
    headline = body.find(".//h1")
    if is_post_key(group.shape):
        chosen.update(element for element in group.others if not holds_page(element, headline))
        return [element for element in body.iter() if element in chosen]
    test = _class_test(group.shape, group.members[0])
    if test:
        for element in body.xpath(f".//{group.shape[0]}{test}"):
            if element in chosen or size(element) < MIN_UNIT_CHARS or not holds_block(element) \
                    or holds_page(element, headline):
                continue
            other = shape(element)
            if (other == group.shape and not _holds_any(element, group.members)) \
                    or (alike(other, group.shape) and _inside(element, group.parent)):
                chosen.add(element)
    return [element for element in body.iter(group.shape[0]) if element in chosen]


def _holds_any(element: HtmlElement, members: list[HtmlElement]) -> bool:
    return any(_inside(member, element) for member in members)


def _inside(element: HtmlElement, ancestor: HtmlElement) -> bool:
    return any(parent is ancestor for parent in element.iterancestors())


def close(one: Shape, other: Shape) -> bool:
    """The same tag and at least half their class words in common (`message message--post` and
    `message message--post message--firstPost`), or both without class."""
    first, second = set(one[1].split()), set(other[1].split())
    return one[0] == other[0] and (2 * len(first & second) >= len(first | second) if first | second else True)


def with_unmarked(body: HtmlElement, marked: list[Unit]) -> list[Unit]:
    """The microdata units and the page's elements of a shape close to a unit's (`close`) that show
    their writer, hold blocks and neither hold nor sit inside a unit (a thread's opening post is
    often left unmarked, or set apart, while its replies are `Comment`s), in page order."""
    chosen = {unit.element for unit in marked}
    shapes = {shape(unit.element) for unit in marked}
    added = []
    for key in {key for key in shapes if key[1]}:
        test = _class_test(key, next(unit.element for unit in marked if shape(unit.element) == key))
        for element in body.xpath(f".//{key[0]}{test}"):
            if element in chosen or not close(shape(element), key) or size(element) < MIN_UNIT_CHARS \
                    or not holds_block(element) or not shows_writer(element) \
                    or _holds_any(element, list(chosen)) or below_any(element, chosen, body):
                continue
            added.append(element)
            chosen.add(element)
    if not added:
        return marked
    found = {unit.element: unit for unit in marked} | {element: Unit(element, "repeated") for element in added}
    return [found[element] for element in body.iter() if element in found]


def content_root(body: HtmlElement) -> tuple[HtmlElement, int]:
    """The body, or the `<noscript>` holding more text than the rest of the page shows: the
    server-built fallback of a page that scripts build (Flarum's `flarum-content`), the only place
    its posts are; with its `text_size`, which `units` needs too."""
    shown = text_size(body)
    fallback, held = max(((element, size(element)) for element in body.iterdescendants("noscript")),
                         key=lambda sized: sized[1], default=(None, 0))
    return (fallback, text_size(fallback)) if fallback is not None and 2 * held > shown else (body, shown)


def units(page_body: HtmlElement) -> list[Unit]:
    """The page's units in page order (none when nothing repeats): its microdata units when it
    has at least `MIN_UNITS` (with the unmarked elements of their shape, `with_unmarked`), else its
    marked or repeated ones, else its `single_post`; all within its `content_root`."""
    body, total = content_root(page_body)
    marked = microdata_units(body)
    if len(marked) >= MIN_UNITS:
        return with_unmarked(body, marked)
    by_key, headline = marked_posts(body), body.find(".//h1")
    page = page_holders(body, headline)
    # marked groups first: of two groups of the same posts, the marked one (its members known as posts)
    group = best_group(post_id_groups(by_key, headline, page) + sibling_groups(body, total, headline))
    if group is None:
        single = single_post(by_key, page)
        return [] if single is None else [Unit(single, "marked")]
    source = "marked" if is_post_key(group.shape) else "repeated"
    found = grown(body, group)
    return nested_replies([Unit(element, source) for element in row_runs(found) or found])


# A signed reply's signature line (`signature_line`): at most this many words, and at most this many
# besides the writer's name and the date ("ann 於 2014/01/01 20:31 回覆", "— ann, 12.03.2020 10:15").
MAX_SIGNATURE_WORDS = 12
MAX_SIGNATURE_OTHER_WORDS = 4
# The elements a signature line is, and how many of the last ones are tried: it ends the reply.
SIGNATURE_TAGS = ("p", "div", "span", "small", "footer", "cite", "li")
SIGNATURE_TRIES = 3


def nested_replies(found: list[Unit]) -> list[Unit]:
    """The units, each followed by the replies printed inside it (a blog owner's answer under each
    visitor's comment): a child of a unit, after a child holding text, that holds text of its own
    besides its `signature_line`, when children of its shape do so in at least `MIN_UNITS` units.
    A reply is a unit of its own (`nested`), left out of the unit's own text."""
    candidates: dict[Shape, list[HtmlElement]] = defaultdict(list)
    for unit in found:
        text_before = False
        for child in unit.element:
            if not isinstance(child.tag, str) or child.tag in SKIPPED_TAGS:
                continue
            if text_before and _signed_reply(child):
                candidates[shape(child)].append(child)
            text_before = text_before or size(child) > 0
    replies = {child for children in candidates.values() if len(children) >= MIN_UNITS for child in children}
    if not replies:
        return found
    ordered = []
    for unit in found:
        ordered.append(unit)
        ordered.extend(Unit(child, "nested") for child in unit.element if child in replies)
    return ordered


def _signed_reply(element: HtmlElement) -> bool:
    line = signature_line(element)
    return line is not None and line is not element and size(element) > size(line)


def signature_line(element: HtmlElement) -> HtmlElement | None:
    """The last element in `element` (itself included; of the last `SIGNATURE_TRIES` of its
    `SIGNATURE_TAGS`) that names its writer by a link and shows a
    date or time (`DATED`) in at most `MAX_SIGNATURE_WORDS` words (runs between spaces), at most
    `MAX_SIGNATURE_OTHER_WORDS` of them neither the link's nor the date's; None when there is none."""
    for line in itertools.islice(reversed(list(element.iter(*SIGNATURE_TAGS))), SIGNATURE_TRIES):
        text = " ".join(line.itertext())
        words = len(text.split())  # runs between spaces: a name in Chinese is one, as in English
        if not words or words > MAX_SIGNATURE_WORDS:
            continue
        date = DATED.search(" ".join(text.split()))
        link = line.find(".//a")
        if date is None or link is None:
            continue
        name = " ".join(link.itertext()).split()
        if name and words - len(name) - len(date.group().split()) <= MAX_SIGNATURE_OTHER_WORDS:
            return line
    return None


def row_runs(members: list[HtmlElement]) -> list[HtmlElement] | None:
    """Each post of a list whose post is a run of sibling rows (a header row with the writer, date and
    number, then the body's row, then a row of controls: a table forum's layout), as one element
    holding copies of its rows; None unless every member starts such a run: the members are siblings
    that the same number of other elements (at least one) follow before the next, and after the last.
    The copies are a new tree: the page's is never modified."""
    parent = members[0].getparent() if members else None
    if parent is None or len(members) < MIN_UNITS or any(member.getparent() is not parent for member in members):
        return None
    rows = [child for child in parent if isinstance(child.tag, str)]
    position = {row: index for index, row in enumerate(rows)}
    starts = [position[member] for member in members]
    steps = {after - before for before, after in zip(starts, starts[1:], strict=False)}
    step = steps.pop() if len(steps) == 1 else 1
    if step < 2 or starts[-1] + step > len(rows):
        return None
    runs = []
    for start in starts:
        run = html.Element("div")
        run.extend(copy.deepcopy(row) for row in rows[start:start + step])
        runs.append(run)
    return runs


def single_post(by_key: dict[Shape, list[HtmlElement]], page: frozenset[HtmlElement]) -> HtmlElement | None:
    """The page's one post, on a thread that has no reply: the one outermost of the page's
    `marked_posts` (`by_key`), when it holds no other post of its kind nor the page's `<main>` or
    headline, holds `MIN_UNIT_CHARS` and links its writer's page on the site (`USER_LINK`: a forum's
    member, a review site's user; an article's author page is `/author/…`, which it is not); `page`:
    the page's `page_holders`."""
    found = [(element, key) for key, elements in by_key.items() for element in elements if element not in page]
    marked = {element for element, _ in found}
    outermost = [(element, key) for element, key in found
                 if not any(ancestor in marked for ancestor in element.iterancestors())]
    if len(outermost) != 1:
        return None
    post, key = outermost[0]
    if len(by_key[key]) > 1 or size(post) < MIN_UNIT_CHARS or USER_LINK.search(" ".join(_LINKS(post))) is None:
        return None
    return post


def _entry_form(element: HtmlElement) -> bool:
    return element.tag == "form" and bool(_ENTRY_FIELDS(element))


def own_text(element: HtmlElement, others: frozenset[HtmlElement] = frozenset(),
             removed: frozenset[HtmlElement] = frozenset()) -> tuple[str, int]:
    """The unit's text with quotes, signatures, controls, scripts, the `others` units inside it and the
    `removed` parts left out, blocks on lines; and the words of the quotes of other posts left out."""
    text, quoted, _ = counted_own_text(element, others, removed)
    return text, quoted


def counted_own_text(element: HtmlElement, others: frozenset[HtmlElement] = frozenset(),
                     removed: frozenset[HtmlElement] = frozenset()) -> tuple[str, int, int]:
    """`own_text`, with the words of the parts left out as the software's (the `removed` parts,
    signatures and controls; not quotes, nor the `others` units) third."""
    parts: list[str] = []
    quoted = left = 0

    def walk(node: HtmlElement) -> None:
        nonlocal quoted, left
        if node is not element and (node in others or node in removed or left_out(node)):
            if is_quote(node):
                quoted += word_count(" ".join(node.itertext()))
            elif node not in others:
                left += word_count(" ".join(node.itertext()))
            return
        block = node.tag in LINE_TAGS
        if block:
            parts.append("\n")
        if node.text:
            parts.append(node.text)
        for child in node:
            if isinstance(child.tag, str) and child.tag not in SKIPPED_TAGS and not _entry_form(child):
                walk(child)
            if child.tail:
                parts.append(child.tail)
        if block:
            parts.append("\n")

    walk(element)
    lines = (" ".join(line.split()) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line), quoted, left
