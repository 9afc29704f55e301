"""Page metadata (title, author, dates, description, site, canonical URL, tags, language), read once
(docs/filters.md, "Metadata").

Every field is looked up in the metadata priority **JSON-LD > Open Graph > Twitter Card > HTML `<meta>`**:
structured data is kept up for machines, Open Graph for social previews, and loose `<meta>` tags are the
likeliest to be stale template leftovers. When none has a field, DOM selectors are the last resort
(`filters.metadata.bylines`: the article header for the headline, `time[datetime]` then
`[itemprop=datePublished]` for the date, author selectors and a "By Firstname Lastname" line for the author);
they cost about a quarter of a parse each, so they run only when the tiers found nothing, at most once a call.
The same look-ups answer the article score's "Author in metadata" and "Published date in metadata"
(`has_author`, `has_published_date`); `language_of` is the declared language and `reading_time_minutes` the
reading time (docs/output.md). JSON-LD is read by `filters.metadata.jsonld`, dates by `filters.metadata.dates`.

Pure and deterministic (no date that depends on the clock), and no odd page makes it raise.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

import langcodes
import pyarrow as pa
from lxml import etree

from filters.core.declarations import Signal
from filters.core.vocabulary import ARTICLE_TYPES, DECLARED_DATE_SOURCES, HTMLDATE_SOURCE, WEBPAGE_TYPES
from filters.metadata.bylines import (
    DOM_CANDIDATES,
    Dom,
    author_names,
    dom_authors,
    itemprop_dates,
    tokens,
)
from filters.metadata.dates import (
    SLOW_DATE_PARSES_PER_PAGE,
    as_utc,
    infer_date,
    parse_date,
    parse_date_budgeted,
)
from filters.metadata.jsonld import JsonLd, clean_ld, first_of, ld_string
from filters.parse.parsed import Page, clean_text

# Re-exported: callers read these through the metadata entry point.
__all__ = [
    "ARTICLE_TYPES", "WEBPAGE_TYPES", "SLOW_DATE_PARSES_PER_PAGE", "Metadata", "extract_metadata", "has_author",
    "has_published_date", "language_of", "normalise_language", "parse_date", "reading_time_minutes",
]

# Reading time.
WORDS_PER_MINUTE = 200

# <meta> keys per tier, as `Page.meta` lower-cases them (name/property/itemprop/http-equiv).
OG_TITLE = ("og:title",)
TWITTER_TITLE = ("twitter:title",)
META_TITLE = ("title", "dc.title", "dcterms.title", "headline")
OG_DESCRIPTION = ("og:description",)
TWITTER_DESCRIPTION = ("twitter:description",)
META_DESCRIPTION = ("description", "dc.description", "dcterms.description")
OG_AUTHOR = ("article:author", "og:article:author")
TWITTER_AUTHOR = ("twitter:creator",)
META_AUTHOR = ("author", "dc.creator", "dcterms.creator", "parsely-author", "sailthru.author", "byl")
OG_PUBLISHED = ("article:published_time", "og:published_time", "og:article:published_time")
META_PUBLISHED = (
    "date", "dc.date", "dc.date.issued", "dc.date.created", "dcterms.created", "dcterms.issued", "dcterms.date",
    "pubdate", "publishdate", "publish-date", "publish_date", "article.published", "sailthru.date",
    "parsely-pub-date", "datepublished", "citation_publication_date", "citation_date",
)
OG_MODIFIED = ("article:modified_time", "og:updated_time", "og:article:modified_time")
META_MODIFIED = ("last-modified", "dcterms.modified", "dc.date.modified", "article.updated", "datemodified")
OG_SITE_NAME = ("og:site_name",)
META_SITE_NAME = ("application-name",)
OG_URL = ("og:url",)
TWITTER_URL = ("twitter:url",)
OG_TAGS = ("article:tag", "og:article:tag")
META_KEYWORDS = ("keywords", "news_keywords")
OG_LOCALE = ("og:locale",)
META_LANGUAGE = ("content-language", "language")  # declared language, step 4: http-equiv first

# `<meta name="language" content="English">` is common; a declared name is not a guess. Ours, not
# langcodes.find (language_data: names in every CLDR language, +29 MB): it also takes any known
# name that starts a word (`englishish` -> en, `Person` -> fa, `index` -> kzf), a guess that would
# override the next source, where a name missing here only leaves the field to the next one.
LANGUAGE_NAMES = {
    "english": "en", "german": "de", "deutsch": "de", "french": "fr", "français": "fr", "francais": "fr",
    "spanish": "es", "español": "es", "espanol": "es", "italian": "it", "italiano": "it", "portuguese": "pt",
    "português": "pt", "portugues": "pt", "dutch": "nl", "nederlands": "nl", "russian": "ru", "polish": "pl",
    "polski": "pl", "swedish": "sv", "svenska": "sv", "danish": "da", "dansk": "da", "norwegian": "no",
    "norsk": "no", "finnish": "fi", "suomi": "fi", "czech": "cs", "turkish": "tr", "greek": "el",
    "japanese": "ja", "chinese": "zh", "korean": "ko", "arabic": "ar", "hebrew": "he", "hindi": "hi",
}
# BCP 47 codes that name no language.
NOT_LANGUAGES = frozenset({"und", "mul", "mis", "zxx"})


@dataclass(frozen=True)
class Metadata:
    """What a page says about itself; `sources` names where each field that was found came from."""

    title: str | None
    author: str | None  # several authors joined with ", "
    published: datetime | None  # UTC-aware
    updated: datetime | None  # UTC-aware
    description: str | None
    site_name: str | None
    canonical_url: str | None  # absolute
    tags: tuple[str, ...]
    language: str | None  # lower-case primary subtag, declared (never guessed)
    # "json-ld", "og", "twitter", "meta", "link", "time", "itemprop", "byline", "title-tag", "html-lang";
    # tags name every source they were merged from ("json-ld+meta").
    sources: dict[str, str]


def extract_metadata(page: Page, capture_time: datetime | None = None, infer_dates: bool = True) -> Metadata:
    """Every field in the metadata priority; dates later than `capture_time` + 1 day are dropped.

    `infer_dates`: where no tier gives a publication date, ask htmldate (`infer_date`; source
    `htmldate`). Off, the seed's metadata order alone decides (`presets/seed.yaml`)."""
    ld = JsonLd.of(page)
    dom = Dom(page.tree)
    capture = as_utc(capture_time) if capture_time is not None else None
    budget = [SLOW_DATE_PARSES_PER_PAGE]
    sources: dict[str, str] = {}
    title = _first("title", _title_candidates(page, ld, dom), sources)
    author = _author(page, ld, dom, sources)
    language = _language(page, ld)
    date_language = language[0] if language is not None else None  # dateparser reads dates in it
    published = _first_date("published", _published_candidates(page, ld, dom, True), capture, budget, sources,
                            date_language)
    if published is None and infer_dates:
        published = infer_date(page.tree, page.url, capture)
        if published is not None:
            sources["published"] = HTMLDATE_SOURCE
    updated = _first_date("updated", _updated_candidates(page, ld), capture, budget, sources, date_language)
    description = _first("description", _description_candidates(page, ld), sources)
    site_name = _first("site_name", _site_name_candidates(page, ld), sources)
    canonical_url = _canonical_url(page, ld, sources)
    tags, tag_sources = _tags(page, ld)
    if tags:
        sources["tags"] = "+".join(tag_sources)
    if language is not None:
        sources["language"] = language[1]
    return Metadata(
        title=title, author=author, published=published, updated=updated, description=description,
        site_name=site_name, canonical_url=canonical_url, tags=tags,
        language=language[0] if language is not None else None, sources=sources,
    )


