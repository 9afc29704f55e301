"""Page metadata (title, author, dates, description, site, canonical URL, tags, language), read once.

Seed 003 §9 ("Metadata Extractor") fixes the order every field is looked up in:
**JSON-LD > Open Graph > Twitter Card > HTML `<meta>`**. Structured data is what a publisher keeps
up for machines (seed 001 §1.2 calls it "the highest confidence"), Open Graph is kept up for
social previews, and loose `<meta>` tags are the likeliest to be stale template leftovers. When
none of them has a field, seed 001's DOM selectors are the last resort: §2.2 for the headline,
§2.3 for the date (`time[datetime]`, then `[itemprop=datePublished]`) and for the author
(`address[rel=author]`, `[rel=author]`, `[itemprop=author]`, `.by-line, .byline, .author-name,
.author`), then a "By Firstname Lastname" line under the headline.

The same look-ups answer two content signals of seed 000 §1, "Author in metadata" and
"Published date in metadata" (`has_author`, `has_published_date`); `language_of` is seed 000 §8
and `reading_time_minutes` seed 000 §7.

Seed 003 §9 normalises dates "via dateparser". dateparser is slow (a string it cannot read costs
about 20 ms, a dozen lxml parses), so ISO 8601, RFC 2822 and plain numeric dates go through the
standard library and dateparser only sees what they cannot read, at most
`SLOW_DATE_PARSES_PER_PAGE` times a page. DOM scans cost about a quarter of a parse each, so they
run only when the metadata tiers found nothing, and at most once per call.

Pure: no I/O, no global state, deterministic (dateparser's relative parser and dates missing a
day, month or year are refused, since their value would depend on the clock), and no odd page
makes it raise.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from functools import cached_property
from itertools import islice
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml.html import HtmlElement

from filters.page import Page

# Seed 000 §7.
WORDS_PER_MINUTE = 200

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
# A byline is one line: "By Jane Doe and John Roe, Staff Writers | March 3, 2024" fits; a paragraph
# that happens to start with "By" does not.
BYLINE_MAX_CHARS = 120
# Elements after the headline searched for a "By ..." line, and headlines tried (a logo may be an h1).
BYLINE_WINDOW = 40
HEADLINES_TRIED = 3
# DOM elements tried per selector before giving up.
DOM_CANDIDATES = 5

# Seed 000 §1 names Article, BlogPosting, NewsArticle, TechArticle, ScholarlyArticle; the rest are
# schema.org subtypes of Article that publishers use for the same kind of page.
ARTICLE_TYPES = frozenset({
    "Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "Report",
    "AnalysisNewsArticle", "AskPublicNewsArticle", "BackgroundNewsArticle", "OpinionNewsArticle",
    "ReportageNewsArticle", "ReviewNewsArticle", "LiveBlogPosting", "SocialMediaPosting",
    "DiscussionForumPosting", "SatiricalArticle", "AdvertiserContentArticle", "MedicalScholarlyArticle",
})
# Read only for what no article-like object has ("WebPage last").
WEBPAGE_TYPES = frozenset({
    "WebPage", "ItemPage", "AboutPage", "CollectionPage", "ProfilePage", "QAPage", "FAQPage",
    "MedicalWebPage", "ContactPage", "SearchResultsPage",
})

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
META_LANGUAGE = ("content-language", "language")  # seed 000 §8 step 4, http-equiv first

# `<meta name="language" content="English">` is common; a declared name is not a guess.
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
    language: str | None  # lower-case primary subtag, seed 000 §8
    # "json-ld", "og", "twitter", "meta", "link", "time", "itemprop", "byline", "title-tag", "html-lang";
    # tags name every source they were merged from ("json-ld+meta").
    sources: dict[str, str]


def extract_metadata(page: Page, capture_time: datetime | None = None) -> Metadata:
    """Every field in seed 003 §9's priority; dates later than `capture_time` + 1 day are dropped."""
    ld = _JsonLd.of(page)
    dom = _Dom(page.tree)
    capture = _as_utc(capture_time) if capture_time is not None else None
    budget = [SLOW_DATE_PARSES_PER_PAGE]
    sources: dict[str, str] = {}
    title = _first("title", _title_candidates(page, ld, dom), sources)
    author = _author(page, ld, dom, sources)
    published = _first_date("published", _published_candidates(page, ld, dom, True), capture, budget, sources)
    updated = _first_date("updated", _updated_candidates(page, ld), capture, budget, sources)
    description = _first("description", _description_candidates(page, ld), sources)
    site_name = _first("site_name", _site_name_candidates(page, ld), sources)
    canonical_url = _canonical_url(page, ld, sources)
    tags, tag_sources = _tags(page, ld)
    if tags:
        sources["tags"] = "+".join(tag_sources)
    language = _language(page, ld)
    if language is not None:
        sources["language"] = language[1]
    return Metadata(
        title=title, author=author, published=published, updated=updated, description=description,
        site_name=site_name, canonical_url=canonical_url, tags=tags,
        language=language[0] if language is not None else None, sources=sources,
    )


