"""What the sample is made of: sites, articles and text blocks read from `data/sample-src/*.json`,
and the record and expectation types the builders share."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

SAMPLE_WARC = "sample.warc.gz"
DAMAGED_WARC = "damaged.warc.gz"
MANIFEST = "manifest.json"  # beside the sample directory: DIR.manifest.json (`manifest_path`)


def manifest_path(out_dir: Path) -> Path:
    """Where the sample's labels go: beside its directory (`data/sample.manifest.json`), so that
    `pipeline run DIR` reads inputs only and has no file to skip."""
    return out_dir.parent / f"{out_dir.name}.{MANIFEST}"
HTML_DIR = "html"

ID_NAMESPACE = uuid.UUID("6f1c1d2e-5b0a-4c8e-9d3f-2a7b8c9d0e1f")
USER_AGENT = "corpus-filter-sample/0.1 (+https://crawler.example/about)"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


# --------------------------------------------------------------------------------------------
# Manifest and record descriptions
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Expect:
    """What the finished pipeline must do with one record: the manifest's judgement."""

    kind: str
    reasons: tuple[str, ...]
    kept: bool | None
    note: str
    features: tuple[str, ...] = ()
    # For kept pages: the `era` select must give (publication date, else capture date, against
    # dataset.era_cutoff, 2022-11-30). None for the others.
    era: str | None = None


@dataclass(frozen=True)
class Capture:
    """One WARC record to write, with the expectation that goes into the manifest.

    `status` is the HTTP status line for response/revisit records and None for records
    without HTTP headers; `payload` is the HTTP body exactly as stored (already chunked or
    gzipped where the headers say so). `links_to` names the URL of the response record this
    one belongs with (request, metadata, revisit).
    """

    record_type: str
    url: str
    when: datetime
    expect: Expect
    payload: bytes = b""
    status: str | None = None
    http_headers: tuple[tuple[str, str], ...] = ()
    warc_headers: tuple[tuple[str, str], ...] = ()
    warc_content_type: str = ""
    links_to: str | None = None


def manifest_entry(file: str, offset: int, url: str | None, record_type: str, expect: Expect) -> dict[str, object]:
    """One manifest entry; `offset` matches the pipeline's `source_offset` column."""
    return {
        "file": file,
        "offset": offset,
        "url": url,
        "record_type": record_type,
        "kind": expect.kind,
        "expected_reasons": list(expect.reasons),
        "kept": expect.kept,
        "note": expect.note,
        "features": sorted(expect.features),
        "era": expect.era,
    }


# --------------------------------------------------------------------------------------------
# Sites and articles
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Site:
    """A publisher: its host, name, web server banner and navigation menu."""

    host: str
    name: str
    server: str
    nav: tuple[tuple[str, str], ...]

    def url(self, path: str) -> str:
        return f"https://{self.host}{path}"


@dataclass(frozen=True)
class Article:
    """An article page's content, one string per paragraph as it appears on the page."""

    site: Site
    path: str
    title: str
    author: str
    published: str  # ISO 8601 with offset
    description: str
    paragraphs: tuple[str, ...]
    section: str = "News"
    lang: str = "en"
    byline: str = "By"

    @property
    def url(self) -> str:
        return self.site.url(self.path)

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


# --------------------------------------------------------------------------------------------
# The data files
# --------------------------------------------------------------------------------------------

# Beside the sample it builds, in the source checkout: `pipeline sample` is a developer command.
SOURCE_DIR = Path(__file__).resolve().parent.parent / "data" / "sample-src"


def _load(name: str) -> dict:
    return json.loads((SOURCE_DIR / name).read_text(encoding="utf-8"))


def _site(data: dict) -> Site:
    return Site(data["host"], data["name"], data["server"], tuple((label, href) for label, href in data["nav"]))


SITES = {key: _site(data) for key, data in _load("sites.json").items()}


def _article(data: dict, extra_paragraphs: tuple[str, ...] = ()) -> Article:
    site = data["site"]
    fields = {k: v for k, v in data.items() if k not in ("site", "paragraphs")}
    return Article(site=SITES[site] if isinstance(site, str) else _site(site),
                   paragraphs=tuple(data["paragraphs"]) + extra_paragraphs, **fields)


