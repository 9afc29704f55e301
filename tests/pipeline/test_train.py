"""`pipeline train` and the page-type model's fitting, measures, card and file (pipeline/stages/train.py,
filters/page_model/training.py, measures.py, card.py, model.py)."""

from __future__ import annotations

import itertools
import json
import socket
from pathlib import Path

import numpy as np
import pytest

from conftest import article_html, cli, write_warc
from filters.page_model import card as train_card
from filters.page_model import measures, training
from filters.page_model.model import ModelError, load_model
from filters.page_model.text_model import TEXT_FEATURE
from pipeline.stages import train

SHOP = ("<html><head><title>Kettle 1.7 l | Shop</title></head><body><nav><a href='/'>Home</a></nav>"
        "<h1>Kettle 1.7 l</h1><p>€ 39.99</p><form action='/cart/add'><input name='quantity' value='1'>"
        "<button>Add to cart</button></form><ul>" + "".join(f"<li><a href='/p/{i}'>Kettle {i}</a></li>"
                                                            for i in range(20)) + "</ul></body></html>")


def labelled_warc(directory: Path, pages: int = 10) -> Path:
    records, labels = [], {}
    for i in range(pages):
        url = f"https://news{i}.example.org/2024/05/council-story-number-{i}"
        records.append((url, article_html(f"Council story {i}", paragraphs=8), {}))
        labels[url] = "article"
        url = f"https://shop{i}.example.com/product/kettle-{i}"
        records.append((url, SHOP.encode(), {}))
        labels[url] = {"page_type": "product"}  # the WCXB form of a label
    write_warc(directory / "tiny.warc.gz", records)
    (directory / "tiny.labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return directory / "tiny.labels.json"


def test_train_end_to_end_is_deterministic_and_writes_a_loadable_model(tmp_path: Path):
    labels = labelled_warc(tmp_path)
    assert cli("train", labels, "--out", tmp_path / "a" / "model.json") == 0
    assert cli("train", labels, "--out", tmp_path / "b" / "model.json") == 0
    first = (tmp_path / "a" / "model.json").read_bytes()
    assert first == (tmp_path / "b" / "model.json").read_bytes()
    card = (tmp_path / "a" / "model.card.md").read_text(encoding="utf-8")
    assert "tiny.labels.json" in card and "CC-BY-4.0" in card and "| article |" in card
    model = load_model(str(tmp_path / "a" / "model.json"))
    assert model.training["pages"] == {"article": 10, "product": 10}
    assert model.full.features[-1] == TEXT_FEATURE and model.full.text is not None  # the stacked text model
    assert model.page.text is None and TEXT_FEATURE not in model.page.features
    article = {"url": "https://news.example.org/2024/05/another-council-story-about-lanes", "title": "Lanes",
               "word_count": 600, "signals": {"paragraph_count": 8, "product_score": 0, "body_word_count": 650}}
    shop = {"url": "https://shop.example.com/product/kettle-99", "title": "Kettle | Shop", "word_count": 40,
            "signals": {"paragraph_count": 1, "product_score": 8, "body_word_count": 90}}
    probabilities = model.full.probabilities([article, shop])
    assert probabilities.shape == (2, 7) and np.allclose(probabilities.sum(axis=1), 1)
    assert probabilities[0, 0] > probabilities[1, 0]  # the article is likelier an article than the shop page
    assert model.full.contributions(article)[0][0] in model.full.features


def test_labels_name_types_the_model_knows(tmp_path: Path, capsys):
    (tmp_path / "bad.labels.json").write_text(json.dumps({"https://e.org/": "recipe"}), encoding="utf-8")
    (tmp_path / "bad.warc.gz").write_bytes(b"")
    assert cli("train", tmp_path / "bad.labels.json", "--out", tmp_path / "m.json") == 2
    assert "'recipe' is not one of" in capsys.readouterr().err
    (tmp_path / "alone.labels.json").write_text(json.dumps({"https://e.org/": "article"}), encoding="utf-8")
    assert cli("train", tmp_path / "alone.labels.json", "--out", tmp_path / "m.json") == 2
    assert "no WARC beside it" in capsys.readouterr().err
    assert cli("train", f"{tmp_path / 'none.warc.gz'}=product", "--out", tmp_path / "m.json") == 2


def test_read_labels_accepts_both_forms(tmp_path: Path):
    path = tmp_path / "x.labels.json"
    path.write_text(json.dumps({"https://a.org/1": "forum", "https://a.org/2": {"page_type": "listing"}}))
    assert train.read_labels(path) == {"https://a.org/1": "forum", "https://a.org/2": "listing"}
    path.write_text("[1, 2]")
    with pytest.raises(train.LabelError, match="JSON object"):
        train.read_labels(path)


def test_folds_keep_a_site_together():
    assert training.fold_of("www.example.co.uk") == training.fold_of("shop.example.co.uk")
    assert {training.fold_of(f"site{i}.example{i}.org") for i in range(200)} == set(range(training.FOLDS))


def test_a_fold_without_a_text_model_reads_the_text_feature_as_missing(monkeypatch):
    # fold 1's complement holds one type, so `stacked` fits no text model without it (no per_fold entry)
    from filters.page_model.text_model import Stacked

    labels = np.array([0, 0, 6, 6, 0, 0])
    folds = np.array([0, 0, 0, 0, 1, 1])
    text = Stacked(None, np.full(6, 0.5), {0: (np.full(2, 0.7), np.full(4, 0.3))})  # type: ignore[arg-type]
    seen: dict[int, np.ndarray] = {}

    class Booster:
        def __init__(self, matrix: np.ndarray) -> None:
            self.fold = int(len(matrix) == 4)  # fold 1 trains on fold 0's four rows
            seen[self.fold] = matrix[:, -1]

        def predict(self, matrix: np.ndarray, num_threads: int) -> np.ndarray:
            seen[self.fold + 10] = matrix[:, -1]
            return np.zeros((len(matrix), 7))

    monkeypatch.setattr(training, "fit", lambda matrix, labels: Booster(matrix))
    training.out_of_fold(np.zeros((6, 2)), labels, folds, text)
    assert np.array_equal(seen[0], [0.7, 0.7]) and np.array_equal(seen[10], [0.3] * 4)
    assert np.isnan(seen[1]).all() and np.isnan(seen[11]).all()


def test_recall_threshold_keeps_the_asked_share_of_articles():
    probability = np.linspace(0.01, 1.0, 100)
    is_article = np.ones(100, dtype=bool)
    threshold = measures.recall_threshold(probability, is_article, 0.99)
    assert (probability >= threshold).mean() == pytest.approx(0.99, abs=0.011)
    assert (probability >= threshold + 0.02).mean() < 0.99


def test_gate_trade_table_trades_extraction_for_articles():
    # 100 articles with probabilities 0.01..1.00, 100 other pages with 0.0..0.495
    page = np.concatenate([np.linspace(0.01, 1.0, 100), np.linspace(0.0, 0.495, 100)])
    labels = ["article"] * 100 + ["listing"] * 100
    full = np.concatenate([np.ones(100), np.zeros(100)])
    others = np.ones(200, dtype=bool)
    others[:10] = False  # the other rules reject the ten least likely articles
    table = {row["recall"]: row for row in measures.gate_trade(page, full, labels, others, 0.5)}
    assert list(table) == list(measures.GATE_TRADE_RECALLS)
    assert table[1.0]["threshold"] == 0.0 and table[1.0]["all_extracted"] == 1.0
    assert table[1.0]["articles_kept"] == 0.9  # every article extracted, ten rejected by other rules
    assert table[0.95]["articles_extracted"] == pytest.approx(0.95, abs=0.011)
    # a lower recall extracts fewer pages of both kinds, and keeps no more articles
    rows = [table[recall] for recall in measures.GATE_TRADE_RECALLS]
    for lower, higher in itertools.pairwise(rows):
        assert lower["threshold"] >= higher["threshold"]
        assert lower["others_extracted"] <= higher["others_extracted"]
        assert lower["articles_kept"] <= higher["articles_kept"]
    assert table[0.95]["others_extracted"] < table[1.0]["others_extracted"]
    card = train_card.model_card({"gate_trade": list(table.values())}, "m.json")
    assert "| 0.950 |" in card and "The gate's trade" in card


def test_best_threshold_keeps_the_most_articles_the_ceilings_allow():
    labels = ["article"] * 4 + ["product"] * 2 + ["listing"] * 2
    probability = np.array([0.9, 0.8, 0.7, 0.3, 0.2, 0.1, 0.6, 0.5])
    everything = np.ones(len(labels), dtype=bool)
    assert measures.keep_rates(probability, labels, 0.65, everything) == {"article": 0.75, "listing": 0.0,
                                                                           "product": 0.0}
    # 0.61 is the lowest threshold that keeps no product and no listing (both ceilings are under 0.5)
    assert measures.best_threshold(probability, labels, everything) == pytest.approx(0.61)
    # a rule that drops the listing at 0.6 lets the threshold fall to what keeps no product
    assert measures.best_threshold(probability, labels, np.array([True] * 6 + [False, True])) == pytest.approx(0.51)
    # one service page in eleven kept is within the 0.10 ceiling; two are not
    services = ["article"] + ["service"] * 11
    probability = np.array([0.5] + [0.95, 0.9] + [0.1] * 9)
    assert measures.best_threshold(probability, services, np.ones(12, dtype=bool)) == pytest.approx(0.91)
    assert measures.best_threshold(np.full(3, 0.999), ["product"] * 3, np.ones(3, dtype=bool)) == pytest.approx(0.99)


def test_keep_rates_look_through_the_gate_and_the_copies_dedup_dropped():
    """A page dropped as a copy of another labelled page is in the dataset once, as that copy: the
    keep rates count it as the other rules keep it; any other reason is a page lost."""
    rows = [{"reasons": []}, {"reasons": ["article.low_score"]}, {"reasons": ["dup.exact", "dup.url"]},
            {"reasons": ["dup.near", "gopher.dup_5gram"]}, {"reasons": ["c4.removed_words"]}]
    assert training.kept_by_other_rules(rows).tolist() == [True, True, True, False, False]


def test_the_model_loads_without_the_network(tmp_path: Path, monkeypatch):
    labels = labelled_warc(tmp_path, pages=6)
    assert cli("train", labels, "--out", tmp_path / "model.json") == 0

    def refuse(*_args, **_kwargs):
        raise OSError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    load_model.cache_clear()
    assert load_model(str(tmp_path / "model.json")).full.features


def test_a_file_that_is_not_a_model_is_refused(tmp_path: Path):
    (tmp_path / "x.json").write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ModelError, match="not a page-type model"):
        load_model(str(tmp_path / "x.json"))
    with pytest.raises(ModelError, match="cannot read"):
        load_model(str(tmp_path / "missing.json"))


