"""Republication benchmark: are republished copies of a story (syndication, scraper sites) found as near duplicates?

    python benchmarks/republication.py build --out DIR [--stories N] [--seed S]
    pipeline run DIR/republication.warc.gz --out RUN_DIR
    python benchmarks/republication.py measure RUN_DIR --stories DIR/stories.json [--json FILE]
    python benchmarks/republication.py false-merges RUN_DIR [RUN_DIR...] [--json FILE]

`build` draws N (default 180) long articles (labelled `article`, main text >= 300 words: WCXB's
`main_content` for wcxb-dev, `trafilatura.extract` of the page for trafilatura-eval) from
../shared/corpora, half from each corpus, every language of at least two such articles getting up
to `LANGUAGE_FLOOR` stories before the rest is drawn at random (wcxb-dev is English only,
trafilatura-eval about two thirds German). Each story is written to `DIR/republication.warc.gz` as
its original WARC record, byte for byte, followed by two copies on two of the eight invented
sites (distinct registered domains, each with its own fixed template text), made the way
syndication and scraper sites make them:

* a new lede, 1-3 sentences of another chosen article of the same language, as a `<p>` before the
  first body paragraph (body paragraphs: the `<p>` elements whose word 3-grams are in the main text);
* the site's header (name, 6-10 navigation links) at the start of `<body>`, its footer (copyright,
  5-8 links, an address) at the end, and right after the last body paragraph, inside its parent
  (the body's container, where extractors keep them), a "Related" block of 4-6 headline links
  (drawn from the site's fixed pool) and a newsletter box;
* inside the story, as paragraphs that extractors keep (they dropped the blocks above in almost
  every copy): the site's newsletter pitch after the first third of the body paragraphs, a
  "Related: headline" line after the middle one, and a credit line (the site's copyright and
  address) after the last one. Every page of a site shares this template text; with `--teasers N`,
  N paragraphs of "more from the site" after it too (a headline and 1-3 sentences of another
  article each): a harder set, whose copies add more text;
* about 2 % of the words of the body paragraphs replaced by words of the lede's article;
* the site's own URL `https://SITE/YYYY/MM/SLUG` (slug from the original path), its own
  `rel=canonical`, `og:url`, `twitter:url` and `og:site_name` (a scraper's CMS writes its own: a
  copy still pointing at the original would be caught by URL de-duplication, not by its text),
  the site name after the title, `<meta charset>` set to UTF-8, and a WARC-Date 1 to 30 days after
  the original's (2024-01-01 when it has none).

`DIR/stories.json` maps each story id to its corpus, language, word count and pages (url, role
`original` or `copy`, site, warc_date). The same seed gives the same stories.json and WARC.

`measure` reads the run's accepted and rejected rows and reports, overall, per language and per
corpus: stories, stories with a page that reached de-duplication (kept, or rejected by `dup.*` and
`dataset.*` reasons only), copies (such pages less one keeper per story: the kept page, else the
original), copies caught (a `dup.near`, `dup.exact` or `dup.url` reason), stories kept twice,
stories lost (none kept although a page reached de-duplication), stories kept in two splits, pages
rejected `dataset.cross_split`; then every missed copy with its near-duplicate signals and the
exact word 5-gram Jaccard and containment (share of the shorter text's 5-grams in the other;
words: lower-cased `\\w+`) against its story's keeper, and the spread (min, 10th percentile,
median) of both among caught and missed copies.

`false-merges` lists, for runs over the shared corpora, every `dup.near` page beside the accepted
page of the same run it is closest to (highest exact containment among the accepted pages sharing a
word 5-gram with it), with both texts' beginnings, for a person to tell false merges from true
duplicates.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import re
import sys
import unicodedata
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import islice, zip_longest
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import lxml.html
import numpy as np
import polars as pl
import py3langid
import trafilatura
from lxml.etree import ParserError
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
CORPUS_NAMES = ("wcxb-dev", "trafilatura-eval")
MIN_WORDS = 300
LANGUAGE_FLOOR = 12  # stories each language of a corpus gets (when it has them) before the random draw
MIN_PARAGRAPH_TOKENS = 5  # shorter <p> are not matched against the main text (captions, "Share")
PARAGRAPH_MATCH = 0.8  # share of a <p>'s word 3-grams found in the main text for it to be a body paragraph
EDIT_SHARE = 0.02
DEFAULT_DATE = datetime(2024, 1, 1, tzinfo=UTC)
CAUGHT_REASONS = ("dup.near", "dup.exact", "dup.url")
SIGNAL_FIELDS = ("near_duplicate_similarity", "near_duplicate_containment", "near_duplicate_distance",
                 "cross_split_containment")
WORD = re.compile(r"\w+")
LETTER_WORD = re.compile(r"[^\W\d_]{2,}")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


# --- the invented sites -------------------------------------------------------------------------
@dataclass(frozen=True)
class Site:
    """An invented republishing site and its fixed template text (same on all its pages)."""

    domain: str
    name: str
    language: str
    nav: tuple[str, ...]
    footer_links: tuple[str, ...]
    copyright: str
    address: str
    related: str
    headlines: tuple[str, ...]
    newsletter: str

    @property
    def base(self) -> str:
        return f"https://{self.domain}"


SITES = (
    Site("www.newswire-reprints.com", "Newswire Reprints", "en",
         ("World", "Politics", "Business", "Technology", "Science", "Health", "Culture", "Opinion"),
         ("About us", "Contact", "Licensing", "Privacy policy", "Terms of use", "Advertise"),
         "© 2024 Newswire Reprints Ltd. All rights reserved.",
         "Newswire Reprints Ltd., 14 Fleet Lane, London EC4A 2BB, United Kingdom.",
         "Related",
         ("City council approves new budget after months of debate",
          "Researchers report progress on low-cost battery storage",
          "Rail strike disrupts commuters across the region on Monday",
          "Local bakery celebrates fifty years on the high street",
          "Heatwave warning issued as temperatures climb again",
          "Why small businesses are returning to print advertising",
          "Hospital waiting lists fall for the third month in a row",
          "Court rules on disputed wind farm planning application"),
         "Sign up for our free daily newsletter and get the top stories delivered to your inbox every morning."),
    Site("dailydigest-online.net", "Daily Digest Online", "en",
         ("Home", "News", "Sport", "Money", "Lifestyle", "Travel", "Weather"),
         ("Who we are", "Editorial standards", "Cookie settings", "Jobs", "Sitemap"),
         "Copyright © 2024 Daily Digest Online. Content republished under licence.",
         "Daily Digest Online, 2200 Market Street, Suite 410, Philadelphia, PA 19103, USA.",
         "Read more",
         ("Five things to know before the markets open today",
          "The best hiking trails to explore this autumn",
          "Experts explain what the new tax rules mean for families",
          "Community garden project wins national award",
          "How to protect your home from winter storms",
          "Startup founders share lessons from their first year"),
         "Never miss a story: subscribe to the Daily Digest briefing. It is free and you can unsubscribe at any time."),
    Site("regionalecho.de", "Regional-Echo", "de",
         ("Startseite", "Region", "Politik", "Wirtschaft", "Sport", "Kultur", "Panorama", "Ratgeber", "Leserbriefe"),
         ("Impressum", "Datenschutz", "Kontakt", "Mediadaten", "Abo-Service", "AGB", "Barrierefreiheit"),
         "© 2024 Regional-Echo Verlagsgesellschaft mbH. Alle Rechte vorbehalten.",
         "Regional-Echo Verlagsgesellschaft mbH, Bahnhofstraße 12, 34117 Kassel, Deutschland.",
         "Mehr zum Thema",
         ("Stadtrat beschließt neuen Haushalt nach langer Debatte",
          "Neue Radwege sollen bis zum Sommer fertig werden",
          "Wochenmarkt zieht wegen Bauarbeiten vorübergehend um",
          "Schüler gewinnen Preis für ihr Umweltprojekt",
          "Was die neue Grundsteuer für Mieter bedeutet",
          "Traditionsgasthaus feiert sein hundertjähriges Bestehen",
          "Feuerwehr rückt zu Großeinsatz im Gewerbegebiet aus"),
         "Melden Sie sich für unseren kostenlosen Newsletter an und erhalten Sie jeden Morgen die wichtigsten "
         "Nachrichten aus der Region."),
    Site("www.the-morning-roundup.co.uk", "The Morning Roundup", "en",
         ("UK", "World", "Business", "Tech", "Entertainment", "Football", "Property", "Motoring", "Puzzles", "Video"),
         ("About", "Complaints", "Corrections", "Contact the newsroom", "Accessibility", "Privacy", "Cookies",
          "Terms"),
         "© The Morning Roundup 2024. Registered in England and Wales.",
         "The Morning Roundup, 3 Canal Wharf, Leeds LS11 5PS, United Kingdom.",
         "More stories",
         ("Council tax set to rise in most English regions next year",
          "New bus routes announced for the city centre",
          "Families urged to check energy bills after price cap change",
          "Village pub saved by residents who bought it together",
          "Scientists track rare birds returning to the coast",
          "Theatre season opens with a sold-out premiere"),
         "Get the Morning Roundup in your inbox. Our editors pick the stories that matter, every weekday at 7am."),
    Site("actualites-express.fr", "Actualités Express", "fr",
         ("Accueil", "France", "International", "Économie", "Sports", "Culture", "Sciences", "Régions"),
         ("Mentions légales", "Politique de confidentialité", "Contact", "Publicité", "Plan du site", "Recrutement"),
         "© 2024 Actualités Express SAS. Tous droits réservés.",
         "Actualités Express SAS, 27 rue du Faubourg Montmartre, 75009 Paris, France.",
         "À lire aussi",
         ("Le conseil municipal adopte le budget de l'année prochaine",
          "Les prix de l'immobilier se stabilisent dans les grandes villes",
          "Une nouvelle ligne de tramway sera inaugurée au printemps",
          "Les vendanges s'annoncent précoces dans le sud du pays",
          "Comment bien préparer son dossier de retraite",
          "Le festival de musique attend plus de visiteurs que l'an dernier"),
         "Inscrivez-vous à notre newsletter gratuite et recevez chaque matin l'essentiel de l'actualité."),
    Site("noticias-al-dia.es", "Noticias al Día", "es",
         ("Portada", "España", "Internacional", "Economía", "Deportes", "Cultura", "Tecnología"),
         ("Aviso legal", "Política de privacidad", "Contacto", "Publicidad", "Quiénes somos"),
         "© 2024 Noticias al Día S.L. Todos los derechos reservados.",
         "Noticias al Día S.L., Calle de Alcalá 85, 28009 Madrid, España.",
         "Noticias relacionadas",
         ("El ayuntamiento aprueba el presupuesto para el próximo año",
          "La ola de calor obliga a adelantar el horario escolar",
          "Los precios del alquiler siguen subiendo en las grandes ciudades",
          "Un equipo de investigadores descubre una nueva especie de orquídea",
          "Consejos para ahorrar energía en casa este invierno",
          "El festival de cine anuncia su programa completo"),
         "Suscríbete a nuestro boletín gratuito y recibe cada mañana las noticias más importantes del día."),
    Site("www.worldnewsfeed.org", "World News Feed", "en",
         ("Latest", "Africa", "Americas", "Asia", "Europe", "Middle East", "Climate", "Economy", "Analysis"),
         ("Our mission", "Donate", "Syndication", "Privacy notice", "Contact", "RSS feeds", "Help"),
         "© 2024 World News Feed Foundation. Stories are republished with permission of their publishers.",
         "World News Feed Foundation, 1 Harbour Square, Toronto, ON M5J 2G8, Canada.",
         "Related coverage",
         ("Leaders meet to discuss regional trade agreement",
          "Drought threatens harvests in several farming regions",
          "Central bank holds interest rates steady for now",
          "Aid groups warn of shortages ahead of the rainy season",
          "Election results expected later this week",
          "New study links urban trees to cooler summer nights",
          "Ports reopen after storm damage is repaired"),
         "Sign up for the World News Feed daily briefing. The day's most important stories from around the globe, "
         "free in your inbox."),
    Site("nachrichten-kompakt.at", "Nachrichten Kompakt", "de",
         ("Aktuell", "Österreich", "Welt", "Wirtschaft", "Sport", "Leben", "Wissen"),
         ("Impressum", "Offenlegung", "Datenschutz", "Kontakt", "Werbung", "Newsletter"),
         "© 2024 Nachrichten Kompakt GmbH. Alle Rechte vorbehalten.",
         "Nachrichten Kompakt GmbH, Mariahilfer Straße 88, 1070 Wien, Österreich.",
         "Das könnte Sie auch interessieren",
         ("Neue Öffnungszeiten für die Stadtbibliothek ab Montag",
          "Wetterdienst warnt vor starkem Schneefall in den Bergen",
          "Gemeinde plant neues Freibad am Stadtrand",
          "Pendler müssen sich auf Bauarbeiten an der Westbahn einstellen",
          "Heimische Betriebe suchen dringend Lehrlinge",
          "Konzertreihe im Park geht in die nächste Runde"),
         "Bleiben Sie informiert: Unser kostenloser Newsletter bringt Ihnen die wichtigsten Meldungen des Tages "
         "direkt in Ihr Postfach."),
)


# --- reading the corpora ------------------------------------------------------------------------
@dataclass
class Candidate:
    """A labelled long article of a shared corpus: where its record lies, its main text and language."""

    corpus: str
    url: str
    offset: int
    length: int
    text: str
    words: int
    language: str


def decode_html(payload: bytes, content_type: str | None) -> str:
    """The HTML as text: its declared charset (HTTP header, else `<meta>`), else UTF-8; errors replaced."""
    declared = None
    if content_type and "charset=" in content_type.lower():
        declared = content_type.lower().split("charset=", 1)[1].split(";")[0].strip(" \"'")
    if not declared:
        match = CHARSET.search(payload[:4096])
        declared = match.group(1).decode("ascii", "replace") if match else None
    try:
        return payload.decode(declared or "utf-8", errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def content_type(record: Any) -> str | None:
    """The record's HTTP Content-Type (None for a response record without HTTP headers)."""
    return record.http_headers.get_header("Content-Type") if record.http_headers else None