def has_author(page: Page, metadata: Metadata | None = None) -> bool:
    """Seed 000 §1 "Author in metadata": OG, JSON-LD, twitter:creator, `<meta name=author>`, byline.

    Any non-empty value counts, even one `extract_metadata` would not keep as a name (an
    `article:author` profile URL): the page still declares an author. JSON-LD counts when an
    author name can be read (a string, an object with a name, an `@id` pointing at one) in any
    object. The byline part is seed 001 §2.3's selectors and the "By Firstname Lastname" line,
    only looked for when no metadata says anything.

    Pass the page's own `extract_metadata` result as `metadata` to skip the DOM scans it already
    did: an author it found settles it, and if it found none the DOM has none either.
    """
    ld = _JsonLd.of(page)
    if metadata is not None:
        return metadata.author is not None or any(True for _ in _declared_authors(page, ld))
    return any(True for _ in _author_candidates(page, ld, _Dom(page.tree)))


def has_published_date(page: Page, metadata: Metadata | None = None) -> bool:
    """Seed 000 §1 "Published date in metadata": any date meta tag or JSON-LD `datePublished`.

    A non-empty value is enough (a score should not pay for date parsing). Counted: JSON-LD
    `datePublished` of any object, the OG and `<meta>` publication keys above, and microdata
    `itemprop=datePublished` (structured data, seed 001 §1.2). A bare `<time datetime>` is *not*
    metadata: listing pages carry one per teaser, and this signal exists to tell them from articles.

    `metadata` (this page's `extract_metadata` result) settles it without a scan when its
    published date came from one of those sources.
    """
    if metadata is not None and metadata.sources.get("published") in ("json-ld", "og", "meta", "itemprop"):
        return True
    return any(True for _ in _published_candidates(page, _JsonLd.of(page), _Dom(page.tree), False))


def language_of(page: Page) -> str | None:
    """Seed 000 §8: `<html lang>`, og:locale, JSON-LD inLanguage, content-language; never a guess."""
    found = _language(page, _JsonLd.of(page))
    return found[0] if found is not None else None


def reading_time_minutes(word_count: int) -> int:
    """Seed 000 §7: `max(1, ceil(word_count / 200))`; an empty text still takes a minute to open."""
    return max(1, math.ceil(word_count / WORDS_PER_MINUTE))


def parse_date(value: str, capture_time: datetime | None = None) -> datetime | None:
    """A date string as a UTC-aware datetime; None if unreadable, implausible or after the capture.

    ISO 8601 (`fromisoformat`), RFC 2822 (`email.utils`) and numeric dates (`2024-3-1`,
    `01.03.2024`: dotted dates are day-first wherever they are written) are read directly;
    dateparser only gets the rest, and only strings with a four-digit year. Naive values are UTC.
    """
    return _parse_date(value, _as_utc(capture_time) if capture_time is not None else None, [1])


