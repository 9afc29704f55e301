"""Main-text extraction (seed 000 §4). For now a single step: trafilatura.

The cascade of issue #4 (readability + trafilatura best-of-two, JSON-LD body, DOM fallback)
grows here; the stage only relies on `extract_main_text` returning text and the winner's name.
"""

from __future__ import annotations

from dataclasses import dataclass

import trafilatura
from lxml.html import HtmlElement

from filters.text import word_count


@dataclass(frozen=True)
class Extraction:
    text: str | None
    extractor: str | None
    word_count: int


def extract_main_text(tree: HtmlElement, url: str | None) -> Extraction:
    """Main text of a parsed page, paragraphs separated by blank lines; empty when none found."""
    text = trafilatura.extract(tree, url=url, include_comments=False, include_tables=True,
                               deduplicate=False, with_metadata=False)
    text = to_paragraphs(text or "")
    if not text:
        return Extraction(None, None, 0)
    return Extraction(text, "trafilatura", word_count(text))


def to_paragraphs(text: str) -> str:
    """One paragraph per non-empty line, separated by one blank line."""
    lines = [line.strip() for line in text.splitlines()]
    return "\n\n".join(line for line in lines if line)
