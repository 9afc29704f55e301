"""Dates as a page gives them, read as the page's own wall-clock time (docs/filters.md, "Metadata").

A date is kept as the page writes it, its UTC offset dropped and the value labelled UTC
(`wall_clock`): "2022-11-30T21:00-05:00" is 30 November, the day the page shows and the day a
reader, an annotator or htmldate gives it, not 1 December in UTC.

ISO 8601, RFC 2822 and plain numeric dates go through the standard library; dateparser, which is slow (a string
it cannot read costs about 20 ms, a dozen lxml parses), only sees what they cannot read and what has the numbers
of a full date (`may_be_full_date`), at most `SLOW_DATE_PARSES_PER_PAGE` times a page. Its relative parser and
dates missing a day, month or year are refused, since their value would depend on the clock. `infer_date` is
the fallback where the page declares no date: htmldate's fast search (its URL, header, markup and text
rules) on the tree already parsed; why after our tiers and not instead: docs/decisions.md.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any

from lxml import etree
from lxml.html import HtmlElement

from filters.core.loads import one_time_load
from filters.parse.parsed import clean_text

# No web page was published before the web; an earlier year is a parse of something else.
EARLIEST_YEAR = 1990
LATEST_YEAR = 2100
# A date after the capture is a template's placeholder or a typo; the server's clock may run a
# little ahead of the crawler's.
CLOCK_SKEW = timedelta(days=1)
# A failed dateparser call costs ~20 ms; past this many, a page gets no more of them.
SLOW_DATE_PARSES_PER_PAGE = 2
# Longer strings are sentences, not dates, and would only make dateparser slow.
MAX_DATE_CHARS = 80


def parse_date(value: str, capture_time: datetime | None = None) -> datetime | None:
    """A date string as a UTC-aware datetime; None if unreadable, implausible or after the capture.

    ISO 8601 (`fromisoformat`), RFC 2822 (`email.utils`) and numeric dates (`2024-3-1`,
    `01.03.2024`: dotted dates are day-first wherever they are written) are read directly;
    dateparser only gets the rest, and only strings with a four-digit year. Naive values are UTC.
    """
    return parse_date_budgeted(value, as_utc(capture_time) if capture_time is not None else None, [1])


def parse_date_budgeted(value: Any, capture: datetime | None, budget: list[int],
                        language: str | None = None) -> datetime | None:
    """`parse_date`, sharing a budget of dateparser calls (`budget[0]`, decremented per call).

    `language`: the page's declared language (ISO 639-1), which dateparser then reads the date in
    (with English, the language of most templates) instead of trying every language it knows."""
    text = clean_text(value)
    if text is None or len(text) > MAX_DATE_CHARS:
        return None
    parsed = _parse_standard(text)
    if parsed is None and budget[0] > 0 and may_be_full_date(text):
        budget[0] -= 1
        parsed = _parse_with_dateparser(text, language)
    if parsed is None:
        return None
    parsed = wall_clock(parsed)
    if not EARLIEST_YEAR <= parsed.year <= LATEST_YEAR:
        return None
    if capture is not None and parsed > capture + CLOCK_SKEW:
        return None
    return parsed


def date_phrases(text: str) -> list[str]:
    """The parts of a date line that dateparser may read, without the words around the date that it
    cannot: from its first digit on ("vom 12. Juni 2019" is "12. Juni 2019"), then from the word
    before that digit on ("Reviewed in the United States on May 25, 2018" is "May 25, 2018")."""
    digit = _DIGIT_RUN.search(text)
    if digit is None:
        return []
    phrases = [text[digit.start():].strip()]
    before = text[:digit.start()].split()
    if before and before[-1].isalpha():
        phrases.append(text[text.rfind(before[-1], 0, digit.start()):].strip())
    return phrases


def parse_date_line(text: str, capture: datetime | None, budget: list[int], language: str | None = None) \
        -> datetime | None:
    """A date shown in a line of words (`date_phrases`), read as `parse_date_budgeted` reads one."""
    parsed = parse_date_budgeted(text, capture, [0])
    for phrase in date_phrases(text) if parsed is None else ():
        parsed = parse_date_budgeted(phrase, capture, budget, language)
        if parsed is not None:
            break
    return parsed


def may_be_full_date(text: str) -> bool:
    """Whether dateparser, as configured here, could read a date from `text`: a four-digit year
    and another number (the day: dateparser reads no day written in words, "first of May 2020",
    nor a year glued to its day, "20200501"), or a Unix timestamp (10 to 16 digits). "Spring 2020",
    "Copyright 2023 Example Media" and "May 2020" never reach it (each failed call costs ~20 ms).
    `tests/filters/test_dates.py` checks this on dates in many languages that dateparser reads."""
    if not _FOUR_DIGITS.search(text):
        return False
    return len(_DIGIT_RUN.findall(text)) >= 2 or _TIMESTAMP_DIGITS.search(text) is not None


def _parse_standard(text: str) -> datetime | None:
    if text[0].isdigit():
        try:
            return datetime.fromisoformat(_UTC_SUFFIX.sub("+00:00", text))
        except ValueError:
            pass
    numeric = _parse_numeric(text)
    if numeric is not None:
        return numeric
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _parse_numeric(text: str) -> datetime | None:
    """`2024-3-1 9:05`, `2024/03/01`, `Di., 01.03.2024 - 10:00`, and Unix timestamps (s or ms)."""
    if _TIMESTAMP.fullmatch(text):
        seconds = int(text) / (1000 if len(text) == 13 else 1)
        return datetime.fromtimestamp(seconds, UTC)
    match = _NUMERIC_DATE.fullmatch(text)
    if match is None:
        return None
    year = match["year"] or match["dotted_year"]
    month = match["month"] or match["dotted_month"]
    day = match["day"] or match["dotted_day"]
    try:
        parsed = datetime(int(year), int(month), int(day), int(match["hour"] or 0), int(match["minute"] or 0),
                          int(match["second"] or 0))
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC)  # the offset (`zone`) is dropped: the wall-clock time is kept


# The sets of languages dateparser has read a date in, in this process (None: all of its own).
_DATEPARSER_LOADED: set[tuple[str, ...] | None] = set()


def _parse_with_dateparser(text: str, language: str | None = None) -> datetime | None:
    """dateparser's reading of `text`, in `language` and English when the page declares a language
    dateparser knows. Without a language dateparser tries each of its ~200 locales in turn, and
    builds each one's word tables the first time it tries it: about 7 s per process over the first
    few hundred pages of a mixed crawl (profiled on wcxb-dev), for dates that are nearly always
    written in the page's own language. Its loads are one-time loads (`dateparser_reading`)."""
    languages = None if language is None else list(dict.fromkeys([language, "en"]))
    try:
        return dateparser_reading(text, languages, _DATEPARSER_SETTINGS)
    except ValueError as exc:
        if languages is not None and "Unknown language" in str(exc):
            return _parse_with_dateparser(text)  # a language dateparser does not know: let it detect
        return None
    except Exception:  # dateparser raises assorted errors on odd input; a bad date is just no date
        return None


