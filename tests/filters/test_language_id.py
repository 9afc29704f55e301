"""Text language ID (issue 5 "Language"): py3langid's bundled model, first 10 000 characters, None without letters."""

from __future__ import annotations

import time

import pytest

from filters.text.language_id import MAX_CHARS, language_signals, text_language

PARAGRAPHS = {
    "en": "The city council approved the new budget on Tuesday after a long debate about schools, roads and "
          "the cost of public transport. Several members said they would have preferred more time.",
    "de": "Der Stadtrat hat am Dienstag nach einer langen Debatte über Schulen, Straßen und die Kosten des "
          "öffentlichen Nahverkehrs den neuen Haushalt beschlossen. Mehrere Mitglieder wollten mehr Zeit.",
    "fr": "Le conseil municipal a approuvé mardi le nouveau budget après un long débat sur les écoles, les "
          "routes et le coût des transports publics. Plusieurs membres auraient préféré plus de temps.",
    "ja": "市議会は火曜日、学校や道路、公共交通機関の費用について長い議論を行った後、新しい予算を承認した。"
          "何人かの議員はもっと時間が欲しかったと述べた。",
    "es": "El ayuntamiento aprobó el martes el nuevo presupuesto después de un largo debate sobre las escuelas, "
          "las carreteras y el coste del transporte público.",
    "zh": "市议会周二在就学校、道路和公共交通费用进行长时间辩论后批准了新预算。几位议员表示他们希望有更多时间。",
}


@pytest.mark.parametrize("language", sorted(PARAGRAPHS))
def test_paragraphs_are_identified(language: str) -> None:
    code, confidence = text_language(PARAGRAPHS[language])
    assert code == language
    assert 0.5 < confidence <= 1.0


@pytest.mark.parametrize("text", [None, "", "   \n\t ", "12345 67.89 !!!", "😀 🎉 👍", "--- *** ###"])
def test_text_without_letters_has_no_language(text: str | None) -> None:
    assert text_language(text) == (None, 0.0)
    assert language_signals(text) == {"text_language": None, "text_language_confidence": None}


def test_one_line_text() -> None:
    assert text_language("Guten Morgen, wie geht es dir heute?")[0] == "de"


def test_signals_dict() -> None:
    signals = language_signals(PARAGRAPHS["fr"])
    assert list(signals) == ["text_language", "text_language_confidence"]
    assert signals["text_language"] == "fr"
    assert isinstance(signals["text_language_confidence"], float)
    assert 0.0 <= signals["text_language_confidence"] <= 1.0


def test_deterministic() -> None:
    assert text_language(PARAGRAPHS["en"]) == text_language(PARAGRAPHS["en"])


def test_only_the_first_max_chars_are_classified_and_long_text_is_fast() -> None:
    english = (PARAGRAPHS["en"] + "\n") * (MAX_CHARS // len(PARAGRAPHS["en"]) + 1)
    text = english + (PARAGRAPHS["de"] + "\n") * 6_000                    # over 1 MB, German after the cut
    assert len(text) > 1_000_000
    text_language("warm up the model")
    start = time.perf_counter()
    code, _ = text_language(text)
    assert time.perf_counter() - start < 30.0  # well under 1 s; the cut itself is checked below
    assert code == "en"
    assert text_language(text[len(english):])[0] == "de"