def main_text(corpus: str, label: dict[str, Any], html: str) -> str:
    """WCXB's ground-truth main text; for trafilatura-eval, what trafilatura extracts."""
    if corpus == "wcxb-dev":
        return label.get("main_content") or ""
    return trafilatura.extract(html) or ""


def read_candidates(corpus: str) -> list[Candidate]:
    """The corpus's pages labelled `article` whose main text has >= MIN_WORDS words, sorted by URL."""
    labels = json.loads((CORPORA / f"{corpus}.labels.json").read_text())
    found = []
    with open(CORPORA / f"{corpus}.warc.gz", "rb") as stream:
        records = ArchiveIterator(stream)
        for record in records:
            if record.rec_type != "response":
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            payload = record.content_stream().read()
            label = labels.get(url)
            if not label or label.get("page_type") != "article":
                continue
            text = main_text(corpus, label, decode_html(payload, content_type(record)))
            words = len(text.split())
            if words >= MIN_WORDS:
                language = py3langid.classify(text)[0]
                found.append(Candidate(corpus, url, records.get_record_offset(), records.get_record_length(),
                                       text, words, language))
    return sorted(found, key=lambda candidate: candidate.url)


def raw_record(candidate: Candidate) -> bytes:
    """The candidate's record as stored in its WARC (one gzip member), byte for byte."""
    with open(CORPORA / f"{candidate.corpus}.warc.gz", "rb") as stream:
        stream.seek(candidate.offset)
        return stream.read(candidate.length)


