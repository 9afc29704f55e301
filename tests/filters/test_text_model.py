"""The page-type model's text model: terms in every script, stored weights that predict as
scikit-learn does, and a stacked feature that never comes from a model that saw the page."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from sklearn.linear_model import SGDClassifier

from filters.page_model import text_model
from filters.page_model.model import DEFAULT_MODEL, ModelError, load_model
from filters.page_model.text_model import (
    TEXT_FEATURE,
    TextModel,
    fit_text_model,
    languages_read,
    stacked,
    terms,
    text_languages,
    vectors,
)

ARTICLE_WORDS = ("council", "voted", "yesterday", "residents", "said", "mayor", "reported", "budget", "after",
                 "weeks", "debate", "Stadtrat", "beschloss", "gestern", "sagte", "Bürgermeisterin")
SERVICE_WORDS = ("contact", "us", "call", "book", "appointment", "our", "services", "offer", "Kontakt", "Termin",
                 "vereinbaren", "Angebot", "anfragen", "today", "free", "quote")


def pages(words: tuple[str, ...], count: int, seed: int, language: str = "en") -> list[dict[str, Any]]:
    chooser = random.Random(seed)
    return [{"title": chooser.choice(words), "text": " ".join(chooser.choice(words) for _ in range(60)),
             "signals": {"text_language": language}} for _ in range(count)]


def fit(rows: list[dict[str, Any]], labels: np.ndarray) -> TextModel:
    return fit_text_model(vectors(rows), labels, languages_read(text_languages(rows)))


def test_terms_are_lowercased_tokens_and_pairs_with_unspaced_scripts_read_per_character():
    assert terms("Der Stadtrat beschloss") == ["der", "stadtrat", "beschloss", "der stadtrat", "stadtrat beschloss"]
    assert terms("東京都は") == ["東", "京", "都", "は", "東 京", "京 都", "都 は"]
    assert terms("") == []


def test_the_document_is_title_then_text_cut_at_the_limit():
    row = {"title": "Title", "text": "x" * (text_model.MAX_CHARS + 50)}
    assert text_model.document(row).startswith("Title\nxxx") and len(text_model.document(row)) == text_model.MAX_CHARS
    assert text_model.document({"title": None, "text": None}) == "\n"


@pytest.mark.parametrize("kinds", [2, 3])
def test_stored_weights_predict_as_scikit_learn_does(kinds: int):
    words = (ARTICLE_WORDS, SERVICE_WORDS, ("price", "cart", "add", "shipping", "Preis", "Warenkorb"))[:kinds]
    rows = [row for kind, vocabulary in enumerate(words) for row in pages(vocabulary, 30, kind)]
    labels = np.repeat(np.array([0, 6, 5][:kinds]), 30)
    model = fit(rows, labels)
    reference = SGDClassifier(loss="log_loss", alpha=text_model.ALPHA, max_iter=text_model.EPOCHS, tol=None,
                              random_state=text_model.SEED).fit(vectors(rows), labels)
    ours = model.probabilities(rows, 7)
    assert np.allclose(ours.sum(axis=1), 1) and not ours[:, [1, 2, 3, 4]].any()
    # float16 weights: the same probabilities to a few thousandths
    assert np.abs(ours[:, list(model.classes)] - reference.predict_proba(vectors(rows))).max() < 5e-3


def test_a_model_read_back_from_its_document_predicts_the_same_and_fits_are_deterministic():
    rows = pages(ARTICLE_WORDS, 20, 1) + pages(SERVICE_WORDS, 20, 2)
    labels = np.repeat([0, 6], 20)
    model = fit(rows, labels)
    document = json.loads(json.dumps(model.to_document()))
    again = TextModel.from_document(document)
    assert np.array_equal(again.probabilities(rows, 7), model.probabilities(rows, 7))
    assert fit(rows, labels).to_document() == model.to_document()
    with pytest.raises(ValueError, match="another layout"):
        TextModel.from_document({**document, "hash_bits": 12})
    with pytest.raises(ValueError, match="do not match"):
        TextModel.from_document({**document, "shape": [2, 2 ** text_model.HASH_BITS]})


def test_it_tells_unseen_articles_from_service_pages():
    rows = pages(ARTICLE_WORDS, 40, 3) + pages(SERVICE_WORDS, 40, 4)
    model = fit(rows, np.repeat([0, 6], 40))
    unseen = pages(ARTICLE_WORDS, 10, 5) + pages(SERVICE_WORDS, 10, 6)
    article = model.probabilities(unseen, 7)[:, 0]
    assert (article[:10] > 0.5).all() and (article[10:] < 0.5).all()


def test_the_feature_is_missing_for_a_language_the_model_did_not_learn():
    minimum = text_model.MIN_LANGUAGE_PAGES
    rows = (pages(ARTICLE_WORDS, minimum, 7, "de") + pages(SERVICE_WORDS, minimum - 1, 8, "nl")
            + pages(ARTICLE_WORDS, 1, 9, ""))
    model = fit(rows, np.array([0] * minimum + [6] * minimum))
    assert model.languages == ("de",)  # nl: one page short; "": no language detected
    feature = model.feature(pages(ARTICLE_WORDS, 1, 10, "de") + pages(ARTICLE_WORDS, 1, 10, "nl")
                            + pages(ARTICLE_WORDS, 1, 10, "ja") + [{"title": "t", "text": "x"}], 0, 7)
    assert 0 < feature[0] < 1 and np.isnan(feature[1:]).all()
    assert TextModel.from_document(json.loads(json.dumps(model.to_document()))).languages == ("de",)


def _separation(feature: np.ndarray, labels: np.ndarray) -> float:
    """The share of (article, other) pairs the feature orders rightly (the ROC area)."""
    positive, negative = feature[labels == 0], feature[labels != 0]
    return float((positive[:, None] > negative[None, :]).mean() + 0.5 * (positive[:, None] == negative[None, :]).mean())


def test_the_stacked_feature_never_comes_from_a_model_that_saw_the_page():
    # Each page is one unique word and its label is random: only a model that saw the page can
    # tell its type, as a fit on all pages does.
    chooser = np.random.default_rng(3)
    rows = [{"title": "", "text": f"page{i} token{i}", "signals": {"text_language": "en"}} for i in range(200)]
    labels = np.where(chooser.random(200) < 0.5, 0, 6)
    folds = np.arange(200) % 5
    result = stacked(rows, labels, folds, 0, 7)
    assert _separation(result.model.probabilities(rows, 7)[:, 0], labels) > 0.95  # seen: memorised
    assert abs(_separation(result.feature, labels) - 0.5) < 0.15
    assert sorted(result.per_fold) == [0, 1, 2, 3, 4]
    for fold, (inside, held) in result.per_fold.items():
        assert len(inside) == (folds != fold).sum() and len(held) == (folds == fold).sum()
        assert abs(_separation(inside, labels[folds != fold]) - 0.5) < 0.2
        assert abs(_separation(held, labels[folds == fold]) - 0.5) < 0.25


def test_a_model_that_reads_the_text_feature_needs_its_weights(tmp_path):
    document = json.loads(DEFAULT_MODEL.read_text(encoding="utf-8"))
    assert document["full"]["features"][-1] == TEXT_FEATURE  # the shipped model reads the text model
    del document["full"]["text"]
    (tmp_path / "m.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ModelError, match="carries no text model"):
        load_model(str(tmp_path / "m.json"))
    document["full"]["text"] = {"hash_bits": text_model.HASH_BITS}
    (tmp_path / "n.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ModelError, match="unreadable text model"):
        load_model(str(tmp_path / "n.json"))


def test_on_real_pages_of_sites_it_never_saw_it_tells_articles_from_the_rest(shared_corpora):
    """WCXB's reference texts of 1,355 real pages (2025, over 1,100 sites), each scored by a text
    model fitted without its site's fold, as `pipeline train` folds them: articles score high and
    every other type low, though no page's own site was seen."""
    from urllib.parse import urlsplit

    from filters.page_model.features import PAGE_TYPES
    from filters.page_model.training import fold_of
    from filters.text.language_id import text_language

    labels = json.loads((shared_corpora / "wcxb-dev.labels.json").read_text(encoding="utf-8"))
    rows = [{"title": "", "text": value.get("main_content") or "",
             "signals": {"text_language": text_language(value.get("main_content"))[0]}} for value in labels.values()]
    types = np.array([PAGE_TYPES.index(value["page_type"]) for value in labels.values()])
    folds = np.array([fold_of(urlsplit(url).hostname) for url in labels])
    languages = text_languages(rows)
    feature = text_model.out_of_fold(vectors(rows), languages, types, folds, 0, len(PAGE_TYPES),
                                     languages_read(languages))
    given = ~np.isnan(feature)
    assert given.mean() > 0.95  # English, and a few pages whose language the identifier misses
    assert _separation(feature[given], types[given]) > 0.9  # 0.934 when written
    assert np.median(feature[given & (types == 0)]) > 0.8
    for other in range(1, len(PAGE_TYPES)):
        assert np.median(feature[given & (types == other)]) < 0.5, PAGE_TYPES[other]


