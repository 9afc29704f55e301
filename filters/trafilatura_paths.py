"""trafilatura 2.3.1's XPath selections of its extraction sequence, as Python tree walks.

trafilatura finds the main content and the sections to prune with XPath expressions
(`trafilatura.xpaths`) that test `@id` and `@class` with EXSLT's `re:test`. lxml implements
`re:test` as a call back into Python for every candidate element, and those calls are most of the
expressions' time. Each callable here selects what one of those expressions selects, in document
order, with a walk over the element's descendants and Python's `re` on the attributes (the same
patterns; lxml's `re:test` runs Python's `re` too). On the 990 pages of trafilatura-eval, each as
parsed and as cleaned for the main extractor, the expressions take 53 s of CPU and these walks
14 s: 3 to 5 times faster, 1.4 times for the two without `re:test` (`first_article`, `headers`).
They are called like the XPath objects they stand for (`selection(tree) -> list of elements`),
and grouped in lists named after trafilatura's: `fallback.py` passes them to trafilatura's
`prune_unwanted_nodes`, and `trafilatura_extractor.py` uses them in its copy of the main extractor.

What the XPath functions do with attributes, done the same way here:
- `@a` as a string (`re:test(@a, ...)`, `contains(@a, ...)`, `translate`) is the attribute's value,
  or the empty string when the element has none; the pattern is still tried on that empty string,
  except on an element without any attribute in the three walks that see most elements: none of
  their expressions selects it (no pattern here matches the empty string: tested), so they go past
  it at once.
- `@a|@b` as a string is the value of whichever of the two comes first in the element's
  attribute order (`_first_of`).
- `.//*` is every element below the context node (not itself, nor comments or processing
  instructions).

`BODY_XPATH`'s expressions each end in `[1]`, and trafilatura only ever reads the first element
they select: those callables stop at that element and return a list of it alone (empty when none).
`tests/filters/test_trafilatura_paths.py` compares every callable with trafilatura's own XPath
object on random trees and on every page of the shared corpora.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

Selection = Callable[[etree._Element], list[etree._Element]]

_BLOCKS = ("div", "item", "list", "p", "section", "span")  # self::div or self::item or ... self::span
_CONTAINERS = ("div", "section", "aside")
_BODY_CANDIDATES = ("article", "div", "main", "section")


def _value(value: str | None) -> str:
    return "" if value is None else value


def _first_of(names: list[str], first: str, first_value: str | None, second: str, second_value: str | None) -> str:
    """The string value of `@first|@second`: the value of the one of the two that comes first in
    the element's attribute `names` ('' if it has neither)."""
    if first_value is None:
        return _value(second_value)
    if second_value is None:
        return first_value
    return first_value if names.index(first) < names.index(second) else second_value


def _test(pattern: re.Pattern[str], value: str | None) -> bool:
    """`re:test(@attribute, pattern)`: lxml's EXSLT searches the value, '' for a missing attribute."""
    return pattern.search(_value(value)) is not None


def _first(tree: etree._Element, tags: tuple[str, ...], predicate: Callable[[etree._Element], bool]
           ) -> list[etree._Element]:
    return next(([element] for element in tree.iterdescendants(*tags) if predicate(element)), [])


# --- RAW_TREE_PRUNE_XPATH: infinite-scroll containers and Elementor share buttons

_APPENDED_ARTICLES = re.compile("mvp-post-add-(?:box|wrap)|infinite-?scroll")
_ZOX_APPENDED_ARTICLES = re.compile("mvp-post-add-(?:box|wrap)")


def appended_article_containers(tree: etree._Element) -> list[etree._Element]:
    """`RAW_TREE_PRUNE_XPATH[0]`: div/section/aside whose id or class names an infinite-scroll
    container, kept when it holds an `<h1>` unless it is Zox News's `mvp-post-add-*`."""
    found = []
    for element in tree.iterdescendants(*_CONTAINERS):
        identifier, class_ = element.get("id"), element.get("class")
        if not (_test(_APPENDED_ARTICLES, identifier) or _test(_APPENDED_ARTICLES, class_)):
            continue
        if (next(element.iterdescendants("h1"), None) is None or _test(_ZOX_APPENDED_ARTICLES, identifier)
                or _test(_ZOX_APPENDED_ARTICLES, class_)):
            found.append(element)
    return found


def elementor_share_buttons(tree: etree._Element) -> list[etree._Element]:
    """`RAW_TREE_PRUNE_XPATH[1]`: div/section/aside with 'elementor-share-buttons' in the class."""
    return [element for element in tree.iterdescendants(*_CONTAINERS)
            if "elementor-share-buttons" in _value(element.get("class"))]


