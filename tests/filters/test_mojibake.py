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


def test_on_real_pages_repairs_leave_no_mojibake_and_touch_nothing_else(shared_corpora) -> None:
    """Every HTML page of both labelled corpora (wcxb-dev's WARC stores some sites' pages
    double-encoded, trafilatura-eval's are mostly German and French): the blocks of each page's
    body are repaired; a block without a mojibake pair is never changed, a repaired block is no
    longer and holds no mangled punctuation or umlaut afterwards, and some pages need it."""
    from filters.extract.mojibake import MOJIBAKE_HINT
    from filters.parse.html import parse_html_bytes
    from filters.text.blocks import blocks_from_element
    from pipeline.io.decode import decode_html
    from pipeline.io.readers import FileReport, read_file

    mangled = ("â€™", "â€œ", "â€”", "â\x80\x99", "â\x80\x94", "Ã¤", "Ã¶", "Ã¼", "ÃŸ")
    pages = repaired_pages = 0
    for corpus in ("wcxb-dev.warc.gz", "trafilatura-eval.warc.gz"):
        path = str(shared_corpora / corpus)
        for raw in read_file(path, 5_000_000, FileReport(path)):
            if not raw.payload or b"<html" not in raw.payload[:5000].lower():
                continue
            decoded = decode_html(raw.payload, raw.http_content_type)
            tree = parse_html_bytes(decoded.data, decoded.encoding)
            if tree is None or tree.find("body") is None:
                continue
            blocks = blocks_from_element(tree.find("body"))
            repaired, changed = fix_mojibake(blocks)
            pages += 1
            repaired_pages += changed > 0
            assert len(repaired) == len(blocks)
            for before, after in zip(blocks, repaired, strict=True):
                if after.text == before.text:
                    continue
                assert MOJIBAKE_HINT.search(before.text), (raw.url, before.text[:80])
                # shorter, or as long: a sequence cut off at the block's end ("â\x80") only has its
                # C1 control read as Windows-1252 ("â€"), which ftfy does too
                assert len(after.text) <= len(before.text) and after.chars == len(after.text)
                assert not any(sequence in after.text for sequence in mangled), (raw.url, after.text[:80])
    assert pages > 2_000 and repaired_pages >= 5