def test_training_turns_the_models_own_rules_off():
    from pipeline.params import Params

    defaults = Params()
    assert defaults.select.page.use_page_model and defaults.extract.gate.use_page_model  # on by default
    off = train.without_model(defaults)
    assert not off.select.page.use_page_model and not off.extract.gate.use_page_model
    from filters.rules import reasons
    assert not reasons.RULES_BY_CODE["page.not_article"].fires(0.0, off)
    assert not reasons.RULES_BY_CODE["article.page_model"].fires(0.0, off)
    assert off.select.page.keep_types == defaults.select.page.keep_types and off.select.length == defaults.select.length


def test_own_text_is_the_reference_where_the_labels_give_one(tmp_path: Path):
    warc = tmp_path / "pages.warc.gz"
    write_warc(warc, [("https://a.example/x", article_html(), {})])
    labels = tmp_path / "pages.labels.json"
    labels.write_text(json.dumps({"https://a.example/x": {"page_type": "article", "main_content": "word " * 250},
                                  "https://a.example/y": "listing"}))
    source = train.label_sources([str(labels)])[0]
    assert source.reference_tokens == {"https://a.example/x": 250}
    row = {"url": "https://a.example/x", "source_file": str(warc), "signals": {"cascade_trafilatura_words": 12}}
    assert train.own_text_tokens(row, [source]) == 250
    # no reference: the longest candidate
    other = {"url": "https://a.example/y", "source_file": str(warc),
             "signals": {"cascade_trafilatura_words": 120, "cascade_readability_words": 310, "token_count": 90}}
    assert train.own_text_tokens(other, [source]) == 310