RAW_TREE_PRUNE: list[Selection] = [appended_article_containers, elementor_share_buttons]


# --- REMOVE_COMMENTS_XPATH and REMOVE_COMMENTS_AND_LISTS_XPATH: comment sections

_COMMENTS_ID = "[Cc]omment(?!ary)|comol"
_COMMENT_SECTION_ID = re.compile(f"^(?:{_COMMENTS_ID}|disqus_thread|dsq-comments)")
_COMMENT_LIST_ID = re.compile(f"^(?:{_COMMENTS_ID})")
_COMMENTS_CLASS = re.compile("^[Cc]omment(?!ary)|(?:article|post)-comments")
_COMMENT_SECTIONS = ("div", "list", "section", "details")


def _is_comment_section(element: etree._Element) -> bool:
    return _test(_COMMENT_SECTION_ID, element.get("id")) or _test(_COMMENTS_CLASS, element.get("class"))


def comment_sections(tree: etree._Element) -> list[etree._Element]:
    """`REMOVE_COMMENTS_XPATH[0]`: div/list/section/details whose id or class says comments."""
    return [element for element in tree.iterdescendants(*_COMMENT_SECTIONS) if _is_comment_section(element)]


def comment_sections_and_lists(tree: etree._Element) -> list[etree._Element]:
    """`REMOVE_COMMENTS_AND_LISTS_XPATH[0]`: the comment sections, and ol/ul comment lists (not by
    a Disqus id)."""
    found = []
    for element in tree.iterdescendants(*_COMMENT_SECTIONS, "ol", "ul"):
        if not _is_comment_section(element):
            continue
        if (element.tag not in ("ol", "ul") or _test(_COMMENT_LIST_ID, element.get("id"))
                or _test(_COMMENTS_CLASS, element.get("class"))):
            found.append(element)
    return found


REMOVE_COMMENTS: list[Selection] = [comment_sections]
REMOVE_COMMENTS_AND_LISTS: list[Selection] = [comment_sections_and_lists]


# --- BODY_XPATH: the main content's container, tried in turn

_ARTICLE_BODY_ID = re.compile("(?:entry|article|art)-content|article__content|article(?:-|__)?body|articleBody|"
                              "body-text")
_ARTICLE_BODY_CLASS = re.compile("post[-_]text|post-body|post-?entry|post[-_]?content|postContent|"
                                 "post_inner_wrapper|article-?text|articleText|"
                                 "(?:entry|page|text|article|art)-content|article__content|article(?:-|__)?body|"
                                 "articleBody|ArticleContent|body-text|article__container")
_STORY_ID = re.compile("^primary|story-body")
_FULLTEXT_CLASS = re.compile("fulltext", re.IGNORECASE)
_STORY_CLASS = re.compile("^article |post-bodycopy|story-?content|(?:theme|blog|section|single)-content|"
                          "single-post|main-column|wpb_text_column|story-body|field-body")
_STORY_ID_VALUES = frozenset({"article", "story"})
_STORY_CLASS_VALUES = frozenset({"postarea", "art-postcontent", "text", "cell", "story"})
_MAIN_CONTENT_ID = re.compile("content-main|content-body|contentBody")
_MAIN_CONTENT_CLASS = re.compile("content[-_]main|content(?:-|__)body")
_LOWER_C_AND_M = str.maketrans("CM", "cm")  # translate(@x, 'CM', 'cm')
_LOWER_C_AND_P = str.maketrans("CP", "cp")


def _is_article_body(element: etree._Element) -> bool:
    class_ = element.get("class")
    return (class_ in ("post", "entry") or element.get("itemprop") == "articleBody"
            or element.get("id") == "articleContent" or _test(_ARTICLE_BODY_ID, element.get("id"))
            or _test(_ARTICLE_BODY_CLASS, class_))


def _is_story(element: etree._Element) -> bool:
    identifier, class_ = element.get("id"), element.get("class")
    return (element.get("role") == "article" or identifier in _STORY_ID_VALUES or class_ in _STORY_CLASS_VALUES
            or _test(_STORY_ID, identifier) or _test(_FULLTEXT_CLASS, class_) or _test(_STORY_CLASS, class_))


def _is_main_content(element: etree._Element) -> bool:
    identifier, class_ = element.get("id"), element.get("class")
    return (identifier == "content" or class_ == "content" or _test(_MAIN_CONTENT_ID, identifier)
            or _test(_MAIN_CONTENT_CLASS, class_)
            or "main-content" in _value(identifier).translate(_LOWER_C_AND_M)
            or "main-content" in _value(class_).translate(_LOWER_C_AND_M)
            or "page-content" in _value(class_).translate(_LOWER_C_AND_P))


