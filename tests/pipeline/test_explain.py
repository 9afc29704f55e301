"""`pipeline explain`: one page, every signal and reason."""

from __future__ import annotations

import json
import re

from conftest import ROOT, SEED_PARAMS, article_html, cli, write_warc

SAMPLE = ROOT / "data" / "sample"


def sample_url(kind: str) -> str:
    entries = json.loads((SAMPLE.parent / "sample.manifest.json").read_text())
    return next(e["url"] for e in entries if e["kind"] == kind)


def test_explains_a_rejected_page_from_a_warc(capsys):
    url = sample_url("login_page")
    assert cli("explain", SAMPLE / "sample.warc.gz", "--url", url, "--params", SEED_PARAMS) == 0
    out = capsys.readouterr().out
    assert "REJECTED" in out and "article.score" in out and "article_score < extract.gate.article_score_min" in out
    assert "url_excluded" in out  # the score component that sank it
    assert "extraction:" in out  # gated pages are still extracted for the explanation


def test_explains_an_html_file_as_json(tmp_path, capsys):
    page = tmp_path / "post.html"
    page.write_bytes(article_html("A walk along the river", paragraphs=14))
    assert cli("explain", page, "--json") == 0
    row = json.loads(capsys.readouterr().out)
    assert row["text"] and row["signals"]["cascade_reason"] and "reasons" in row
    # the MinHash signature as hex: 128 uint32 values, the signature of the extracted text
    from filters.corpus.minhash import signature

    assert row["signals"]["minhash"] == signature(row["text"]).hex() and len(row["signals"]["minhash"]) == 1024


def test_unknown_url_is_a_usage_error(capsys):
    assert cli("explain", SAMPLE / "sample.warc.gz", "--url", "https://nowhere.example/") == 2
    err = capsys.readouterr().err
    assert "no record with URL" in err and len(err.strip().splitlines()) == 1


def test_explain_shows_the_page_type_and_what_moved_it(tmp_path, capsys):
    page = tmp_path / "post.html"
    page.write_bytes(article_html("A walk along the river", paragraphs=14))
    (tmp_path / "p.yaml").write_text("select:\n  page:\n    min_kept_type_probability: 0.999999\n")
    assert cli("explain", page, "--params", tmp_path / "p.yaml") == 0
    out = capsys.readouterr().out
    assert "page type:" in out and "moved most (article log-odds):" in out
    # at a threshold no page reaches, page.not_article is among the reasons, with its meaning
    assert "page.not_article" in out
    assert cli("explain", page, "--json") == 0
    row = json.loads(capsys.readouterr().out)
    assert row["page_type"] in ("article", "collection", "documentation", "forum", "listing", "product", "service")
    assert len(row["page_type_features"]) == 5 and abs(sum(row["page_type_probabilities"]) - 1) < 1e-3


def test_explains_a_page_of_a_whole_file_gzipped_warc(tmp_path, capsys):
    """One gzip member for the whole file (as some tools write it): read as a stream, as extract does."""
    import gzip

    from conftest import write_warc

    plain = tmp_path / "plain.warc"
    write_warc(plain, [("http://a.example/one", article_html("One"), {}),
                       ("http://a.example/two", article_html("Two"), {})], gzip=False)
    whole = tmp_path / "whole.warc.gz"
    whole.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
    assert cli("explain", whole, "--url", "http://a.example/two", "--json") == 0
    assert json.loads(capsys.readouterr().out)["title"] == "Two"


def test_explain_shows_what_it_reads_of_the_language(tmp_path, capsys):
    from test_unspaced_scripts import JA_PARAGRAPHS, article_page

    page = tmp_path / "ja.html"
    page.write_bytes(article_page("ja", "北日本で暴風雪のおそれ", JA_PARAGRAPHS, "例えばニュース"))
    assert cli("explain", page, "--json") == 0
    view = json.loads(capsys.readouterr().out)["language_features"]
    assert view["text_language"] == "ja" and view["declared_language"] == "ja"
    assert view["written_without_spaces"] is True and view["unspaced_word_fraction"] > 0.8
    assert view["words"] > 300 and view["model_features"]["title_words"] == 11  # one word a character
    # the shipped text model learned no Japanese: its feature is missing, and explain says so
    assert "ja" not in view["text_model_languages"] and view["text_model_article_probability"] is None
    german = tmp_path / "de.html"
    german.write_bytes(article_html("Warum der Hafen im Winter offen bleibt", paragraphs=10))
    assert cli("explain", german) == 0
    out = capsys.readouterr().out
    assert "written without spaces" not in out.split("language:", 1)[1].split("\n", 1)[0]
    assert "title_words_article" in out  # "warum": a German word of the article group
    assert re.search(r"text model \(reads [a-z, ]*\bde\b[a-z, ]*\): article 0\.\d{3}", out)


