"""Text language identification: the signal behind `lang.not_allowed` when metadata has no language.

Seed 000 §8 keeps the metadata `language` column to declared languages only (no guessing); issue 5
adds a separate, measured signal from the extracted text. The model is py3langid (Lui & Baldwin
2012, "langid.py: An Off-the-shelf Language Identification Tool", ACL; the py3langid fork by
Barbaresi), a naive-Bayes classifier over byte n-grams whose model (`data/model.npz.xz`) ships
inside the wheel: nothing is downloaded at run time. Dolma's `ft_lang_id_en_doc_v2` tagger does
the same job with fastText, whose model must be fetched separately.

Readings:
* Only the first `MAX_CHARS` characters are classified: a few paragraphs decide the language
  as well as a whole page, and the cost of the byte-level DFA walk grows with length.
* The confidence is py3langid's normalised probability (`norm_probs=True`, a softmax over the
  languages), 0..1.
* py3langid walks its byte DFA one byte at a time in Python (`visit_counts`), about 40 % of
  a page's text signals. `_FastIdentifier` computes the same feature counts with numpy: the
  model's DFA forgets everything older than `DFA_MEMORY_BYTES` bytes (after that many bytes every
  state has moved to the same one, which tests/filters/test_language_id.py checks on the bundled
  model), so the state after each byte is a walk from the start over the bytes just before it,
  taken for all positions at once. Features are handed to the model in first-seen order, as the
  library's `Counter` does, so its float32 sums are the same.
* Codes are the model's labels: ISO 639-1 where the language has one (`en`, `de`, `ja`), else
  ISO 639-3 (`yue`, `arz`, `ace`). The label `zxx` ("no linguistic content") and text without a
  single letter (empty, whitespace, digits, emoji) give no language: `None`.
"""

from __future__ import annotations

import functools
import re

import numpy as np
from py3langid.langid import MODEL_FILE, LanguageIdentifier

MAX_CHARS = 10_000
NO_LINGUISTIC_CONTENT = "zxx"
_LETTER = re.compile(r"[^\W\d_]")
# The bundled model's DFA state after any 6 bytes is the same whatever state it started from.
DFA_MEMORY_BYTES = 6


class _FastIdentifier(LanguageIdentifier):
    """py3langid's identifier with its per-byte DFA walk (`_raw_score`) done by numpy."""

    __slots__ = ("_next_state", "_row_base", "_feature_of_state")

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._next_state = np.frombuffer(self.tk_nextmove, dtype=np.uint32)
        self._row_base = np.asarray(self.tk_row, dtype=np.uint32) << 8
        self._feature_of_state = np.asarray(self.tk_output, dtype=np.int64)

    def _raw_score(self, text: bytes) -> np.ndarray:
        """The library's `_sparse_score` of `visit_counts`, on the same arrays in the same order."""
        features, counts = feature_counts(self._next_state, self._row_base, self._feature_of_state, text)
        if not len(features):
            return super()._raw_score(text)  # the library's answer for featureless text
        # The model's float16 table as it is: numpy casts a page's rows to float32 (exactly) for the
        # product, as the library's `_sparse_score` does. A float32 copy made the product a little
        # faster but cost 57 MB per process and pushed `pipeline run` at 1 worker past 500 MB.
        return np.log1p(counts.astype(np.float32)) @ self.nb_ptc[features] + self.nb_pc


def feature_counts(next_state: np.ndarray, row_base: np.ndarray, feature_of_state: np.ndarray,
                   data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """py3langid's `visit_counts(nextmove, rowbase, output, data)` as two arrays, the features in
    the order they are first met (as its `Counter` keys are) and their counts, for a DFA that
    forgets bytes older than `DFA_MEMORY_BYTES`."""
    symbols = np.frombuffer(data, dtype=np.uint8)
    states = np.zeros(len(symbols), dtype=np.uint32)
    for lag in range(min(DFA_MEMORY_BYTES, len(symbols)) - 1, -1, -1):
        # Position i reads byte i - lag; positions before `lag` have not started their walk yet.
        states[lag:] = next_state[row_base[states[lag:]] + symbols[:len(symbols) - lag]]
    features = feature_of_state[states]
    features = features[features >= 0]
    positions = np.arange(len(features))
    first_seen = np.full(int(features.max(initial=-1)) + 1, len(features), dtype=np.int64)
    np.minimum.at(first_seen, features, positions)
    in_order = features[first_seen[features] == positions]
    return in_order, np.bincount(features)[in_order]


@functools.lru_cache(maxsize=1)
def _identifier() -> LanguageIdentifier:
    """The model, loaded once per process on first use (about a second); never mutated afterwards."""
    return _FastIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def load_model() -> None:
    """Load the model now rather than on the first page (`pipeline.stages.extract.warm_up`)."""
    _identifier()


def text_language(text: str | None) -> tuple[str | None, float]:
    """(language code or None, confidence 0..1) of the first `MAX_CHARS` characters of `text`.

    `(None, 0.0)` when there is no letter to classify or the model answers "no linguistic content".
    """
    sample = (text or "")[:MAX_CHARS]
    if not _LETTER.search(sample):
        return None, 0.0
    language, confidence = _identifier().classify(sample)
    if language == NO_LINGUISTIC_CONTENT:
        return None, 0.0
    return language, float(confidence)


def language_signals(text: str | None) -> dict[str, str | float | None]:
    """`text_language` (code or None) and `text_language_confidence` (0..1, None without a language)."""
    language, confidence = text_language(text)
    return {"text_language": language, "text_language_confidence": confidence if language else None}