def _is_main(element: etree._Element) -> bool:
    """`(.//*[self::article or self::div or self::section][starts-with(...)])[1] | (.//main)[1]`:
    the first of the two in document order is the first element that is either."""
    return (element.tag == "main" or _value(element.get("class")).startswith("main")
            or _value(element.get("id")).startswith("main") or _value(element.get("role")).startswith("main"))


def article_body(tree: etree._Element) -> list[etree._Element]:
    """`BODY_XPATH[0]`'s first element: article/div/main/section classed or named as an article's
    body. (Its `.//*[...][1]` selects the first such child of every parent; the first of those in
    document order is the first such element.)"""
    return _first(tree, _BODY_CANDIDATES, _is_article_body)


def first_article(tree: etree._Element) -> list[etree._Element]:
    """`BODY_XPATH[1]`: the first `<article>`."""
    return _first(tree, ("article",), lambda element: True)


def story(tree: etree._Element) -> list[etree._Element]:
    """`BODY_XPATH[2]`: the first article/div/main/section classed or named as a story or post area."""
    return _first(tree, _BODY_CANDIDATES, _is_story)


def main_content(tree: etree._Element) -> list[etree._Element]:
    """`BODY_XPATH[3]`: the first article/div/main/section classed or named as main content."""
    return _first(tree, _BODY_CANDIDATES, _is_main_content)


def main(tree: etree._Element) -> list[etree._Element]:
    """`BODY_XPATH[4]`: the first `<main>`, or article/div/section whose class, id or role starts
    with 'main', whichever comes first."""
    return _first(tree, _BODY_CANDIDATES, _is_main)


BODY: list[Selection] = [article_body, first_article, story, main_content, main]


# --- OVERALL_DISCARD_XPATH: boilerplate blocks, and hidden or reply elements

_CONSENT = re.compile("cookie")
_BOILERPLATE_BOTH = "^shar|social|viral|newsletter|syndication|tags|sidebar|banner|bread-?crumb|button|author"
_BOILERPLATE_ID = re.compile(f"{_BOILERPLATE_BOTH}|^(?:jp-|dpsp-content)|bmdh|footer|Footer|share|Share|nav|Nav|"
                             "menu|related|message-container|premium|^ad-")
_BOILERPLATE_CLASS = re.compile(
    f"{_BOILERPLATE_BOTH}|^(?:nav|post-nav|ZendeskForm)|subnav|avigation|navbar|navbox|menu|bar| ad |-ad-|"
    "(?:^| )ad-|dfp[Aa]d|outbrain|taboola|criteo|paid-?content|widget|footer|Footer|byline|Byline|share-|"
    "sociable|embedded|embed|tag-list|consent|modal-content|permission|elated|next-|-stories|most-popular|"
    "more-on|meta|rating|attachment|timestamp|user-info|user-profile|-icon|article-infos|message-container|"
    "slide|viewport|overlay|options|expand|obfuscated|blurred|mol-factbox|yin|zlylin|nfoline")
_HIDDEN = re.compile("hidden")
_REPLY_ID = re.compile("reader-comments|akismet")
_REPLY_OR_HIDDEN_CLASS = re.compile("^hide-|comments-title|nocomments|-reply-|message|akismet|suggest-links|-hide-|"
                                    "hide-print| hidden| hide|noprint|notloaded")


def _is_boilerplate(element: etree._Element) -> bool:
    names = element.keys()
    if not names:  # every attribute '', which no pattern here matches
        return False
    get = element.get
    identifier, class_ = get("id"), get("class")
    return ("data-lp-replacement-content" in names
            or "nav" in _value(get("role")).replace("N", "n")
            or "MostPopularStories" in _value(get("data-component"))
            or _CONSENT.search(_first_of(names, "id", identifier, "class", class_)) is not None
            or _test(_BOILERPLATE_ID, identifier) or _test(_BOILERPLATE_CLASS, class_))


def _is_hidden_or_reply(element: etree._Element) -> bool:
    names = element.keys()
    if not names:  # every attribute '', which no pattern here matches
        return False
    get = element.get
    identifier, class_, style = get("id"), get("class"), get("style")
    return (class_ == "comments-title" or _first_of(names, "id", identifier, "class", class_).startswith("reply-")
            or _HIDDEN.search(_first_of(names, "id", identifier, "style", style)) is not None
            or "display:none" in _value(style) or "display: none" in _value(style)
            or _test(_REPLY_ID, identifier) or _test(_REPLY_OR_HIDDEN_CLASS, class_)
            or get("aria-hidden") == "true")


