"""Writing the sample: WARC members, the damaged WARC, the plain HTML files and `manifest.json`."""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from samplegen.article_pages import (
    short_post_page,
)
from samplegen.captures import Clock, gzip_bytes, html_response, kept_article, not_a_row, rejected, sample_captures
from samplegen.content import (
    COURIER,
    DAMAGED_WARC,
    FOOTPATH,
    HTML_DIR,
    ID_NAMESPACE,
    IDOU_TOSHOKAN,
    LIBRARY_HOURS,
    NOTEBOOK,
    ORCHARD,
    QUARRY_LANE,
    REPAIR_CAFES,
    SAMPLE_WARC,
    USER_AGENT,
    ZURICH_CAFES,
    Capture,
    Expect,
    manifest_entry,
    manifest_path,
)
from samplegen.pages import (
    article_block,
    article_page,
    description,
    document,
    jsonld,
    link,
    meta,
    news_jsonld,
    og,
    opengraph_article,
)


def warc_date(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def record_id(file: str, record_type: str, url: str) -> str:
    """A stable WARC-Record-ID: UUIDv5 of the file, record type and URL."""
    return f"<urn:uuid:{uuid.uuid5(ID_NAMESPACE, f'{file}|{record_type}|{url}')}>"


@dataclass
class _Written:
    """What later records need to know about a response: its id, date and payload digest."""

    ids: dict[str, str] = field(default_factory=dict)
    dates: dict[str, str] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)


def _member(buf: io.BytesIO, writer: WARCWriter, record: object) -> bytes:
    """Write one record into its own buffer, so each record is exactly one gzip member."""
    writer.write_record(record)
    return buf.getvalue()


def warcinfo_member(file: str) -> bytes:
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True)
    # Names the entry point `pipeline sample`, as it did before the builder moved: a new path here
    # would change every committed byte after the warcinfo record's offset.
    info = (
        "software: corpus-filter pipeline sample generator (pipeline/sample.py)\r\n"
        "format: WARC File Format 1.0\r\n"
        "conformsTo: http://bibnum.bnf.fr/WARC/WARC_ISO_28500_version1_latestdraft.pdf\r\n"
        f"http-header-user-agent: {USER_AGENT}\r\n"
        "robots: classic\r\n"
        "description: synthetic crawl of example hosts; every page is original text written for "
        "the corpus-filter test suite\r\n"
    ).encode()
    headers = {"WARC-Record-ID": record_id(file, "warcinfo", file), "WARC-Date": "2025-02-03T08:59:00Z",
               "WARC-Filename": file}
    record = writer.create_warc_record("", "warcinfo", payload=io.BytesIO(info), length=len(info),
                                       warc_content_type="application/warc-fields", warc_headers_dict=headers)
    return _member(buf, writer, record)


def capture_member(file: str, capture: Capture, written: _Written) -> bytes:
    """One capture as a gzip member; responses are remembered for the records that refer to them."""
    buf = io.BytesIO()
    writer = WARCWriter(buf, gzip=True)
    own_id = record_id(file, capture.record_type, capture.url)
    headers: dict[str, str] = {"WARC-Record-ID": own_id, "WARC-Date": warc_date(capture.when)}
    if capture.links_to and capture.record_type in ("request", "metadata"):
        headers["WARC-Concurrent-To"] = written.ids[capture.links_to]
    headers.update(capture.warc_headers)
    if capture.record_type == "revisit":
        http = StatusAndHeaders(capture.status or "", list(capture.http_headers), protocol="HTTP/1.1")
        target = capture.links_to or capture.url
        record = writer.create_revisit_record(capture.url, written.digests[target], target, written.dates[target],
                                              http_headers=http, warc_headers_dict=headers)
        record.rec_headers.add_header("WARC-Refers-To", written.ids[target])
        return _member(buf, writer, record)
    http_headers = _http_headers(capture)
    record = writer.create_warc_record(capture.url, capture.record_type, payload=io.BytesIO(capture.payload),
                                       length=len(capture.payload), warc_content_type=capture.warc_content_type,
                                       warc_headers_dict=headers, http_headers=http_headers)
    if capture.record_type == "response":
        written.ids[capture.url] = own_id
        written.dates[capture.url] = headers["WARC-Date"]
        written.digests[capture.url] = record.rec_headers.get_header("WARC-Payload-Digest")
    return _member(buf, writer, record)


