"""Boilerplate line filters (seed 004, "Structural Content Filtering" and `isBoilerplate`).

Applied to the blocks of the winning extraction. Each filter is deliberately narrow ("minimal
pattern matching to avoid false positives", seed 004) and only looks at *short* blocks, so a
paragraph that merely mentions a copyright, a time or a bracket is never touched:

* relative timestamps: the whole block is "5 minutes ago", "Updated 2 hours ago", "yesterday";
* copyright lines: a short block starting with © or "(c) ", or with "Copyright" followed by a
  year, or "All rights reserved" alone;
* square-bracket annotations: the whole block is `[...]` ("[Advertisement]", "[Photo: …]");
* ALL-CAPS promotions: a block that is entirely one link and entirely upper-case (seed 004's
  Fox News rule: both conditions, never either alone).
"""

from __future__ import annotations

import re

from filters.blocks import Block

MAX_BOILERPLATE_CHARS = 120

_RELATIVE_TIME = re.compile(
    r"^(?:(?:updated|posted|published|edited)\s*:?\s*)?"
    r"(?:(?:\d+|an?|one|a few)\s+(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago"
    r"|just now|yesterday|today)\.?$",
    re.IGNORECASE,
)
# "© …" / "(c) …" at the start, or the word "Copyright" followed by a year: "Copyright law
# protects …" is prose, "Copyright 2024 Example Media" is a notice.
_COPYRIGHT = re.compile(r"^(?:©|\((?i:c)\)\s|(?i:copyright)\s*(?:©\s*)?(?:\d{4}|\(c\)))")
_RIGHTS_RESERVED = re.compile(r"^all rights reserved\.?$", re.IGNORECASE)
_BRACKETED = re.compile(r"^\[[^\[\]]{1,100}\]$")


def boilerplate_kind(block: Block) -> str | None:
    """Which boilerplate filter removes this block, or None to keep it."""
    text = block.text.strip()
    if not text or len(text) > MAX_BOILERPLATE_CHARS:
        return None
    if _RELATIVE_TIME.match(text):
        return "relative_time"
    if _COPYRIGHT.match(text) or _RIGHTS_RESERVED.match(text):
        return "copyright"
    if _BRACKETED.match(text):
        return "bracket_annotation"
    if block.link_chars >= block.chars and _is_all_caps(text):
        return "all_caps_link"
    return None


def remove_boilerplate(blocks: list[Block]) -> tuple[list[Block], dict[str, int]]:
    """Blocks that survive, and how many each filter removed."""
    kept: list[Block] = []
    removed: dict[str, int] = {}
    for block in blocks:
        kind = boilerplate_kind(block)
        if kind is None:
            kept.append(block)
        else:
            removed[kind] = removed.get(kind, 0) + 1
    return kept, removed


def _is_all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)
