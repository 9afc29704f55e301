"""The WARC records of `sample.warc.gz`, in file order, each with the manifest's expectation, and the
byte-level helpers (chunking, gzip, tiny PNG/PDF, hash-chain garbage, HTTP responses)."""

from __future__ import annotations

import gzip
import hashlib
import io
import struct
import zlib
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

from samplegen.article_pages import (
    bibliothek_page,
    council_notice_page,
    cycle_lanes_page,
    lamplighters_page,
    night_train_page,
    onions_page,
    retry_budgets_page,
    short_post_page,
    tide_gauges_page,
    winter_hexagon_page,
)
from samplegen.content import (
    BIBLIOTHEK,
    BOOKSHOP,
    BYTEFIELD,
    COUNCIL,
    COUNCIL_NOTICES,
    CYCLE_LANES,
    EARBUDS_REVIEW,
    FIELD_TRIP_NOTE,
    FORUM_THREAD,
    FUME_EXTRACTOR,
    HERALD,
    HERITAGE,
    KITCHEN,
    LAKESIDE,
    LAMPLIGHTERS,
    LANTERN,
    LEDGER,
    MARINA_VOTE,
    METRO,
    NIGHT_BUS,
    NIGHT_TRAIN,
    OCEAN_BLOG,
    ONION_EDITS,
    ONIONS,
    POTATO_TIP,
    QA_PAGE,
    QUIET_GADGETS,
    RECIPE_APP,
    RETRY_BUDGETS,
    ROUNDUP,
    SAVINGS_RATES,
    SHOP,
    SKYWATCH,
    STADTBLATT,
    TIDE_GAUGES,
    TIDEWISE,
    TINKERERS,
    TRUNCATE_AFTER,
    USER_AGENT,
    WANDER,
    WINTER_HEXAGON,
    Article,
    Capture,
    Expect,
    Site,
)
from samplegen.pages import (
    amp_page,
    article_block,
    blog_index_page,
    blog_page_two,
    bookshop_product_page,
    category_page,
    cookie_wall_page,
    description,
    document,
    earbuds_review_page,
    forum_thread_page,
    home_page,
    login_page,
    meta,
    moved_page,
    nextjs_shell_page,
    not_found_page,
    paywall_page,
    product_page,
    qa_page,
    react_shell_page,
    search_page,
    tag_page,
)


def chunked(body: bytes, size: int = 1024) -> bytes:
    """HTTP/1.1 chunked transfer coding of `body`."""
    out = io.BytesIO()
    for start in range(0, len(body), size):
        piece = body[start:start + size]
        out.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    out.write(b"0\r\n\r\n")
    return out.getvalue()


def gzip_bytes(data: bytes) -> bytes:
    """gzip with mtime 0 and no file name, so the bytes never change between runs."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def tiny_png() -> bytes:
    """A valid 4x4 RGB PNG."""
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    width = height = 4
    rows = b"".join(b"\x00" + bytes((30, 110, 190)) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def tiny_pdf() -> bytes:
    """A one-page PDF with a correct cross-reference table."""
    stream = b"BT /F1 18 Tf 72 720 Td (Annual road condition survey 2024) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def garbage_bytes(size: int, seed: str) -> bytes:
    """Binary noise from a SHA-256 hash chain: stable across Python versions, unlike `random`."""
    out = bytearray()
    state = seed.encode()
    while len(out) < size:
        state = hashlib.sha256(state).digest()
        out += state
    return bytes(out[:size])


# --------------------------------------------------------------------------------------------
# Captures: what goes into sample.warc.gz, in order
# --------------------------------------------------------------------------------------------

class Clock:
    """Capture times a crawler might produce: one fetch every 47 seconds."""

    def __init__(self, start: datetime) -> None:
        self._next = start

    def tick(self) -> datetime:
        now = self._next
        self._next += timedelta(seconds=47)
        return now


def _http_date(when: datetime) -> str:
    return format_datetime(when, usegmt=True)


def response(url: str, body: bytes, expect: Expect, when: datetime, *, server: str = "nginx",
             status: str = "200 OK", content_type: str | None = "text/html; charset=utf-8",
             extra: Sequence[tuple[str, str]] = (), content_length: int | None = None,
             warc_headers: Sequence[tuple[str, str]] = ()) -> Capture:
    """A response record with realistic HTTP headers; `content_length` overrides the computed one."""
    headers: list[tuple[str, str]] = [("Date", _http_date(when))]
    if server:
        headers.append(("Server", server))
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    if not any(k.lower() == "transfer-encoding" for k, _ in extra):
        headers.append(("Content-Length", str(len(body) if content_length is None else content_length)))
    headers.extend(extra)
    return Capture("response", url, when, expect, payload=body, status=status, http_headers=tuple(headers),
                   warc_headers=tuple(warc_headers))


def html_response(url: str, page: str, expect: Expect, when: datetime, site: Site, *,
                  status: str = "200 OK", content_type: str | None = "text/html; charset=utf-8") -> Capture:
    """A UTF-8 HTML page served by `site`'s web server."""
    extra = (("Cache-Control", "max-age=300"), ("Vary", "Accept-Encoding"))
    return response(url, page.encode("utf-8"), expect, when, server=site.server, status=status,
                    content_type=content_type, extra=extra)


