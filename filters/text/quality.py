"""Content quality metrics (docs/filters.md, "Text filters"), as signals.

* Content length (word count > 100 words): the `word_count` column; the length rule is
  `length.tokens`.
* Paragraph count (> 2 `<p>` elements): `quality_paragraph_count`, the paragraph blocks of the
  extracted content.
* Text density (text/HTML ratio > 0.25): `quality_text_html_ratio`, extracted characters /
  bytes of HTML (the page is never materialised as text, so bytes are what is at hand; for
  mostly-ASCII markup the two are close).
* Link density (links/text ratio < 0.3): `quality_link_density`, characters inside links /
  extracted characters.
* Metadata completeness (title + (author or date)): `quality_metadata_complete`.

The paragraph count is taken on the *extracted* content (blocks of kind paragraph or text),
not on the raw page: a page's navigation has `<p>` elements too, and the rule is about the
article. Which of the `quality.*` rules are on by default is decided from measurements on real
pages (docs/filters.md, "Text filters").
"""

from __future__ import annotations

from typing import Any

from filters.text.blocks import Block

PARAGRAPH_KINDS = frozenset({"paragraph", "text"})


def quality_signals(blocks: list[Block], html_bytes: int, title: str | None, author: str | None,
                    published: object | None) -> dict[str, Any]:
    text_chars = sum(block.chars for block in blocks)
    link_chars = sum(block.link_chars for block in blocks)
    return {
        "quality_paragraph_count": sum(1 for block in blocks if block.kind in PARAGRAPH_KINDS),
        "quality_text_html_ratio": text_chars / html_bytes if html_bytes else 0.0,
        "quality_link_density": link_chars / text_chars if text_chars else 0.0,
        "quality_metadata_complete": bool(title) and (bool(author) or published is not None),
    }