def parse_record(raw: bytes) -> tuple[str, str | None, str]:
    """(HTML text, WARC-Date or None, WARC-Target-URI) of one raw record."""
    record = next(iter(ArchiveIterator(io.BytesIO(raw))))
    html = decode_html(record.content_stream().read(), content_type(record))
    return html, record.rec_headers.get_header("WARC-Date"), record.rec_headers.get_header("WARC-Target-URI")


# --- drawing the stories ------------------------------------------------------------------------
def tokens(text: str) -> list[str]:
    """Lower-cased `\\w+` words."""
    return WORD.findall(text.lower())


def parse_html(html: str) -> Any:
    """lxml.html's tree of a page (an XML declaration, which lxml refuses in a str, dropped)."""
    return lxml.html.document_fromstring(XML_DECLARATION.sub("", html, count=1))


def trigrams(words: list[str]) -> set[str]:
    """The word 3-grams of a list of words."""
    return {" ".join(words[i:i + 3]) for i in range(len(words) - 2)}


def body_paragraphs(tree: Any, text: str) -> list[Any]:
    """The `<p>` elements of at least MIN_PARAGRAPH_TOKENS words that are part of the main text (at least
    PARAGRAPH_MATCH of their word 3-grams in it: a footnote mark or a changed quote still matches), in
    document order."""
    target = trigrams(tokens(text))
    found = []
    for paragraph in tree.iter("p"):
        words = tokens(paragraph.text_content())
        grams = trigrams(words)
        if len(words) >= MIN_PARAGRAPH_TOKENS and len(grams & target) >= PARAGRAPH_MATCH * len(grams):
            found.append(paragraph)
    return found


def usable(candidate: Candidate, cache: dict[str, bool]) -> bool:
    """Whether the page parses and has body paragraphs to put a lede before and blocks after."""
    if candidate.url not in cache:
        try:
            html = parse_record(raw_record(candidate))[0]
            cache[candidate.url] = bool(body_paragraphs(parse_html(html), candidate.text))
        except (ParserError, ValueError):
            cache[candidate.url] = False
    return cache[candidate.url]


