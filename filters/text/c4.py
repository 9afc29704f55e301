"""C4's NoPunc rule as signals: what removing the lines without terminal punctuation would take from a text
(docs/filters.md, "C4 NoPunc").

Source: Raffel et al. 2020, "Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer",
§2.2 ("we only retained lines that ended in a terminal punctuation mark (i.e. a period, exclamation mark,
question mark, or end quotation mark)"); reference implementations: TensorFlow Datasets `c4_utils`
(`_END_MARKS`, tested on the stripped line) and Dolma's `c4_v1` tagger (`python/dolma/taggers/c4.py`).

Input: the extracted text. Output: `nopunc_clean` returns the kept lines and the `c4_*` signals (line and word
counts; fractions 0..1 of the lines and words removed). The removal is measured, never written: `text` stays as
extracted and the other filters judge it (docs/filters.md, "Which text is judged"). The document rule
(`c4.nopunc_lines`, off by default) is `c4_removed_line_fraction` compared with 0.5 by the decision table.
Where C4 (2019, English, ASCII marks) is silent, the readings are ours: more terminal marks and closing quotes, a
final emoji, hard-wrapped lines joined, sentences run together into one line (`ends_with_terminal_punctuation`,
`sentence_lines`, `run_together_sentences`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pyarrow as pa

from filters.core.declarations import Rule, Share, Signal
from filters.text.tokens import lines, word_count

# The full stops, question and exclamation marks of scripts written without spaces: no space follows them.
UNSPACED_TERMINAL_MARKS = "。？！｡"
TERMINAL_MARKS = frozenset(".?!…‼⁇⁈⁉؟۔।॥።" + UNSPACED_TERMINAL_MARKS)
# C4's end quotation mark `"` and its typographic equivalents: a line ending in one is kept.
# `“` and `«` close quotations in German (`„Ja.“`, `»Ja.«`), as `”` and `»` do in English and French.
END_QUOTES = frozenset('"”“»«」』')
# Looked through after a terminal mark: `."`, `.”`, `.“`, `.)`; full-width ones after `。`: `。」`.
_SPACED_CLOSERS = "\"'”“’‘»«›‹)]}"
_FULL_WIDTH_CLOSERS = "）］｝」』】〕〉》"
CLOSERS = _SPACED_CLOSERS + _FULL_WIDTH_CLOSERS


# A sentence end inside a line: a terminal mark and any closers, then a space; after the marks of
# scripts written without spaces, full-width closers and quotes, and no space.
_SPACED_MARKS = "".join(sorted(TERMINAL_MARKS - set(UNSPACED_TERMINAL_MARKS)))
_UNSPACED_CLOSERS = _FULL_WIDTH_CLOSERS + "\"'”’"
_SENTENCE_END = re.compile(f"[{re.escape(_SPACED_MARKS)}][{re.escape(_SPACED_CLOSERS)}]*(?=\\s)"
                           f"|[{re.escape(UNSPACED_TERMINAL_MARKS)}][{re.escape(_UNSPACED_CLOSERS)}]*")
# A line with at least this many sentence ends loses only its unterminated tail.
RUN_TOGETHER_MIN_SENTENCES = 2


# Emoji modifiers looked through at the end of a line: variation selector 16, zero-width joiner,
# skin tones (U+1F3FB-U+1F3FF) and the gender signs of ZWJ sequences.
EMOJI_MODIFIERS = "\ufe0f\u200d\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff\u2640\u2642"
# Continuation marks: a line ending in one goes on in the next non-blank line (`sentence_lines`).
CONTINUATION_MARKS = (",", "-")


# The emoji of the older symbol blocks that end sentences as often as a face does; the rest of
# those blocks (★ ☆ ☐ ☑ ☛ ♠ ✓ ✔ ➡) marks ratings, check lists and links.
OLDER_EMOJI = frozenset("☀☺☔☕⚡⭐✨❤♥")


def is_pictograph(char: str) -> bool:
    """True for an emoji pictograph: Misc Symbols and Pictographs to Symbols and Pictographs
    Extended-A (U+1F300-U+1FAFF: faces, people, animals, food, objects), and `OLDER_EMOJI`."""
    return 0x1F300 <= ord(char) <= 0x1FAFF or char in OLDER_EMOJI


def ends_with_terminal_punctuation(line: str) -> bool:
    """True if `line` ends a sentence by C4's NoPunc rule as we read it (trailing spaces ignored).

    * Terminal marks: `.` `?` `!` as in C4, and the same marks of other scripts (`TERMINAL_MARKS`: `…` `。`
      `？` `！` `؟` `۔` `।` `॥` `።` ...), so Chinese, Japanese, Arabic, Urdu and Hindi text is not emptied;
      `…` counts because `...` does. Closing quotes and brackets after the mark are looked through
      (`CLOSERS`: `."` `.”` `.“` `.’` `.)` `?»` `。」`).
    * C4's fourth mark, the end quotation mark, ends a line on its own (`END_QUOTES`: `"` and its typographic
      forms `”` `»` `」` `』`, and the German closing quotes `“` and `«`). A single quote `’` does not: it is
      also an apostrophe (`the students’`).
    * An emoji pictograph at the end (`is_pictograph`, its modifiers looked through) stands where a full
      stop would; arrows, stars and check marks (`Read more →`, `★★★`, `✔`) do not.
    * Anything else at the end (a letter, a digit, `:` `;` `,`, a bracket after a word) does not, as in C4.
    """
    stripped = line.rstrip()
    if not stripped:
        return False
    if stripped[-1] in END_QUOTES:
        return True
    pictographs = stripped.rstrip(EMOJI_MODIFIERS)
    if pictographs and is_pictograph(pictographs[-1]):
        return True
    core = stripped.rstrip(CLOSERS)
    return bool(core) and core[-1] in TERMINAL_MARKS


def sentence_lines(text: str | None) -> list[str]:
    """The non-blank lines of `text`, stripped, with hard-wrapped lines joined: a line that does not
    end a sentence continues into the next non-blank line when that begins in lower case or the
    line ends in `,` or `-` (joined by a space; a blank line between is no obstacle, since
    extractors often make each wrapped line a paragraph of its own)."""
    joined: list[str] = []
    for line in lines(text):
        if joined and not ends_with_terminal_punctuation(joined[-1]) \
                and (line[0].islower() or joined[-1].endswith(CONTINUATION_MARKS)):
            joined[-1] = f"{joined[-1]} {line}"
        else:
            joined.append(line)
    return joined


def run_together_sentences(line: str) -> str:
    """Of a line that does not end a sentence, the sentences kept: up to its last sentence end (a terminal mark,
    closers looked through, then a space; `。` `！` `？` need no space) when it holds `RUN_TOGETHER_MIN_SENTENCES`
    or more, else nothing. Such a line is a paragraph run together, not a menu:
    `Sentence one. Sentence two. #travel #sea` keeps its sentences. A reading of ours;
    `extract.c4.run_together: false` (presets/seed.yaml) removes the line whole, as the seed's C4 does.
    """
    ends = [match.end() for match in _SENTENCE_END.finditer(line)]
    return line[:ends[-1]] if len(ends) >= RUN_TOGETHER_MIN_SENTENCES else ""


def nopunc_clean(text: str, run_together: bool = True,
                 text_words: list[str] | None = None) -> tuple[str, dict[str, float | int]]:
    """Remove the lines that do not end in terminal punctuation (C4 NoPunc as line removal).

    Returns the kept lines (with `run_together`, of a line run together its sentences:
    `run_together_sentences`; without, such a line goes whole) joined with "\\n", and the signals:
    * `c4_line_count`: non-blank lines in `text`, hard-wrapped ones joined (`sentence_lines`);
    * `c4_removed_line_fraction`: lines that do not end a sentence / non-blank lines (0.0 for a
      text without lines). The document rule, "more than half of lines not ending with . ? ! \\"",
      is this fraction compared with 0.5 by the decision table.
    * `c4_removed_word_fraction`: words (`filters.text.tokens.words`) removed / all words (0.0 without
      words): how much of the page the removal took, which a line count hides (a page of menu
      lines loses every word; a page whose headings go loses few).
    * `c4_kept_word_count`: words of what is kept.
    `text_words`: the text's words (`filters.text.tokens.words`) where the caller has them already.
    """
    all_lines = sentence_lines(text)
    kept = []
    unterminated = 0
    for line in all_lines:
        if ends_with_terminal_punctuation(line):
            kept.append(line)
            continue
        unterminated += 1
        if run_together and (sentences := run_together_sentences(line)):
            kept.append(sentences)
    removed_fraction = unterminated / len(all_lines) if all_lines else 0.0
    # Lines split at whitespace and are joined here by it: their words are those of the texts.
    kept_text = "\n".join(kept)
    total_words = word_count(text) if text_words is None else len(text_words)
    kept_words = word_count(kept_text)
    return kept_text, {
        "c4_line_count": len(all_lines),
        "c4_removed_line_fraction": removed_fraction,
        "c4_removed_word_fraction": (total_words - kept_words) / total_words if total_words else 0.0,
        "c4_kept_word_count": kept_words,
    }

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("c4_line_count", pa.int32(), "non-blank lines of the extracted text"),
    Signal("c4_removed_line_fraction", pa.float64(), "share of lines C4 NoPunc removes (no terminal punctuation)"),
    Signal("c4_removed_word_fraction", pa.float64(), "share of the text's words in lines C4 NoPunc removes"),
    Signal("c4_kept_word_count", pa.int32(), "words of the lines C4 NoPunc keeps"),
)
RULES: tuple[Rule, ...] = (
    Rule("c4.nopunc_lines",
         "too many lines without terminal punctuation (C4 document rule; select.c4.max_nopunc_line_fraction)",
         "c4_removed_line_fraction", ">=", "select", params_key="select.c4.max_nopunc_line_fraction"),
    Rule("c4.removed_words", "C4 NoPunc line removal would take most of the text's words (lines without terminal "
         "punctuation: menus, lists, hashtag or caption lines)",
         "c4_removed_word_fraction", ">", "select", params_key="select.c4.max_removed_word_fraction"),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class C4Params:
    # Document-level NoPunc rule: off by default, as it removes valid articles (docs/filters.md).
    max_nopunc_line_fraction: Share | None = None
    # c4.removed_words above this share of the words in removed lines (docs/filters.md, "C4 NoPunc").
    max_removed_word_fraction: Share | None = 0.8


# How the extract stage reads lines for the C4 signals (`extract.c4` in params.yaml).
@dataclass(frozen=True)
class C4ReadingParams:
    # A line of two or more sentences whose tail does not end one loses only that tail (true), or
    # goes whole, as in the seed's C4 (false; presets/seed.yaml).
    run_together: bool = True
