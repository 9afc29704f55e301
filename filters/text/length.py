"""The length filter: a text's tokens (`filters.text.tokens.token_count`: a word, or one character
of a script written without spaces) and `length.tokens` below `select.length.min_tokens`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from filters.core.declarations import Count, Rule, Signal
from filters.text.tokens import token_count


@dataclass(frozen=True)
class LengthParams:
    """`select.length`."""

    min_tokens: Count | None = 200  # length.tokens below this many tokens (docs/filters.md)


def length_signals(text: str) -> dict[str, int]:
    """`token_count` of `text`."""
    return {"token_count": token_count(text)}


# Registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("token_count", pa.int32(), "tokens of the text: words, and each CJK character (length.tokens)"),
)
RULES: tuple[Rule, ...] = (
    Rule("length.tokens", "fewer tokens than the minimum (select.length.min_tokens; segment.min_tokens for a "
         "segment); a token is a word, or one CJK character", "token_count", "<", "select",
         params_key="select.length.min_tokens"),
)