def _council_notice(data: dict, boilerplate: dict) -> Article:
    *own, last = data["paragraphs"]
    run_on = f"{last} {boilerplate['run_on']}"
    return _article({**data, "paragraphs": [*own, run_on]}, tuple(boilerplate["shared_paragraphs"]))


def _tuples(rows: list) -> tuple:
    """JSON arrays back to the nested tuples the builders were written with."""
    return tuple(_tuples(row) if isinstance(row, list) else row for row in rows)


ARTICLES = {key: _article(data) for key, data in _load("articles.json").items()}
_NOTICES = _load("council-notices.json")
COUNCIL_NOTICES = tuple(_council_notice(data, _NOTICES) for data in _NOTICES["notices"])
TEXTS = {key: _tuples(value) if isinstance(value, list) else value for key, value in _load("texts.json").items()}

OCEAN_BLOG = SITES["ocean_blog"]
HERALD = SITES["herald"]
KITCHEN = SITES["kitchen"]
BYTEFIELD = SITES["bytefield"]
WANDER = SITES["wander"]
LANTERN = SITES["lantern"]
STADTBLATT = SITES["stadtblatt"]
SKYWATCH = SITES["skywatch"]
COUNCIL = SITES["council"]
ROUNDUP = SITES["roundup"]
HERITAGE = SITES["heritage"]
SHOP = SITES["shop"]
METRO = SITES["metro"]
RECIPE_APP = SITES["recipe_app"]
LAKESIDE = SITES["lakeside"]
LEDGER = SITES["ledger"]
COURIER = SITES["courier"]
BOOKSHOP = SITES["bookshop"]
QUIET_GADGETS = SITES["quiet_gadgets"]
TINKERERS = SITES["tinkerers"]  # a forum: a thread's posts are segments
TIDEWISE = SITES["tidewise"]  # a Q&A site: a question and its answers are segments
FORUM_THREAD = TEXTS["forum_thread"]
QA_PAGE = TEXTS["qa_page"]
TIDE_GAUGES = ARTICLES["tide_gauges"]
CYCLE_LANES = ARTICLES["cycle_lanes"]
ONIONS = ARTICLES["onions"]
RETRY_BUDGETS = ARTICLES["retry_budgets"]
NIGHT_TRAIN = ARTICLES["night_train"]
LAMPLIGHTERS = ARTICLES["lamplighters"]
BIBLIOTHEK = ARTICLES["bibliothek"]
WINTER_HEXAGON = ARTICLES["winter_hexagon"]
REPAIR_CAFES = ARTICLES["repair_cafes"]
ZURICH_CAFES = ARTICLES["zurich_cafes"]
FOOTPATH = ARTICLES["footpath"]
NOTEBOOK = ARTICLES["notebook"]
IDOU_TOSHOKAN = ARTICLES["idou_toshokan"]
FIELD_TRIP_NOTE = ARTICLES["field_trip_note"]
POTATO_TIP = ARTICLES["potato_tip"]
FUME_EXTRACTOR = ARTICLES["fume_extractor"]
LIBRARY_HOURS = ARTICLES["library_hours"]
QUARRY_LANE = ARTICLES["quarry_lane"]
ORCHARD = ARTICLES["orchard"]
EARBUDS_REVIEW = ARTICLES["earbuds_review"]
NIGHT_BUS = ARTICLES["night_bus"]
MARINA_VOTE = ARTICLES["marina_vote"]
SAVINGS_RATES = ARTICLES["savings_rates"]
OCEAN_POSTS = TEXTS["ocean_posts"]
OLDER_OCEAN_POSTS = TEXTS["older_ocean_posts"]
BAKING_POSTS = TEXTS["baking_posts"]
SEARCH_RESULTS = TEXTS["search_results"]
HOME_SECTIONS = TEXTS["home_sections"]
PRODUCT_SPECS = TEXTS["product_specs"]
RELATED_PRODUCTS = TEXTS["related_products"]
COOKIE_BANNER = TEXTS["cookie_banner"]
BOOK_REVIEWS = TEXTS["book_reviews"]
ONION_EDITS = TEXTS["onion_edits"]
TRUNCATE_AFTER = TEXTS["truncate_after"]
BOOK_DESCRIPTION = TEXTS["book_description"]
