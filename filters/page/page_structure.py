"""Structural counts of a page, for the page-type model (`filters/page/page_type.py`).

An article is mostly running text under one headline; a shop, category grid, link list, forum
thread, documentation page or marketing page shows itself in its furniture: how much of the text
sits in links, how many forms, inputs, buttons, images, list items and headings it has, whether
it marks itself up with `<article>` or `<time>`, and which schema.org types its JSON-LD declares.
These are counts, not decisions: the model learns what they mean from labelled pages.

All counts come from one walk over the elements; link text is measured with `text_content`
of each link (nested links are rare and would only count twice).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
from lxml import etree

from filters.page.parsed import Page
from filters.rules.declarations import Signal

# tag -> signal that counts it
_COUNTED_TAGS: dict[str, str] = {
    "form": "structure_form_count",
    "input": "structure_input_count",
    "select": "structure_input_count",
    "textarea": "structure_input_count",
    "button": "structure_button_count",
    "img": "structure_image_count",
    "li": "structure_list_item_count",
    "h2": "structure_heading_count",
    "h3": "structure_heading_count",
    "h4": "structure_heading_count",
    "table": "structure_table_count",
    "article": "structure_article_element_count",
    "time": "structure_time_element_count",
    "nav": "structure_nav_count",
    "aside": "structure_aside_count",
    "iframe": "structure_iframe_count",
}
_COUNTS = tuple(dict.fromkeys(_COUNTED_TAGS.values()))
_LINKS = etree.XPath("//body//a[@href]")

SIGNALS: tuple[Signal, ...] = (
    Signal("structure_form_count", pa.int32(), "<form> elements"),
    Signal("structure_input_count", pa.int32(), "<input>, <select> and <textarea> elements"),
    Signal("structure_button_count", pa.int32(), "<button> elements"),
    Signal("structure_image_count", pa.int32(), "<img> elements"),
    Signal("structure_list_item_count", pa.int32(), "<li> elements"),
    Signal("structure_heading_count", pa.int32(), "<h2>, <h3> and <h4> elements"),
    Signal("structure_table_count", pa.int32(), "<table> elements"),
    Signal("structure_article_element_count", pa.int32(), "<article> elements"),
    Signal("structure_time_element_count", pa.int32(), "<time> elements"),
    Signal("structure_nav_count", pa.int32(), "<nav> elements"),
    Signal("structure_aside_count", pa.int32(), "<aside> elements"),
    Signal("structure_iframe_count", pa.int32(), "<iframe> elements"),
    Signal("structure_link_count", pa.int32(), "<a href> elements in <body>"),
    Signal("structure_link_word_fraction", pa.float64(), "words inside <body> links / visible words of <body>"),
    Signal("structure_schema_types", pa.string(),
           "schema.org types the page's JSON-LD declares, lower-cased, sorted, comma-separated"),
)


def structure_signals(page: Page) -> dict[str, Any]:
    """The counts of `SIGNALS` for `page` (every count present, 0 when there is none)."""
    counts: dict[str, Any] = dict.fromkeys(_COUNTS, 0)
    for element in page.tree.iter(*_COUNTED_TAGS):
        counts[_COUNTED_TAGS[element.tag]] += 1
    links = _LINKS(page.tree)
    link_words = sum(len(link.text_content().split()) for link in links)
    visible_words = len(page.visible_text.split())
    counts["structure_link_count"] = len(links)
    counts["structure_link_word_fraction"] = round(min(1.0, link_words / visible_words), 6) if visible_words else 0.0
    types = sorted({name.lower() for name in page.json_ld_types()})
    counts["structure_schema_types"] = ",".join(types) or None
    return counts