def draw(candidates: list[Candidate], quota: int, rng: random.Random, cache: dict[str, bool]) -> list[Candidate]:
    """`quota` usable candidates: up to LANGUAGE_FLOOR of each language with >= 2 candidates (taken in turn,
    so a small quota still mixes languages), then the rest in random order."""
    order = list(candidates)
    rng.shuffle(order)
    by_language: dict[str, list[Candidate]] = defaultdict(list)
    for candidate in order:
        by_language[candidate.language].append(candidate)
    floors = []
    for language in sorted(by_language, key=lambda name: (-len(by_language[name]), name)):
        if len(by_language[language]) >= 2:
            floors.append(list(islice((c for c in by_language[language] if usable(c, cache)), LANGUAGE_FLOOR)))
    chosen = [c for turn in zip_longest(*floors) for c in turn if c is not None][:quota]
    taken = {c.url for c in chosen}
    for candidate in order:
        if len(chosen) >= quota:
            break
        if candidate.url not in taken and len(by_language[candidate.language]) >= 2 and usable(candidate, cache):
            chosen.append(candidate)
            taken.add(candidate.url)
    return chosen


# --- making a copy ------------------------------------------------------------------------------
def slugify(text: str) -> str:
    """ASCII, lower-case, words joined by '-', at most 80 characters."""
    ascii_text = unicodedata.normalize("NFKD", text.replace("ß", "ss")).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:80].strip("-")


def path_slug(url: str) -> str:
    """The slug of the URL's last path segment (its file extension dropped)."""
    segments = [segment for segment in urlsplit(url).path.split("/") if segment]
    last = re.sub(r"\.(html?|php|aspx?|jsp|cfm)$", "", unquote(segments[-1]), flags=re.IGNORECASE) if segments else ""
    return slugify(last)


def sentences(text: str) -> list[list[str]]:
    """The text's paragraphs as lists of sentences of 6 to 35 words ending in . ! or ?."""
    paragraphs = []
    for paragraph in text.split("\n"):
        parts = [part.strip() for part in SENTENCE_END.split(paragraph)]
        paragraphs.append([part for part in parts if 6 <= len(part.split()) <= 35 and part[-1:] in ".!?"])
    return paragraphs


def lede(source: Candidate, rng: random.Random) -> str:
    """1-3 consecutive sentences of the source article (fewer when no paragraph has as many)."""
    paragraphs = sentences(source.text)
    for wanted in range(rng.randint(1, 3), 0, -1):
        runs = [p[i:i + wanted] for p in paragraphs for i in range(len(p) - wanted + 1)]
        if runs:
            return " ".join(rng.choice(runs))
    return " ".join(source.text.split()[:25]) + "."


def text_nodes(paragraphs: list[Any]) -> list[tuple[Any, str]]:
    """(element, "text" or "tail") of every text node inside the paragraphs."""
    nodes = []
    for paragraph in paragraphs:
        for node in paragraph.iter():
            if isinstance(node.tag, str) and node.text:
                nodes.append((node, "text"))
            if node is not paragraph and node.tail:
                nodes.append((node, "tail"))
    return nodes


def edit_words(paragraphs: list[Any], replacements: list[str], rng: random.Random) -> int:
    """Replace EDIT_SHARE of the words of the paragraphs' text, at random places; returns how many."""
    nodes = text_nodes(paragraphs)
    places = [(index, match.span()) for index, (node, attribute) in enumerate(nodes)
              for match in LETTER_WORD.finditer(getattr(node, attribute))]
    if not places or not replacements:
        return 0
    chosen = sorted(rng.sample(places, max(1, round(len(places) * EDIT_SHARE))), reverse=True)
    for index, (start, end) in chosen:  # from the end, so earlier spans stay valid
        node, attribute = nodes[index]
        value = getattr(node, attribute)
        setattr(node, attribute, value[:start] + rng.choice(replacements) + value[end:])
    return len(chosen)


def element(tag: str, text: str | None = None, **attributes: str) -> Any:
    """A new lxml.html element."""
    made = lxml.html.Element(tag, **attributes)
    made.text = text
    return made


def link_list(site: Site, labels: list[str] | tuple[str, ...], prefix: str = "") -> Any:
    """`<ul>` of links to pages of the site, one per label."""
    items = element("ul")
    for label in labels:
        item = element("li")
        item.append(element("a", label, href=f"{site.base}/{prefix}{slugify(label)}"))
        items.append(item)
    return items


def header(site: Site) -> Any:
    """The site's header: its name and navigation."""
    block = element("header", None, **{"class": "site-header"})
    name = element("div", None, **{"class": "site-name"})
    name.append(element("a", site.name, href=f"{site.base}/"))
    block.append(name)
    navigation = element("nav")
    navigation.append(link_list(site, site.nav))
    block.append(navigation)
    return block


def footer(site: Site) -> Any:
    """The site's footer: copyright, links, address."""
    block = element("footer", None, **{"class": "site-footer"})
    block.append(element("p", site.copyright))
    block.append(link_list(site, site.footer_links, "info/"))
    block.append(element("p", site.address, **{"class": "address"}))
    return block


def related(site: Site, rng: random.Random) -> Any:
    """The "Related" block: the site's heading and 4-6 of its headlines."""
    block = element("div", None, **{"class": "related"})
    block.append(element("h3", site.related))
    block.append(link_list(site, rng.sample(site.headlines, rng.randint(4, 6)), "2023/11/"))
    return block


def newsletter(site: Site) -> Any:
    """The newsletter box."""
    block = element("div", None, **{"class": "newsletter"})
    block.append(element("p", site.newsletter))
    return block