def normalise_language(value: Any) -> str | None:
    """`en-GB` -> `en`, `pt_BR` -> `pt`, `EN` -> `en`, `English` -> `en`; None for junk.

    Only a 2-3 letter primary subtag is a language (BCP 47; 4-8 letter ones are reserved or
    unused), so `x-default`, `*`, `i-klingon` and the codes that name no language (`und`, `mul`,
    `mis`, `zxx`) are refused and seed 000 §8 falls through to its next source.
    """
    if not isinstance(value, str):
        return None
    primary = _LANGUAGE_SPLIT.split(value.strip(), 1)[0].lower()
    if primary in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[primary]
    if 2 <= len(primary) <= 3 and primary.isascii() and primary.isalpha() and primary not in NOT_LANGUAGES:
        return primary
    return None


_LANGUAGE_SPLIT = re.compile(r"[-_\s,;]")


# --- JSON-LD ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _JsonLd:
    """One pass over `page.json_ld`: the objects to read fields from, best first, and an @id index."""

    main: tuple[dict[str, Any], ...]  # the first article-like object, then the first WebPage-like one
    ordered: tuple[dict[str, Any], ...]  # `main`, then every other object in document order
    by_id: dict[str, dict[str, Any]]
    website_name: str | None

    @classmethod
    def of(cls, page: Page) -> _JsonLd:
        article: dict[str, Any] | None = None
        webpage: dict[str, Any] | None = None
        website_name: str | None = None
        by_id: dict[str, dict[str, Any]] = {}
        objects = [obj for obj in page.json_ld if isinstance(obj, dict)]
        for obj in objects:
            identifier = obj.get("@id")
            if isinstance(identifier, str):
                by_id.setdefault(identifier, obj)
            types = _types(obj)
            if types & ARTICLE_TYPES:
                article = obj if article is None else article
            elif types & WEBPAGE_TYPES:
                webpage = obj if webpage is None else webpage
                entity = obj.get("mainEntity")  # WebPage{mainEntity: Article} is not flattened by Page
                if article is None and isinstance(entity, dict) and _types(entity) & ARTICLE_TYPES:
                    article = entity
            elif website_name is None and "WebSite" in types:
                website_name = _clean_ld(obj.get("name"))
        main = tuple(obj for obj in (article, webpage) if obj is not None)
        rest = tuple(obj for obj in objects if not any(obj is chosen for chosen in main))
        return cls(main=main, ordered=main + rest, by_id=by_id, website_name=website_name)

    def names(self, value: Any) -> list[str]:
        """Names in an author/publisher value: a string, an object, an @id, or a list of them."""
        if isinstance(value, list):
            return [name for item in value if not isinstance(item, list) for name in self.names(item)]
        if isinstance(value, str):
            name = _clean_ld(value)
            return [name] if name else []
        if not isinstance(value, dict):
            return []
        if "name" not in value and isinstance(value.get("@id"), str):
            value = self.by_id.get(value["@id"], value)
        name = _clean_ld(value.get("name"))
        if name is None:
            parts = (value.get("givenName"), value.get("familyName"))
            name = _clean_ld(" ".join(part for part in parts if isinstance(part, str)))
        return [name] if name else []


def _types(obj: dict[str, Any]) -> set[str]:
    value = obj.get("@type")
    items = value if isinstance(value, list) else [value]
    return {item.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for item in items if isinstance(item, str)}


def _ld_string(value: Any) -> str | None:
    """A JSON-LD literal: a string, `{"@value": ...}`, or the first usable item of a list."""
    if isinstance(value, list):
        for item in value:
            found = _ld_string(item) if not isinstance(item, list) else None
            if found:
                return found
        return None
    if isinstance(value, dict):
        value = value.get("@value")
    return _clean_ld(value)