def has_author(page: Page, metadata: Metadata | None = None) -> bool:
    """The article score's "Author in metadata": OG, JSON-LD, twitter:creator, `<meta name=author>`, byline.

    Any non-empty value counts, even one `extract_metadata` would not keep as a name (an
    `article:author` profile URL): the page still declares an author. JSON-LD counts when an
    author name can be read (a string, an object with a name, an `@id` pointing at one) in any
    object. The byline part is the DOM author selectors and the "By Firstname Lastname" line,
    only looked for when no metadata says anything.

    Pass the page's own `extract_metadata` result as `metadata` to skip the DOM scans it already
    did: an author it found settles it, and if it found none the DOM has none either.
    """
    ld = JsonLd.of(page)
    if metadata is not None:
        return metadata.author is not None or any(True for _ in _declared_authors(page, ld))
    return any(True for _ in _author_candidates(page, ld, Dom(page.tree)))


def has_published_date(page: Page, metadata: Metadata | None = None) -> bool:
    """The article score's "Published date in metadata": any date meta tag or JSON-LD `datePublished`.

    A non-empty value is enough (a score should not pay for date parsing). Counted: JSON-LD
    `datePublished` of any object, the OG and `<meta>` publication keys above, and microdata
    `itemprop=datePublished` (structured data). A bare `<time datetime>` is *not*
    metadata: listing pages carry one per teaser, and this signal exists to tell them from articles.

    `metadata` (this page's `extract_metadata` result) settles it without a scan when its
    published date came from one of those sources.
    """
    if metadata is not None and metadata.sources.get("published") in DECLARED_DATE_SOURCES:
        return True
    return any(True for _ in _published_candidates(page, JsonLd.of(page), Dom(page.tree), False))


