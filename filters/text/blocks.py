"""Text blocks of the extracted content and the article filter's block signals (docs/filters.md, "Block structure").

The article filter's rules: more than 20 % of the text's characters in links or code, no block longer than 250
characters, less than 75 % of the text in large blocks (>= 200 characters), more than 20 % in list items and
table cells of <= 100 characters; its blocks "are separated by newline, line break, separator; boundaries of
block elements: header, paragraph, div, body, table cell, list item, code, quote".

Input: the winning extractor's content as an lxml element, HTML (readability-lxml, the DOM fallback) or the body
of trafilatura's XML (`head`, `p`, `list`/`item`, `table`/`row`/`cell`, `code`, `quote`, `lb`, `ref`, `hi`),
read by `blocks_from_element`; or plain text, one block per line (`blocks_from_text`). Output: `Block`s (kind,
text, characters in code points) and `block_signals` (counts, the longest block, fractions 0..1 of the text).
Block sizes are widths (`filters.text.tokens.text_width`: a Chinese or Japanese character counts 3). This module
cuts and measures; the thresholds are `BlockParams` (off by default, the seed's values in presets/seed.yaml),
compared by the decision table.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum, auto
from typing import Any

import pyarrow as pa
from lxml import etree

from filters.core.declarations import Count, Rule, Share, Signal
from filters.text.tokens import text_width

LARGE_BLOCK_CHARS = 200  # a large block has >= 200 characters
SHORT_ITEM_CHARS = 100  # list item / table cell counted only when <= 100 characters

HEADING, PARAGRAPH, DIV, BODY, CELL, LIST_ITEM, CODE, QUOTE, TEXT = (
    "heading", "paragraph", "div", "body", "cell", "list_item", "code", "quote", "text")
LIST_TABLE_KINDS = frozenset({LIST_ITEM, CELL})

BLOCK_KINDS: dict[str, str] = {
    **dict.fromkeys(("h1", "h2", "h3", "h4", "h5", "h6", "header", "head"), HEADING),
    "p": PARAGRAPH,
    **dict.fromkeys(("td", "th", "cell"), CELL),
    **dict.fromkeys(("li", "dt", "dd", "item"), LIST_ITEM),
    **dict.fromkeys(("blockquote", "quote"), QUOTE),
    **dict.fromkeys(("body", "html"), BODY),
    **dict.fromkeys(("div", "section", "article", "main", "nav", "aside", "footer", "form", "figure", "figcaption",
                     "details", "summary", "address", "fieldset", "legend", "center", "hgroup", "dialog", "caption",
                     "ul", "ol", "dl", "menu", "table", "thead", "tbody", "tfoot", "tr", "list", "row"), DIV),
}
BREAK_TAGS = frozenset({"br", "lb", "hr"})
LINK_TAGS = frozenset({"a", "ref"})
SKIP_TAGS = frozenset({"script", "style", "template", "noscript"})
# A standalone <code> in one of these is a code block; elsewhere it is an inline code span.
CODE_CONTAINER_KINDS = frozenset({DIV, BODY, QUOTE})
ROOT_KIND = DIV
# Characters that only hint at rendering (soft hyphen, zero-width space, BOM): hyphenation markup would
# lengthen every block of a page by up to a sixth and push it over the 250-character rule.
_SOFT_HYPHEN, _ZERO_WIDTH_SPACE, _BOM = "\u00ad", "\u200b", "\ufeff"
INVISIBLE = str.maketrans("", "", _SOFT_HYPHEN + _ZERO_WIDTH_SPACE + _BOM)


@dataclass(frozen=True)
class Block:
    kind: str  # 'heading' | 'paragraph' | 'div' | 'body' | 'cell' | 'list_item' | 'code' | 'quote' | 'text'
    text: str  # whitespace-collapsed text of the block
    chars: int  # len(text), in code points
    link_chars: int  # characters of `text` inside links and not inside code
    code_chars: int  # characters of `text` inside code


class _Role(Enum):
    SKIP = auto()
    BREAK = auto()
    BLOCK = auto()
    CODE_BLOCK = auto()
    LINK = auto()
    INLINE_CODE = auto()
    INLINE = auto()


_PLAIN, _LINK, _CODE = 0, 1, 2


def blocks_from_element(element: Any) -> list[Block]:
    """Blocks of an lxml element (HTML or trafilatura's XML), in document order; [] for anything else.

    Our readings of the block definition (docs/filters.md, "Block structure"):
    * Kinds (`BLOCK_KINDS`): h1-h6/header/head 'heading', p 'paragraph', td/th/cell 'cell', li/dt/dd/item
      'list_item', pre and block-level code 'code', blockquote/quote 'quote', body/html 'body', and 'div' for the
      other structural containers; every other tag (a, span, b, hi, ref, ..., unknown ones) is inline and does not
      split. The innermost block wins (`<div><p>x</p></div>` is one 'paragraph'); text directly in a block that
      also has block children forms blocks of the enclosing kind; text under an inline root is 'div'. A `head`
      directly under `html` is the document head and is skipped; any other `head` is trafilatura's heading.
    * Breaks: `<br>`, trafilatura's `<lb>` and `<hr>` (its "separator") split (`BREAK_TAGS`).
    * Whitespace: outside code every run of it is one space, as a browser renders it; inside a code block each
      line is a 'code' block of its own ("separated by newline"), so a listing never passes for a paragraph.
      Soft hyphens, zero-width spaces and BOMs are removed first (`INVISIBLE`); ZWJ/ZWNJ stay (they change meaning).
    * Code: `<pre>` is one code block with everything inside it; a `<code>` is a code block only when it stands
      alone in a div-, body- or quote-kind container (nothing before it in the run, nothing after it), as
      trafilatura's `<body><code>`; elsewhere it is inline and its characters count in `code_chars`.
    * Links (`<a>`, `<ref>`) and code overlap: a character in both counts in `code_chars` only.
    * Skipped: script, style, template, noscript, comments and processing instructions (their tails, visible
      text, are kept); the root element's own tail lies outside it.
    """
    if isinstance(element, etree._ElementTree):
        element = element.getroot()
    if element is None or not etree.iselement(element) or not isinstance(element.tag, str):
        return []
    builder = _BlockBuilder()
    builder.walk(element)
    return builder.blocks


def blocks_from_text(text: str) -> list[Block]:
    """One 'text' block per non-empty line (`str.splitlines`) of plain text (a JSON-LD `articleBody`), without
    link or code characters."""
    if not isinstance(text, str):
        return []
    blocks = []
    for line in text.translate(INVISIBLE).splitlines():
        collapsed = " ".join(line.split())
        if collapsed:
            blocks.append(Block(TEXT, collapsed, len(collapsed), 0, 0))
    return blocks


def block_signals(blocks: list[Block], *, large_block_chars: int = LARGE_BLOCK_CHARS,
                  short_item_chars: int = SHORT_ITEM_CHARS) -> dict[str, float | int]:
    """The article filter's block statistics. The large-block and short-item fractions are of the blocks' widths,
    the link/code fraction of their characters; every fraction is 0.0 without text (nothing is rounded)."""
    text_chars = sum(block.chars for block in blocks)
    # block sizes in characters of spaced text (a Chinese or Japanese character counts as CJK_CHAR_WIDTH)
    widths = [text_width(block.text) for block in blocks]
    text_width_total = sum(widths)
    large = sum(width for width in widths if width >= large_block_chars)
    short_list_table = sum(width for block, width in zip(blocks, widths, strict=True)
                           if block.kind in LIST_TABLE_KINDS and width <= short_item_chars)
    return {
        "text_chars": text_chars,
        "block_count": len(blocks),
        "longest_block_chars": max(widths, default=0),
        "link_code_char_fraction": link_code_char_fraction(blocks),
        "large_block_char_fraction": _fraction(large, text_width_total),
        "short_list_table_char_fraction": _fraction(short_list_table, text_width_total),
    }


def link_code_char_fraction(blocks: list[Block]) -> float:
    """Share of the blocks' characters inside links or code (0.0 without text): `block_signals`'s
    `link_code_char_fraction`, alone, for the cascade's choice between trafilatura's two readings."""
    return _fraction(sum(block.link_chars + block.code_chars for block in blocks), sum(block.chars for block in blocks))


def _fraction(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _local_name(tag: str) -> str:
    """`{namespace}P` -> `p`: XHTML or namespaced XML uses the same vocabulary."""
    return tag.rsplit("}", 1)[-1].lower()


class _BlockBuilder:
    """One iterative pre-order walk (no recursion limit, no XPath) that cuts blocks as it goes.

    Text is gathered into the current run as (piece, flag) pairs; every block boundary flushes the
    run as one block of the innermost open block's kind.
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self._pieces: list[tuple[str, int]] = []
        self._run_has_text = False
        self._kinds = [ROOT_KIND]
        self._link_depth = 0
        self._code_depth = 0

    def walk(self, root: Any) -> None:
        role = self._open(root, None)
        if role is _Role.SKIP:
            return
        stack: list[tuple[Any, Iterator[Any], _Role]] = [(root, iter(root), role)]
        while stack:
            element, children, role = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                self._close(role)
                if stack:
                    self._add(element.tail)
                continue
            if not isinstance(child.tag, str):  # comment, processing instruction, entity
                self._add(child.tail)
                continue
            child_role = self._open(child, role)
            if child_role is _Role.SKIP:
                self._add(child.tail)
                continue
            stack.append((child, iter(child), child_role))
        self._flush()

    def _role(self, element: Any, parent_role: _Role | None) -> _Role:
        name = _local_name(element.tag)
        if name in SKIP_TAGS or (name == "head" and _parent_name(element) == "html"):
            return _Role.SKIP
        if name in BREAK_TAGS:
            return _Role.BREAK
        if self._kinds[-1] == CODE:
            return _Role.INLINE  # everything inside a code block belongs to it
        if name == "pre":
            return _Role.CODE_BLOCK
        if name == "code":
            return _Role.CODE_BLOCK if self._code_stands_alone(element, parent_role) else _Role.INLINE_CODE
        if name in BLOCK_KINDS:
            return _Role.BLOCK
        if name in LINK_TAGS:
            return _Role.LINK
        return _Role.INLINE

    def _code_stands_alone(self, element: Any, parent_role: _Role | None) -> bool:
        in_container = parent_role is None or (parent_role is _Role.BLOCK and self._kinds[-1] in CODE_CONTAINER_KINDS)
        return in_container and not self._run_has_text and not (element.tail or "").strip()

    def _open(self, element: Any, parent_role: _Role | None) -> _Role:
        role = self._role(element, parent_role)
        if role in (_Role.BLOCK, _Role.CODE_BLOCK, _Role.BREAK):
            self._flush()
        if role is _Role.BLOCK:
            self._kinds.append(BLOCK_KINDS[_local_name(element.tag)])
        elif role is _Role.CODE_BLOCK:
            self._kinds.append(CODE)
            self._code_depth += 1
        elif role is _Role.LINK:
            self._link_depth += 1
        elif role is _Role.INLINE_CODE:
            self._code_depth += 1
        if role is not _Role.SKIP:
            self._add(element.text)
        return role

    def _close(self, role: _Role) -> None:
        if role in (_Role.BLOCK, _Role.CODE_BLOCK):
            self._flush()
            if len(self._kinds) > 1:
                self._kinds.pop()
        if role in (_Role.CODE_BLOCK, _Role.INLINE_CODE):
            self._code_depth -= 1
        elif role is _Role.LINK:
            self._link_depth -= 1

    def _add(self, text: str | None) -> None:
        if not text:
            return
        if _SOFT_HYPHEN in text or _ZERO_WIDTH_SPACE in text or _BOM in text:  # three scans in C beat a translate
            text = text.translate(INVISIBLE)
            if not text:
                return
        flag = _CODE if self._code_depth else _LINK if self._link_depth else _PLAIN
        self._pieces.append((text, flag))
        if not self._run_has_text and not text.isspace():
            self._run_has_text = True

    def _flush(self) -> None:
        if not self._pieces:
            return
        pieces, kind = self._pieces, self._kinds[-1]
        self._pieces, self._run_has_text = [], False
        if kind == CODE:
            self.blocks.extend(_code_lines("".join(piece for piece, _ in pieces)))
            return
        block = _collapse(pieces, kind)
        if block is not None:
            self.blocks.append(block)


def _parent_name(element: Any) -> str | None:
    parent = element.getparent()
    return _local_name(parent.tag) if parent is not None and isinstance(parent.tag, str) else None


def _code_lines(text: str) -> list[Block]:
    """A code block's newlines are real: one 'code' block per non-empty line, all of it code."""
    blocks = []
    for line in text.splitlines():
        collapsed = " ".join(line.split())
        if collapsed:
            blocks.append(Block(CODE, collapsed, len(collapsed), 0, len(collapsed)))
    return blocks


def _collapse(pieces: list[tuple[str, int]], kind: str) -> Block | None:
    """Join flagged pieces with whitespace collapsed and stripped, counting link and code characters.

    The result equals `" ".join("".join(pieces).split())`; a collapsed space takes the flag of the
    piece its whitespace began in.
    """
    out: list[str] = []
    counts = [0, 0, 0]
    pending: int | None = None  # flag of whitespace seen since the last word, if any
    for piece, flag in pieces:
        if not piece:
            continue
        words = piece.split()
        if not words:
            if pending is None:
                pending = flag
            continue
        if pending is None and piece[0].isspace():
            pending = flag
        if pending is not None and out:
            out.append(" ")
            counts[pending] += 1
        core = " ".join(words)
        out.append(core)
        counts[flag] += len(core)
        pending = flag if piece[-1].isspace() else None
    text = "".join(out)
    if not text:
        return None
    return Block(kind, text, len(text), counts[_LINK], counts[_CODE])

# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class BlockParams:
    # The article filter's block-structure rules (docs/filters.md), on the extracted content
    max_link_code_char_fraction: Share | None = None  # 0.20 in presets/seed.yaml
    # block.no_long_block: rejected when no block is longer than this. Off (null) by default: news
    # written in one- and two-sentence paragraphs has no such block (docs/decisions.md); 250 in presets/seed.yaml
    long_block_chars: Count | None = None
    min_large_block_char_fraction: Share | None = None  # 0.75 in presets/seed.yaml
    max_short_list_table_char_fraction: Share | None = None  # 0.20 in presets/seed.yaml


# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("text_chars", pa.int64(), "characters of the extracted blocks"),
    Signal("block_count", pa.int32(), "blocks of the extracted content"),
    Signal("longest_block_chars", pa.int64(), "characters of the longest block (a Chinese or Japanese character "
           "counts as 3)"),
    Signal("link_code_char_fraction", pa.float64(), "share of text characters inside links or code"),
    Signal("large_block_char_fraction", pa.float64(), f"share of text in blocks of >= {LARGE_BLOCK_CHARS} characters"),
    Signal("short_list_table_char_fraction", pa.float64(),
           f"share of text in list items/table cells <= {SHORT_ITEM_CHARS} chars"),
)
RULES: tuple[Rule, ...] = (
    Rule("block.link_code", "too much of the text inside links or code", "link_code_char_fraction",
         ">", "select", params_key="select.block.max_link_code_char_fraction"),
    Rule("block.no_long_block",
         "no block longer than the limit (250 characters in presets/seed.yaml; off by default): likely not paragraphs",
         "longest_block_chars", "<=", "select", params_key="select.block.long_block_chars"),
    Rule("block.large_block_share", f"too little text in large blocks of >= {LARGE_BLOCK_CHARS} characters",
         "large_block_char_fraction", "<", "select", params_key="select.block.min_large_block_char_fraction"),
    Rule("block.list_table", f"too much text in short list items / table cells of <= {SHORT_ITEM_CHARS} characters",
         "short_list_table_char_fraction", ">", "select",
         params_key="select.block.max_short_list_table_char_fraction"),
)
