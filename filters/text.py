"""Word counting shared by every filter that talks about "words".

A word is a maximal run of Unicode letters/digits/underscore (`\\w+`), allowing inner
apostrophes and hyphens (`don't`, `well-known` are one word). Scripts written without spaces
(Chinese, Japanese) are counted per run, so their counts are low; the length filters say so.
"""

from __future__ import annotations

import re

WORD = re.compile(r"\w+(?:['’-]\w+)*")


def words(text: str) -> list[str]:
    return WORD.findall(text)


def word_count(text: str | None) -> int:
    if not text:
        return 0
    return sum(1 for _ in WORD.finditer(text))
