"""Tokens, words and lines of a text, shared by the text filters (docs/filters.md, "Text in every script").

Two units, on purpose. A *token* (`token_count`, the length filter's unit) is a run of Unicode letters, digits and
underscores with inner apostrophes and hyphens, or one character of a script written without spaces. A *word*
(`words`: the `word_count` column, the article score, the cascade's thresholds, C4, Gopher, the page-type model)
is a whitespace-separated piece (`str.split`), except that each character of a script written without spaces is
a word of its own; text without such characters has exactly its whitespace pieces. Lines (`lines`) are the
non-blank, stripped lines. `text_width` measures a length in characters that means the same in every script.
"""

from __future__ import annotations

import re

# Scripts written without spaces between words: each character is one token (see `token_count`).
# Han (CJK Unified Ideographs, Extension A, Compatibility, Extensions B+), the iteration mark 々,
# Hiragana, Katakana (with ー) and half-width Katakana. Hangul is left out: Korean puts spaces
# between words, so its runs already count sensibly.
CJK_CHARS = "\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0002fa1f"
# Scripts written without spaces between words: CJK as above, plus Thai, Lao, Khmer and Myanmar
# (which put spaces between phrases, not words). A character of these is one token and one word.
UNSPACED_CHARS = CJK_CHARS + "\u0e00-\u0e7f\u0e80-\u0eff\u1780-\u17ff\u1000-\u109f"
TOKEN = re.compile(rf"[{UNSPACED_CHARS}]|[^\W{UNSPACED_CHARS}]+(?:['’-][^\W{UNSPACED_CHARS}]+)*")
_UNSPACED = re.compile(f"[{UNSPACED_CHARS}]")
_WORD_PIECE = re.compile(rf"[{UNSPACED_CHARS}]|[^\s{UNSPACED_CHARS}]+")
# `unspaced_fraction` at or above this: the text is written without spaces, and the statistics of
# word length do not apply to it (filters/text/gopher.py).
UNSPACED_TEXT_FRACTION = 0.5
# Characters per word of an n-word unit on text written without spaces: Chinese words average
# about 1.6 characters (the segmented corpora of the SIGHAN word-segmentation bakeoffs), Japanese
# ones about as many; an n-word rule or shingle reads 2n characters, so a five-character name said
# twice is not a "duplicated 5-gram" (docs/filters.md, "Text in every script").
UNSPACED_NGRAM_SCALE = 2
# The width of a Chinese or Japanese character in characters of spaced text, for lengths measured in
# characters (the block statistics, `filters/text/blocks.py`): a word is about 1.6 such characters
# (above) and about 5.7 characters of English with its space (English words average about 4.7
# letters), so a 100-character Chinese paragraph says what 300 to 350 characters of English do.
# Thai, Lao, Khmer and Myanmar words are several characters long, as in spaced scripts: width 1.
CJK_CHAR_WIDTH = 3
_CJK = re.compile(f"[{CJK_CHARS}]")
_SHINGLE_WORD = re.compile(rf"[{UNSPACED_CHARS}]|[^\W{UNSPACED_CHARS}]+")
_PLAIN_WORD = re.compile(r"\w+")


def token_count(text: str | None) -> int:
    """Tokens in `text`: the unit of the length rule (`length.tokens`: fewer than 200 tokens).

    A token is a run of letters/digits/underscore with inner apostrophes or hyphens
    (`don't`, `well-known`; `3.5` is two) except that every Han, Hiragana or Katakana character is a
    token of its own, and so is every Thai, Lao, Khmer or Myanmar character (`UNSPACED_CHARS`), so
    an article in a script written without spaces is not counted as a handful of "words" (one
    character is roughly one word-piece of an LLM tokenizer, the unit detectors see; for Thai and
    its neighbours, whose words are several characters, this overcounts, which a minimum forgives).
    Punctuation, symbols and emoji are not tokens.
    """
    if not text:
        return 0
    return len(TOKEN.findall(text))  # the list is built in C: faster than counting an iterator


def words(text: str | None) -> list[str]:
    """The words of `text`: its whitespace-separated pieces, each character of a script written
    without spaces (`UNSPACED_CHARS`) split off as a word of its own. `日本語の文章です。 OK` is
    日, 本, 語, の, 文, 章, で, す, 。 and OK; text without such characters gives `text.split()`."""
    if not text:
        return []
    if not _UNSPACED.search(text):
        return text.split()
    return _WORD_PIECE.findall(text)


def word_count(text: str | None) -> int:
    """`len(words(text))`: the project's word count (module docstring)."""
    return len(words(text))


def unspaced_fraction(text_words: list[str]) -> float:
    """Share of `text_words` (from `words`) that are characters of a script written without spaces."""
    if not text_words or not _UNSPACED.search("".join(text_words)):  # one pass in C: the common case
        return 0.0
    return sum(1 for word in text_words if len(word) == 1 and _UNSPACED.match(word)) / len(text_words)


def shingle_words(text: str | None) -> tuple[list[str], int]:
    """The words de-duplication shingles (MinHash and simhash), and how many of them make one word
    of a shingle: the lower-cased `\\w+` runs, with each character of a script written without
    spaces a word of its own (a Japanese sentence is otherwise one "word", and two copies of an
    article that differ in one sentence share almost no 5-word shingle); `UNSPACED_NGRAM_SCALE`
    when most of the words are such characters (`UNSPACED_TEXT_FRACTION`), else 1. Text without
    such characters gives its `\\w+` runs and 1."""
    if not text:
        return [], 1
    lowered = text.lower()
    if not _UNSPACED.search(lowered):
        return _PLAIN_WORD.findall(lowered), 1
    found = _SHINGLE_WORD.findall(lowered)
    return found, UNSPACED_NGRAM_SCALE if unspaced_fraction(found) >= UNSPACED_TEXT_FRACTION else 1


def text_width(text: str) -> int:
    """`len(text)` with each Chinese or Japanese character counted `CJK_CHAR_WIDTH` times: a length in
    characters that means the same in every script (text without such characters: its length)."""
    return len(text) + (CJK_CHAR_WIDTH - 1) * len(_CJK.findall(text))


def lines(text: str | None) -> list[str]:
    """The non-blank lines of `text`, stripped of surrounding whitespace.

    The line unit shared by the C4 and Gopher line rules: `str.splitlines` boundaries (so `\\r\\n`
    is one break), and blank lines are not lines (a blank line between paragraphs is layout, and
    counting it would make every paragraph break a "duplicated line").
    """
    if not text:
        return []
    return [stripped for stripped in (line.strip() for line in text.splitlines()) if stripped]
