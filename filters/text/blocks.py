"""Text blocks of extracted content and their signals: the article filter's block rules (docs/filters.md).

The article filter discards pages with > 20 % of text characters in links or code, pages without any block
longer than 250 characters, pages with < 75 % of text in large blocks (>= 200 characters) and pages
with > 20 % of text in list items / table cells of <= 100 characters. It defines a block thus:
"blocks are separated by newline, line break, separator; boundaries of block elements: header,
paragraph, div, body, table cell, list item, code, quote". This module only cuts blocks and computes
the numbers; the comparisons (250, 0.75, 0.2) are decisions made elsewhere from `params.yaml`.

Two tag vocabularies, one table. The winning extractor's content arrives either as HTML
(readability-lxml, the DOM fallback, a parsed page) or as trafilatura's internal XML, i.e. the
`.body` of `trafilatura.bare_extraction(html, output_format="python", with_metadata=False,
include_links=True, include_formatting=True, include_tables=True)`, which returns a
`trafilatura.settings.Document`. Its `.body` is an `lxml.etree._Element` rooted at `<body>` with tags
`head` (heading, `rend="h2"`), `p`, `list`/`item`, `table`/`row`/`cell`, `code`, `quote`, `lb`,
`ref` (link, `target=`), `hi` (formatting), `del`, `graphic`; when a fallback extractor wins it is an
`lxml.html.HtmlElement` rooted at `<div>` that may still carry HTML tags (`div`, `p`, ...). The two
vocabularies only clash on `head`, resolved by position: a `head` directly under `html` is the HTML
document head (title, meta: not visible text) and is skipped; any other `head` is a heading.

Where the block definition is terse, these readings are ours:
* Block kinds: h1-h6/header/head -> 'heading'; p -> 'paragraph'; td/th/cell -> 'cell';
  li/dt/dd/item -> 'list_item'; pre and block-level code -> 'code'; blockquote/quote -> 'quote';
  body/html -> 'body'; div and the other structural containers (section, article, main, nav, aside,
  footer, form, figure, ul/ol/dl, table/tr, list/row, ...) -> 'div'. Everything else is inline and
  does not split (a, span, b, i, em, strong, hi, ref, del, q, ...); unknown tags are inline.
  The innermost block wins: `<div><p>x</p></div>` yields one 'paragraph' block, not a duplicate.
  Text directly in a block that also has block children (`<div>intro<p>..</p>outro</div>`) forms
  its own blocks of the enclosing kind; text under an inline root element gets the kind 'div'.
* Breaks: `<br>`, trafilatura's `<lb>` (line break) and `<hr>` (its "separator") split.
* Whitespace: outside code blocks, every run of whitespace (newlines and NBSP included) is one
  space, as a browser renders it; a newline in HTML source or in trafilatura's XML is formatting,
  while `<br>`/`<lb>` is the line break. Inside a code block (`<pre>`, block-level `<code>`) newlines
  are real, so each line of code is its own 'code' block ("separated by newline"); a long
  listing therefore never passes for a long paragraph. Every block's text is then
  whitespace-collapsed and stripped; empty blocks are dropped; `chars` counts code points.
  Invisible characters that only hint at rendering (soft hyphen U+00AD, zero-width space U+200B,
  BOM U+FEFF) are removed first: hyphenation markup would otherwise lengthen every block of a page
  by up to a sixth and push it over the 250-character rule. ZWJ/ZWNJ stay (they change meaning).
* Code: `<pre>` is always a code block, and everything inside it (a `<code>` directly inside it
  included) belongs to that one block. A `<code>` is a code block of its own only when it stands
  alone in a container (its parent is a div-, body- or quote-kind block, with no text before it in
  that block's current run and none after it), as trafilatura's `<body><code>` does; otherwise
  (`<p>run <code>ls</code></p>`, a code span in a list item or heading) it is inline: it does not
  split, and its characters count towards `code_chars` of the enclosing block.
* Links (`<a>`, `<ref>`) and code overlap: a character inside both counts as code only, so
  `link_chars` and `code_chars` are disjoint and their sum never counts a character twice.
* Skipped entirely: script, style, template, noscript, the HTML document head, comments and
  processing instructions (their tails, which are visible text, are kept). The root element's own
  tail lies outside it and is ignored.
* `blocks_from_text` (text-only candidates such as a JSON-LD `articleBody`): one 'text' block per
  non-empty line (`str.splitlines`), no link or code characters.
* `block_signals`: fractions are 0.0 when there is no text at all (nothing to measure; the
  length rules reject such pages anyway); nothing is rounded. Block sizes (large, longest, short
  items and the shares of them) are widths, `filters.text.tokens.text_width`: a Chinese or
  Japanese character counts as `CJK_CHAR_WIDTH` (3) characters, since a 100-character Chinese
  paragraph says what about 300 characters of English do; text without such characters is
  measured in code points, as the seed has it. `text_chars` and the link/code share stay code points.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum, auto
from typing import Any

import pyarrow as pa
from lxml import etree

from filters.core.declarations import Rule, Signal
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
INVISIBLE = str.maketrans("", "", "\u00ad\u200b\ufeff")


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
    """Blocks of an lxml element (HTML or trafilatura XML), in document order; [] for anything else."""
    if isinstance(element, etree._ElementTree):
        element = element.getroot()
    if element is None or not etree.iselement(element) or not isinstance(element.tag, str):
        return []
    builder = _BlockBuilder()
    builder.walk(element)
    return builder.blocks


def blocks_from_text(text: str) -> list[Block]:
    """One 'text' block per non-empty line of plain text."""
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
    """The article filter's block statistics; every fraction is of `text_chars` and 0.0 when that is 0."""
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
        text = text.translate(INVISIBLE) if text else ""
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
    max_link_code_char_fraction: float | None = None  # 0.20 in presets/seed.yaml
    # block.no_long_block: rejected when no block is longer than this. Off (null) by default: news
    # written in one- and two-sentence paragraphs has no such block (docs/filters.md); 250 in presets/seed.yaml
    long_block_chars: int | None = None
    min_large_block_char_fraction: float | None = None  # 0.75 in presets/seed.yaml
    max_short_list_table_char_fraction: float | None = None  # 0.20 in presets/seed.yaml


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
