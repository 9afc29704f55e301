"""What the reasons say about a page: C4 line removal that empties a page, the headline repeat in
the block statistics of docs/filters.md, and slug URLs at the site root."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest
import yaml

from conftest import ARTICLE, SEED_PARAMS, cli, prose, write_warc
from filters.extract.cascade import run_cascade
from filters.parse.html import parse_html
from filters.parse.parsed import Page
from filters.rules import reasons
from filters.text import measure
from filters.text.blocks import block_signals
from pipeline.io.readers import RawRecord
from pipeline.params import Params
from pipeline.stages import extract as stage

SENTENCES = (
    "We left the harbour before dawn and followed the coast road north past the old salt pans",
    "By mid morning the wind had turned and the fishing boats were coming back early",
    "The village bakery still sells the rye loaves that my grandmother used to buy every Friday",
    "Along the cliff path the heather was in flower and the sea below was a deep green",
    "In the afternoon we sat outside the chapel and watched the ferry cross to the island",
    "The lighthouse keeper's cottage is now a small museum with photographs of every storm",
    "Nobody could tell us when the last train had stopped at the little station by the river",
)


def select_reasons(signals: dict) -> list[str]:
    return reasons.decide(reasons.rules_for("select"), signals, Params())


TAGS = ("#travel #coast #slowtravel #sea", "#photography #sea #light #uk", "#walking #uk #nature #coast",
        "#village #bread #food #travel")


def hashtag_article() -> str:
    """About 700 words in paragraphs of sentences that each end in hashtags instead of a full stop,
    as blog platforms that cross-post to social networks write them."""
    return "\n\n".join(f"{paragraph} {TAGS[i % len(TAGS)]}" for i, paragraph in enumerate(prose("hashtags", 20, 2)))


def hashtag_captions() -> str:
    """About 700 words in caption lines that end in hashtags and hold no sentence end at all."""
    return "\n\n".join(f"{paragraph.replace('.', '')} {TAGS[i % len(TAGS)]}"
                       for i, paragraph in enumerate(prose("hashtags", 20, 2)))


def forty_hashtags() -> str:
    """Seven paragraphs of prose, each ending in forty hashtags (280 in all)."""
    tags = [f"#{word}" for word in "travel coast sea light walking nature village bread food uk".split()] * 4
    return "\n\n".join(f"{paragraph} {' '.join(tags)}" for paragraph in prose("hashtags", 7, 4))


@pytest.mark.parametrize("run_together", [True, False])
def test_paragraphs_that_end_in_forty_hashtags_are_judged_with_them(run_together):
    """The rules judge the text that is written: the hashtags C4 would cut are in `text`, so
    Gopher counts them, under the defaults and under the seed's whole-line C4 alike."""
    text = forty_hashtags()
    assert text.count("#") == 280
    signals = measure.text_signals(text, c4_run_together=run_together)
    assert signals["gopher_word_count"] == len(text.split())
    assert signals["gopher_symbol_word_ratio"] == pytest.approx(280 / len(text.split()))
    assert "gopher.symbol_ratio" in select_reasons(signals)


@pytest.mark.parametrize("preset", [None, SEED_PARAMS])
def test_a_page_of_hashtag_tailed_paragraphs_is_not_kept_with_its_hashtags(tmp_path, preset):
    """The whole pipeline, defaults and the seed's preset: the page is rejected, and Gopher's
    symbol ratio is among the reasons (the `text` it would have written holds the hashtags)."""
    params = []
    if preset:  # the seed's rules, less its article-score gate (a hand-written page scores too low)
        seed = yaml.safe_load(preset.read_text())
        seed["extract"]["gate"]["article_score_min"] = None
        (tmp_path / "seed.yaml").write_text(yaml.safe_dump(seed))
        params = ["--params", tmp_path / "seed.yaml"]
    body = "".join(f"<p>{paragraph}</p>" for paragraph in forty_hashtags().split("\n\n"))
    write_warc(tmp_path / "tags.warc.gz", [("https://blog.example/coast-walk", ARTICLE.format(
        title="A coast walk", paragraphs=body).encode(), {})])
    args = ["run", tmp_path / "tags.warc.gz", "--out", tmp_path / "out", "--extract-all"]
    assert cli(*args, *params) == 0
    rows = pl.read_parquet(tmp_path / "out" / "rejected")
    assert rows.height == 1 and "gopher.symbol_ratio" in rows["reasons"][0]
    assert rows["text"][0].count("#") == 280