def _clean_ld(value: Any) -> str | None:
    # JSON-LD sits in a <script>, which the HTML parser does not entity-decode, and templates
    # often escape it anyway ("Tom &amp; Jerry").
    if isinstance(value, str) and "&" in value:
        value = html.unescape(value)
    return _clean(value)


def _clean(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())
    return text or None


# --- DOM -------------------------------------------------------------------------------------------


class _Dom:
    """Seed 001 §2.2/§2.3 look-ups for one call; each tree scan runs at most once, and only if asked."""

    def __init__(self, tree: HtmlElement) -> None:
        self.tree = tree

    @cached_property
    def body(self) -> HtmlElement:
        root = self.tree.getroottree().getroot()
        body = root.find("body")
        return body if body is not None else root

    @cached_property
    def marked(self) -> list[HtmlElement]:
        """Every body element with an itemprop, a rel, or an author/byline-like class (one scan)."""
        return _MARKED(self.body)

    @cached_property
    def itemprops(self) -> list[HtmlElement]:
        # The wider scan, when it already ran, holds every itemprop element too.
        marked = self.__dict__.get("marked")
        elements = marked if marked is not None else _ITEMPROP(self.body)
        return [element for element in elements if element.get("itemprop")]

    def with_itemprop(self, name: str) -> list[HtmlElement]:
        return [element for element in self.itemprops if name in element.get("itemprop", "").split()]

    def headlines(self) -> Iterator[HtmlElement]:
        return islice(self.tree.iter("h1"), HEADLINES_TRIED)


def _itemprop_dates(dom: _Dom, name: str) -> Iterator[tuple[str, str]]:
    for element in dom.with_itemprop(name)[:DOM_CANDIDATES]:
        value = _clean(element.get("content") or element.get("datetime") or _element_text(element))
        if value:
            yield value, "itemprop"


def _element_text(element: HtmlElement) -> str | None:
    """Collapsed text of an element; None for page-sized containers (`<body class="author">`), whose
    text is never a byline and costs a pass over the page to collect."""
    if element.tag in _CONTAINER_TAGS:
        return None
    return _clean(element.text_content())


_CONTAINER_TAGS = frozenset({"html", "body", "main", "article", "section"})
# Cheap prefilters in the scan (every string function costs a pass over the page); exact tokens
# are checked in Python.
# A superset of what the author rules accept (rel tokens containing "author", class tokens
# ending in author/byline/by-line); Python then checks tokens exactly. Narrow on purpose: every
# element matched here becomes a Python object.
_MARKED = etree.XPath("descendant::*[@itemprop or contains(@rel, 'author') or contains(@class, 'author') "
                      "or contains(@class, 'byline') or contains(@class, 'by-line')]")
_ITEMPROP = etree.XPath("descendant::*[@itemprop]")


# --- candidates per field, best first --------------------------------------------------------------


def _meta(page: Page, keys: Iterable[str], source: str) -> Iterator[tuple[str, str]]:
    for key in keys:
        for value in page.meta.get(key, ()):
            if value:
                yield value, source


def _title_candidates(page: Page, ld: _JsonLd, dom: _Dom) -> Iterator[tuple[Any, str]]:
    for obj in ld.main:
        yield _ld_string(obj.get("headline")), "json-ld"
        yield _ld_string(obj.get("name")), "json-ld"
    yield from _meta(page, OG_TITLE, "og")
    yield from _meta(page, TWITTER_TITLE, "twitter")
    yield from _meta(page, META_TITLE, "meta")
    for headline in dom.headlines():  # seed 001 §2.2 priority 2: h1[itemprop=headline]
        if "headline" in (headline.get("itemprop") or "").split():
            yield headline.text_content(), "itemprop"
    title = page.tree.find("head/title")
    if title is None:
        found = _TITLE(page.tree)
        title = found[0] if found else None
    if title is not None:
        yield title.text_content(), "title-tag"


_TITLE = etree.XPath("/descendant::title[not(ancestor::svg)]")