def test_several_records_without_url_are_refused_naming_urls_to_choose(capsys):
    from conftest import ROOT, cli

    capsys.readouterr()
    assert cli("explain", ROOT / "data" / "sample" / "sample.warc.gz") == 2
    error = capsys.readouterr().err
    assert "holds several records: name one with --url" in error and "https://" in error


def test_a_reason_shows_the_value_and_the_threshold_it_was_judged_by(capsys):
    from conftest import ROOT, cli

    url = "https://notes.example-makers.org/blog/2024/06/08/a-cheap-fume-extractor"
    capsys.readouterr()
    assert cli("explain", ROOT / "data" / "sample" / "sample.warc.gz", "--url", url) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  - length.tokens"))
    assert "token_count < select.length.min_tokens:" in line and "against 200]" in line


def test_explain_agrees_with_the_run_on_every_page_and_segment_of_the_sample(tmp_path):
    """Every page's type, probabilities, reasons (de-duplication and the dataset's included), split and
    era, and every segment's verdict, as explain gives them, are the run's
    (`benchmarks/explain_agreement.py`)."""
    import importlib.util

    from pipeline.params import Params

    spec = importlib.util.spec_from_file_location("explain_agreement", ROOT / "benchmarks" / "explain_agreement.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert cli("run", SAMPLE / "sample.warc.gz", "--out", tmp_path / "out") == 0
    compared, agreed, segments_compared, segments_agreed, differing = module.agreement(
        str(SAMPLE / "sample.warc.gz"), tmp_path / "out", Params())
    assert compared >= 40 and agreed == compared, differing
    assert segments_compared >= 1 and segments_agreed == segments_compared, differing
    import polars as pl

    reasons = pl.read_parquet(tmp_path / "out" / "rejected")["reasons"].to_list()
    assert sum(any(code.startswith("dup.") for code in row) for row in reasons) >= 3  # duplicates were compared


def test_explain_names_the_record_a_duplicate_collides_with(capsys):
    url = "https://www.heritage-digest.example/features/2023/12/04/the-lamplighters-of-old-harbour-town"
    capsys.readouterr()
    assert cli("explain", SAMPLE / "sample.warc.gz", "--url", url) == 0
    out = capsys.readouterr().out
    assert "verdict:      REJECTED" in out and "  - dup.exact:" in out
    kept = "with https://history.lanternpress.example/articles/2019/11/30/the-lamplighters-of-old-harbour-town"
    assert kept in out.split("  - dup.exact:", 1)[1].split("  - ", 1)[0]
    assert cli("explain", SAMPLE / "sample.warc.gz", "--url", url, "--workers", "2") == 0  # the run over 2 workers
    assert capsys.readouterr().out.split("\nmetadata:")[0] == out.split("\nmetadata:")[0]


def test_the_record_is_chosen_by_its_exact_url_and_by_offset_where_the_url_repeats(tmp_path, capsys):
    page = article_html("A story told twice")
    write_warc(tmp_path / "in.warc.gz", [("https://a.example/story", page, {}),
                                         ("https://a.example/story/", article_html("Another story"), {}),
                                         ("https://a.example/story", page, {})])
    capsys.readouterr()
    assert cli("explain", tmp_path / "in.warc.gz", "--url", "https://a.example/story") == 2
    error = capsys.readouterr().err
    assert "2 records have the URL https://a.example/story" in error and "--offset" in error
    offsets = [int(found) for found in re.findall(r"offset (\d+)", error)]
    assert len(offsets) == 2
    assert cli("explain", tmp_path / "in.warc.gz", "--url", "https://a.example/story", "--offset", offsets[1]) == 0
    out = capsys.readouterr().out
    assert f"in.warc.gz:{offsets[1]}" in out and "dup.exact" in out  # the second copy, a duplicate of the first
    assert cli("explain", tmp_path / "in.warc.gz", "--url", "https://a.example/story/") == 0
    assert "Another story" in capsys.readouterr().out  # the slash is part of the URL asked for