def test_c4_reads_a_paragraph_with_a_hashtag_tail_by_its_sentences_unless_told_not_to():
    text = hashtag_article()
    hashtags = sum(len(TAGS[i % len(TAGS)].split()) for i in range(20))
    sentences = measure.text_signals(text)
    assert sentences["c4_kept_word_count"] == len(text.split()) - hashtags
    assert sentences["c4_removed_line_fraction"] == 1.0  # C4's document rule still sees 20 unterminated lines
    whole = measure.text_signals(text, c4_run_together=False)  # the seed: every unterminated line goes whole
    assert whole["c4_kept_word_count"] == 0 and whole["c4_removed_word_fraction"] == 1.0
    assert "c4.removed_words" in select_reasons(whole) and "c4.removed_words" not in select_reasons(sentences)


def test_c4_emptied_page_is_blamed_on_the_removal_and_the_hashtags_not_on_its_length():
    text = hashtag_captions()
    assert 600 <= len(text.split()) <= 800
    signals = measure.text_signals(text)
    assert signals["c4_removed_word_fraction"] == 1.0 and signals["c4_kept_word_count"] == 0
    assert signals["gopher_word_count"] == len(text.split())
    found = select_reasons(signals)
    assert "c4.removed_words" in found and "gopher.symbol_ratio" in found
    assert "gopher.word_count" not in found and "gopher.median_word_length" not in found


def test_ordinary_article_is_measured_as_written():
    text = "Harbour mornings\n\n" + "\n\n".join(prose("harbour mornings", 8))
    signals = measure.text_signals(text)
    assert signals["gopher_word_count"] == len(text.split())  # the heading is in the text, and counted
    assert 0 < signals["c4_removed_word_fraction"] < 0.02
    assert not [code for code in select_reasons(signals) if code.startswith(("c4.", "gopher."))]


def test_short_page_keeps_its_length_reasons():
    signals = measure.text_signals("Opening hours\n\nThe library is open from nine until five on weekdays.")
    assert "gopher.word_count" in select_reasons(signals)


NUMBERED_STORY = """
<html><head><title>{title} | Valley Courier</title><meta property="og:title" content="{title}"></head><body>
<header><a href="/">Valley Courier</a></header>
<article><h1>{title}</h1>
<p>Three weeks of closures, a signed diversion and new bus stops: what residents need to know.</p>
<p>The county will close the old quarry road for three weeks from Monday while contractors rebuild the culvert
under the lane, the highways department said on Thursday, and a signed diversion will run through the village.</p>
<p>The closure starts at 7am on Monday.</p>
<h2>1. The diversion</h2>
<p>Drivers heading for the ring road will be sent along Mill Lane and Church Street, which adds about four minutes
to the journey at quiet times, and the bus operator will move two stops to the school gates for the duration.</p>
<h2>2. Deliveries</h2>
<p>Farms and businesses on the closed stretch keep access from the northern end, and the contractor has promised to
let delivery lorries through at set times each morning, after a meeting with residents in the parish hall.</p>
<h2>3. What happens next</h2>
<p>If the work runs to plan, the road reopens before the half-term holiday; if the culvert is in worse condition
than the survey suggested, the department says it will publish a revised date on its website within a week.</p>
<p>Residents can call the highways line on 01632 960 555 with questions.</p>
</article></body></html>
"""


def test_block_share_is_measured_without_the_repeated_headline():
    title = "Quarry road to close for three weeks while culvert is rebuilt"
    tree = parse_html(NUMBERED_STORY.format(title=title))
    result = run_cascade(Page(tree, "https://www.valley-courier.example/news/2025/03/06/quarry-road-closure"))
    assert result.text.startswith(title)  # `text` keeps what the extractor found, headline included
    assert result.trace["headline_block_count"] == 1
    with_headline = block_signals(result.blocks)["large_block_char_fraction"]
    body_only = block_signals(result.body_blocks)["large_block_char_fraction"]
    assert with_headline < 0.75 <= body_only


def record(url: str, html: str) -> RawRecord:
    body = html.encode()
    return RawRecord("in.warc.gz", 0, "response", record_id="<urn:uuid:1>", url=url,
                     warc_date=datetime(2025, 3, 7, tzinfo=UTC), http_status=200,
                     http_content_type="text/html; charset=utf-8", payload=body, payload_bytes=len(body),
                     warc_truncated=False)


def test_story_at_a_root_level_slug_passes_the_gate():
    title = "Quarry road to close for three weeks while culvert is rebuilt"
    html = NUMBERED_STORY.format(title=title).replace("<p>The county", "<p>" + " ".join(SENTENCES) + ". The county")
    slug = stage.record_to_row(record("https://www.valley-courier.example/quarry-road-to-close-for-three-weeks/",
                                      html), Params(), stage.Timings())
    assert slug["signals"]["article_score_url_shallow"] == 0
    assert "article.score" not in slug["reasons"]
    about = stage.record_to_row(record("https://www.valley-courier.example/about-us/", html), Params(),
                                stage.Timings())
    assert about["signals"]["article_score_url_shallow"] == -20
    assert slug["article_score"] - about["article_score"] == 20
