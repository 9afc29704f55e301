"""Gopher's quality and repetition signals of a text, and the rules that read them (docs/filters.md, "Gopher").

Source: Rae et al. 2021, "Scaling Language Models: Methods, Analysis & Insights from Training Gopher",
Appendix A (quality filters; Table A1, repetition removal). The rule list is Dolma's `gopher_v1` tagger's
(`python/dolma/taggers/gopher.py`); a duplicate n-gram is an occurrence after the first, as datatrove's Gopher
repetition filter counts it; the back-to-back repetition rule is Dolma's `tokenizer_repetitions_v2r2` tagger.

Input: the text as written to the dataset's `text` column (docs/filters.md, "Which text is judged").
Output (`gopher_signals`): word and stop-word counts, the median word length in characters, and fractions
(0..1) of words, of lines or of word characters. Words are `filters.text.tokens.words` (each character of a
script written without spaces is one), lines the non-blank lines of `filters.text.tokens.lines`; on text
written without spaces the median word length is null and the n-gram rules read `UNSPACED_NGRAM_SCALE` times as
many characters (docs/filters.md, "Text in every script"). The thresholds are `GopherParams`' defaults, the
published values; `select.gopher` in params.yaml overrides them, and the decision table compares (`RULES`).
"""

from __future__ import annotations

import re
import statistics
import string
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from filters.core.declarations import Amount, Count, Rule, Share, Signal
from filters.text.tokens import UNSPACED_NGRAM_SCALE, UNSPACED_TEXT_FRACTION, lines, unspaced_fraction, words

# Gopher's stop words: a page must hold at least two of them (params.yaml holds the count).
STOP_WORDS = frozenset({"the", "be", "to", "of", "and", "that", "have", "with"})
# Stripped from both ends of a word before the stop-word test: ASCII punctuation plus common
# typographic quotes and dashes ("The", "(and", "with," all count).
WORD_PUNCTUATION = string.punctuation + "“”‘’«»‹›„‚…–—¿¡"
# A line "starts with a bullet point" (Gopher does not list them; Dolma: `*` `-`, datatrove: `•`).
# Round, square and triangular bullets, `-` `*` `+` (Markdown lists), `–` and arrow/check marks.
# The em dash `—` is left out: it opens dialogue lines in many languages.
BULLETS = ("•", "●", "○", "◦", "▪", "▫", "■", "□", "‣", "⁃", "∙", "►", "▶", "➢", "➤", "✓", "✔", "-", "*", "+", "–")
ELLIPSES = ("...", "…")
# Gopher's lower bound on document length: statistics of fewer words say nothing about a page.
MIN_MEASURED_WORDS = 50
TOP_NGRAM_SIZES = (2, 3, 4)              # Gopher: "for each n in {2, 3, 4} ... most frequently-occurring n-gram"
DUP_NGRAM_SIZES = (5, 6, 7, 8, 9, 10)    # Gopher: "for each n in {5, ..., 10} ... all duplicate n-grams"
MAX_REPEAT_PERIOD = 13                   # Dolma `TokenizerRepetitionsTagger.MAX_PERIOD`
# A word (a line of the distinct words joined) without a Unicode letter: digits, `_` and symbols only.
_UNLETTERED_WORD = re.compile(r"^(?:[\d_]|[^\w\n])+$", re.MULTILINE)
# A lower-cased word that is a stop word once `WORD_PUNCTUATION` is stripped from its ends.
_STOP_WORD = re.compile("^[{0}]*({1})[{0}]*$".format(re.escape(WORD_PUNCTUATION), "|".join(sorted(STOP_WORDS))),
                        re.MULTILINE)


def gopher_signals(text: str, text_words: list[str] | None = None) -> dict[str, float | int | None]:
    """All Gopher quality and repetition signals of `text` (the text written), one flat dict;
    `text_words`: its words (`filters.text.tokens.words`) where the caller has them already."""
    text_words = words(text) if text_words is None else text_words
    word_lengths = list(map(len, text_words))
    unspaced = unspaced_fraction(text_words) >= UNSPACED_TEXT_FRACTION
    signals: dict[str, float | int | None] = {
        **word_signals(text, text_words, word_lengths),
        **line_signals(lines(text)),
        **repetition_signals(text_words, word_lengths, UNSPACED_NGRAM_SCALE if unspaced else 1),
    }
    if unspaced:
        signals["gopher_median_word_length"] = None  # a character is not a word: the length rule does not apply
    return signals