def language_of(page: Page) -> str | None:
    """Declared language: `<html lang>`, og:locale, JSON-LD inLanguage, content-language; never a guess."""
    found = _language(page, JsonLd.of(page))
    return found[0] if found is not None else None


def reading_time_minutes(word_count: int) -> int:
    """Reading time: `max(1, ceil(word_count / 200))`; an empty text still takes a minute to open."""
    return max(1, math.ceil(word_count / WORDS_PER_MINUTE))


def normalise_language(value: Any) -> str | None:
    """`en-GB` -> `en`, `pt_BR` -> `pt`, `EN` -> `en`, `English` -> `en`; None for junk.

    Only a 2-3 letter primary subtag is a language (BCP 47; 4-8 letter ones are reserved or
    unused), so `x-default`, `*`, `i-klingon` and the codes that name no language (`und`, `mul`,
    `mis`, `zxx`) are refused and the language look-up falls through to its next source. langcodes (CLDR
    aliases) gives a code its current, shortest form, the one language ID uses: deprecated and
    three-letter codes become the two-letter one (`iw` -> `he`, `in` -> `id`, `eng`/`ger` -> `en`/
    `de`), a macrolanguage's members the macrolanguage (`cmn` -> `zh`); CLDR also has `tl` -> `fil`.
    """
    if not isinstance(value, str):
        return None
    primary = _LANGUAGE_SPLIT.split(value.strip(), 1)[0].lower()
    if primary in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[primary]
    if 2 <= len(primary) <= 3 and primary.isascii() and primary.isalpha() and primary not in NOT_LANGUAGES:
        return _standard_language(primary)
    return None


def _standard_language(code: str) -> str | None:
    try:
        standard = langcodes.Language.get(langcodes.standardize_tag(code, macro=True)).language
    except langcodes.LanguageTagError:
        return code
    return standard if standard and standard not in NOT_LANGUAGES else None


_LANGUAGE_SPLIT = re.compile(r"[-_\s,;]")


# --- candidates per field, best first --------------------------------------------------------------


def _meta(page: Page, keys: Iterable[str], source: str) -> Iterator[tuple[str, str]]:
    for key in keys:
        for value in page.meta.get(key, ()):
            if value:
                yield value, source


def _title_candidates(page: Page, ld: JsonLd, dom: Dom) -> Iterator[tuple[Any, str]]:
    for obj in ld.main:
        yield ld_string(obj.get("headline")), "json-ld"
        yield ld_string(obj.get("name")), "json-ld"
    yield from _meta(page, OG_TITLE, "og")
    yield from _meta(page, TWITTER_TITLE, "twitter")
    yield from _meta(page, META_TITLE, "meta")
    for headline in dom.headlines():  # the article header: h1[itemprop=headline]
        if "headline" in (headline.get("itemprop") or "").split():
            yield headline.text_content(), "itemprop"
    title = page.tree.find("head/title")
    if title is None:
        found = _TITLE(page.tree)
        title = found[0] if found else None
    if title is not None:
        yield title.text_content(), "title-tag"


_TITLE = etree.XPath("/descendant::title[not(ancestor::svg)]")


def _description_candidates(page: Page, ld: JsonLd) -> Iterator[tuple[Any, str]]:
    for obj in ld.main:
        yield ld_string(obj.get("description")), "json-ld"
    yield from _meta(page, OG_DESCRIPTION, "og")
    yield from _meta(page, TWITTER_DESCRIPTION, "twitter")
    yield from _meta(page, META_DESCRIPTION, "meta")


def _site_name_candidates(page: Page, ld: JsonLd) -> Iterator[tuple[Any, str]]:
    # A WebSite object names the site; the article's publisher is JSON-LD's fallback for it.
    yield ld.website_name, "json-ld"
    for obj in ld.main:
        for name in ld.names(obj.get("publisher")):
            yield name, "json-ld"
    yield from _meta(page, OG_SITE_NAME, "og")
    yield from _meta(page, META_SITE_NAME, "meta")