def set_meta(tree: Any, url: str, site: Site) -> None:
    """The copy's own canonical URL, og:url, twitter:url, og:site_name, title suffix and UTF-8 charset."""
    head = tree.find("head")
    if head is None:
        head = element("head")
        tree.insert(0, head)
    canonical = [link for link in tree.iter("link") if "canonical" in (link.get("rel") or "").lower().split()]
    for link in canonical:
        link.set("href", url)
    if not canonical:
        head.append(element("link", None, rel="canonical", href=url))
    for meta in tree.iter("meta"):
        key = (meta.get("property") or meta.get("name") or "").lower()
        if key in ("og:url", "twitter:url"):
            meta.set("content", url)
        elif key == "og:site_name":
            meta.set("content", site.name)
        if meta.get("charset"):
            meta.set("charset", "utf-8")
        if (meta.get("http-equiv") or "").lower() == "content-type":
            meta.set("content", "text/html; charset=utf-8")
    title = tree.find(".//title")
    if title is not None and (title.text or "").strip():
        title.text = f"{title.text.strip()} | {site.name}"


def inline_related(site: Site, rng: random.Random) -> Any:
    """A "Related: headline" paragraph between body paragraphs, as CMSs insert them."""
    paragraph = element("p", None, **{"class": "inline-related"})
    paragraph.append(element("strong", f"{site.related}:"))
    headline = rng.choice(site.headlines)
    link = element("a", headline, href=f"{site.base}/2023/11/{slugify(headline)}")
    link.tail = ""
    paragraph[-1].tail = " "
    paragraph.append(link)
    return paragraph


def make_copy(html: str, story: Candidate, source: Candidate, site: Site, url: str, rng: random.Random,
              teasers: int = 0) -> str:
    """The original page as the site republishes it (see the module docstring)."""
    tree = parse_html(html)
    paragraphs = body_paragraphs(tree, story.text)
    edit_words(paragraphs, LETTER_WORD.findall(source.text), rng)
    paragraphs[0].addprevious(element("p", lede(source, rng)))
    # inside the body, where extractors keep them: a related headline, the newsletter pitch and a
    # credit line as paragraphs of the story
    paragraphs[len(paragraphs) // 2].addnext(inline_related(site, rng))
    paragraphs[len(paragraphs) // 3].addnext(element("p", site.newsletter, **{"class": "newsletter-inline"}))
    last = paragraphs[-1]
    last.addnext(newsletter(site))
    last.addnext(related(site, rng))
    last.addnext(element("p", f"{site.copyright} {site.address}", **{"class": "credit"}))
    for _ in range(teasers):  # "more from the site": a headline and a standfirst of another story each
        last.addnext(element("p", f"{rng.choice(site.headlines)}. {lede(source, rng)}", **{"class": "teaser"}))
    body = tree.find("body")
    if body is None:
        body = tree
    body.insert(0, header(site))
    body.append(footer(site))
    set_meta(tree, url, site)
    doctype = tree.getroottree().docinfo.doctype or "<!DOCTYPE html>"
    return lxml.html.tostring(tree, encoding="unicode", doctype=doctype)


# --- build --------------------------------------------------------------------------------------
@dataclass
class Page:
    """One page of a story in the built WARC."""

    url: str
    role: str
    site: str
    warc_date: str
    html: str | None = None  # a copy's page; None for an original (copied as recorded)
    raw: bytes = b""

    def entry(self) -> dict[str, str]:
        """The page's entry in stories.json."""
        return {"url": self.url, "role": self.role, "site": self.site, "warc_date": self.warc_date}


@dataclass
class Story:
    """A drawn article and its pages."""

    key: str
    candidate: Candidate
    pages: list[Page] = field(default_factory=list)


def warc_datetime(value: str | None) -> datetime:
    """A WARC-Date as a datetime (DEFAULT_DATE when absent or unreadable)."""
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else DEFAULT_DATE
    except ValueError:
        return DEFAULT_DATE


def lede_source(story: Candidate, chosen: list[Candidate], pool: list[Candidate], rng: random.Random) -> Candidate:
    """Another article of the story's language: a chosen one, else any candidate, else any chosen one."""
    for group in (chosen, pool):
        others = [c for c in group if c.url != story.url and c.language == story.language]
        if others:
            return rng.choice(others)
    return rng.choice([c for c in chosen if c.url != story.url])


def unique_url(site: Site, date: datetime, slug: str, key: str, used: set[str]) -> str:
    """https://SITE/YYYY/MM/SLUG, the story id added when taken (or when the slug is empty)."""
    url = f"{site.base}/{date:%Y}/{date:%m}/{slug or key}"
    if url in used:
        url = f"{url}-{key}"
    used.add(url)
    return url


def make_story(key: str, candidate: Candidate, chosen: list[Candidate], pool: list[Candidate],
               rng: random.Random, used: set[str], teasers: int = 0) -> Story:
    """The story's original page (its raw record) and its two copies on two sites."""
    raw = raw_record(candidate)
    html, date, url = parse_record(raw)
    story = Story(key, candidate, [Page(url, "original", urlsplit(url).hostname or "", date or "", raw=raw)])
    for site in sorted(rng.sample(SITES, 2), key=lambda s: s.domain):
        copy_date = warc_datetime(date) + timedelta(days=rng.randint(1, 30))
        copy_url = unique_url(site, copy_date, path_slug(url), key, used)
        source = lede_source(candidate, chosen, pool, rng)
        story.pages.append(Page(copy_url, "copy", site.domain, copy_date.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                make_copy(html, candidate, source, site, copy_url, rng, teasers)))
    story.pages[1:] = sorted(story.pages[1:], key=lambda page: (page.warc_date, page.url))
    return story


def write_copy(writer: WARCWriter, page: Page) -> None:
    """A copy as a response record with its own HTTP header block and a record id derived from its URL."""
    headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
    record_id = f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, page.url)}>"
    record = writer.create_warc_record(page.url, "response", payload=io.BytesIO(page.html.encode("utf-8")),
                                       http_headers=headers,
                                       warc_headers_dict={"WARC-Date": page.warc_date, "WARC-Record-ID": record_id})
    writer.write_record(record)