def kept_article(kind: str, note: str, *features: str, era: str = "post_cutoff") -> Expect:
    """A page the pipeline keeps; `era`: the sample's pages are published (or captured, when they
    carry no date) in 2024-2025, after the cut-off, except those marked otherwise."""
    return Expect(kind, (), True, note, tuple(features), era=era)


def rejected(kind: str, reasons: Sequence[str], note: str, *features: str) -> Expect:
    return Expect(kind, tuple(reasons), False, note, tuple(features))


def not_a_row(kind: str, note: str) -> Expect:
    return Expect(kind, (), None, note)


def sample_captures() -> list[Capture]:
    """Every record of sample.warc.gz after the warcinfo record, in file order.

    Order matters: duplicates must come after their originals (first occurrence wins) and the
    template pages after the first notice of their host.
    """
    clock = Clock(datetime(2025, 2, 3, 9, 0, 0, tzinfo=UTC))
    return [*_article_captures(clock), *_non_article_captures(clock), *_duplicate_captures(clock),
            *_record_level_captures(clock)]


def _article_captures(clock: Clock) -> Iterator[Capture]:
    when = clock.tick()
    yield html_response(TIDE_GAUGES.url, tide_gauges_page(), kept_article(
        "article_jsonld", "Full blog post with JSON-LD BlogPosting; its request record follows it.",
        "jsonld:BlogPosting", "has_request_record"), when, OCEAN_BLOG)
    yield Capture("request", TIDE_GAUGES.url, when, not_a_row("request", "The GET that fetched the tide gauge post."),
                  status=f"GET {TIDE_GAUGES.path} HTTP/1.1",
                  http_headers=(("Host", OCEAN_BLOG.host), ("User-Agent", USER_AGENT),
                                ("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"),
                                ("Accept-Encoding", "identity")),
                  links_to=TIDE_GAUGES.url)

    lanes = cycle_lanes_page().encode("utf-8")
    when = clock.tick()
    yield response(CYCLE_LANES.url, chunked(lanes), kept_article(
        "article_jsonld", "Local news with a JSON-LD @graph, sent with Transfer-Encoding: chunked.",
        "jsonld:@graph", "http:chunked"), when, server=HERALD.server,
        extra=(("Transfer-Encoding", "chunked"), ("Cache-Control", "no-cache")))
    metadata = (f"via: {HERALD.url('/')}\r\nhopsFromSeed: L\r\nfetchTimeMs: 412\r\n"
                f"outlink: {HERALD.url('/news/')} L a/@href\r\n").encode()
    yield Capture("metadata", CYCLE_LANES.url, when,
                  not_a_row("metadata", "Crawler metadata (fetch time, outlinks) for the cycle lanes story."),
                  payload=metadata, warc_content_type="application/warc-fields", links_to=CYCLE_LANES.url)
    yield html_response(CYCLE_LANES.url + ".amp", amp_page(CYCLE_LANES), rejected(
        "amp_page", ["url.hard_excluded"],
        "AMP copy of the cycle lanes story; URLs matching .amp(?|$) are hard-excluded.",
        "url:amp"), clock.tick(), HERALD)

    onions = onions_page().encode("utf-8")
    yield response(ONIONS.url, gzip_bytes(onions), kept_article(
        "article_opengraph", "Cooking article with Open Graph, article:published_time and meta author, "
        "sent with Content-Encoding: gzip.", "og:article", "meta:author", "http:content-encoding-gzip"),
        clock.tick(), server=KITCHEN.server, extra=(("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")))

    yield html_response(RETRY_BUDGETS.url, retry_budgets_page(), kept_article(
        "article_jsonld", "Software post (published 2021: era pre_cutoff) whose JSON-LD @type is a list; the "
        "response has no Content-Type header, so the payload must be sniffed as HTML.", "jsonld:type-list",
        "http:no-content-type", era="pre_cutoff"),
        clock.tick(), BYTEFIELD, content_type=None)
    yield html_response(NIGHT_TRAIN.url, night_train_page(), kept_article(
        "article_twitter_card", "Travel story whose only metadata is a Twitter card (creator as author).",
        "twitter:card"), clock.tick(), WANDER)
    yield html_response(LAMPLIGHTERS.url, lamplighters_page(), kept_article(
        "article_jsonld", "History article (published 2019: era pre_cutoff) whose JSON-LD NewsArticle carries "
        "the full articleBody.", "jsonld:NewsArticle", "jsonld:articleBody", era="pre_cutoff"), clock.tick(),
        LANTERN)
    yield html_response(EARBUDS_REVIEW.url, earbuds_review_page(), kept_article(
        "article_buy_box", "Product review with prices in the prose, an affiliate 'Buy now' box linking to "
        "other sites and a JSON-LD Review of a Product with offers: page.product must not fire.",
        "shop:affiliate-box", "jsonld:Review"), clock.tick(), QUIET_GADGETS)
    yield html_response(BIBLIOTHEK.url, bibliothek_page(), kept_article(
        "non_english_article", "German local news (html lang=de, og:locale de_DE); kept because the "
        "default language allow-list is all.", "lang:de"), clock.tick(), STADTBLATT)

    full = winter_hexagon_page().encode("utf-8")
    cut = full.index(TRUNCATE_AFTER.encode()) + len(TRUNCATE_AFTER)
    yield response(WINTER_HEXAGON.url, full[:cut], kept_article(
        "truncated_article", "WARC-Truncated: length; the HTML stops mid-paragraph and the HTTP "
        "Content-Length is the untruncated size, but the five paragraphs present are still an article.",
        "warc:truncated"), clock.tick(), server=SKYWATCH.server, content_length=len(full),
        warc_headers=(("WARC-Truncated", "length"),))

    for index, notice in enumerate(COUNCIL_NOTICES):
        if index == 0:
            expect = kept_article("template_page", "First notice on its host: shared boilerplate is not yet "
                                  "duplicated, so the unique notice plus the block is kept.", "cdc:first")
        else:
            expect = rejected("template_page", ["dup.cdc"], "Same-host notice whose text is mostly the "
                              "council's shared boilerplate block: over half its CDC chunks were seen on "
                              "an earlier page of the host.", "cdc:repeat")
        yield html_response(notice.url, council_notice_page(notice), expect, clock.tick(), COUNCIL)


