"""filters/metadata/ages.py: ages as software shows them, read against the capture as intervals, in the
languages the word lists cover; and the full date a date element's tooltip gives (filters/segment)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import lxml.html
import pytest

from filters.metadata.ages import AGO_WORDS, age_days, age_phrases, read_age, shown_age
from filters.segment.segments import date_title, page_segments

CAPTURE = datetime(2025, 10, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(("shown", "language"), [
    ("3 years ago", None), ("vor 3 Jahren", "de"), ("il y a 3 ans", "fr"), ("hace 3 años", "es"),
    ("3 anni fa", "it"), ("há 3 anos", "pt"), ("3 jaar geleden", "nl"), ("för 3 år sedan", "sv"),
    ("3 lata temu", "pl"), ("3 года назад", "ru"), ("3 yıl önce", "tr"), ("3年前", "ja"), ("3년 전", "ko"),
    ("posted 3 years ago", "en"), ("Rated 5.0 out of 5 stars 3 years ago", "en"), ("3y", None)])
def test_an_age_in_years_is_the_interval_both_roundings_allow(shown, language):
    age, years = read_age(shown, CAPTURE, language), 3
    assert age is not None, shown
    # floor (3 to 4 years) and rounding (2.5 to 3.5 years): from 4 years to 2.5 years before the capture
    before = (CAPTURE - age.earliest).days, (CAPTURE - age.latest).days
    assert 365 * (years + 1) - 2 <= before[0] <= 366 * (years + 1) + 1
    assert 365 * years - 183 - 2 <= before[1] <= 366 * years - 183 + 1


def test_the_issue_example_lies_inside_the_interval():
    age = read_age("3 years ago", CAPTURE)
    assert age is not None
    assert age.earliest <= datetime(2021, 10, 1, tzinfo=UTC) and datetime(2022, 10, 1, tzinfo=UTC) <= age.latest


@pytest.mark.parametrize(("shown", "least", "most"), [
    ("yesterday", 0, 2), ("8 hours ago", 0, 1), ("16d", 15, 17), ("2 weeks ago", 10, 21), ("just now", 0, 1),
    ("vor 2 Tagen", 1, 4), ("1 year, 2 months ago", 182, 792),
])
def test_short_ages_in_days(shown, least, most):
    low, high = age_days(read_age(shown, CAPTURE, "de" if "vor" in shown else "en"), CAPTURE)
    assert low is not None and high is not None
    assert least <= low <= high <= most, (shown, low, high)


@pytest.mark.parametrize("shown", ["15 min", "5m", "May 2020", "at", "Molly Taft", "2015", "Reply", "years", "",
                                   "3 apples ago and more words than any date line holds " * 3])
def test_what_is_not_an_age_is_refused(shown):
    assert read_age(shown, CAPTURE, "en") is None


def test_no_capture_no_age():
    assert read_age("3 years ago", None) is None
    assert age_days(None, CAPTURE) == (None, None)


def test_a_phrase_is_tried_longest_first_so_a_compound_age_is_read_whole():
    phrases = age_phrases("1 year, 2 months ago")
    assert phrases[0] == "1 year 2 months ago"
    assert all(word in AGO_WORDS for word in ("ago", "geleden", "назад"))


def page(body: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(f"<html><body>{body}</body></html>")


def test_a_page_age_is_read_only_from_a_publication_line():
    tree = page("<aside><span class='date'>5 hours ago</span></aside><article><h1>T</h1><div class='byline'>"
                "By Ann Lee <span>Published</span> <time>3 years ago</time></div><p>Text</p></article>")
    age = shown_age(tree, CAPTURE, "en")
    assert age is not None and age.latest < CAPTURE - timedelta(days=900)
    assert shown_age(page("<aside><span class='date'>5 hours ago</span></aside><p>Text</p>"), CAPTURE) is None
    assert shown_age(page("<p>Updated 2 days ago</p>"), CAPTURE) is None


def test_a_date_elements_tooltip_gives_the_full_date():
    element = lxml.html.fragment_fromstring("<span class='postdate'><span title='Sep 16, 2019 16:10:39'>posted 6 years"
                                            " ago</span></span>")
    assert date_title(element) == "Sep 16, 2019 16:10:39"
    assert date_title(lxml.html.fragment_fromstring("<span title='Share this'>6 years ago</span>")) is None
    assert date_title(None) is None


def test_segments_carry_the_tooltip_beside_the_shown_age():
    posts = "".join(f"<div class='comment' id='comment-{n}'><span class='author'>user{n}</span>"
                    f"<span class='comment-date' title='November {n}, 2019 5:04 am'>6 years ago</span>"
                    f"<p>This is comment number {n} with enough words to be a post of its own here.</p></div>"
                    for n in range(1, 4))
    segments = page_segments(page(f"<div class='comments'>{posts}</div>").find("body"))
    assert [segment.date_title for segment in segments] == [f"November {n}, 2019 5:04 am" for n in range(1, 4)]
    assert all(segment.published == "6 years ago" for segment in segments)