def boilerplate_blocks(tree: etree._Element) -> list[etree._Element]:
    """`OVERALL_DISCARD_XPATH[0]`: div/item/list/p/section/span that are navigation, sharing,
    newsletter, consent, ad, footer, byline, related-content and similar blocks by id, class, role
    or data attributes."""
    return [element for element in tree.iterdescendants(*_BLOCKS) if _is_boilerplate(element)]


def hidden_and_reply_elements(tree: etree._Element) -> list[etree._Element]:
    """`OVERALL_DISCARD_XPATH[1]`: any element hidden (by style, id, class or aria-hidden) or
    part of a comment reply form."""
    return [element for element in tree.iterdescendants(etree.Element) if _is_hidden_or_reply(element)]


OVERALL_DISCARD: list[Selection] = [boilerplate_blocks, hidden_and_reply_elements]


# --- DISCARD_IMAGE_ELEMENTS, TEASER_DISCARD_XPATH, PRECISION_DISCARD_XPATH

def caption_blocks(tree: etree._Element) -> list[etree._Element]:
    """`DISCARD_IMAGE_ELEMENTS[0]`: div/item/list/p/section/span with 'caption' in the id or class."""
    return [element for element in tree.iterdescendants(*_BLOCKS)
            if "caption" in _value(element.get("id")) or "caption" in _value(element.get("class"))]


def teaser_blocks(tree: etree._Element) -> list[etree._Element]:
    """`TEASER_DISCARD_XPATH[0]`: div/item/list/p/section/span with 'teaser' (or 'Teaser', any
    T capital) in the id or class."""
    return [element for element in tree.iterdescendants(*_BLOCKS)
            if "teaser" in _value(element.get("id")).replace("T", "t")
            or "teaser" in _value(element.get("class")).replace("T", "t")]


def headers(tree: etree._Element) -> list[etree._Element]:
    """`PRECISION_DISCARD_XPATH[0]`: every `<header>`."""
    return list(tree.iterdescendants("header"))


_BOTTOM = re.compile(r"(^|\s)bottom|bottom(\s|$)")
_LINK = re.compile(r"(^|\s)link(\s|$)")


def bottom_and_link_blocks(tree: etree._Element) -> list[etree._Element]:
    """`PRECISION_DISCARD_XPATH[1]`: div/item/list/p/section/span whose id or class (the first the
    element has) has a word starting or ending with 'bottom' or the word 'link', or with a border."""
    found = []
    for element in tree.iterdescendants(*_BLOCKS):
        names = element.keys()
        if not names:  # every attribute '', which no pattern here matches
            continue
        first = _first_of(names, "id", element.get("id"), "class", element.get("class"))
        if (_BOTTOM.search(first) is not None or _LINK.search(first) is not None
                or "border" in _value(element.get("style"))):
            found.append(element)
    return found


DISCARD_IMAGE: list[Selection] = [caption_blocks]
TEASER_DISCARD: list[Selection] = [teaser_blocks]
PRECISION_DISCARD: list[Selection] = [headers, bottom_and_link_blocks]


# --- trafilatura.settings.BASIC_CLEAN_XPATH: what html2txt, the baseline and jusText never read

_BASIC_CLEAN_TAGS = frozenset({"aside", "fencedframe", "footer", "script", "style", "svg", "template"})
_COOKIE_CONSENT = re.compile("cookie[-_]?(?:banner|bar|consent|law|notice|policy|description)|notice[-_]{0,2}cookie"
                             "|consent[-_]?(?:banner|manager|sdk)|borlabs|cookiebot|cmplz|onetrust|moove[-_]?gdpr",
                             re.IGNORECASE)


def basic_clean_sections(tree: etree._Element) -> list[etree._Element]:
    """`BASIC_CLEAN_XPATH`: asides, footers, scripts, styles, SVG, templates and fenced frames,
    divs whose class (or id, the first the element has) contains 'footer', and any element whose
    class or id names a cookie-consent banner (any case)."""
    found = []
    for element in tree.iterdescendants(etree.Element):
        if element.tag in _BASIC_CLEAN_TAGS:
            found.append(element)
            continue
        names = element.keys()
        if not names:  # every attribute '', which no pattern here matches
            continue
        identifier, class_ = element.get("id"), element.get("class")
        if ((element.tag == "div" and "footer" in _first_of(names, "class", class_, "id", identifier))
                or _test(_COOKIE_CONSENT, class_) or _test(_COOKIE_CONSENT, identifier)):
            found.append(element)
    return found