def write_warc(path: Path, stories: list[Story]) -> None:
    """Every story's original (as recorded) and its copies, story by story."""
    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for story in stories:
            for page in story.pages:
                if page.role == "original":
                    stream.write(page.raw)
                else:
                    write_copy(writer, page)


def build(out: Path, count: int, seed: int, teasers: int = 0) -> int:
    """Draw the stories, write DIR/republication.warc.gz and DIR/stories.json, print the numbers."""
    rng = random.Random(seed)
    cache: dict[str, bool] = {}
    pools = {corpus: read_candidates(corpus) for corpus in CORPUS_NAMES}
    quotas = {CORPUS_NAMES[0]: count // 2, CORPUS_NAMES[1]: count - count // 2}
    chosen = [c for corpus in CORPUS_NAMES for c in draw(pools[corpus], quotas[corpus], rng, cache)]
    pool = [c for corpus in CORPUS_NAMES for c in pools[corpus]]
    used: set[str] = set()
    stories = [make_story(f"s{index:03d}", c, chosen, pool, rng, used, teasers) for index, c in enumerate(chosen)]
    out.mkdir(parents=True, exist_ok=True)
    write_warc(out / "republication.warc.gz", stories)
    index = {story.key: {"corpus": story.candidate.corpus, "language": story.candidate.language,
                         "words": story.candidate.words, "pages": [page.entry() for page in story.pages]}
             for story in stories}
    (out / "stories.json").write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(stories)} stories, {sum(len(s.pages) for s in stories)} records -> {out / 'republication.warc.gz'}")
    for corpus in CORPUS_NAMES:
        languages = Counter(c.language for c in chosen if c.corpus == corpus)
        candidates = Counter(c.language for c in pools[corpus])
        print(f"  {corpus}: {sum(languages.values())} stories of {len(pools[corpus])} long articles; "
              + ", ".join(f"{lang} {n}/{candidates[lang]}" for lang, n in languages.most_common()))
    print(f"  {sum(not ok for ok in cache.values())} of {len(cache)} pages looked at skipped: no <p> of the main "
          "text found")
    print("  sites: " + ", ".join(f"{d} {n}" for d, n in sorted(Counter(
        p.site for s in stories for p in s.pages if p.role == "copy").items())))
    return 0


# --- reading a run ------------------------------------------------------------------------------
def read_run(run_dir: Path) -> pl.DataFrame:
    """Accepted and rejected rows: url, kept, reasons, text, split and word_count (null when absent: a run
    without splits) and the near-duplicate signals (columns of those names; null when the run lacks them)."""
    frames = []
    for part in ("accepted", "rejected"):
        frame = pl.read_parquet(run_dir / part)
        signals = {f.name for f in frame.schema["signals"].fields} if "signals" in frame.columns else set()
        frames.append(frame.select(
            "url", "kept", "reasons", "text",
            *[pl.col(name) if name in frame.columns else pl.lit(None).alias(name) for name in ("split", "word_count")],
            *[pl.col("signals").struct.field(name).cast(pl.Float64).alias(name) if name in signals
              else pl.lit(None, pl.Float64).alias(name) for name in SIGNAL_FIELDS]))
    return pl.concat(frames, how="diagonal_relaxed")


def shingles(text: str | None) -> set[str]:
    """The text's word 5-grams (lower-cased `\\w+` words)."""
    words = tokens(text or "")
    return {" ".join(words[i:i + 5]) for i in range(len(words) - 4)}


def similarity(first: set[Any], second: set[Any]) -> tuple[float, float]:
    """(containment of the smaller set in the other, Jaccard); zeros when either is empty."""
    if not first or not second:
        return 0.0, 0.0
    shared = len(first & second)
    return shared / min(len(first), len(second)), shared / len(first | second)


def spread(values: list[float]) -> dict[str, float | None]:
    """min, 10th percentile and median."""
    if not values:
        return {"n": 0, "min": None, "p10": None, "median": None}
    return {"n": len(values), "min": float(np.min(values)), "p10": float(np.percentile(values, 10)),
            "median": float(np.median(values))}


def reached_dedup(row: dict[str, Any]) -> bool:
    """Kept, or rejected by de-duplication and dataset rules only."""
    reasons = row["reasons"] or []
    return bool(row["kept"]) or (bool(reasons) and all(r.startswith(("dup.", "dataset.")) for r in reasons))


# --- measure ------------------------------------------------------------------------------------
SITE_BY_DOMAIN = {site.domain: site for site in SITES}


def template_kept(text: str | None, domain: str) -> dict[str, bool]:
    """Which parts of the site's template the extracted text holds (copies on invented sites only)."""
    site = SITE_BY_DOMAIN.get(domain)
    if site is None:
        return {}
    words = " " + " ".join(tokens(text or "")) + " "

    def holds(part: str) -> bool:
        return " " + " ".join(tokens(part)) + " " in words
    return {"related": any(holds(headline) for headline in site.headlines), "newsletter": holds(site.newsletter),
            "footer": holds(site.copyright) or holds(site.address)}


