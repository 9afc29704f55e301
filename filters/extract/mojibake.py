"""Mojibake repair of the extracted blocks (docs/filters.md, "Extraction").

A page whose UTF-8 text was decoded as Latin-1 or Windows-1252 somewhere on its way and encoded again carries
the damage in its bytes (`für` reads `fÃ¼r`, `pet’s` reads `petâ€™s`, a no-break space `Â\xa0`), though it
declares and is valid UTF-8, so no choice of encoding undoes it; C4 and Gopher then read it wrong (a paragraph
ending in `.Â` has no terminal punctuation).

`fix_mojibake` repairs blocks with `ftfy.fix_encoding` (ftfy, Speer 2015; https://ftfy.readthedocs.io), which
re-encodes and re-decodes only where its heuristics say the text is mojibake and leaves unusual but correct
text alone (`CÂMARA`, `naïve`). ftfy's other fixes (quotes, width, HTML entities) are not asked for: the
detector data keeps the page's own typography. Only blocks holding one of the two-character sequences
mojibake is made of (`MOJIBAKE_HINT`) are asked about, which most pages have none of.
"""

from __future__ import annotations

import re

import ftfy

from filters.text.blocks import Block

# A UTF-8 lead byte read as Latin-1/Windows-1252 (Â Ã Ä Å Æ Ç Ð Ñ â ã ä å æ ç è é ï ð ñ ...: U+00C2-U+00F4)
# followed by a continuation byte read the same way (U+0080-U+00BF, or the Windows-1252 characters
# that stand for 0x80-0x9F): every mojibake of a non-ASCII character starts so.
_CP1252_HIGH = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
MOJIBAKE_HINT = re.compile(f"[\u00c2-\u00f4][\u0080-\u00bf{_CP1252_HIGH}]")


def fix_mojibake(blocks: list[Block]) -> tuple[list[Block], int]:
    """`blocks` with the mojibake in their text repaired (`ftfy.fix_encoding`), and how many changed.

    A repaired block's character counts are its new text's; its link and code characters are
    scaled by the same ratio (a repair shortens the text, or keeps its length where ftfy only reads a
    stray C1 control as its Windows-1252 character).
    """
    repaired, changed = [], 0
    for block in blocks:
        text = ftfy.fix_encoding(block.text) if MOJIBAKE_HINT.search(block.text) else block.text
        if text == block.text:
            repaired.append(block)
            continue
        changed += 1
        ratio = len(text) / block.chars if block.chars else 1.0
        repaired.append(Block(block.kind, text, len(text), min(len(text), round(block.link_chars * ratio)),
                              min(len(text), round(block.code_chars * ratio))))
    return (repaired if changed else blocks), changed