def hashing_rows() -> list[dict[str, Any]]:
    """Rows whose terms hash into every kind of column: many scripts, repeats, empty text and title,
    a text beyond MAX_CHARS."""
    chooser = random.Random(11)
    words = (*ARTICLE_WORDS, *SERVICE_WORDS, "東京都", "Москва", "naïve", "ﬁ", "😀", "x" * 300, "a", "a")
    rows: list[dict[str, Any]] = [{"title": None, "text": None}, {"title": "", "text": ""}, {"title": "only a title"}]
    rows += [{"title": chooser.choice(words), "text": " ".join(chooser.choice(words) for _ in range(length))}
             for length in (1, 2, 5, 50, 400, 6_000)]
    return rows


def test_own_hashing_and_scores_equal_scikit_learn_bit_for_bit():
    # prediction does not import scikit-learn: the columns, values and scores must still be its own
    rows = hashing_rows()
    matrix = vectors(rows)
    for index, row in enumerate(rows):
        columns, values = text_model.term_vector(row)
        expected = matrix[index]
        assert np.array_equal(columns, expected.indices) and np.array_equal(values, expected.data)
    model = load_model(str(DEFAULT_MODEL)).full.text
    assert model is not None
    assert np.array_equal(model.probabilities(rows, 7), model.probabilities_of(matrix, 7))
    languages = text_languages(rows)
    assert np.array_equal(model.feature(rows, 0, 7), model.feature_of(matrix, languages, 0, 7), equal_nan=True)


def test_a_hash_of_minus_two_to_the_31_takes_scikit_learns_column(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(text_model.mmh3, "hash", lambda term, seed=0, signed=True: -2147483648)
    columns, values = text_model.term_vector({"title": "a", "text": "b"})
    assert columns.tolist() == [(2147483647 - (2 ** text_model.HASH_BITS - 1)) % 2 ** text_model.HASH_BITS]
    assert values.tolist() == [1.0]  # 1 + log(3 terms in one column), scaled to unit length
