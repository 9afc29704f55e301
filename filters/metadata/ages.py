"""Ages read against the capture: "3 years ago", "vor 2 Jahren", "il y a 5 ans", "16d" (docs/dataset.md,
"Era labels").

Comment and review software often shows a post's age instead of its date. An age is not a day: read
against the capture it is an interval. `read_age` finds the age phrase in a date line with our word
lists (`AGO_WORDS`, `AGO_PREFIXES`, `DAY_WORDS`, `COMPACT_UNITS`), then dateparser (its relative parser,
`RELATIVE_BASE` the capture) reads it in the row's language and English, and the interval is the one
both ways software rounds an age allow: "3 years" shown for an age of 3 to 4 years (floor, timeago)
or of 2.5 to 3.5 years (rounding, moment.js), so from 4 years to 2.5 years before the capture.
`age_days` writes it as the least and greatest number of whole days before the capture (the
signals `age_min_days` and `age_max_days`); the era uses it only where the whole interval lies on
one side of the cut-off (`era_date_source: relative`).

The word lists cover English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Danish
and Norwegian, Polish, Russian, Czech, Turkish, Finnish, Japanese, Chinese and Korean (CLDR's
relative-time patterns); a line in another language is left undated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from lxml.html import HtmlElement

from filters.metadata.dates import MAX_DATE_CHARS, as_utc, dateparser_reading

# Words that follow an age ("3 years ago", "3 anni fa", "3 dni temu"), lower-case.
AGO_WORDS = frozenset({"ago", "fa", "atrás", "geleden", "sedan", "siden", "temu", "назад", "önce", "sitten",
                       "전", "前", "以前"})
# Words that come before an age ("vor 2 Jahren", "il y a 5 ans", "hace 3 días", "há 2 anos", "před 3 lety"),
# as token tuples.
AGO_PREFIXES: tuple[tuple[str, ...], ...] = (("vor",), ("il", "y", "a"), ("hace",), ("há",), ("před",), ("för",))
# Days named by a word: an age of less than two days.
DAY_WORDS = frozenset({"yesterday", "today", "gestern", "heute", "hier", "aujourd'hui", "ayer", "hoy", "ieri", "oggi",
                       "ontem", "hoje", "gisteren", "vandaag", "igår", "idag", "i går", "i dag", "wczoraj", "dzisiaj",
                       "вчера", "сегодня", "včera", "dnes", "dün", "bugün", "eilen", "tänään", "昨日", "今日", "昨天",
                       "今天", "어제", "오늘", "just now", "gerade eben", "à l'instant"})
# An age in the short form feeds and comment software print alone in a date element: "16d", "3y", "5h", "2mo".
# Not minutes ("5 min", "5m"): that is how pages show a reading time, and no era turns on minutes.
COMPACT_UNITS = frozenset({"h", "d", "w", "mo", "y", "yr", "yrs"})
# The most words an age phrase holds ("1 year, 2 months ago": five).
MAX_AGE_TOKENS = 5
# The settings dateparser reads an age with: its relative parser only, as wall-clock values.
_SETTINGS: dict[str, Any] = {"PARSERS": ["relative-time"], "RETURN_AS_TIMEZONE_AWARE": False}


@dataclass(frozen=True)
class Age:
    """When a row shown with an age was written: between `earliest` and `latest` (UTC)."""

    earliest: datetime
    latest: datetime


def read_age(text: str | None, capture: datetime | None, language: str | None = None) -> Age | None:
    """The interval an age shown in `text` allows, read against `capture`; None without a capture,
    without an age phrase in our word lists, or where dateparser cannot read the phrase."""
    if not text or capture is None or len(text) > MAX_DATE_CHARS:
        return None
    capture = as_utc(capture)
    for phrase in age_phrases(text):
        point = _read(phrase, capture.replace(tzinfo=None), language)
        if point is not None and point <= capture.replace(tzinfo=None):
            return interval(point.replace(tzinfo=capture.tzinfo), capture)
    return None


def age_days(age: Age | None, capture: datetime | None) -> tuple[int | None, int | None]:
    """`age` as the least and greatest number of whole days before `capture` (None, None without one)."""
    if age is None or capture is None:
        return None, None
    capture = as_utc(capture)
    day = timedelta(days=1)
    return math.floor((capture - age.latest) / day), math.ceil((capture - age.earliest) / day)


def age_phrases(text: str) -> list[str]:
    """The candidate age phrases in `text`, most likely first: the whole text where it is a day word or
    a compact age, else the words around each ago-word (`AGO_WORDS` after the number, `AGO_PREFIXES`
    before it), longest first: dateparser refuses a phrase with a word it does not know ("Rated 5 stars 1
    year ago"), and reads only the end of a phrase cut short ("year 2 months ago")."""
    lowered = " ".join(text.lower().split())
    if lowered in DAY_WORDS or _is_compact(lowered):
        return [lowered]
    tokens = [token.strip(",.;:()[]|·•-") for token in lowered.split()]
    phrases: list[str] = []
    for index, token in enumerate(tokens):
        if token in AGO_WORDS:
            phrases += [" ".join(tokens[start:index + 1]) for start in range(max(0, index + 1 - MAX_AGE_TOKENS), index)]
        elif token[-1:] in "前전" and any(character.isdigit() for character in token):
            phrases.append(token)  # "3年前", "3일전": no space between the age and its word
        for prefix in AGO_PREFIXES:
            if tuple(tokens[index:index + len(prefix)]) == prefix:
                start = index + len(prefix)
                phrases += [" ".join(tokens[index:start + count])
                            for count in range(MAX_AGE_TOKENS - len(prefix), 0, -1) if start + count <= len(tokens)]
    return list(dict.fromkeys(phrase for phrase in phrases if phrase))


def interval(point: datetime, capture: datetime) -> Age:
    """The interval an age read as `point` allows: its largest unit (years, months, weeks, days, hours,
    minutes, seconds between `point` and `capture`) once more before it, half of it after, never after
    the capture; an age of nothing ("just now", "today") is the day before the capture."""
    unit = _largest_unit(point, capture)
    if unit is None:
        return Age(capture - timedelta(days=1), capture)
    return Age(point - unit, min(capture, point + unit / 2))


def _largest_unit(point: datetime, capture: datetime) -> timedelta | None:
    from dateutil.relativedelta import relativedelta  # dateparser's own dependency

    delta = relativedelta(capture, point)
    if delta.years:
        return timedelta(days=366)
    if delta.months:
        return timedelta(days=31)
    if delta.days:
        return timedelta(days=7) if delta.days % 7 == 0 else timedelta(days=1)
    for value, unit in ((delta.hours, timedelta(hours=1)), (delta.minutes, timedelta(minutes=1)),
                        (delta.seconds, timedelta(seconds=1))):
        if value:
            return unit
    return None


def _is_compact(text: str) -> bool:
    """"16d", "3 y", "2mo": a number of at most three digits and a one- or two-letter unit."""
    digits = len(text) - len(text.lstrip("0123456789"))
    return 0 < digits <= 3 and text[digits:].strip() in COMPACT_UNITS


@lru_cache(maxsize=4096)
def _read(phrase: str, base: datetime, language: str | None) -> datetime | None:
    """dateparser's reading of an age `phrase` against `base` (naive UTC), in `language` and English
    (`dateparser_reading`, which counts loading a language's tables as a one-time load)."""
    languages = list(dict.fromkeys([language, "en"])) if language else ["en"]
    try:
        return dateparser_reading(phrase, languages, {**_SETTINGS, "RELATIVE_BASE": base})
    except ValueError as exc:
        if "Unknown language" in str(exc) and language is not None:
            return _read(phrase, base, None)
        return None
    except Exception:  # dateparser raises assorted errors on odd input; an odd age is just no age
        return None


# Words that say a line gives the page's publication ("Published 6 hours ago", "Posted: 2 days ago",
# "Veröffentlicht vor 3 Tagen"), lower-case. Not "updated": an update's age does not date the writing.
PUBLICATION_WORDS = frozenset({"published", "posted", "veröffentlicht", "gepostet", "publié", "publiée", "posté",
                               "publicado", "publicada", "pubblicato", "pubblicata", "postado", "gepubliceerd",
                               "geplaatst", "publicerad", "publiceret", "publisert", "opublikowano", "opublikowany",
                               "опубликовано", "publikováno", "yayınlandı", "julkaistu", "投稿", "公開", "发布", "發佈",
                               "게시"})


def shown_age(tree: HtmlElement, capture: datetime | None, language: str | None = None) -> Age | None:
    """The page's age as a publication line shows it: the first element of `<body>` whose own text
    holds a `PUBLICATION_WORDS` word, read with `read_age` (its whole text, else its parent's: the
    word and the age often stand in sibling elements). Only such a line: a bare age on a page is as
    often another story's in a sidebar ("5 hours ago") as the page's own."""
    body = tree.find("body")
    if body is None or capture is None:
        return None
    for element in body.iter():
        own = element.text if isinstance(element.tag, str) else None
        if not own or len(own) > MAX_DATE_CHARS or not _names_publication(own):
            continue
        for line in (element, element.getparent()):
            if line is None:
                continue
            age = read_age(" ".join(line.text_content().split()), capture, language)
            if age is not None:
                return age
    return None


def _names_publication(text: str) -> bool:
    return any(token.strip(":,.·|-") in PUBLICATION_WORDS for token in text.lower().split())