def _http_headers(capture: Capture) -> StatusAndHeaders | None:
    if capture.status is None:
        return None
    if capture.record_type == "request":
        return StatusAndHeaders(capture.status, list(capture.http_headers), is_http_request=True)
    return StatusAndHeaders(capture.status, list(capture.http_headers), protocol="HTTP/1.1")


def write_members(path: Path, members: Sequence[bytes]) -> list[int]:
    """Concatenate gzip members into `path`; returns each member's start offset."""
    offsets, position = [], 0
    for member in members:
        offsets.append(position)
        position += len(member)
    path.write_bytes(b"".join(members))
    return offsets


def write_sample_warc(out_dir: Path) -> list[dict[str, object]]:
    written = _Written()
    captures = sample_captures()
    members = [warcinfo_member(SAMPLE_WARC)] + [capture_member(SAMPLE_WARC, c, written) for c in captures]
    offsets = write_members(out_dir / SAMPLE_WARC, members)
    entries = [manifest_entry(SAMPLE_WARC, offsets[0], None, "warcinfo",
                      not_a_row("warcinfo", "File header describing the synthetic crawl; must come first."))]
    for offset, capture in zip(offsets[1:], captures, strict=True):
        entries.append(manifest_entry(SAMPLE_WARC, offset, capture.url, capture.record_type, capture.expect))
    return entries


def corrupt_member(member: bytes) -> bytes:
    """Break a gzip member's deflate data while keeping its 10-byte gzip header intact.

    Setting both BTYPE bits of the first deflate block selects the reserved block type 3, so
    zlib fails on the very first byte ("invalid block type"); a few more bytes are flipped so
    the damage looks like real bit rot. The header stays, so a scanner still sees a member
    start here and must decide for itself that it is broken.
    """
    data = bytearray(member)
    data[10] |= 0b110
    for position in (11, 12, 13, 40, 41):
        data[position] ^= 0xFF
    return bytes(data)


def write_damaged_warc(out_dir: Path) -> list[dict[str, object]]:
    written = _Written()
    clock = Clock(datetime(2025, 2, 4, 7, 30, 0, tzinfo=UTC))
    captures = [
        html_response(a.url, short_post_page(a), expect, clock.tick(), COURIER)
        for a, expect in (
            (LIBRARY_HOURS, rejected("short_post", ["length.tokens"],
                                     "First record, intact: a 70-word news brief, under 200 tokens.")),
            (QUARRY_LANE, rejected("lost_record", [], "Replaced by the corrupt entry below.")),
            (ORCHARD, rejected("short_post", ["length.tokens"], "Third record, after the damaged member: "
                               "the reader must resynchronise and recover it (a 75-word brief).")),
        )
    ]
    members = [capture_member(DAMAGED_WARC, c, written) for c in captures]
    members[1] = corrupt_member(members[1])
    offsets = write_members(out_dir / DAMAGED_WARC, members)
    corrupt = rejected("corrupt_region", ["input.corrupt"], f"The gzip member that held {QUARRY_LANE.url} has "
                       "flipped bytes in its deflate data: one input.corrupt row at this offset, nothing "
                       "of the record is recoverable.", "gzip:bad-deflate")
    return [
        manifest_entry(DAMAGED_WARC, offsets[0], captures[0].url, "response", captures[0].expect),
        manifest_entry(DAMAGED_WARC, offsets[1], None, "corrupt", corrupt),
        manifest_entry(DAMAGED_WARC, offsets[2], captures[2].url, "response", captures[2].expect),
    ]


# --------------------------------------------------------------------------------------------
# Plain HTML files
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HtmlFile:
    """A plain HTML input file: where it goes, its bytes, the URL hint it carries."""

    path: str  # relative to out_dir
    data: bytes
    url: str | None
    expect: Expect


def html_files() -> list[HtmlFile]:
    return [_canonical_file(), _cp1252_file(), _sjis_file(), _gzip_file(), _no_url_file()]


