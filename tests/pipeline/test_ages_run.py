"""Ages read as dates through a run (docs/dataset.md, "Era labels"): a post that shows "4 years ago" is
`pre_cutoff` and one that shows "8 months ago" `post_cutoff`, by `era_date_source: relative`; a
tooltip's full date is read before the age; a page's publication line ("Published 3 years ago") dates a
page that declares no date; `extract.metadata.read_ages: false` reads none."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from conftest import article_html, cli, prose, write_warc

CAPTURE = "2025-10-01T12:00:00Z"  # the cut-off is 2022-11-30
AGES = ("4 years ago", "8 months ago", "3 years ago")  # before the cut-off, after it, across it
TOOLTIP = " title='March 3, 2019 10:15'"


def thread() -> bytes:
    comments = "".join(
        f"<div class='comment' id='comment-{n}'><span class='comment-author'><a href='/users/u{n}'>user{n}</a></span>"
        f"<span class='comment-date'{title}>{age}</span><p>{' '.join(prose(f'comment {n}', 1))}</p></div>"
        for n, (age, title) in enumerate([*((age, "") for age in AGES), ("6 years ago", TOOLTIP)]))
    body = " ".join(prose("The thread", 3))
    return (f"<html lang='en'><head><title>A question about gardens</title></head><body><article><h1>A question"
            f"</h1><p>{body}</p></article><section class='comments'>{comments}</section></body></html>").encode()


def dated_by_age(phrase: str, title: str) -> bytes:
    return article_html(title, 10).replace(
        b"<h1>", f"<div class='byline'>By Ann Lee <span>Published</span> <span>{phrase}</span></div><h1>".encode(), 1)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("ages")
    captured = {"warc_date": CAPTURE}
    write_warc(base / "in.warc.gz", [
        ("https://forum.example.org/t/1", thread(), captured),
        ("https://news.example.net/bridge", dated_by_age("3 years ago", "The bridge over the river"), captured),
        ("https://blog.example.com/harbour", dated_by_age("2 weeks ago", "A morning at the harbour market"), captured)])
    rules = "select:\n  page:\n    use_page_model: false\n"
    (base / "rules.yaml").write_text("extract:\n  gate:\n    use_page_model: false\n" + rules)
    (base / "off.yaml").write_text("extract:\n  gate:\n    use_page_model: false\n  metadata:\n    read_ages: false\n"
                                   + rules)
    outs = {}
    for name in ("rules", "off"):
        assert cli("run", base / "in.warc.gz", "--out", base / name, "--params", base / f"{name}.yaml") == 0
        outs[name] = base / name
    return outs


def segments(out) -> pl.DataFrame:
    return pl.read_parquet(out / "segments" / "**" / "*.parquet").sort("segment_index")


def pages(out) -> pl.DataFrame:
    return pl.read_parquet(out / "*ed" / "*.parquet").sort("url")


def test_posts_shown_with_an_age_get_the_era_their_whole_interval_allows(runs):
    rows = segments(runs["rules"])
    assert rows["era"].to_list() == ["pre_cutoff", "post_cutoff", "unknown", "pre_cutoff"]
    assert rows["era_date_source"].to_list() == ["relative", "relative", None, "inferred"]
    ages = rows["signals"].struct.field("age_min_days")
    assert ages.is_not_null().to_list() == [True, True, True, False]  # the last one's tooltip is its date


def test_a_tooltips_full_date_is_read_before_the_age_it_stands_for(runs):
    assert segments(runs["rules"])["published"].to_list()[-1] == datetime(2019, 3, 3, 10, 15, tzinfo=UTC)


def test_a_publication_line_dates_a_page_that_declares_no_date(runs):
    rows = pages(runs["rules"]).filter(pl.col("url").str.contains("news|blog"))
    assert rows["era"].to_list() == ["post_cutoff", "unknown"]  # "2 weeks ago" / "3 years ago" straddles the cut-off
    assert rows["era_date_source"].to_list() == ["relative", None]
    assert rows["published"].is_null().all()  # an age is not a day: `published` stays empty
    low, high = rows["signals"].struct.field("age_min_days"), rows["signals"].struct.field("age_max_days")
    assert low.to_list()[1] >= 900 and high.to_list()[1] <= 1500


def test_read_ages_false_reads_no_age_and_keeps_the_tooltips_date(runs):
    rows = segments(runs["off"])
    assert rows["era"].to_list() == ["unknown", "unknown", "unknown", "pre_cutoff"]
    assert rows["signals"].struct.field("age_min_days").is_null().all()
    assert pages(runs["off"])["signals"].struct.field("age_min_days").is_null().all()


def test_the_card_says_what_relative_means_and_whether_ages_were_read(runs):
    card = (runs["rules"] / "README.md").read_text()
    assert "- `relative`: an age the page or post shows" in card
    assert "before it, or an age shown whose whole interval lies before it" in card  # pre_cutoff's meaning
    assert "| post_cutoff | relative |" in card  # the accepted page dated by its publication line, counted
    assert "none was read: `extract.metadata.read_ages: false`" in (runs["off"] / "README.md").read_text()