def _description_candidates(page: Page, ld: _JsonLd) -> Iterator[tuple[Any, str]]:
    for obj in ld.main:
        yield _ld_string(obj.get("description")), "json-ld"
    yield from _meta(page, OG_DESCRIPTION, "og")
    yield from _meta(page, TWITTER_DESCRIPTION, "twitter")
    yield from _meta(page, META_DESCRIPTION, "meta")


def _site_name_candidates(page: Page, ld: _JsonLd) -> Iterator[tuple[Any, str]]:
    # A WebSite object names the site; the article's publisher is JSON-LD's fallback for it.
    yield ld.website_name, "json-ld"
    for obj in ld.main:
        for name in ld.names(obj.get("publisher")):
            yield name, "json-ld"
    yield from _meta(page, OG_SITE_NAME, "og")
    yield from _meta(page, META_SITE_NAME, "meta")


def _published_candidates(page: Page, ld: _JsonLd, dom: _Dom, with_time: bool) -> Iterator[tuple[str, str]]:
    for obj in ld.ordered:
        value = _ld_string(obj.get("datePublished"))
        if value:
            yield value, "json-ld"
    yield from _meta(page, OG_PUBLISHED, "og")
    yield from _meta(page, META_PUBLISHED, "meta")
    if with_time:  # seed 001 §2.3: time[datetime] first, then [itemprop=datePublished]
        tried = 0
        for element in page.tree.iter("time"):
            value = _clean(element.get("datetime"))
            if value:
                yield value, "time"
                tried += 1
                if tried >= DOM_CANDIDATES:
                    break
    yield from _itemprop_dates(dom, "datePublished")


def _updated_candidates(page: Page, ld: _JsonLd) -> Iterator[tuple[str, str]]:
    # Seed 001 §2.3 has no DOM selector for modification dates: metadata only.
    for obj in ld.ordered:
        value = _ld_string(obj.get("dateModified"))
        if value:
            yield value, "json-ld"
    yield from _meta(page, OG_MODIFIED, "og")
    yield from _meta(page, META_MODIFIED, "meta")


def _first(field: str, candidates: Iterable[tuple[Any, str]], sources: dict[str, str]) -> str | None:
    for value, source in candidates:
        text = _clean(value)
        if text:
            sources[field] = source
            return text
    return None


def _first_date(field: str, candidates: Iterable[tuple[str, str]], capture: datetime | None,
                budget: list[int], sources: dict[str, str]) -> datetime | None:
    for value, source in candidates:
        parsed = _parse_date(value, capture, budget)
        if parsed is not None:
            sources[field] = source
            return parsed
    return None


# --- author ----------------------------------------------------------------------------------------


def _declared_authors(page: Page, ld: _JsonLd) -> Iterator[tuple[list[str], str]]:
    """Author values per metadata tier, best first (JSON-LD of any object, OG, Twitter, <meta>)."""
    for obj in ld.ordered:
        names = ld.names(obj.get("author"))
        if names:
            yield names, "json-ld"
    for keys, source in ((OG_AUTHOR, "og"), (TWITTER_AUTHOR, "twitter"), (META_AUTHOR, "meta")):
        names = [value for value, _ in _meta(page, keys, source)]
        if names:
            yield names, source


def _author_candidates(page: Page, ld: _JsonLd, dom: _Dom) -> Iterator[tuple[list[str], str]]:
    yield from _declared_authors(page, ld)
    yield from _dom_authors(dom)


def _author(page: Page, ld: _JsonLd, dom: _Dom, sources: dict[str, str]) -> str | None:
    for names, source in _author_candidates(page, ld, dom):
        kept: list[str] = []
        for raw in names:
            name = _clean(_BY_PREFIX.sub("", raw, count=1))
            # An OG article:author is often a profile URL: an author, but not a name.
            if name and not _URL_LIKE.match(name) and name.casefold() not in (k.casefold() for k in kept):
                kept.append(name)
        if kept:
            sources["author"] = source
            return ", ".join(kept)
    return None