def word_signals(text: str, words: list[str], word_lengths: list[int]) -> dict[str, float | int]:
    """Gopher's word-level quality signals (Rae et al. 2021, App. A, "Quality filtering").

    * `gopher_word_count`: whitespace-separated words ("between 50 and 100,000 words").
    * `gopher_median_word_length`: median word length in characters (0.0 without words). Gopher
      says *mean*; Dolma's tagger says median, which we follow.
    * `gopher_symbol_word_ratio`: (occurrences of `#` + `...` + `…`) / words. Gopher: "a
      symbol-to-word ratio greater than 0.1 for either the hash symbol or the ellipsis"; we pool
      the symbols into one ratio (never below either per-symbol ratio).
    * `gopher_alpha_word_fraction`: words with at least one alphabetic character / words ("80% of
      words in a document contain at least one alphabetic character"); any Unicode letter counts.
    * `gopher_stop_word_count`: how many *distinct* words of {the, be, to, of, and, that, have,
      with} occur, case-insensitively, after stripping punctuation from the word ("at least two
      of the following English words"). Dolma counts occurrences instead.
    """
    word_count = len(words)
    if not word_count:
        return {"gopher_word_count": 0, "gopher_median_word_length": 0.0, "gopher_symbol_word_ratio": 0.0,
                "gopher_alpha_word_fraction": 0.0, "gopher_stop_word_count": 0}
    symbols = text.count("#") + text.count("...") + text.count("…")
    # Each distinct word is read once, all of them in one string, a word a line (no word holds
    # whitespace): a long page repeats most of its words, and a regex pass in C beats a call a word.
    word_counts = Counter(words)
    distinct = "\n".join(word_counts)
    unlettered = sum(map(word_counts.__getitem__, _UNLETTERED_WORD.findall(distinct)))
    return {
        "gopher_word_count": word_count,
        "gopher_median_word_length": float(statistics.median(word_lengths)),
        "gopher_symbol_word_ratio": symbols / word_count,
        "gopher_alpha_word_fraction": (word_count - unlettered) / word_count,
        "gopher_stop_word_count": len(set(_STOP_WORD.findall(distinct.lower()))),
    }


def line_signals(text_lines: list[str]) -> dict[str, float]:
    """Gopher's line rules (App. A quality filtering and Table A1 repetition), on non-blank lines.

    * `gopher_bullet_line_fraction`: lines starting with a bullet (`BULLETS`) / lines ("more than
      90% of lines starting with a bullet point").
    * `gopher_ellipsis_line_fraction`: lines ending with `...` or `…` / lines ("more than 30%
      ending with an ellipsis").
    * `gopher_dup_line_fraction`: lines equal to an earlier line / lines (Table A1 "duplicate line
      fraction"; the first occurrence is not a duplicate, as in datatrove).
    * `gopher_dup_line_char_fraction`: characters of those duplicate lines / characters of all
      lines (Table A1 "duplicate line character fraction").
    All are 0.0 for a text without lines. Gopher and Dolma split on "\\n" and count blank lines; here a
    blank line is layout, not a line, or every paragraph break would be a "duplicated line". Gopher's
    paragraph ("\\n\\n") rules are not computed: extracted text has one line per paragraph.
    """
    line_count = len(text_lines)
    if not line_count:
        return {"gopher_bullet_line_fraction": 0.0, "gopher_ellipsis_line_fraction": 0.0,
                "gopher_dup_line_fraction": 0.0, "gopher_dup_line_char_fraction": 0.0}
    seen: set[str] = set()
    dup_lines = dup_chars = 0
    for line in text_lines:
        if line in seen:
            dup_lines += 1
            dup_chars += len(line)
        else:
            seen.add(line)
    return {
        "gopher_bullet_line_fraction": sum(1 for line in text_lines if line.startswith(BULLETS)) / line_count,
        "gopher_ellipsis_line_fraction": sum(1 for line in text_lines if line.endswith(ELLIPSES)) / line_count,
        "gopher_dup_line_fraction": dup_lines / line_count,
        "gopher_dup_line_char_fraction": dup_chars / sum(map(len, text_lines)),
    }


