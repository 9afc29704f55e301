"""Boilerplate blocks of the winning extraction: the line filters and repeated blocks (docs/filters.md, "Extraction").

Input: the extracted blocks (`filters.text.blocks.Block`). `remove_boilerplate` returns the blocks kept and how
many each filter removed. A block goes when it is, as a whole and short (at most `MAX_BOILERPLATE_CHARS`
characters, newsletter prompts `MAX_PROMPT_CHARS`), a relative timestamp, a copyright line, a square-bracket
annotation, an ALL-CAPS block that is entirely one link, an advertisement label, a photo credit or caption label,
a byline, a share or newsletter prompt, or a related headline after a "Related articles" heading
(`boilerplate_kind`; the phrases are `filters.core.phrases`'), or when it repeats an earlier block
(`repeated_blocks`). Each filter is narrow and matches whole short blocks, so a paragraph that merely mentions a
copyright, a photo or a newsletter is never touched.

`body_blocks` removes nothing from `text`: it leaves out the leading blocks that repeat the page's headline, so
that the block statistics are measured on the body.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from filters.core import phrases
from filters.text.blocks import LARGE_BLOCK_CHARS, LIST_TABLE_KINDS, Block

MAX_BOILERPLATE_CHARS = 120
MAX_PROMPT_CHARS = 160  # newsletter prompts are a sentence with a call to action
HEADLINE_MAX_POSITION = 3
HEADLINE_MAX_CHARS = LARGE_BLOCK_CHARS  # a block this long is body: the headline search stops there
RELATED_ITEM_MAX_CHARS = 150
RELATED_ITEM_MIN_LINK_FRACTION = 0.8
# A repeated block is removed from this length on: a shorter repeat ("Summary", "Step 2", "Photo")
# is a label, which the line rules judge and C4 removes anyway.
REPEATED_BLOCK_MIN_CHARS = 40  # of the block's key: its words, case-folded, joined by single spaces
_WORDS = re.compile(r"\w+")
# Pages with more blocks are not searched for repeats (each block is looked for in the whole text).
REPEATED_BLOCK_MAX_BLOCKS = 2_000
# Kinds removed only as an exact copy, never for lying inside a longer block: a heading, a list
# item or a table cell that names what a paragraph also says (a recipe's steps, then the recipe
# card) is structure, not a pull quote.
_WHOLE_ONLY_KINDS = frozenset({"heading", *LIST_TABLE_KINDS})
# A paragraph is a near copy when at least this share of its word 5-grams (and at least
# `NEAR_COPY_MIN_GRAMS` of them) were already in earlier kept blocks: the same teaser once addressed
# "Sie" and once "du", a summary re-worded at two places. The copies Gopher's duplicate 5-gram
# rule counts are what this looks for, so the rule no longer blames the article for them.
NEAR_COPY_GRAM = 5
NEAR_COPY_SHARE = 0.8
NEAR_COPY_MIN_GRAMS = 10

_BRACKETED = re.compile(r"^\[[^\[\]]{1,100}\]$")
_DATEISH = re.compile(r"^[\d.:/,-]+(?:am|pm|h|uhr)?[,.]?$", re.IGNORECASE)
_BYLINE_MAX_TOKENS = 12


def boilerplate_kind(block: Block) -> str | None:
    """Which boilerplate filter removes this block on its own, or None to keep it."""
    text = block.text.strip()
    if not text or len(text) > MAX_PROMPT_CHARS:
        return None
    if len(text) <= MAX_BOILERPLATE_CHARS:
        kind = _short_kind(text, block)
        if kind is not None:
            return kind
    if phrases.NEWSLETTER_PROMPT.search(text):
        return "newsletter_prompt"
    if phrases.READ_MORE_LINK.match(text) and block.link_chars >= RELATED_ITEM_MIN_LINK_FRACTION * (len(text) - 12):
        return "related_links"
    return None


def _short_kind(text: str, block: Block) -> str | None:
    if phrases.RELATIVE_TIME.match(text):
        return "relative_time"
    if phrases.COPYRIGHT.match(text) or phrases.RIGHTS_RESERVED.match(text):
        return "copyright"
    if _BRACKETED.match(text):
        return "bracket_annotation"
    if block.link_chars >= block.chars and _is_all_caps(text):
        return "all_caps_link"
    if phrases.ADVERTISEMENT_LABEL.match(text):
        return "advertisement"
    if phrases.CREDIT_LABEL.match(text):
        return "credit"
    if block.kind != "heading" and _is_byline(text):
        return "byline"
    if phrases.SHARE_PROMPT.match(text) or _is_social_list(text):
        return "share_prompt"
    return None


def remove_boilerplate(blocks: list[Block]) -> tuple[list[Block], dict[str, int]]:
    """Blocks that survive, and how many each filter removed."""
    kept: list[Block] = []
    removed: dict[str, int] = {}
    in_related_list = False
    blocks = repeated_blocks(blocks, removed)
    for block in blocks:
        if in_related_list and _is_related_item(block):
            removed["related_links"] = removed.get("related_links", 0) + 1
            continue
        in_related_list = False
        if phrases.RELATED_HEADING.match(block.text.strip()):
            in_related_list = True
            removed["related_links"] = removed.get("related_links", 0) + 1
            continue
        kind = boilerplate_kind(block)
        if kind is None:
            kept.append(block)
        else:
            removed[kind] = removed.get(kind, 0) + 1
    return kept, removed


def repeated_blocks(blocks: list[Block], removed: dict[str, int]) -> list[Block]:
    """`blocks` without the copies of a repeated block; counts them in `removed` (`repeated_block`).

    A block's key is its words, case-folded, punctuation and whitespace left out (a teaser printed once with `…`
    and once with `...` is one text). From `REPEATED_BLOCK_MIN_CHARS` characters of key, a block goes when its key
    is an earlier block's, or, for a paragraph, when the key lies inside a longer block (a pull quote, a summary
    box, a teaser cut short) or `NEAR_COPY_SHARE` of its word 5-grams (at least `NEAR_COPY_MIN_GRAMS`) are in the
    blocks kept before it (the same teaser addressing the reader two ways). A heading, list item or table cell
    goes only as an exact copy: a recipe's steps and its card, or a list a paragraph names, are structure. The
    first or longer copy stays.
    """
    if len(blocks) < 2 or len(blocks) > REPEATED_BLOCK_MAX_BLOCKS:
        return blocks
    words = [_WORDS.findall(block.text.casefold()) for block in blocks]
    keys = [" ".join(block_words) for block_words in words]
    joined = "\x00".join(keys)  # the separator is in no key: a key is found within one block only
    copies: dict[str, int] = {}
    for key in keys:
        copies[key] = copies.get(key, 0) + 1
    seen: set[str] = set()
    seen_grams: set[tuple[str, ...]] = set()
    kept = []
    for block, key, block_words in zip(blocks, keys, words, strict=True):
        grams = set(zip(*(block_words[i:] for i in range(NEAR_COPY_GRAM)), strict=False))  # its word 5-grams
        repeat = False
        if len(key) >= REPEATED_BLOCK_MIN_CHARS:
            inside_longer = joined.count(key) - copies[key] > 0  # found beyond the blocks equal to it
            near_copy = len(grams) >= NEAR_COPY_MIN_GRAMS and len(grams & seen_grams) >= NEAR_COPY_SHARE * len(grams)
            repeat = key in seen or ((inside_longer or near_copy) and block.kind not in _WHOLE_ONLY_KINDS)
        seen.add(key)
        if repeat:
            removed["repeated_block"] = removed.get("repeated_block", 0) + 1
        else:
            kept.append(block)
            seen_grams |= grams  # kept blocks only: what a near copy repeats stays in the text
    return kept


def body_blocks(blocks: list[Block], headlines: Iterable[str]) -> list[Block]:
    """`blocks` without the leading blocks that repeat the page's headline, for the block statistics.

    Extractors repeat the headline as the first block, and a 60-character headline lowers the share of text in
    large blocks of every short news story. A block among the first `HEADLINE_MAX_POSITION`, before the first
    block of `HEADLINE_MAX_CHARS` characters, that equals one of `headlines` (the `<title>`, `og:title`, JSON-LD
    headline or an `<h1>`; of a "Headline | Site" title, the part of at least three words) on case-folded letters
    and digits is the headline.
    """
    wanted = _headline_keys(headlines)
    if not wanted:
        return blocks
    kept = list(blocks)
    position = 0
    while position < min(HEADLINE_MAX_POSITION, len(kept)):
        block = kept[position]
        if block.chars >= HEADLINE_MAX_CHARS:
            break
        if _normalise(block.text) in wanted:
            del kept[position]
            continue
        position += 1
    return kept


# `(?<!\s)`: a match starts where a whitespace run starts, never inside one (runs of spaces made
# the old form quadratic: every start inside a run rescanned it; see tests/filters/test_regex_safety.py).
_TITLE_SEPARATORS = re.compile(r"(?<!\s)\s+(?:[|\-–—:·•»/]|::)\s+")


def _headline_keys(headlines: Iterable[str]) -> set[str]:
    """Normalised headlines, and the parts of "Headline | Site" titles that are long enough to be one."""
    keys: set[str] = set()
    for headline in headlines:
        if not headline:
            continue
        keys.add(_normalise(headline))
        for part in _TITLE_SEPARATORS.split(headline):
            if len(part.split()) >= 3:
                keys.add(_normalise(part))
    keys.discard("")
    return keys


def _normalise(text: str) -> str:
    """Case-folded letters and digits only: quotes, dashes and spacing differ between title and body."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())


def _is_related_item(block: Block) -> bool:
    return block.chars <= RELATED_ITEM_MAX_CHARS and block.link_chars >= RELATED_ITEM_MIN_LINK_FRACTION * block.chars


def _is_byline(text: str) -> bool:
    start = phrases.BYLINE_START.match(text)
    if start is None or text.endswith((".", "!", "?")) and not text.endswith((" Jr.", " Sr.")):
        return False
    tokens = text[start.end():].replace(",", " , ").split()
    if not tokens or len(tokens) > _BYLINE_MAX_TOKENS or not tokens[0][:1].isupper():
        return False
    return all(token[:1].isupper() or token.lower() in phrases.BYLINE_CONNECTORS or token == ","
               or _DATEISH.match(token) for token in tokens)


def _is_social_list(text: str) -> bool:
    words = [word.strip(",|·•/").lower() for word in text.split()]
    words = [word for word in words if word]
    return len(words) >= 2 and all(word in phrases.SOCIAL_NAMES for word in words)


def _is_all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)