def dateparser_reading(text: str, languages: list[str] | None, settings: Mapping[str, Any]) -> datetime | None:
    """`dateparser.parse(text, languages, settings)`, raising what it raises. Its import and the first
    reading in each set of languages (which loads their tables) are one-time loads (`one_time_load`):
    not the page's cost. Every dateparser reading of the pipeline goes through here (dates, and ages:
    `filters.metadata.ages`), so a set of languages is loaded, and paused for, once per process."""
    key = None if languages is None else tuple(languages)
    with one_time_load() if key not in _DATEPARSER_LOADED else contextlib.nullcontext():
        import dateparser  # slow to import and to run: only for what the standard library cannot read

        _DATEPARSER_LOADED.add(key)
        return dateparser.parse(text, languages=languages, settings=dict(settings))


def wall_clock(value: datetime) -> datetime:
    """The date and time as written, its UTC offset dropped, labelled UTC (the page's own day)."""
    return value.replace(tzinfo=UTC)


def infer_date(tree: HtmlElement, url: str | None, capture: datetime | None) -> datetime | None:
    """htmldate's date of the page (fast mode, `original_date`: the oldest plausible date it finds
    in the URL, the header, the markup and the text), bounded by the capture day; midnight, or None.

    htmldate copies a tree it is given before pruning it, so `tree` is left as it was. Without a
    capture time the upper bound is `LATEST_YEAR`, never the clock, so the result stays the same
    on every run."""
    latest = as_utc(capture) + CLOCK_SKEW if capture is not None else datetime(LATEST_YEAR, 12, 31, tzinfo=UTC)
    with one_time_load() if not _HTMLDATE_LOADED else contextlib.nullcontext():
        import htmldate  # trafilatura's own date library; imported once, where it is first needed

        _HTMLDATE_LOADED.append(True)
    try:
        found = htmldate.find_date(tree, extensive_search=False, original_date=True, url=url,
                                   min_date=datetime(EARLIEST_YEAR, 1, 1), max_date=latest.replace(tzinfo=None))
    except (ValueError, TypeError, etree.LxmlError):  # an odd tree or URL is just no date
        return None
    if not found:
        return None
    try:
        return datetime.strptime(found, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        return None


_HTMLDATE_LOADED: list[bool] = []


def as_utc(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


# The relative parser ("2 hours ago") and missing parts would be filled in from the clock.
_DATEPARSER_SETTINGS: dict[str, Any] = {
    "TIMEZONE": "UTC",  # naive values stay as written; an explicit offset is dropped by `wall_clock`
    "RETURN_AS_TIMEZONE_AWARE": True,
    "PREFER_DAY_OF_MONTH": "first",
    "REQUIRE_PARTS": ["day", "month", "year"],
    "PARSERS": ["timestamp", "custom-formats", "absolute-time"],
}
# `(?<!\s)`: see filters.metadata.bylines._BYLINE_END
_UTC_SUFFIX = re.compile(r"(?:(?<!\s)\s+)?(?:z|utc|gmt)$", re.IGNORECASE)
_FOUR_DIGITS = re.compile(r"\d{4}")
_DIGIT_RUN = re.compile(r"\d+")
_TIMESTAMP_DIGITS = re.compile(r"\d{10}")
_TIMESTAMP = re.compile(r"\d{10}|\d{13}")
_NUMERIC_DATE = re.compile(
    r"(?:[^\W\d_]{1,12}\.?,?\s+)?"  # a weekday: "Di., 25.01.2022 - 14:45"
    r"(?:(?P<year>\d{4})[-/.](?P<month>\d{1,2})[-/.](?P<day>\d{1,2})"
    r"|(?P<dotted_day>\d{1,2})\.\s?(?P<dotted_month>\d{1,2})\.\s?(?P<dotted_year>\d{4}))"
    r"(?:(?:[T\s]|,\s*|\s+-\s+)(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,]\d+)?)?)?"
    r"\s*(?P<zone>Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?",
    re.IGNORECASE,
)
