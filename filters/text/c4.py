"""C4 NoPunc: remove lines that do not end in terminal punctuation, and its document-level rule
("more than half of lines not ending with . ? ! \\"").

Rule (Raffel et al. 2020, "Exploring the Limits of Transfer Learning with a Unified Text-to-Text
Transformer", §2.2: "we only retained lines that ended in a terminal punctuation mark (i.e. a
period, exclamation mark, question mark, or end quotation mark)"); reference implementations:
TensorFlow Datasets `c4_utils` (`_END_MARKS = (".", "?", "!", '"')`, tested on the stripped line)
and Dolma's `c4_v1` tagger (`python/dolma/taggers/c4.py`, `lines_with_no_ending_punctuation`).

As docs/filters.md says, the rule is applied as *line removal* before the Gopher rules
run: `nopunc_clean` returns the kept lines for `filters.text.gopher`, while the stored text stays as
extracted. Its document-level form ("≥ 50 % of lines lack end punctuation", `c4.nopunc_lines`,
off by default) needs no signal of its own: it is `c4_removed_line_fraction` compared with 0.5 by
the decision table.

Our readings where C4 is ASCII-only and our corpus is not:
* A line is a non-blank line with surrounding whitespace stripped (`filters.text.tokens.lines`); blank
  lines are neither kept nor counted.
* Terminal marks: `.` `?` `!` as in C4, plus the same marks of other scripts (`…` `。` `？` `！`
  `｡` `‼` `⁇` `⁈` `⁉` `؟` `۔` `।` `॥` `።`), so Chinese, Japanese, Arabic, Urdu and Hindi articles are not
  emptied. The Unicode ellipsis `…` counts because `...` already does (it ends with `.`).
* Closing quotes and brackets after a terminal mark are looked through: `."` `.”` `.’` `.)` `?»`
  `。」` all end a sentence.
* C4's fourth mark, the end quotation mark `"`, is kept as C4 has it: a line whose last character
  is `"` is kept even without a period (`He said "yes"`), and so are its typographic forms `”`
  `»` `」` `』`. Single quotes alone (`’`) are not: they are also apostrophes (`the students’`).
* Anything else at the end (a letter, a digit, `:` `;` `,`, an emoji, a closing bracket after a
  word) removes the line, as in C4.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from filters.core.declarations import Rule, Signal
from filters.text.tokens import lines, word_count

TERMINAL_MARKS = frozenset(".?!…。？！｡‼⁇⁈⁉؟۔।॥።")
# C4's end quotation mark `"` and its typographic equivalents: a line ending in one is kept.
END_QUOTES = frozenset('"”»」』')
# Looked through after a terminal mark: `."`, `.”`, `.)`, `。」`.
CLOSERS = "\"'”’»›)]}）］｝」』】〕〉》"


def ends_with_terminal_punctuation(line: str) -> bool:
    """True if `line` ends a sentence by C4's NoPunc rule as read above (trailing spaces ignored)."""
    stripped = line.rstrip()
    if not stripped:
        return False
    if stripped[-1] in END_QUOTES:
        return True
    core = stripped.rstrip(CLOSERS)
    return bool(core) and core[-1] in TERMINAL_MARKS


def nopunc_clean(text: str) -> tuple[str, dict[str, float | int]]:
    """Remove the lines that do not end in terminal punctuation (C4 NoPunc as line removal).

    Returns the kept lines joined with "\\n" (the text the Gopher rules see) and the signals:
    * `c4_line_count`: non-blank lines in `text`;
    * `c4_removed_line_fraction`: removed lines / non-blank lines (0.0 for a text without lines).
      The document rule, "more than half of lines not ending with . ? ! \\"", is this
      fraction compared with 0.5 by the decision table.
    * `c4_removed_word_fraction`: words (`filters.text.tokens.words`) in removed lines / all words (0.0 without
      words): how much of the page the removal took, which a line count hides (a page of long
      paragraphs that each end in hashtags loses every word; a page whose headings go loses few).
    * `c4_kept_word_count`: words of the kept lines.
    """
    all_lines = lines(text)
    kept = [line for line in all_lines if ends_with_terminal_punctuation(line)]
    removed_fraction = (len(all_lines) - len(kept)) / len(all_lines) if all_lines else 0.0
    total_words = sum(map(word_count, all_lines))
    kept_words = sum(map(word_count, kept))
    return "\n".join(kept), {
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
    Rule("c4.nopunc_lines", "too many lines without terminal punctuation (C4 document rule; off by default)",
         "c4_removed_line_fraction", ">=", "select", params_key="select.c4.max_nopunc_line_fraction"),
    Rule("c4.removed_words", "C4 NoPunc line removal took most of the text's words (lines without terminal "
         "punctuation: menus, lists, hashtag or caption lines); Gopher then measures the text as extracted",
         "c4_removed_word_fraction", ">", "select", params_key="select.c4.max_removed_word_fraction"),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class C4Params:
    # Document-level NoPunc rule: off by default, as it removes valid articles (docs/filters.md).
    max_nopunc_line_fraction: float | None = None
    # c4.removed_words above this share of the words in removed lines (docs/filters.md, "Text filters").
    max_removed_word_fraction: float | None = 0.8
