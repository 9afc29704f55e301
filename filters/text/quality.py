"""The content quality metrics as signals (docs/filters.md, "Quality metrics").

The metrics and the thresholds they come with: content length (> 100 words: the `word_count` column; the length
rule is `length.tokens`), paragraph count (> 2 `<p>`: `quality_paragraph_count`, the paragraph and text blocks of
the *extracted* content, since navigation has `<p>` elements too), text density (text/HTML > 0.25:
`quality_text_html_ratio`, the extracted characters as widths, `filters.text.tokens.text_width`, over the bytes
of the HTML, which is never decoded whole; for mostly-ASCII markup characters and bytes are close), link
density (links/text < 0.3: `quality_link_density`, characters inside links over extracted characters) and
metadata completeness (title and author or date: `quality_metadata_complete`). Which of the `quality.*` rules
are on by default, and why: docs/decisions.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from filters.core.declarations import Count, Rule, Share, Signal
from filters.text.blocks import Block
from filters.text.tokens import text_width

PARAGRAPH_KINDS = frozenset({"paragraph", "text"})


def quality_signals(blocks: list[Block], html_bytes: int, title: str | None, author: str | None,
                    published: object | None) -> dict[str, Any]:
    text_chars = sum(block.chars for block in blocks)
    link_chars = sum(block.link_chars for block in blocks)
    return {
        "quality_paragraph_count": sum(1 for block in blocks if block.kind in PARAGRAPH_KINDS),
        "quality_text_html_ratio": sum(text_width(block.text) for block in blocks) / html_bytes if html_bytes else 0.0,
        "quality_link_density": link_chars / text_chars if text_chars else 0.0,
        "quality_metadata_complete": bool(title) and (bool(author) or published is not None),
    }

# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class QualityParams:
    # Quality metrics; which are on by default is decided by measurement (docs/decisions.md).
    max_link_density: Share | None = 0.30  # must be below
    min_paragraphs: Count | None = None  # quality metric: 3 ("> 2 paragraphs")
    min_text_html_ratio: Share | None = None  # quality metric: 0.25 (must be above)
    require_metadata: bool = False


# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("quality_paragraph_count", pa.int32(), "paragraph blocks of the extracted content"),
    Signal("quality_text_html_ratio", pa.float64(), "extracted characters (a Chinese or Japanese character "
           "counts as 3) / bytes of HTML"),
    Signal("quality_link_density", pa.float64(), "characters inside links / extracted characters"),
    Signal("quality_metadata_complete", pa.bool_(), "title and (author or date) present"),
)
RULES: tuple[Rule, ...] = (
    Rule("quality.link_density",
         "links/text ratio at or above the quality metrics limit (select.quality.max_link_density)",
         "quality_link_density", ">=", "select", params_key="select.quality.max_link_density"),
    Rule("quality.paragraphs", "fewer paragraphs than the quality metrics' minimum (select.quality.min_paragraphs)",
         "quality_paragraph_count", "<", "select", params_key="select.quality.min_paragraphs"),
    Rule("quality.text_density",
         "text/HTML ratio at or below the quality metrics limit (select.quality.min_text_html_ratio)",
         "quality_text_html_ratio", "<=", "select", params_key="select.quality.min_text_html_ratio"),
    Rule("quality.metadata",
         "no title, or neither author nor date (the quality metrics; when select.quality.require_metadata)",
         "quality_metadata_complete", "is_false", "select", enabled_key="select.quality.require_metadata"),
)