def _dom_authors(dom: _Dom) -> Iterator[tuple[list[str], str]]:
    """Seed 001 §2.3's author selectors in its order, then a "By Firstname Lastname" line."""
    marked = dom.marked
    rel = [element for element in marked if element.tag != "link" and "author" in _tokens(element, "rel")]
    rel.sort(key=lambda element: element.tag != "address")  # address[rel=author] first
    for element in rel[:DOM_CANDIDATES]:
        names = _byline_names(_element_text(element), strict=False)
        if names:
            yield names, "byline"
    for element in dom.with_itemprop("author")[:DOM_CANDIDATES]:
        if element.tag in ("meta", "link"):  # <meta itemprop=author> is already in Page.meta
            continue
        name_elements = [child for child in element.iterdescendants(etree.Element)
                         if "name" in (child.get("itemprop") or "").split()]
        holder = name_elements[0] if name_elements else element
        names = _byline_names(_clean(holder.get("content")) or _element_text(holder), strict=False)
        if names:
            yield names, "itemprop"
    classed = [element for element in marked if any(_BYLINE_CLASS.match(t) for t in _tokens(element, "class"))]
    for element in classed[:DOM_CANDIDATES]:
        names = _byline_names(_element_text(element), strict=False)
        if names:
            yield names, "byline"
    for names in _by_lines(dom):
        yield names, "byline"


def _by_lines(dom: _Dom) -> Iterator[list[str]]:
    """"By Firstname Lastname" at the start of a short element among the first ones after a headline.

    Bylines sit under the headline (seed 001 §2.2's article header); looking only there keeps the
    check cheap and keeps "By the time we arrived ..." in a comment thread from counting.
    """
    for headline in dom.headlines():
        for element in islice(_following(headline), BYLINE_WINDOW):
            if _BY_PREFIX.match(element.text or ""):
                names = _byline_at(element)
                if names:
                    yield names
                    return


def _following(headline: HtmlElement) -> Iterator[HtmlElement]:
    """Elements after `headline` in document order, up to the end of its article/main/section."""
    node: HtmlElement | None = headline
    while node is not None and node.tag not in _CONTAINER_TAGS:
        for sibling in node.itersiblings():
            yield from sibling.iter(etree.Element)
        node = node.getparent()


def _byline_at(element: HtmlElement) -> list[str] | None:
    # `<span>By</span> <a>Jane Doe</a>`: the name is beside the prefix, so look one level up too.
    for candidate in (element, element.getparent()):
        text = _element_text(candidate) if candidate is not None else None
        if text is None:
            return None
        names = _byline_names(text, strict=True)
        prefix = _BY_PREFIX.match(text)
        if names or prefix is None or prefix.end() < len(text):
            return names
    return None


def _byline_names(text: str | None, strict: bool) -> list[str] | None:
    """Names in a byline; `strict` (free text) wants "By" and capitalised names of 2-5 words.

    Without `strict` (an element marked as the author's) any label before the name is dropped.

    "By Jane Doe, Staff Writer | March 3" -> ["Jane Doe"]; strict refuses "By the river we walked"
    (a lower-case word is not part of a name) and "By Tuesday" (one word).
    """
    if not text or len(text) > BYLINE_MAX_CHARS:
        return None
    prefix = (_BY_PREFIX if strict else _AUTHOR_PREFIX).match(text)
    if strict and prefix is None:
        return None
    rest = text[prefix.end():] if prefix else text
    head = _BYLINE_END.split(rest, 1)[0].strip(" .:;")
    names = [name.strip() for name in _NAME_JOIN.split(head) if name.strip()]
    if not names or any(_URL_LIKE.match(name) for name in names):
        return None
    if strict:
        return names if all(_looks_like_name(name) for name in names) else None
    return names if all(any(char.isalpha() for char in name) for name in names) else None