def repetition_signals(words: list[str], word_lengths: list[int], scale: int = 1) -> dict[str, float | int]:
    """Gopher's n-gram repetition signals (Table A1) and the repeated-sequence count.

    * `gopher_top_{2,3,4}gram_char_fraction`: characters of the word positions covered by the
      most frequent n-gram (all its occurrences; ties go to the n-gram seen first) / all word
      characters ("the fraction of characters contained within the most frequently-occurring
      n-gram"). Overlapping occurrences (`a a a`) are counted once, so the value stays <= 1;
      Dolma multiplies count by length and can exceed 1 there.
    * `gopher_dup_{5..10}gram_char_fraction`: characters of the word positions covered by any
      occurrence of an n-gram after its first / all word characters ("the fraction of characters
      contained within all duplicate n-grams, taking care not to count characters that occur in
      overlapping n-grams more than once").
    * `gopher_max_repeated_sequence_count`: see `max_repeated_sequence_count`.
    A text shorter than n words has fraction 0.0 for that n. The words are not normalised (Dolma).

    `scale` words make one word of the rules: for text written without spaces, whose words here are
    characters, each n-gram rule reads n-grams of `UNSPACED_NGRAM_SCALE` * n characters
    (docs/filters.md, "Text in every script").
    """
    ids = word_ids(words)
    lengths = np.asarray(word_lengths, dtype=np.int64)
    total_chars = int(lengths.sum())
    signals: dict[str, float | int] = {}
    # The n-grams of the last size measured that occur more than once: where they start (ascending)
    # and their ids. Only there can a longer n-gram occur twice, so each size looks at those alone;
    # at size 1, every word.
    repeats = Repeats(np.arange(len(ids)), ids)
    for size in range(2, DUP_NGRAM_SIZES[-1] * scale + 1):
        n, between = divmod(size, scale)
        is_rule = not between and n >= TOP_NGRAM_SIZES[0]  # else only a step to the next rule's size
        top = n in TOP_NGRAM_SIZES and is_rule
        if not len(repeats.starts) and not top:
            # no shorter n-gram occurs twice, so no longer one does: the duplicate rules count nothing
            if is_rule:
                signals[f"gopher_dup_{n}gram_char_fraction"] = 0.0
            continue
        grams = repeats.longer(ids, size)
        repeats = grams.repeated()
        if not is_rule:
            continue
        if not top:
            starts = repeats.later_starts()
        elif len(ids) < size:
            starts = grams.starts  # empty: no n-gram of this size fits
        else:
            starts = grams.top_starts()
        fraction = _covered_chars(lengths, starts, size) / total_chars if total_chars else 0.0
        signals[f"gopher_{'top' if top else 'dup'}_{n}gram_char_fraction"] = fraction
    signals["gopher_max_repeated_sequence_count"] = max_repeated_sequence_count(ids)
    return signals


def word_ids(words: list[str]) -> np.ndarray:
    """Each word mapped once to a small int (first-seen order): the unit of all n-gram work."""
    vocabulary = {word: index for index, word in enumerate(dict.fromkeys(words))}  # first-seen order
    return np.fromiter(map(vocabulary.__getitem__, words), dtype=np.int64, count=len(words))


@dataclass(frozen=True)
class Repeats:
    """Some n-grams of one size: where each starts (ascending), its id (equal ids, equal n-grams;
    small ints) and how often its id occurs among these."""

    starts: np.ndarray
    ids: np.ndarray
    counts: np.ndarray | None = None  # of each position's id; None where not needed

    def longer(self, words: np.ndarray, size: int) -> Repeats:
        """The `size`-grams starting where these (`size` - 1)-grams do, and fitting in `words`, with
        exact ids and their counts. An n-gram is its (n-1)-gram followed by one word, so (previous
        id, word id) names it: packed as `previous * vocabulary + word` (below 2**63 for any page)
        and renumbered densely by `np.unique`, the ids stay small at every n and never collide."""
        fits = self.starts <= len(words) - size
        starts, previous = self.starts[fits], self.ids[fits]
        if not len(starts):
            return Repeats(starts, previous, previous)
        packed = previous * (int(words.max()) + 1) + words[starts + size - 1]
        _, inverse, counts = np.unique(packed, return_inverse=True, return_counts=True)
        inverse = inverse.astype(np.int64, copy=False)
        return Repeats(starts, inverse, counts[inverse])

    def repeated(self) -> Repeats:
        """Those of these n-grams that occur more than once."""
        assert self.counts is not None
        twice = self.counts > 1
        return Repeats(self.starts[twice], self.ids[twice])

    def top_starts(self) -> np.ndarray:
        """Where the most frequent n-gram of the text starts, when these are every n-gram that
        occurs twice: the most frequent of these (on a tie, the one that occurs first), or, when
        none repeats, the first n-gram of the text (every n-gram occurs once: a tie)."""
        assert self.counts is not None
        if not len(self.starts) or int(self.counts.max()) < 2:
            return np.zeros(1, dtype=np.int64)
        first = int(np.argmax(self.counts == self.counts.max()))
        return self.starts[self.ids == self.ids[first]]

    def later_starts(self) -> np.ndarray:
        """Where these n-grams occur after their first occurrence (the first is not a duplicate)."""
        later = np.ones(len(self.starts), dtype=bool)
        later[np.unique(self.ids, return_index=True)[1]] = False
        return self.starts[later]