def _non_article_captures(clock: Clock) -> Iterator[Capture]:
    head = description(FUME_EXTRACTOR) + meta(author=FUME_EXTRACTOR.author)
    resource = document(title=FUME_EXTRACTOR.title, head=head, body=article_block(FUME_EXTRACTOR))
    yield Capture("resource", FUME_EXTRACTOR.url, clock.tick(), rejected(
        "short_post", ["length.tokens"], "A resource record (no HTTP headers, WARC Content-Type text/html) "
        "holding a 70-word post: under the 200-token minimum.", "warc:resource"),
        payload=resource.encode("utf-8"), warc_content_type="text/html; charset=utf-8")
    yield html_response(FIELD_TRIP_NOTE.url, short_post_page(FIELD_TRIP_NOTE), rejected(
        "short_post", ["length.tokens"], "A 90-word notice on the blog: scores as an article but is under "
        "200 tokens."), clock.tick(), OCEAN_BLOG)
    yield html_response(POTATO_TIP.url, short_post_page(POTATO_TIP), rejected(
        "short_post", ["length.tokens"], "A 70-word reader tip: under 200 tokens."), clock.tick(), KITCHEN)

    score = "article.score"
    pages = (
        (OCEAN_BLOG.url("/blog/"), blog_index_page(), "blog_listing", OCEAN_BLOG,
         "Blog index with twelve teasers: single path segment, rel=next and many links keep the article "
         "score far below 35."),
        (OCEAN_BLOG.url("/tag/oceans/"), tag_page(), "tag_page", OCEAN_BLOG,
         "Tag archive: /tag/ is an excluded path pattern (-30)."),
        (KITCHEN.url("/category/baking/"), category_page(), "category_page", KITCHEN,
         "Category archive: /category/ is an excluded path pattern (-30)."),
        (HERALD.url("/"), home_page(), "home_page", HERALD,
         "Front page that is almost all headline links: path depth 0 (-20) and many links."),
        (OCEAN_BLOG.url("/blog/page/2/"), blog_page_two(), "paginated_list", OCEAN_BLOG,
         "Second page of the blog index: paginated URL, rel=prev/next."),
        (HERALD.url("/login"), login_page(), "login_page", HERALD,
         "Sign-in form: /login is a soft-excluded pattern (it counts in the score, but is not "
         "hard-excluded), single segment, under 50 words."),
        (KITCHEN.url("/search?q=sourdough+starter"), search_page(), "search_page", KITCHEN,
         "Site search results: /search pattern (-30) and single segment (-20)."),
        (SHOP.url("/products/aurora-x2-wireless-earbuds"), product_page(), "product_spec", SHOP,
         "Product page with a spec table, price and Add to cart: no author, no date, under 300 words "
         "(spec charts are a non-article)."),
    )
    for url, page, kind, site, note in pages:
        yield html_response(url, page, rejected(kind, [score], note), clock.tick(), site)
    yield html_response(TINKERERS.url(FORUM_THREAD["path"]), forum_thread_page(), rejected(
        "forum_thread", ["length.tokens"], "A forum thread of four posts (XenForo's markup): the extraction keeps "
        "the opening post alone, under 200 tokens (the default page-type model turns the page away before "
        "extraction: article.page_model). Each post of about 110 words is a segment, written by its poster, "
        "with the poster's block and the controls left out of its text.", "segments:forum"), clock.tick(), TINKERERS)
    yield html_response(TIDEWISE.url(QA_PAGE["path"]), qa_page(), kept_article(
        "qa_page", "A question and two answers in schema.org microdata: the seed's rules keep the page, whose "
        "question and answers read as one text (the default page-type model turns it away: article.page_model). "
        "The question and each answer are segments.", "segments:qa"), clock.tick(), TIDEWISE)
    book_url = BOOKSHOP.url("/books/the-cartographers-apprentice/9781840004127")
    yield html_response(book_url, bookshop_product_page(), rejected(
        "product_page", ["page.product"], "2009-style book-shop page: a 300-word publisher's description and three "
        "reader reviews pass the article score and every text rule; its Add to basket image button, Qty field, "
        "prices, ISBN and 'Usually dispatched' line make it page.product.", "shop:legacy"), clock.tick(), BOOKSHOP)

    yield html_response(NIGHT_BUS.url, nextjs_shell_page(), rejected(
        "nextjs_shell", ["page.js_shell"], "Next.js page before hydration: empty div#__next, __NEXT_DATA__ "
        "and eleven /_next/ scripts; its rich head metadata lifts the score to about 45, so the JS-shell "
        "rule is what rejects it.", "js:nextjs"), clock.tick(), METRO)
    yield html_response(RECIPE_APP.url("/recipes/lemon-tart"), react_shell_page(), rejected(
        "react_root_shell", [score], "Create-React-App shell: empty div#root and the 'You need to enable "
        "JavaScript' noscript; no metadata, so the article-score gate rejects it before extraction, and "
        "page.* reasons are only given to pages that were extracted.", "js:react"),
        clock.tick(), RECIPE_APP)
    yield html_response(MARINA_VOTE.url, cookie_wall_page(), rejected(
        "cookie_wall", ["page.cookie_wall", "gopher.word_count", "block.no_long_block", "block.large_block_share"],
        "CookieYes consent overlay in front of an article whose body waits for consent: only the headline and "
        "a standfirst are visible, fewer than Gopher's 50 words, in no block of 200 characters (the seed's "
        "block rules).", "cookie:cookieyes"),
        clock.tick(), LAKESIDE)
    yield html_response(SAVINGS_RATES.url, paywall_page(), rejected(
        "paywall", ["page.paywall", "length.tokens", "block.large_block_share"], "Metered paywall: one 60-word "
        "teaser paragraph, 'Subscribe to continue reading', class=paywall and isAccessibleForFree=false; the "
        "prompt's short blocks leave the teaser under the seed's 75 % of text in large blocks.", "paywall:metered"),
        clock.tick(), LEDGER)