def _looks_like_name(name: str) -> bool:
    words = name.split()
    if not 2 <= len(words) <= 5 or not words[0][0].isupper():
        return False
    return all(
        word.lower() in _NAME_PARTICLES or (word[0].isupper() and not any(char.isdigit() for char in word))
        for word in words
    )


def _tokens(element: HtmlElement, attribute: str) -> list[str]:
    """`rel` and `class` tokens, lower-cased (HTML matches them case-insensitively in practice)."""
    return (element.get(attribute) or "").lower().split()


_NAME_PARTICLES = frozenset({
    "van", "von", "de", "der", "den", "da", "di", "del", "della", "du", "la", "le", "bin", "al", "ibn", "dos", "das",
})
# Seed 001 §2.3's `.by-line, .byline, .author-name, .author`, also with a prefix (`post-author`,
# `c-byline`), but not `comment-author`: a comment's author is not the article's.
_BYLINE_CLASS = re.compile(r"^(?!comment)(?:[\w-]*[-_])?(?:author|author-name|by-?line)$")
_BY_PREFIX = re.compile(r"^\s*(?:(?:written|posted|words|story|text)\s+)?by\b\s*:?\s*", re.IGNORECASE)
# In an element already marked as the author's, a label before the name in any of the crawl's
# common languages: "View all posts by Jane Doe", "von Redaktion", "Autor: Jane Doe".
_AUTHOR_PREFIX = re.compile(
    r"^(?:.{0,40}?\b(?:by|von|vom|par|por|door)\b|\s*(?:author|autor|autorin|auteur|autore)\b)\s*:?\s*",
    re.IGNORECASE,
)
# Leading whitespace is taken only where its run starts (`(?<!\s)`): with a bare `\s*`/`\s+`, every
# start inside a long run rescanned the run (quadratic; tests/filters/test_regex_safety.py).
_BYLINE_END = re.compile(
    r"(?:(?<!\s)\s+)?[,|·•—–/(]\s*|(?<!\s)\s+(?:-\s+|(?:on|at|in|for|updated|published|posted)\b|\d)",
    re.IGNORECASE,
)
_NAME_JOIN = re.compile(r"(?<!\s)\s+(?:and|und|et|y)\s+|(?:(?<!\s)\s+)?&\s*", re.IGNORECASE)
_URL_LIKE = re.compile(r"^(?:https?:)?//|^www\.", re.IGNORECASE)


# --- canonical URL, tags, language -----------------------------------------------------------------


