"""Content quality metrics (filters/text/quality.py)."""

from __future__ import annotations

from filters.text.blocks import Block
from filters.text.quality import quality_signals


def block(text: str, link_chars: int = 0) -> Block:
    return Block("paragraph", text, len(text), link_chars, 0)


def test_text_density_is_characters_over_html_bytes():
    signals = quality_signals([block("a" * 300, link_chars=30), block("b" * 100)], 2_000, "T", None, None)
    assert signals["quality_text_html_ratio"] == 400 / 2_000
    assert signals["quality_link_density"] == 30 / 400
    assert signals["quality_paragraph_count"] == 2 and signals["quality_metadata_complete"] is False


def test_text_density_of_a_chinese_page_is_measured_in_widths():
    """A Chinese character is three bytes of UTF-8 in the page and counts as three characters, so a
    page whose text is 1,000 Han characters in 20,000 bytes of markup has the density of an English
    page with 3,000 characters of text in the same markup."""
    han = block("城" * 1_000)
    latin = block("c" * 3_000)
    chinese = quality_signals([han], 20_000 + 3 * 1_000, "T", None, None)["quality_text_html_ratio"]
    english = quality_signals([latin], 20_000 + 3_000, "T", None, None)["quality_text_html_ratio"]
    assert chinese == english == 3_000 / 23_000
