"""The text filters over one extracted text, in their order: what `text_signals` computes.

Every signal reads the text as written to the dataset (`text`): its tokens, its language, C4
NoPunc's lines (only its own `c4_*` signals: how much of the text C4 would remove; nothing is
removed) and Gopher's quality and repetition signals. Gopher's stop-word rule holds English
words, so `gopher_stop_word_count` is left null for text identified as another language (the
language allow-list decides those). Thresholds are select-stage rules (`filters.rules.reasons`).
"""

from __future__ import annotations

from typing import Any

from filters.text.c4 import nopunc_clean
from filters.text.gopher import gopher_signals
from filters.text.language_id import language_signals
from filters.text.length import length_signals
from filters.text.tokens import words

# The languages whose stop words Gopher's rule counts (its word list is English).
STOP_WORD_LANGUAGES = ("en",)


def text_signals(text: str, c4_run_together: bool = True) -> dict[str, Any]:
    """Length, language, C4 and Gopher signals of `text` (`c4_run_together`: C4's reading of a
    paragraph of sentences with an unterminated tail, `filters.text.c4`)."""
    text_words = words(text)  # one tokenisation for C4 and Gopher
    signals: dict[str, Any] = dict(length_signals(text))
    signals.update(language_signals(text))
    signals.update(nopunc_clean(text, c4_run_together, text_words)[1])
    signals.update(gopher_signals(text, text_words))
    if signals["text_language"] not in STOP_WORD_LANGUAGES:
        signals["gopher_stop_word_count"] = None
    return signals