def _canonical_url(page: Page, ld: _JsonLd, sources: dict[str, str]) -> str | None:
    """`<link rel=canonical>` first, then JSON-LD url / mainEntityOfPage, og:url, twitter:url.

    The one field where seed 003's order is not followed: rel=canonical has its own standard
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


def _canonical_candidates(page: Page, ld: _JsonLd) -> Iterator[tuple[Any, str]]:
    # <link> belongs in <head>; a broken template leaves it in <body>, which costs a scan to find.
    head = page.tree.find("head")
    for scope in (head, page.tree) if head is not None else (page.tree,):
        for link in scope.iter("link"):
            if "canonical" in _tokens(link, "rel"):
                yield link.get("href"), "link"
    for obj in ld.main:
        yield _ld_string(obj.get("url")), "json-ld"
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


def _tags(page: Page, ld: _JsonLd) -> tuple[tuple[str, ...], list[str]]:
    """JSON-LD keywords, article:tag, meta keywords: all merged, deduplicated case-insensitively."""
    found: dict[str, str] = {}
    used: list[str] = []

    def add(values: Iterable[Any], source: str) -> None:
        for value in values:
            for part in _KEYWORD_SPLIT.split(value) if isinstance(value, str) else ():
                tag = _clean_ld(part) if source == "json-ld" else _clean(part)
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


def _language(page: Page, ld: _JsonLd) -> tuple[str, str] | None:
    """Seed 000 §8 in its order; a junk value at one step falls through to the next."""
    root = page.tree.getroottree().getroot()
    for attribute in ("lang", "xml:lang"):
        language = normalise_language(root.get(attribute))
        if language:
            return language, "html-lang"
    for value, _ in _meta(page, OG_LOCALE, "og"):
        language = normalise_language(value)
        if language:
            return language, "og"
    for obj in ld.ordered:
        language = _ld_language(obj.get("inLanguage"))
        if language:
            return language, "json-ld"
    for value, _ in _meta(page, META_LANGUAGE, "meta"):
        language = normalise_language(value)
        if language:
            return language, "meta"
    return None


def _ld_language(value: Any) -> str | None:
    """inLanguage is a code, a `Language` object (alternateName, name), or a list of either."""
    if isinstance(value, list):
        for item in value:
            found = _ld_language(item) if not isinstance(item, list) else None
            if found:
                return found
        return None
    if isinstance(value, dict):
        return normalise_language(value.get("alternateName")) or normalise_language(value.get("name"))
    return normalise_language(value)


# --- dates -----------------------------------------------------------------------------------------


def _parse_date(value: Any, capture: datetime | None, budget: list[int]) -> datetime | None:
    """`parse_date`, sharing a budget of dateparser calls (`budget[0]`, decremented per call)."""
    text = _clean(value)
    if text is None or len(text) > MAX_DATE_CHARS:
        return None
    parsed = _parse_standard(text)
    if parsed is None and budget[0] > 0 and _FOUR_DIGITS.search(text):
        budget[0] -= 1
        parsed = _parse_with_dateparser(text)
    if parsed is None:
        return None
    try:
        parsed = _as_utc(parsed)
    except (OverflowError, ValueError):
        return None
    if not EARLIEST_YEAR <= parsed.year <= LATEST_YEAR:
        return None
    if capture is not None and parsed > capture + CLOCK_SKEW:
        return None
    return parsed


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
    zone = match["zone"]
    if zone and zone.upper() not in ("Z", "UTC", "GMT"):
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        parsed = parsed - sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:] or 0))
    return parsed.replace(tzinfo=UTC)


def _parse_with_dateparser(text: str) -> datetime | None:
    import dateparser  # slow to import and to run: only for what the standard library cannot read

    try:
        return dateparser.parse(text, settings=dict(_DATEPARSER_SETTINGS))
    except Exception:  # dateparser raises assorted errors on odd input; a bad date is just no date
        return None


def _as_utc(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


# The relative parser ("2 hours ago") and missing parts would be filled in from the clock.
_DATEPARSER_SETTINGS: dict[str, Any] = {
    "TIMEZONE": "UTC",
    "TO_TIMEZONE": "UTC",
    "RETURN_AS_TIMEZONE_AWARE": True,
    "PREFER_DAY_OF_MONTH": "first",
    "REQUIRE_PARTS": ["day", "month", "year"],
    "PARSERS": ["timestamp", "custom-formats", "absolute-time"],
}
_UTC_SUFFIX = re.compile(r"(?:(?<!\s)\s+)?(?:z|utc|gmt)$", re.IGNORECASE)  # see _BYLINE_END
_FOUR_DIGITS = re.compile(r"\d{4}")
_TIMESTAMP = re.compile(r"\d{10}|\d{13}")
_NUMERIC_DATE = re.compile(
    r"(?:[^\W\d_]{1,12}\.?,?\s+)?"  # a weekday: "Di., 25.01.2022 - 14:45"
    r"(?:(?P<year>\d{4})[-/.](?P<month>\d{1,2})[-/.](?P<day>\d{1,2})"
    r"|(?P<dotted_day>\d{1,2})\.\s?(?P<dotted_month>\d{1,2})\.\s?(?P<dotted_year>\d{4}))"
    r"(?:(?:[T\s]|,\s*|\s+-\s+)(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,]\d+)?)?)?"
    r"\s*(?P<zone>Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?",
    re.IGNORECASE,
)