def _duplicate_captures(clock: Clock) -> Iterator[Capture]:
    edited = ONIONS.text
    for old, new in ONION_EDITS:
        if edited.count(old) != 1:
            raise ValueError(f"near-duplicate edit {old!r} must match exactly once")
        edited = edited.replace(old, new)
    copy = Article(ROUNDUP, "/dinner/2024/02/12/the-patient-art-of-caramelising-onions", ONIONS.title,
                   ONIONS.author, "2024-02-12T07:00:00+00:00", ONIONS.description, tuple(edited.split("\n\n")),
                   section="Dinner")
    yield html_response(copy.url, onions_page(copy), rejected(
        "near_duplicate", ["dup.near"], "The onion article republished on another host with one regional "
        "word swapped: not an exact copy, but a near duplicate."), clock.tick(), ROUNDUP)
    yield html_response(HERITAGE.url("/features/2023/12/04/the-lamplighters-of-old-harbour-town"),
                        lamplighters_page(site=HERITAGE), rejected(
        "exact_duplicate", ["dup.exact"], "The lamplighters article republished verbatim on another host "
        "(different site chrome, identical article): same content hash."), clock.tick(), HERITAGE)
    yield html_response(TIDE_GAUGES.url + "?utm_source=newsletter&utm_medium=email&utm_campaign=spring-digest",
                        tide_gauges_page(), rejected(
        "url_duplicate", ["dup.url"], "The tide gauge post fetched again through a newsletter link: the URL "
        "normalises to the original once utm_* parameters are stripped. Its content hash and "
        "CDC chunks also match the original."), clock.tick(), OCEAN_BLOG)
    yield Capture("revisit", TIDE_GAUGES.url, clock.tick(), not_a_row(
        "revisit", "Identical-payload-digest revisit of the tide gauge post."), status="200 OK",
        http_headers=(("Date", "Mon, 03 Feb 2025 11:02:00 GMT"), ("Server", OCEAN_BLOG.server),
                      ("Content-Type", "text/html; charset=utf-8")),
        links_to=TIDE_GAUGES.url)


