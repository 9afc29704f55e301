"""Text language ID (issue 5 "Language"): py3langid's bundled model, first 10 000 characters, None without letters."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from py3langid.langid import MODEL_FILE, LanguageIdentifier, visit_counts

from filters.language_id import (
    DFA_MEMORY_BYTES,
    MAX_CHARS,
    _identifier,
    feature_counts,
    language_signals,
    text_language,
)

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
    assert time.perf_counter() - start < 5.0
    assert code == "en"
    assert text_language(text[len(english):])[0] == "de"


# --- the numpy DFA walk (filters/language_id.py `_FastIdentifier`) against py3langid's own -------

SCRIPTS = (
    "The quick brown fox jumps over the lazy dog. ",
    "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich. ",
    "Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis. ",
    "Съешь же ещё этих мягких французских булок, да выпей чаю. ",
    "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ",
    "いろはにほへと ちりぬるを わかよたれそ つねならむ。",
    "天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。",
    "키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다. ",
    "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر. ",
    "דג סקרן שט בים מאוכזב ולפתע מצא חברה. ",
    "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले विष्णुवतार भगवान श्रीराम। ",
    "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า ",
    "Pchnąć w tę łódź jeża lub ośm skrzyń fig. ",
    "Árvíztűrő tükörfúrógép. ",
    "12,99 € — 50 % off!!! #sale https://example.org/a?b=c ",
    "\t\n  \u00a0\u2028 … «»“” ",
    "😀🎉👍 ",
)


def _random_text(rng: random.Random) -> str:
    """A mix of sentences of many scripts, cut anywhere, with stray characters and whitespace."""
    parts = []
    for _ in range(rng.randint(0, 12)):
        piece = rng.choice(SCRIPTS)
        start = rng.randrange(len(piece))
        parts.append(piece[start:start + rng.randint(0, 200)])
        if rng.random() < 0.3:
            parts.append("".join(chr(rng.choice((rng.randint(32, 0x2fff), rng.randint(0x3000, 0xffff))))
                                 for _ in range(rng.randint(1, 8))))
        if rng.random() < 0.3:
            parts.append(rng.choice((" ", "\n", "\t", "  ", "\r\n", "\u3000")))
    text = "".join(parts)
    return text.upper() if rng.random() < 0.1 else text


@pytest.fixture(scope="module")
def library_identifier() -> LanguageIdentifier:
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def test_model_dfa_forgets_bytes_older_than_its_memory() -> None:
    """After any DFA_MEMORY_BYTES bytes, every state of the bundled model has moved to one state: the
    states that each byte string can lead to, from all states, are a single one (a set that is
    down to one state stays so, so only larger sets are followed)."""
    model = _identifier()
    next_state = np.frombuffer(model.tk_nextmove, dtype=np.uint32)
    row_base = np.asarray(model.tk_row, dtype=np.int64) << 8
    every_byte = np.arange(256)
    open_sets = [np.arange(len(row_base))]
    for _ in range(DFA_MEMORY_BYTES):
        following: dict[bytes, np.ndarray] = {}
        for states in open_sets:
            targets = np.sort(next_state[row_base[states][:, None] + every_byte], axis=0)
            for byte in np.flatnonzero(targets[0] != targets[-1]):
                reached = np.unique(targets[:, byte])
                following[reached.tobytes()] = reached
        open_sets = list(following.values())
    assert open_sets == []


def test_feature_counts_equal_the_library_walk_on_random_bytes() -> None:
    model = _identifier()
    rng = random.Random(5)
    for size in [*range(12), *(rng.randint(12, 5000) for _ in range(200))]:
        data = bytes(rng.choice((rng.randint(0, 255), rng.randint(97, 122), 32)) for _ in range(size))
        features, counts = feature_counts(model._next_state, model._row_base, model._feature_of_state, data)
        expected = visit_counts(model.tk_nextmove, model._rowbase, model.tk_output, data) or {}
        assert list(zip(features.tolist(), counts.tolist(), strict=True)) == list(expected.items())


def test_scores_equal_the_library_to_the_bit_on_random_texts(library_identifier: LanguageIdentifier) -> None:
    model = _identifier()
    rng = random.Random(7)
    texts = [_random_text(rng) for _ in range(400)] + [*SCRIPTS, "", " ", "a", "AB", "😀"]
    for text in texts:
        assert model._decide(text).tobytes() == library_identifier._decide(text).tobytes(), text
        assert model.classify(text) == library_identifier.classify(text)
