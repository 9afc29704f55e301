"""Structural counts of a page, for the page-type model (`filters/page_model/features.py`).

An article is mostly running text under one headline; a shop, category grid, link list, forum
thread, documentation page or marketing page shows itself in its furniture: how much of the text
sits in links, how many forms, inputs, buttons, images, list items and headings it has, whether
it marks itself up with `<article>` or `<time>`, and which schema.org types its JSON-LD declares.
These are counts, not decisions: the model learns what they mean from labelled pages. All come from one walk
over the elements; link text is each link's `text_content` (nested links are rare and would count twice).

`structure_post_count` counts the whole posts a page holds (docs/filters.md, "Pages of several posts"): post
containers (`<article>`, the hAtom class `hentry`, a schema.org posting or article item in microdata) that hold
no other post container, are no comment (`comment` in their class or id), and carry at least `FULL_POST_WORDS`
words in their paragraphs. A blog post with teasers of related posts counts 1 (teasers are a few lines); a blog
archive month or a front page that prints its posts in full counts each of them.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
from lxml import etree

from filters.core.declarations import Rule, Signal
from filters.parse.parsed import Page
from filters.text.tokens import word_count

# signal -> the tags it counts
_COUNTED: dict[str, tuple[str, ...]] = {
    "structure_form_count": ("form",),
    "structure_input_count": ("input", "select", "textarea"),
    "structure_button_count": ("button",),
    "structure_image_count": ("img",),
    "structure_list_item_count": ("li",),
    "structure_heading_count": ("h2", "h3", "h4"),
    "structure_table_count": ("table",),
    "structure_article_element_count": ("article",),
    "structure_time_element_count": ("time",),
    "structure_nav_count": ("nav",),
    "structure_aside_count": ("aside",),
    "structure_iframe_count": ("iframe",),
}
_COUNTED_TAGS = {tag: name for name, tags in _COUNTED.items() for tag in tags}
_LINKS = etree.XPath("//body//a[@href]")
# A post in full has this many words in its paragraphs; a teaser, a card or a comment has fewer.
FULL_POST_WORDS = 150
# A post carries its own date: a <time>, a datePublished item property, or a date/posted/published/
# entry-meta class (hAtom's `published`, WordPress's `entry-date`, `posted-on`).
_POST_DATE = etree.XPath(
    "boolean(.//time | .//*[@itemprop='datePublished'] | .//*[contains(@class, 'date') or contains(@class, 'posted')"
    " or contains(@class, 'published') or contains(@class, 'entry-meta')])")
# Found from the elements' tags and attributes (a predicate on every element costs as much as the parse);
# `_is_post_container` then reads the class as tokens.
_POST_CANDIDATES = etree.XPath(
    "//body//article | //body//*/@class[contains(., 'hentry')]/.. | //body//*/@itemtype[contains(., 'Posting')"
    " or contains(., 'NewsArticle') or contains(., 'schema.org/Article')]/..")
_POSTING_TYPES = ("BlogPosting", "NewsArticle", "schema.org/Article")


def _elements(tags: tuple[str, ...]) -> str:
    """'<h2>, <h3> and <h4> elements': the description of a count over `tags`."""
    names = [f"<{tag}>" for tag in tags]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"{listed} elements"


SIGNALS: tuple[Signal, ...] = (
    *(Signal(name, pa.int32(), _elements(tags)) for name, tags in _COUNTED.items()),
    Signal("structure_link_count", pa.int32(), "<a href> elements in <body>"),
    Signal("structure_link_word_fraction", pa.float64(), "words inside <body> links / visible words of <body>"),
    Signal("structure_schema_types", pa.string(),
           "schema.org types the page's JSON-LD declares, lower-cased, sorted, comma-separated"),
    Signal("structure_post_count", pa.int32(), f"whole posts on the page: post containers (<article>, hentry, "
           f"a posting item) with no post inside and >= {FULL_POST_WORDS} words of paragraphs, comments aside"),
)


RULES: tuple[Rule, ...] = (
    Rule("page.several_posts", "the page holds several whole posts (a blog archive month, a front page printing its "
         "posts in full, a multi-story page): a listing by the taxonomy; each post is kept at its own URL",
         "structure_post_count", ">", "select", params_key="select.page.max_posts"),
)


def structure_signals(page: Page) -> dict[str, Any]:
    """The counts of `SIGNALS` for `page` (every count present, 0 when there is none)."""
    counts: dict[str, Any] = dict.fromkeys(_COUNTED, 0)
    for element in page.tree.iter(*_COUNTED_TAGS):
        counts[_COUNTED_TAGS[element.tag]] += 1
    links = _LINKS(page.tree)
    link_words = word_count(" ".join(link.text_content() for link in links))  # one count: words never span a space
    visible_words = page.visible_word_count
    counts["structure_link_count"] = len(links)
    counts["structure_link_word_fraction"] = round(min(1.0, link_words / visible_words), 6) if visible_words else 0.0
    types = sorted({name.lower() for name in page.json_ld_types()})
    counts["structure_schema_types"] = ",".join(types) or None
    counts["structure_post_count"] = post_count(page.tree)
    return counts


def post_count(tree: Any) -> int:
    """Whole posts on the page (module docstring)."""
    containers = [element for element in _POST_CANDIDATES(tree) if _is_post_container(element)]
    posts = 0
    # The elements around a counted post. Held, not their ids: lxml gives a node the same element while
    # one is alive, so a container met later is found here.
    around: set[Any] = set()
    for element in reversed(containers):  # inner containers before the ones around them
        marks = f"{element.get('class', '')} {element.get('id', '')}".lower()
        if "comment" in marks:
            continue
        if word_count(" ".join(paragraph.text_content() for paragraph in element.iter("p"))) < FULL_POST_WORDS:
            continue
        if not _POST_DATE(element):
            continue  # no date of its own: an item of one piece (a listicle's entry), not a post
        if element in around:
            continue  # holds whole posts: they count, not the wrapper
        posts += 1
        around.update(element.iterancestors())
    return posts


def _is_post_container(element: Any) -> bool:
    """An `<article>`, an element of class `hentry`, or a BlogPosting/NewsArticle/Article item."""
    if element.tag == "article" or "hentry" in (element.get("class") or "").split():
        return True
    return any(kind in (element.get("itemtype") or "") for kind in _POSTING_TYPES)
