"""Tokens and lines, shared by the text filters.

Two units, on purpose: a *token* (the length rule, `token_count`) is a run of Unicode
letters/digits/underscore with inner apostrophes and hyphens, or one character of a script
written without spaces; a *word* (the `word_count` column, article score, cascade thresholds,
Gopher) is a whitespace-separated piece, `len(text.split())`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyarrow as pa

from filters.core.declarations import Rule, Signal

# Scripts written without spaces between words: each character is one token (see `token_count`).
# Han (CJK Unified Ideographs, Extension A, Compatibility, Extensions B+), the iteration mark 々,
# Hiragana, Katakana (with ー) and half-width Katakana. Hangul is left out: Korean puts spaces
# between words, so its runs already count sensibly.
CJK_CHARS = "\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0002fa1f"
TOKEN = re.compile(rf"[{CJK_CHARS}]|[^\W{CJK_CHARS}]+(?:['’-][^\W{CJK_CHARS}]+)*")


def token_count(text: str | None) -> int:
    """Tokens in `text`: the unit of the length rule (`length.tokens`: fewer than 200 tokens).

    A token is a run of letters/digits/underscore with inner apostrophes or hyphens
    (`don't`, `well-known`; `3.5` is two) except that every Han, Hiragana or Katakana character is a
    token of its own, so a Chinese or Japanese article is not counted as a handful of "words"
    (one character is roughly one word-piece of an LLM tokenizer, the unit detectors see).
    Punctuation, symbols and emoji are not tokens. Thai, Lao, Khmer and Burmese, also written
    without spaces, are still counted per run (too few tokens): a known limit of a regex tokenizer.
    """
    if not text:
        return 0
    return len(TOKEN.findall(text))  # the list is built in C: faster than counting an iterator


def lines(text: str | None) -> list[str]:
    """The non-blank lines of `text`, stripped of surrounding whitespace.

    The line unit shared by the C4 and Gopher line rules: `str.splitlines` boundaries (so `\\r\\n`
    is one break), and blank lines are not lines (a blank line between paragraphs is layout, and
    counting it would make every paragraph break a "duplicated line").
    """
    if not text:
        return []
    return [stripped for stripped in (line.strip() for line in text.splitlines()) if stripped]

# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class LengthParams:
    min_tokens: int | None = 200  # discard pages with < 200 tokens (docs/filters.md)


# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("token_count", pa.int32(), "tokens of the text: words, and each CJK character (length.tokens)"),
)
RULES: tuple[Rule, ...] = (
    Rule("length.tokens", f"fewer tokens than the minimum (the article filter: {LengthParams.min_tokens}); a token "
         "is a word, or one CJK character", "token_count", "<", "select", params_key="select.length.min_tokens"),
)
