"""`text_language` (docs/output.md): the language identified from the written text as a column of
pages and segments, beside the declared `language`; the dataset card's and Hugging Face's language
fields list it."""

from __future__ import annotations

import polars as pl
import pytest
import yaml

from conftest import article_html, cli, write_warc
from pipeline.store.schema import OUTPUT_SCHEMA, SEGMENT_SCHEMA

# English articles: one declares German, one declares nothing; neither is written in German
DECLARED_GERMAN = article_html("The bridge over the river", 10).replace(b"<html>", b"<html lang='de'>")
UNDECLARED = article_html("A morning at the harbour market", 10)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("text_language")
    write_warc(base / "in.warc.gz", [("https://news.example.org/bridge", DECLARED_GERMAN, {}),
                                     ("https://blog.example.net/harbour", UNDECLARED, {})])
    # the page-type model does not take these made-up pages for articles: the rules alone decide here
    (base / "rules.yaml").write_text("extract:\n  gate:\n    use_page_model: false\n"
                                     "select:\n  page:\n    use_page_model: false\n")
    assert cli("run", base / "in.warc.gz", "--out", base / "out", "--params", base / "rules.yaml") == 0
    return base / "out"


def test_the_column_follows_language_in_pages_and_segments():
    for schema in (OUTPUT_SCHEMA, SEGMENT_SCHEMA):
        assert schema.names[schema.names.index("language") + 1] == "text_language"


def test_every_page_has_the_texts_language_beside_the_declared_one(run):
    pages = pl.read_parquet(run / "*ed" / "*.parquet").sort("url")
    assert pages["text_language"].to_list() == ["en", "en"]
    assert pages["language"].to_list() == [None, "de"]  # the declared one keeps the seed's meaning
    assert (pages["text_language"] == pages["signals"].struct.field("text_language")).all()
    assert pages["signals"].struct.field("text_language_confidence").is_not_null().all()


def test_the_card_lists_the_texts_languages_not_the_declared_ones(run):
    header = yaml.safe_load((run / "README.md").read_text().split("---\n")[1])
    assert header["language"] == ["en"]