def _canonical_file() -> HtmlFile:
    head = description(REPAIR_CAFES) + link("canonical", REPAIR_CAFES.url) + jsonld(news_jsonld(REPAIR_CAFES))
    page = article_page(REPAIR_CAFES, head).encode("utf-8")
    return HtmlFile(f"{HTML_DIR}/repair-cafes.html", page, REPAIR_CAFES.url, kept_article(
        "article_canonical", "UTF-8 essay whose URL comes from <link rel=canonical>.", "url:canonical",
        "charset:utf-8"))


def _cp1252_file() -> HtmlFile:
    head = (meta(author=ZURICH_CAFES.author) + description(ZURICH_CAFES) + link("canonical", ZURICH_CAFES.url)
            + og((("article:published_time", ZURICH_CAFES.published),)))
    page = article_page(ZURICH_CAFES, head, charset=None)
    # Only an http-equiv declaration, as older CMSs write it; no HTTP header exists for a file.
    page = page.replace("<head>\n", '<head>\n<meta http-equiv="Content-Type" content="text/html; '
                        'charset=windows-1252">\n', 1)
    return HtmlFile(f"{HTML_DIR}/intl/zurich-cafes-cp1252.html", page.encode("cp1252"), ZURICH_CAFES.url,
                    kept_article("article_legacy_charset", "Travel piece in windows-1252 declared only by "
                                 "<meta http-equiv>: é, ü, curly quotes and em dashes must survive decoding.",
                                 "charset:windows-1252", "url:canonical"))


def _sjis_file() -> HtmlFile:
    article = IDOU_TOSHOKAN
    head = (description(article) + link("canonical", article.url) + opengraph_article(article, locale="ja_JP")
            + jsonld(news_jsonld(article)))
    page = article_page(article, head, paras=article.paragraphs, charset=None)
    return HtmlFile(f"{HTML_DIR}/intl/idou-toshokan-sjis.html", page.encode("shift_jis"), article.url, kept_article(
        "japanese_article", "Japanese news in Shift_JIS with no charset declaration anywhere (detection "
        "needed). Each CJK character is a token and a word, so the length and Gopher rules measure it as "
        "Japanese and pass it; a block's size counts each such character 3 times, so its paragraphs of "
        "130-170 characters are large blocks (390-510) and the seed's block rules pass it too.",
        "charset:shift_jis-undeclared", "lang:ja"))


def _gzip_file() -> HtmlFile:
    head = (description(FOOTPATH) + og((("og:url", FOOTPATH.url), ("og:type", "article"),
                                         ("og:title", FOOTPATH.title),
                                         ("article:published_time", FOOTPATH.published)))
            + meta(author=FOOTPATH.author))
    page = article_page(FOOTPATH, head).encode("utf-8")
    return HtmlFile(f"{HTML_DIR}/news/riverside-footpath.html.gz", gzip_bytes(page), FOOTPATH.url, kept_article(
        "gzipped_html_article", "Gzipped HTML file whose URL comes from og:url.", "file:gzip", "url:og"))


def _no_url_file() -> HtmlFile:
    head = description(NOTEBOOK) + meta(author=NOTEBOOK.author)
    page = document(title=NOTEBOOK.title, head=head,
                    body='<main id="content">\n' + article_block(NOTEBOOK) + "</main>\n").encode("utf-8")
    return HtmlFile(f"{HTML_DIR}/paper-notebook.html", page, None, kept_article(
        "article_no_url", "Personal essay with no canonical, og:url or JSON-LD url: the reader gives it a "
        "file:// URI.", "url:none"))


def write_html_files(out_dir: Path) -> list[dict[str, object]]:
    entries = []
    for item in html_files():
        target = out_dir / item.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.data)
        entries.append(manifest_entry(item.path, -1, item.url, "file", item.expect))
    return entries


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------

def write_sample(out_dir: Path) -> list[dict]:
    """Write the bundled sample into out_dir, its manifest beside it (`manifest_path`), and return
    the manifest entries.

    Entries are sorted by (file, offset) so the manifest reads in the order the pipeline meets
    the records; `offset` is the record's `source_offset` (-1 for plain HTML files).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    entries = write_sample_warc(out_dir) + write_damaged_warc(out_dir) + write_html_files(out_dir)
    entries.sort(key=lambda e: (str(e["file"]), int(e["offset"])))  # type: ignore[call-overload]
    text = json.dumps(entries, indent=1, sort_keys=True) + "\n"
    manifest_path(out_dir).write_text(text, encoding="utf-8")
    return entries
