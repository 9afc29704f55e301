"""filters.dates' dateparser path: one reused parser, the same answers as `dateparser.parse`."""

from __future__ import annotations

import dateparser

from filters import dates

STRINGS = ["March 5, 2024", "5. März 2024", "12 de mayo de 2021", "2021年5月12日", "Tuesday 14 February 2023 10:00",
           "Publié le 3 janvier 2023 à 10h", "posted by admin 2019", "31 février 2020", "вторник, 7 марта 2023"]


def test_the_reused_parser_answers_as_dateparser_parse_does():
    for text in STRINGS:
        expected = dateparser.parse(text, settings=dict(dates._DATEPARSER_SETTINGS))
        assert dates._parse_with_dateparser(text) == expected, text
    assert dates._parse_with_dateparser("March 5, 2024").day == 5


def test_answers_do_not_depend_on_what_was_parsed_before():
    forward = [dates._parse_with_dateparser(text) for text in STRINGS]
    backward = [dates._parse_with_dateparser(text) for text in reversed(STRINGS)]
    assert forward == backward[::-1]
    assert sum(value is not None for value in forward) >= 5