def _covered_chars(lengths: np.ndarray, starts: np.ndarray, n: int) -> int:
    """Characters of the words inside n-grams starting at `starts` (positions), each word counted once."""
    if not len(starts):
        return 0
    opened = np.bincount(starts, minlength=len(lengths) + n)
    closed = np.bincount(starts + n, minlength=len(lengths) + n)
    covered = np.cumsum(opened - closed)[:len(lengths)] > 0
    return int(lengths[covered].sum())


def max_repeated_sequence_count(ids: np.ndarray) -> int:
    """Most back-to-back repetitions of one word sequence of 1..13 words (0 for no words).

    The rule "contains token or token sequence repeated > 100 times" is Dolma's
    `tokenizer_repetitions_v2r2` tagger: periodic token sequences of period 1..13
    (`MAX_PERIOD`), scored by how many times the period repeats (`doc_max_score_repetition`,
    compared with 100 in Dolma v1.7). We use whitespace words instead of GPT-NeoX tokens.
    Consecutive repetition, not total frequency: "the" occurs over 100 times in any long article.
    A run of L positions where word i equals word i-p spans L + p words, i.e. (L + p) // p periods.
    All periods are compared at once, one row each (`_longest_true_runs`).
    """
    if not len(ids):
        return 0
    periods = min(MAX_REPEAT_PERIOD, len(ids) - 1)
    if periods < 1:
        return 1
    equal = np.zeros((periods, len(ids)), dtype=bool)  # row p - 1: word i + p equals word i
    for period in range(1, periods + 1):
        np.equal(ids[period:], ids[:-period], out=equal[period - 1, :len(ids) - period])
    lengths = np.arange(1, periods + 1)
    return max(1, int(((_longest_true_runs(equal) + lengths) // lengths).max()))


def _longest_true_runs(flags: np.ndarray) -> np.ndarray:
    """Length of the longest run of True in each row of a 2-D boolean array: at each position, the
    distance to the last False at or before it, at most."""
    positions = np.arange(flags.shape[1])
    last_false = np.maximum.accumulate(np.where(flags, -1, positions), axis=1)
    return (positions - last_false).max(axis=1)

# This filter's params, overridden by `select.gopher` in params.yaml (the group is declared in `pipeline/params.py`).
@dataclass(frozen=True)
class GopherParams:
    # The one place of the Gopher thresholds (Rae et al. 2021, App. A, Table A1; docs/filters.md):
    # these defaults unless params.yaml sets them; the functions above only compute the signals.
    min_words: Count | None = MIN_MEASURED_WORDS          # "does not contain between 50 and 100,000 words"
    max_words: Count | None = 100_000
    min_median_word_length: Amount | None = 3            # "word length outside the range of 3 to 10"
    max_median_word_length: Amount | None = 10           # (Gopher: mean; Dolma: median)
    max_symbol_word_ratio: Amount | None = 0.10          # "symbol-to-word ratio greater than 0.1"
    min_alpha_word_fraction: Share | None = 0.80        # "80% of words contain an alphabetic character"
    min_stop_words: Count | None = 2                      # "at least two of the following English words"
    max_bullet_line_fraction: Share | None = 0.90       # "more than 90% of lines starting with a bullet"
    max_ellipsis_line_fraction: Share | None = 0.30     # "or more than 30% ending with an ellipsis"
    # Table A1: duplicate line fraction 0.30; off by default (docs/decisions.md): on the written text
    # it counts every repeated table cell and code line ("Yes", "};"), and its character-weighted
    # sibling below finds repeated boilerplate. presets/seed.yaml: 0.30.
    max_dup_line_fraction: Share | None = None
    max_dup_line_char_fraction: Share | None = 0.30     # 0.30 here (docs/filters.md); Table A1 has 0.20
    max_top_2gram_char_fraction: Share | None = 0.20    # Table A1: top n-gram character fraction
    max_top_3gram_char_fraction: Share | None = 0.18
    max_top_4gram_char_fraction: Share | None = 0.16
    max_dup_5gram_char_fraction: Share | None = 0.15    # Table A1: duplicate n-gram character fraction
    max_dup_6gram_char_fraction: Share | None = 0.14
    max_dup_7gram_char_fraction: Share | None = 0.13
    max_dup_8gram_char_fraction: Share | None = 0.12
    max_dup_9gram_char_fraction: Share | None = 0.11
    max_dup_10gram_char_fraction: Share | None = 0.10
    # Dolma v1.7 "token or token sequence repeated > 100 times": off by default.
    max_repeated_sequence_count: Count | None = None


# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("gopher_word_count", pa.int32(), "whitespace words of the text"),
    Signal("gopher_median_word_length", pa.float64(), "median word length in characters"),
    Signal("gopher_symbol_word_ratio", pa.float64(), "('#' + ellipses) per word"),
    Signal("gopher_alpha_word_fraction", pa.float64(), "share of words with an alphabetic character"),
    Signal("gopher_stop_word_count", pa.int32(), "distinct English required words present (null: not English)"),
    Signal("gopher_bullet_line_fraction", pa.float64(), "share of lines starting with a bullet"),
    Signal("gopher_ellipsis_line_fraction", pa.float64(), "share of lines ending with an ellipsis"),
    Signal("gopher_dup_line_fraction", pa.float64(), "share of lines repeating an earlier line"),
    Signal("gopher_dup_line_char_fraction", pa.float64(), "share of line characters in repeated lines"),
    *(Signal(f"gopher_top_{n}gram_char_fraction", pa.float64(), f"word characters covered by the top {n}-gram")
      for n in (2, 3, 4)),
    *(Signal(f"gopher_dup_{n}gram_char_fraction", pa.float64(), f"word characters in repeats of {n}-grams seen before")
      for n in range(5, 11)),
    Signal("gopher_max_repeated_sequence_count", pa.int32(), "most back-to-back repeats of a 1-13 word sequence"),
)
RULES: tuple[Rule, ...] = (
    *(Rule(f"gopher.{code}", meaning, signal, op, "select", params_key=key)  # type: ignore[arg-type]
      for code, meaning, signal, op, key in (
        ("word_count", "word count outside the Gopher range", "gopher_word_count", "outside",
         ("select.gopher.min_words", "select.gopher.max_words")),
        ("median_word_length", "median word length outside the Gopher range", "gopher_median_word_length",
         "outside", ("select.gopher.min_median_word_length", "select.gopher.max_median_word_length")),
        ("symbol_ratio", "too many '#' and ellipses per word", "gopher_symbol_word_ratio", ">",
         "select.gopher.max_symbol_word_ratio"),
        ("alpha_words", "too few words with an alphabetic character", "gopher_alpha_word_fraction", "<",
         "select.gopher.min_alpha_word_fraction"),
        ("stop_words", "fewer of the English required words than the minimum (select.gopher.min_stop_words; English "
         "text only)",
         "gopher_stop_word_count",
         "<", "select.gopher.min_stop_words"),
        ("bullet_lines", "too many lines starting with a bullet", "gopher_bullet_line_fraction", ">",
         "select.gopher.max_bullet_line_fraction"),
        ("ellipsis_lines", "too many lines ending with an ellipsis", "gopher_ellipsis_line_fraction", ">",
         "select.gopher.max_ellipsis_line_fraction"),
        ("dup_lines", "too many duplicated lines", "gopher_dup_line_fraction", ">",
         "select.gopher.max_dup_line_fraction"),
        ("dup_line_chars", "too many characters in duplicated lines", "gopher_dup_line_char_fraction", ">",
         "select.gopher.max_dup_line_char_fraction"),
        *((f"top_{n}gram", f"most common {n}-gram covers too many characters", f"gopher_top_{n}gram_char_fraction",
           ">", f"select.gopher.max_top_{n}gram_char_fraction") for n in (2, 3, 4)),
        *((f"dup_{n}gram", f"duplicated {n}-grams cover too many characters", f"gopher_dup_{n}gram_char_fraction",
           ">", f"select.gopher.max_dup_{n}gram_char_fraction") for n in range(5, 11)),
        ("repeated_sequence", "a token sequence repeated back to back too often (off by default)",
         "gopher_max_repeated_sequence_count", ">", "select.gopher.max_repeated_sequence_count"),
    )),
)
