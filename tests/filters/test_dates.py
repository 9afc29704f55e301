"""filters/metadata/dates.py's gate before dateparser: it never hides a date dateparser reads, on dates written as
pages write them in many languages, and it keeps away strings that only carry a year."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from filters.metadata.dates import _parse_with_dateparser, date_phrases, may_be_full_date, parse_date_line

# (month name, weekday) per language, as pages print them
MONTHS = {
    "en": ("March", "Friday"), "de": ("März", "Freitag"), "fr": ("mars", "vendredi"), "es": ("marzo", "viernes"),
    "it": ("marzo", "venerdì"), "pt": ("março", "sexta-feira"), "nl": ("maart", "vrijdag"), "pl": ("marca", "piątek"),
    "ru": ("марта", "пятница"), "tr": ("Mart", "Cuma"), "sv": ("mars", "fredag"), "cs": ("března", "pátek"),
    "el": ("Μαρτίου", "Παρασκευή"), "uk": ("березня", "пʼятниця"), "hu": ("március", "péntek"),
}
SHAPES = (
    "{day} {month} {year}", "{day}. {month} {year}", "{month} {day}, {year}", "{weekday}, {day} {month} {year}",
    "{weekday} {day} {month} {year} {hour}:{minute}", "{day} de {month} de {year}",
    "{month} {day} {year} {hour}:{minute}",
    "{year} {month} {day}", "Updated {month} {day}, {year}", "{day} {month} {year}, {hour}h{minute}",
)
NUMERIC = (
    "{day}/{monthnum}/{year}", "{monthnum}/{day}/{year} {hour}:{minute} pm", "{day}-{monthnum}-{year} {hour}:{minute}",
    "{year}/{monthnum}/{day} {hour}:{minute}:00", "{year}年{monthnum}月{day}日", "{year}년 {monthnum}월 {day}일",
    "{day} {monthnum} {year}", "{year}-{monthnum}-{day}CET{hour}:{minute}:00+0100", "{year}-W{monthnum}-{day}",
    "١٤/٠٣/٢٠٢٤", "۱۴/۰۳/۲۰۲۴", "１４日 ３月 ２０２４", "1709287200123456",
)


def real_looking_dates() -> list[str]:
    found = []
    for (month, weekday), shape in itertools.product(MONTHS.values(), SHAPES):
        found.append(shape.format(day="14", month=month, weekday=weekday, year="2024", hour="10", minute="05"))
    for shape in NUMERIC:
        found.append(shape.format(day="14", monthnum="03", year="2024", hour="10", minute="05"))
    return found


@pytest.fixture(scope="module")
def readable() -> list[str]:
    read = [text for text in real_looking_dates() if _parse_with_dateparser(text) is not None]
    assert len(read) >= 100  # the list is mostly dates dateparser reads, or it checks nothing
    return read


def test_gate_never_hides_a_date_dateparser_reads(readable):
    assert [text for text in readable if not may_be_full_date(text)] == []


@pytest.mark.parametrize("text", ["Spring 2020", "Copyright 2023 Example Media", "March 2024",
                                  "first of May 2020", "20200501", "Published in 2021 by the council", "2024"])
def test_gate_keeps_away_what_has_no_day(text):
    assert not may_be_full_date(text)
    assert _parse_with_dateparser(text) is None  # ... which dateparser could not read either


def test_dateparser_reads_a_date_in_the_page_language():
    assert _parse_with_dateparser("25 janvier 2024", "fr").date().isoformat() == "2024-01-25"
    assert _parse_with_dateparser("25 January 2024", "fr").date().isoformat() == "2024-01-25"  # English too
    assert _parse_with_dateparser("25 janvier 2024", "zh") is None  # not read in a language the page is not in


def test_a_language_dateparser_does_not_know_falls_back_to_detection():
    assert _parse_with_dateparser("25 janvier 2024", "xx").date().isoformat() == "2024-01-25"


def test_a_date_line_is_read_from_the_date_in_it():
    assert date_phrases("Reviewed in the United States on May 25, 2018") == ["25, 2018", "May 25, 2018"]
    assert date_phrases("no digits") == []
    assert parse_date_line("Reviewed in the United States on May 25, 2018", None, [5], "en") == \
        datetime(2018, 5, 25, tzinfo=UTC)
    assert parse_date_line("vom 12. Juni 2019 um 10:15", None, [5], "de") == datetime(2019, 6, 12, 10, 15, tzinfo=UTC)
    assert parse_date_line("Reviewed on May 25, 2018", None, [0], "en") is None  # no budget left: not read
    assert parse_date_line("2024-01-02", None, [0]) == datetime(2024, 1, 2, tzinfo=UTC)  # standard forms are free