def _record_level_captures(clock: Clock) -> Iterator[Capture]:
    status = "record.http_status"
    yield response(OCEAN_BLOG.url("/media/2024/03/tide-gauge-pier.png"), tiny_png(), rejected(
        "image", ["record.not_html", "url.extension"], "A 4x4 PNG (Content-Type: image/png)."), clock.tick(),
        server=OCEAN_BLOG.server, content_type="image/png")
    yield response(COUNCIL.url("/documents/2024/annual-road-survey.pdf"), tiny_pdf(), rejected(
        "pdf", ["record.not_html", "url.extension"], "A one-page PDF (Content-Type: application/pdf)."), clock.tick(),
        server=COUNCIL.server, content_type="application/pdf")
    yield html_response(HERALD.url("/news/2023/11/02/old-market-hall-reopening"), not_found_page(), rejected(
        "not_found_404", [status], "HTTP 404 with an HTML error page."), clock.tick(), HERALD,
        status="404 Not Found")
    location = CYCLE_LANES.url
    yield response(HERALD.url("/local/harbour-road-cycle-lanes"), moved_page(location).encode(), rejected(
        "redirect_301", [status], "HTTP 301 with a Location header and a stub body."), clock.tick(),
        server=HERALD.server, status="301 Moved Permanently", extra=(("Location", location),))
    yield response(HERALD.url("/news/2024/05/15/live-updates-harbour-road"), b"", rejected(
        "empty_response", ["record.empty"], "HTTP 200 text/html with a zero-length body."), clock.tick(),
        server=HERALD.server)
    yield response(METRO.url("/news/2024/06/04/transport-budget-explained"),
                   garbage_bytes(2048, "corpus-filter sample: undecodable"), rejected(
        "undecodable_binary", ["record.undecodable"], "2 KB of binary noise declared as text/html; "
        "charset=utf-8: decoding leaves far more than 5% replacement or control characters."), clock.tick(),
        server=METRO.server)


# --------------------------------------------------------------------------------------------
# WARC writing
# --------------------------------------------------------------------------------------------

