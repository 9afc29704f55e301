"""The language of a text: the signal behind `lang.not_allowed` (docs/filters.md, "Language").

A measured signal from the extracted text, apart from the language the page declares (metadata `language`).
The model is py3langid (Lui & Baldwin 2012, "langid.py: An Off-the-shelf Language Identification Tool", ACL;
the py3langid fork by Barbaresi): naive Bayes over byte n-grams, its model inside the wheel, so nothing is
downloaded; called as its README shows (`LanguageIdentifier.from_model_file`, `classify`).

Input: a text, of which the first `MAX_CHARS` characters are classified. Output: the model's label, ISO 639-1
where the language has one (`en`, `de`, `ja`), else ISO 639-3 (`yue`, `arz`), and its confidence, py3langid's
normalised probability (`norm_probs=True`), 0..1. The label `zxx` ("no linguistic content") and text without a
letter give no language (None). Why the first 1,000 characters: docs/decisions.md.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import pyarrow as pa
from py3langid.langid import MODEL_FILE, LanguageIdentifier

from filters.core.declarations import Rule, Signal
from filters.core.loads import one_time_load

MAX_CHARS = 1_000
NO_LINGUISTIC_CONTENT = "zxx"
_LETTER = re.compile(r"[^\W\d_]")


_model: LanguageIdentifier | None = None
_loading = threading.Lock()


def _identifier() -> LanguageIdentifier:
    """The model, loaded once per process on first use (about a second); never mutated afterwards.
    A caller that comes while another thread loads it waits for that load."""
    global _model
    if _model is None:
        with one_time_load(), _loading:
            if _model is None:
                _model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return _model


def load_language_model(background: bool = False) -> None:
    """Load the model now rather than on the first page (`pipeline.stages.extract.warm_up`); with
    `background`, in a thread of its own: most of the load is LZMA decompression, which releases
    the GIL, so it goes on while this thread reads the first page (docs/benchmarks.md, "Fixed cost")."""
    if background:
        threading.Thread(target=_identifier, name="language-model", daemon=True).start()
    else:
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

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("text_language", pa.string(), "language ID of the extracted text (py3langid), ISO 639-1 where one exists"),
    Signal("text_language_confidence", pa.float64(), "normalised probability of text_language"),
)
RULES: tuple[Rule, ...] = (
    Rule("lang.not_allowed", "text language (language ID of the extracted text) not in the allow-list",
         "text_language", "not_in", "select", params_key="select.lang.allowed"),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class LangParams:
    # Languages kept (text language ID, ISO 639-1 where one exists); empty = allow all.
    allowed: tuple[str, ...] = ()
