"""Mojibake repair of the extracted blocks: UTF-8 read as Latin-1/Windows-1252 and written again."""

from __future__ import annotations

import pytest

from filters.extract.cascade import run_cascade
from filters.extract.mojibake import fix_mojibake
from filters.text.blocks import Block
from pages import html, page, paragraphs


def mangle(text: str, codec: str = "cp1252") -> str:
    """What a page shows after its UTF-8 bytes were decoded as `codec` and encoded again."""
    return text.encode("utf-8").decode(codec, errors="replace" if codec == "cp1252" else "strict")


def block(text: str, kind: str = "paragraph", link_chars: int = 0) -> Block:
    return Block(kind, text, len(text), link_chars, 0)


GERMAN = "Die Gemeinde hat für die Straße über den Fluss abgestimmt; die Bürger waren dafür."
ENGLISH = "The average monthly premium for a pet’s insurance was $62.44 for dogs.\u00a0"


@pytest.mark.parametrize("original", [GERMAN, ENGLISH, "Ça coûte 3 € à Noël — déjà vu…", "Zażółć gęślą jaźń."])
def test_mangled_text_is_repaired(original: str) -> None:
    codec = "latin-1" if "€" not in original and "—" not in original and "’" not in original else "cp1252"
    mangled = mangle(original, codec)
    assert mangled != original
    repaired, changed = fix_mojibake([block(mangled), block("An untouched block of plain text.")])
    assert changed == 1
    assert repaired[0].text == original and repaired[0].chars == len(original)
    assert repaired[1].text == "An untouched block of plain text."


@pytest.mark.parametrize("text", [
    "CÂMARA MUNICIPAL DE SÃO PAULO",     # Portuguese capitals: Â and Ã are letters here
    "Ein naïver Ansatz im Café Größenwahn.",
    "Die Ärzte spielten „Männer sind Schweine“ — live.",
    "Prix : 12 € ; «\u00a0entrée libre\u00a0».",
    "日本語の文章です。",
])
def test_correct_text_is_left_alone(text: str) -> None:
    blocks = [block(text)]
    assert fix_mojibake(blocks) == (blocks, 0)


def test_link_characters_shrink_with_the_text() -> None:
    mangled = mangle("Mehr über Straßen")
    repaired, _ = fix_mojibake([block(mangled, link_chars=len(mangled))])
    assert repaired[0].link_chars == repaired[0].chars == len("Mehr über Straßen")


def test_the_cascade_repairs_a_double_encoded_page() -> None:
    """The page declares and is valid UTF-8; its text was double-encoded before it was published."""
    body = paragraphs(4, 40) + f"<p>{mangle(GERMAN)} {mangle(GERMAN)}</p>"
    result = run_cascade(page(html(f"<article><h1>Abstimmung</h1>{body}</article>")))
    assert result.text is not None and GERMAN in result.text and "Ã" not in result.text
    assert result.trace["mojibake_block_count"] == 1