def test_threshold_trade_reports_long_and_foreign_articles():
    rows = [{"signals": {"text_language": language}} for language in ("en", "en", "de", "de", "fr", "en")]
    labels = ["article", "article", "article", "article", "article", "service"]
    probability = np.array([0.99, 0.55, 0.97, 0.40, 0.96, 0.96])
    keep = np.array([True, True, True, True, False, True])
    long_text = np.array([True, True, True, False, True, False])
    table = measures.threshold_trade(rows, probability, labels, keep, long_text)
    row = next(r for r in table if r["threshold"] == 0.95)
    assert row["kept"] == {"article": 0.4, "service": 1.0}  # 0.99 and 0.97 pass; fr's rules reject it
    assert row["articles_by_language"] == {"en": 0.5, "de": 0.5, "other": 0.0}
    assert row["long_articles"] == 0.5  # of en 0.99, en 0.55, de 0.97, fr 0.96 (rejected by a rule)
    assert row["long_articles_not_english"] == 0.5  # de 0.97 kept, fr not


def test_threshold_trade_has_the_chosen_threshold_and_the_card_marks_it():
    rows = [{"signals": {"text_language": "en"}}] * 3
    labels = ["article", "article", "service"]
    probability = np.array([0.99, 0.92, 0.2])
    keep = np.ones(3, dtype=bool)
    table = measures.threshold_trade(rows, probability, labels, keep, None, 0.91)
    assert [row["threshold"] for row in table] == [*measures.TRADE_THRESHOLDS[:-1], 0.91, 0.95]
    assert next(row for row in table if row["threshold"] == 0.91)["kept"] == {"article": 1.0, "service": 0.0}
    card = train_card._threshold_trade_section(table, 200, 0.91)
    assert sum("**0.91**" in line for line in card) == 1 and not any("**0.95**" in line for line in card)