def _declared_dates(page: Page, ld: JsonLd, key: str, og: tuple[str, ...],
                    meta: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """A date as metadata declares it: JSON-LD `key`, then Open Graph, then `<meta>`."""
    for obj in ld.ordered:
        value = ld_string(obj.get(key))
        if value:
            yield value, "json-ld"
    yield from _meta(page, og, "og")
    yield from _meta(page, meta, "meta")


def _published_candidates(page: Page, ld: JsonLd, dom: Dom, with_time: bool) -> Iterator[tuple[str, str]]:
    yield from _declared_dates(page, ld, "datePublished", OG_PUBLISHED, META_PUBLISHED)
    if with_time:  # DOM selectors: time[datetime] first, then [itemprop=datePublished]
        tried = 0
        for element in page.tree.iter("time"):
            value = clean_text(element.get("datetime"))
            if value:
                yield value, "time"
                tried += 1
                if tried >= DOM_CANDIDATES:
                    break
    yield from itemprop_dates(dom, "datePublished")


def _updated_candidates(page: Page, ld: JsonLd) -> Iterator[tuple[str, str]]:
    # No DOM selector for modification dates: metadata only.
    yield from _declared_dates(page, ld, "dateModified", OG_MODIFIED, META_MODIFIED)


def _first(field: str, candidates: Iterable[tuple[Any, str]], sources: dict[str, str]) -> str | None:
    for value, source in candidates:
        text = clean_text(value)
        if text:
            sources[field] = source
            return text
    return None


def _first_date(field: str, candidates: Iterable[tuple[str, str]], capture: datetime | None,
                budget: list[int], sources: dict[str, str], language: str | None) -> datetime | None:
    for value, source in candidates:
        parsed = parse_date_budgeted(value, capture, budget, language)
        if parsed is not None:
            sources[field] = source
            return parsed
    return None


# --- author ----------------------------------------------------------------------------------------


def _declared_authors(page: Page, ld: JsonLd) -> Iterator[tuple[list[str], str]]:
    """Author values per metadata tier, best first (JSON-LD of any object, OG, Twitter, <meta>)."""
    organisations: list[list[str]] = []
    for obj in ld.ordered:
        names = ld.names(obj.get("author"))
        if names and ld.is_organisation(obj.get("author")):
            organisations.append(names)  # a byline names people: an organisation is the last resort
        elif names:
            yield names, "json-ld"
    for keys, source in ((OG_AUTHOR, "og"), (TWITTER_AUTHOR, "twitter"), (META_AUTHOR, "meta")):
        names = [value for value, _ in _meta(page, keys, source)]
        if names:
            yield names, source
    for names in organisations:
        yield names, "json-ld"


def is_twitter_username(value: str) -> bool:
    """Whether a `twitter:creator` value is a username, with or without its "@" ("MozDevNet",
    "@jane_doe"): 1 to 15 ASCII letters, digits or underscores, as X (Twitter) allows them. Its Cards
    markup defines the tag as the creator's @username, and sites fill it with their own account's;
    a handle is not a name (wcxb-dev: 0 of 19 such values were the page's author)."""
    name = value.strip().removeprefix("@")
    return 0 < len(name) <= 15 and all(character.isascii() and (character.isalnum() or character == "_")
                                       for character in name)


def _author_candidates(page: Page, ld: JsonLd, dom: Dom) -> Iterator[tuple[list[str], str]]:
    yield from _declared_authors(page, ld)
    yield from dom_authors(dom)


def _author(page: Page, ld: JsonLd, dom: Dom, sources: dict[str, str]) -> str | None:
    """The first tier's values that can be a person's name (`author_names`): a role, placeholder,
    e-mail address or `twitter:creator` username (`is_twitter_username`) lets the next tier speak."""
    for names, source in _author_candidates(page, ld, dom):
        kept = author_names([name for name in names if source != "twitter" or not is_twitter_username(name)])
        if kept:
            sources["author"] = source
            return ", ".join(kept)
    return None


# --- canonical URL, tags, language -----------------------------------------------------------------


def _canonical_url(page: Page, ld: JsonLd, sources: dict[str, str]) -> str | None:
    """`<link rel=canonical>` first, then JSON-LD url / mainEntityOfPage, og:url, twitter:url.

    The one field where the metadata priority is not followed: rel=canonical has its own standard
    (RFC 6596) and search engines hold sites to it, while og:url and JSON-LD url are more often
    template values (the home page). Relative values resolve against `<base href>`, then the URL.
    """
    base = page.url or ""
    base_element = page.tree.find("head/base")
    if base_element is not None and base_element.get("href"):
        base = _absolute(base, base_element.get("href")) or base
    for value, source in _canonical_candidates(page, ld):
        url = _absolute(base, value)
        if url is not None:
            sources["canonical_url"] = source
            return url
    return None


def _canonical_candidates(page: Page, ld: JsonLd) -> Iterator[tuple[Any, str]]:
    # <link> belongs in <head>; a broken template leaves it in <body>, which costs a scan to find.
    head = page.tree.find("head")
    for scope in (head, page.tree) if head is not None else (page.tree,):
        for link in scope.iter("link"):
            if "canonical" in tokens(link, "rel"):
                yield link.get("href"), "link"
    for obj in ld.main:
        yield ld_string(obj.get("url")), "json-ld"
        entity = obj.get("mainEntityOfPage")
        yield (entity.get("@id") or entity.get("url")) if isinstance(entity, dict) else entity, "json-ld"
    yield from _meta(page, OG_URL, "og")
    yield from _meta(page, TWITTER_URL, "twitter")


def _absolute(base: str, value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        url = urljoin(base, value.strip())
        parts = urlsplit(url)
    except ValueError:  # "http://[bad" and other unparseable URLs
        return None
    return url if parts.scheme in ("http", "https") and parts.netloc else None


def _tags(page: Page, ld: JsonLd) -> tuple[tuple[str, ...], list[str]]:
    """JSON-LD keywords, article:tag, meta keywords: all merged, deduplicated case-insensitively."""
    found: dict[str, str] = {}
    used: list[str] = []

    def add(values: Iterable[Any], source: str) -> None:
        for value in values:
            for part in _KEYWORD_SPLIT.split(value) if isinstance(value, str) else ():
                tag = clean_ld(part) if source == "json-ld" else clean_text(part)
                if tag and tag.casefold() not in found:
                    found[tag.casefold()] = tag
                    if source not in used:
                        used.append(source)

    for obj in ld.main:
        keywords = obj.get("keywords")
        items = keywords if isinstance(keywords, list) else [keywords]
        add((item.get("name") if isinstance(item, dict) else item for item in items), "json-ld")
    add((value for value, _ in _meta(page, OG_TAGS, "og")), "og")
    add((value for value, _ in _meta(page, META_KEYWORDS, "meta")), "meta")
    return tuple(found.values()), used


_KEYWORD_SPLIT = re.compile(r"[,;，、]")


def _language(page: Page, ld: JsonLd) -> tuple[str, str] | None:
    """The declared-language sources in order; a junk value at one step falls through to the next."""
    root = page.tree.getroottree().getroot()
    steps = (
        ("html-lang", (normalise_language(root.get(attribute)) for attribute in ("lang", "xml:lang"))),
        ("og", (normalise_language(value) for value, _ in _meta(page, OG_LOCALE, "og"))),
        ("json-ld", (_ld_language(obj.get("inLanguage")) for obj in ld.ordered)),
        ("meta", (normalise_language(value) for value, _ in _meta(page, META_LANGUAGE, "meta"))),
    )
    for source, languages in steps:
        language = next((language for language in languages if language), None)
        if language:
            return language, source
    return None


def _ld_language(value: Any) -> str | None:
    """inLanguage is a code, a `Language` object (alternateName, name), or a list of either."""
    if isinstance(value, list):
        return first_of(value, _ld_language)
    if isinstance(value, dict):
        return normalise_language(value.get("alternateName")) or normalise_language(value.get("name"))
    return normalise_language(value)


@dataclass(frozen=True)
class MetadataParams:
    # Where no metadata tier declares a publication date, htmldate infers one (`published_source`
    # htmldate, `era_date_source` inferred), after the gate and only where the date is written: an
    # extracted row, or a gated one with segments. false in presets/seed.yaml: the seed's order alone.
    infer_dates: bool = True
    # Where a row has no date, an age it shows ("3 years ago") read against the capture (signals
    # `age_min_days`, `age_max_days`; `era_date_source` relative): a segment's date line, a page's
    # publication line (filters/metadata/ages.py). false in presets/seed.yaml.
    read_ages: bool = True


# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("reading_time_minutes", pa.int32(), "max(1, ceil(words / 200)) of the extracted text"),
    Signal("published_source", pa.string(), "where `published` came from: declared by json-ld, og, meta or "
           "itemprop; inferred by time (a <time datetime>) or htmldate (null: no date; not_inferred: none declared, "
           "and htmldate not asked: a row the gate turned away, without segments)"),
    Signal("age_min_days", pa.int32(), "the least number of days before the capture that the age the row shows "
           "(\"3 years ago\", a date line or a publication line) allows; null: no age read (the row has a date, or "
           "shows none)"),
    Signal("age_max_days", pa.int32(), "the greatest number of days before the capture that the age the row shows "
           "allows (`age_min_days`)"),
    Signal("author_source", pa.string(), "where `author` came from: json-ld, og, twitter, meta, itemprop or byline "
           "(null: no author)"),
)