def judge_story(key: str, story: dict[str, Any], rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One story's pages as the run decided them: reached, keeper, copies caught and missed."""
    pages = [{**page, "row": rows.get(page["url"])} for page in story["pages"]]
    present = [page for page in pages if page["row"] is not None]
    reached = [page for page in present if reached_dedup(page["row"])]
    accepted = [page for page in reached if page["row"]["kept"]]
    keeper = (accepted or [p for p in reached if p["role"] == "original"] or reached or [None])[0]
    copies = [page for page in reached if page is not keeper]
    keeper_shingles = shingles(keeper["row"]["text"]) if keeper else set()
    judged = []
    for page in copies:
        containment, jaccard = similarity(shingles(page["row"]["text"]), keeper_shingles)
        reasons = page["row"]["reasons"] or []
        judged.append({"story": key, "url": page["url"], "role": page["role"], "keeper": keeper["url"],
                       "caught": any(r in CAUGHT_REASONS for r in reasons), "reasons": list(reasons),
                       "containment": containment, "jaccard": jaccard, "words": page["row"]["word_count"],
                       "keeper_words": keeper["row"]["word_count"],
                       "template": template_kept(page["row"]["text"], page["site"]),
                       **{name: page["row"][name] for name in SIGNAL_FIELDS}})
    splits = sorted({page["row"]["split"] for page in accepted if page["row"]["split"]})
    kept_roles = sorted(page["role"] for page in accepted)
    return {"story": key, "corpus": story["corpus"], "language": story["language"], "pages": len(pages),
            "missing": len(pages) - len(present), "reached": len(reached), "accepted": [p["url"] for p in accepted],
            "kept_roles": kept_roles,
            "splits": splits, "copies": judged,
            "cross_split": sum("dataset.cross_split" in (p["row"]["reasons"] or []) for p in present),
            "not_reached": [(p["role"], (p["row"]["reasons"] or ["?"])) for p in present if p not in reached]}


def tally(judged: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a group of judged stories."""
    copies = [copy for story in judged for copy in story["copies"]]
    caught = sum(copy["caught"] for copy in copies)
    return {"stories": len(judged), "reached": sum(story["reached"] > 0 for story in judged),
            "copies": len(copies), "caught": caught, "share": caught / len(copies) if copies else None,
            "kept_twice": sum(len(story["accepted"]) >= 2 for story in judged),
            "lost": sum(story["reached"] > 0 and not story["accepted"] for story in judged),
            "two_splits": sum(len(story["splits"]) >= 2 for story in judged),
            "cross_split_pages": sum(story["cross_split"] for story in judged),
            "missing_pages": sum(story["missing"] for story in judged)}


def print_groups(groups: dict[str, dict[str, Any]]) -> None:
    """The table of figures per group."""
    print(f"{'group':<22}{'stories':>8}{'reached':>8}{'copies':>7}{'caught':>7}{'share':>8}{'kept2x':>7}"
          f"{'lost':>5}{'2split':>7}{'xsplit':>7}{'missing':>8}")
    for name, figures in groups.items():
        share = f"{100 * figures['share']:.1f}%" if figures["share"] is not None else "-"
        print(f"{name:<22}{figures['stories']:>8}{figures['reached']:>8}{figures['copies']:>7}{figures['caught']:>7}"
              f"{share:>8}{figures['kept_twice']:>7}{figures['lost']:>5}{figures['two_splits']:>7}"
              f"{figures['cross_split_pages']:>7}{figures['missing_pages']:>8}")


def signal_text(item: dict[str, Any]) -> str:
    """The near-duplicate signals a row holds, as `name=value`."""
    values = [f"{name.removeprefix('near_duplicate_')}={item[name]:.3f}" for name in SIGNAL_FIELDS
              if item.get(name) is not None]
    return ", ".join(values) or "no near-duplicate signals"


def print_details(judged: list[dict[str, Any]]) -> dict[str, Any]:
    """Stories kept twice, lost, in two splits; missed copies; pages that did not reach dedup; spreads."""
    kept_twice = [s for s in judged if len(s["accepted"]) >= 2]
    lost = [s for s in judged if s["reached"] and not s["accepted"]]
    two_splits = [s for s in judged if len(s["splits"]) >= 2]
    for title, group, show in (("stories kept twice", kept_twice, "accepted"), ("stories lost", lost, None),
                               ("stories with accepted pages in two splits", two_splits, "splits")):
        print(f"\n{title}: {len(group)}")
        for story in group:
            print(f"  {story['story']} ({story['corpus']}, {story['language']}): "
                  + (" ".join(story[show]) if show else f"{story['reached']} pages reached dedup, none kept"))
    copies = [copy for story in judged for copy in story["copies"]]
    missed = [copy for copy in copies if not copy["caught"]]
    print(f"\nmissed copies: {len(missed)}")
    for copy in missed:
        print(f"  {copy['story']} {copy['url']} ({copy['role']}; reasons {copy['reasons'] or 'none: kept'})\n"
              f"    vs keeper {copy['keeper']}: exact containment {copy['containment']:.3f}, Jaccard "
              f"{copy['jaccard']:.3f}; words {copy['words']} / {copy['keeper_words']}; {signal_text(copy)}")
    not_reached = Counter(f"{role}: {' '.join(reasons)}" for s in judged for role, reasons in s["not_reached"])
    print(f"\npages that did not reach de-duplication: {sum(not_reached.values())}")
    for line, count in not_reached.most_common():
        print(f"  {count:>4}  {line}")
    spreads = {f"{kind}.{measure}": spread([c[measure] for c in copies if c["caught"] == (kind == "caught")])
               for kind in ("caught", "missed") for measure in ("containment", "jaccard")}
    print("\nexact similarity to the keeper (min / 10th percentile / median)")
    for name, values in spreads.items():
        cells = " / ".join("-" if values[k] is None else f"{values[k]:.3f}" for k in ("min", "p10", "median"))
        print(f"  {name:<22} n={values['n']:<4} {cells}")
    return {"kept_twice": [{"story": s["story"], "urls": s["accepted"]} for s in kept_twice],
            "lost": [s["story"] for s in lost], "two_splits": [s["story"] for s in two_splits],
            "missed": missed, "not_reached": dict(not_reached), "spreads": spreads}


def measure(run_dir: Path, stories_path: Path, json_path: Path | None) -> int:
    """Judge every story against the run and print (and optionally write) the figures."""
    stories = json.loads(stories_path.read_text())
    frame = read_run(run_dir)
    rows = {row["url"]: row for row in frame.iter_rows(named=True)}
    judged = [judge_story(key, story, rows) for key, story in sorted(stories.items())]
    groups = {"all": tally(judged)}
    for attribute in ("language", "corpus"):
        for value in sorted({story[attribute] for story in judged}):
            groups[f"{attribute} {value}"] = tally([s for s in judged if s[attribute] == value])
    print(f"{run_dir}: {len(judged)} stories from {stories_path}")
    print_groups(groups)
    copies = [copy for story in judged for copy in story["copies"] if copy["role"] == "copy"]
    template = {part: sum(copy["template"].get(part, False) for copy in copies)
                for part in ("related", "newsletter", "footer")}
    print(f"template text in the {len(copies)} copies' extracted text: "
          + ", ".join(f"{part} {count}" for part, count in template.items()))
    caught_by = Counter(r for s in judged for c in s["copies"] if c["caught"] for r in c["reasons"]
                        if r in CAUGHT_REASONS)
    kept_roles = Counter(role for story in judged for role in story["kept_roles"])
    print("accepted pages by role: " + ", ".join(f"{role} {n}" for role, n in sorted(kept_roles.items())))
    print("caught by: " + (", ".join(f"{r} {n}" for r, n in caught_by.most_common()) or "-"))
    details = print_details(judged)
    if json_path:
        json_path.write_text(json.dumps({"run_dir": str(run_dir), "stories": str(stories_path), "groups": groups,
                                         "caught_by": dict(caught_by),
                                         "template_kept": template, **details}, indent=1, default=str) + "\n")
    return 0


# --- false merges -------------------------------------------------------------------------------
def closest_accepted(page: set[int], index: dict[int, list[int]], accepted: list[set[int]]) -> tuple[int, float, float]:
    """(accepted row, containment, Jaccard) of the accepted page closest to the page; row -1 when none
    shares a 5-gram with it."""
    shared = Counter(row for gram in page for row in index.get(gram, ()))
    best = (-1, 0.0, 0.0)
    for row in shared:
        containment, jaccard = similarity(page, accepted[row])
        if (containment, jaccard) > best[1:]:
            best = (row, containment, jaccard)
    return best


def one_line(text: str | None, size: int = 200) -> str:
    """The text's first `size` characters on one line."""
    return " ".join((text or "").split())[:size]


def false_merges(run_dir: Path) -> list[dict[str, Any]]:
    """Every dup.near page of the run and the accepted page closest to it."""
    frame = read_run(run_dir)
    accepted = frame.filter(pl.col("kept"))
    near = frame.filter(pl.col("reasons").list.contains("dup.near"))
    accepted_shingles = [{hash(gram) for gram in shingles(text)} for text in accepted["text"]]
    index: dict[int, list[int]] = defaultdict(list)
    for row, grams in enumerate(accepted_shingles):
        for gram in grams:
            index[gram].append(row)
    pairs = []
    for page in near.iter_rows(named=True):
        row, containment, jaccard = closest_accepted({hash(g) for g in shingles(page["text"])}, index,
                                                     accepted_shingles)
        kept = accepted.row(row, named=True) if row >= 0 else {"url": None, "text": None, "word_count": None}
        pairs.append({"run": str(run_dir), "url": page["url"], "kept_url": kept["url"], "containment": containment,
                      "jaccard": jaccard, "words": page["word_count"], "kept_words": kept["word_count"],
                      **{name: page[name] for name in SIGNAL_FIELDS},
                      "text": one_line(page["text"]), "kept_text": one_line(kept["text"])})
    return sorted(pairs, key=lambda pair: (pair["containment"], pair["jaccard"], pair["url"]))


def print_pairs(pairs: list[dict[str, Any]]) -> None:
    """Each pair, least similar first."""
    for number, pair in enumerate(pairs, 1):
        print(f"\n[{number}] containment {pair['containment']:.3f}, Jaccard {pair['jaccard']:.3f}; words "
              f"{pair['words']} / {pair['kept_words']}; {signal_text(pair)}")
        print(f"  dup.near: {pair['url']}\n    {pair['text']}")
        print(f"  kept:     {pair['kept_url'] or '(no accepted page shares a 5-gram)'}\n    {pair['kept_text']}")


def run_false_merges(run_dirs: list[Path], json_path: Path | None) -> int:
    """Print the pairs of every run and their total."""
    everything = []
    for run_dir in run_dirs:
        pairs = false_merges(run_dir)
        print(f"{run_dir}: {len(pairs)} pages rejected dup.near")
        print_pairs(pairs)
        everything.extend(pairs)
    print(f"\n{len(everything)} flagged pairs in all")
    if json_path:
        json_path.write_text(json.dumps(everything, indent=1, ensure_ascii=False) + "\n")
    return 0


# --- command line -------------------------------------------------------------------------------
def parser() -> argparse.ArgumentParser:
    """The three subcommands."""
    top = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="build DIR/republication.warc.gz and DIR/stories.json")
    make.add_argument("--out", type=Path, required=True)
    make.add_argument("--stories", type=int, default=180)
    make.add_argument("--seed", type=int, default=43)
    make.add_argument("--teasers", type=int, default=0,
                      help="paragraphs of other stories (a headline and 1-3 sentences each) added inside each copy: "
                           "a harder set, with more added text")
    judge = commands.add_parser("measure", help="copies caught, stories kept twice or lost, in a run over the WARC")
    judge.add_argument("run_dir", type=Path)
    judge.add_argument("--stories", type=Path, required=True)
    judge.add_argument("--json", type=Path)
    merges = commands.add_parser("false-merges", help="every dup.near page beside its closest accepted page")
    merges.add_argument("run_dirs", type=Path, nargs="+")
    merges.add_argument("--json", type=Path)
    return top


def main() -> int:
    args = parser().parse_args()
    if args.command == "build":
        missing = [name for name in CORPUS_NAMES if not (CORPORA / f"{name}.warc.gz").is_file()]
        if missing:
            print(f"skipped: {CORPORA} lacks {', '.join(missing)} (the shared corpora)", file=sys.stderr)
            return 2
        return build(args.out, args.stories, args.seed, args.teasers)
    if args.command == "measure":
        return measure(args.run_dir, args.stories, args.json)
    return run_false_merges(args.run_dirs, args.json)


if __name__ == "__main__":
    sys.exit(main())
