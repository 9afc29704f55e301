"""Security invariants of a run on hostile input (docs/reliability.md, "Hostile input and security").

* Processing never touches the network or reads a file a page names: lxml's HTML parser loads
  no DTD and resolves no external entity (`filters/parse/html.py` spells out `no_network=True`), and
  nothing fetches what a page links to. Checked with pages that name a local HTTP server and a
  secret file every way a page can, while `socket` refuses to connect.
* The report escapes every string that came from a page, and draws page strings as plain text.
* Output file names never come from URLs or page content: shards, report files and work files
  have fixed names, or names made from the *input file* path (`stages/extract.file_key`).
* A directory of hostile HTML files runs to the end in a separate process, in bounded memory.
"""

from __future__ import annotations

import csv
import http.server
import json
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import lxml.html
import polars as pl
import pyarrow.parquet as pq
import pytest
from lxml import etree

from conftest import article_html, cli, prose, run_child, write_warc
from filters.corpus.dataset import SPLITS
from filters.parse.html import parse_html_bytes
from pipeline.stages.extract import file_key
from pipeline.store.ownership import MARKER

SECRET = "c0rpus-f1lter-secret-7f3a"
ARTICLE = "".join(f"<p>{text}</p>" for text in prose("security", paragraphs=10))


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(SECRET.encode())

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def http_server() -> Iterator[tuple[str, list[str]]]:
    """A local server that would answer every request with the secret, and records it."""
    _Recorder.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", _Recorder.requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def no_connections(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every outgoing connection or name lookup from Python is recorded and refused."""
    attempts: list[str] = []

    def refuse(name: str):
        def refused(*args: object, **_kwargs: object):
            attempts.append(f"{name}{args[1:] if name == 'connect' else args}")
            raise OSError("network access during a test of the pipeline")
        return refused

    monkeypatch.setattr(socket.socket, "connect", refuse("connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    return attempts


def all_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from all_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from all_strings(item)


def rows_of(out: Path) -> list[dict]:
    return [row for path in sorted(out.glob("*ed/*.parquet")) for row in pq.read_table(path).to_pylist()]


def hostile_entity_pages(server: str, secret_file: Path) -> dict[str, bytes]:
    secret = secret_file.as_uri()
    body = (f"<article><h1>Cycling lanes &e; &s; &h;</h1>{ARTICLE}<p>&e; &s; &h; &p;</p>"
            f"<a href='/x' title='&s;'>link &s;</a></article>")
    subset = (f'<!ENTITY e SYSTEM "file:///etc/passwd"><!ENTITY s SYSTEM "{secret}">'
              f'<!ENTITY h SYSTEM "{server}/entity"><!ENTITY % p SYSTEM "{server}/parameter"> %p;')
    head = (f"<title>&s; &e;</title><meta name='description' content='&s;'>"
            f"<link rel='stylesheet' href='{server}/style.css'><script src='{server}/app.js'></script>"
            f"<meta http-equiv='refresh' content='0; url={server}/refresh'>"
            f"<script type='application/ld+json'>{{\"@context\": \"{server}/context\", \"@type\": "
            f"\"NewsArticle\", \"headline\": \"&s;\"}}</script>")
    resources = (f"<img src='{server}/image.png'><iframe src='{server}/frame'></iframe>"
                 f"<object data='{server}/object'></object><video src='{server}/video'></video>"
                 f"<xi:include xmlns:xi='http://www.w3.org/2001/XInclude' href='{secret}' parse='text'/>")
    return {
        "internal-subset": f"<!DOCTYPE html [{subset}]><html><head>{head}</head><body>{resources}{body}</body></html>",
        "xhtml": (f'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html [{subset}]>\n'
                  f'<html xmlns="http://www.w3.org/1999/xhtml"><head>{head}</head><body>{body}</body></html>'),
        "external-dtd": (f'<!DOCTYPE html SYSTEM "{server}/system.dtd"><html><head>{head}</head>'
                         f"<body>{resources}{body}</body></html>"),
        "public-dtd": (f'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "{server}/public.dtd">\n'
                       f"<html><head>{head}</head><body>{body}</body></html>"),
        "no-doctype": f"<html><head>{head}<base href='{server}/base/'></head><body>{resources}{body}</body></html>",
    }


def test_no_network_and_no_file_reads_from_what_pages_name(tmp_path: Path, http_server, no_connections):
    server, requests = http_server
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(SECRET)
    pages = hostile_entity_pages(server, secret_file)
    inputs = tmp_path / "in"
    inputs.mkdir()
    records = []
    for name, text in pages.items():
        body = text.encode()
        (inputs / f"{name}.html").write_bytes(body)
        content_type = "application/xhtml+xml" if name == "xhtml" else "text/html; charset=utf-8"
        records.append((f"https://news.example.org/news/2024/05/{name}", body, {"content_type": content_type}))
    write_warc(inputs / "entities.warc.gz", records)

    assert cli("run", inputs, "--out", tmp_path / "out", "--extract-all") == 0

    assert requests == [] and no_connections == []
    rows = rows_of(tmp_path / "out")
    assert len(rows) == 2 * len(pages)
    assert sum(1 for row in rows if row["word_count"]) == len(rows)  # every page was parsed and extracted
    passwd = Path("/etc/passwd").read_text(errors="replace").splitlines()[:1] if Path("/etc/passwd").exists() else []
    for row in rows:
        strings = list(all_strings(row))
        assert not [s for s in strings if SECRET in s or "root:" in s or any(line and line in s for line in passwd)]
    report = (tmp_path / "out" / "report" / "index.html").read_text()
    assert SECRET not in report
    # The pages' URLs (their <base href>) are shown as text among the example pages, never as links.
    links = lxml.html.document_fromstring(report).xpath("//@href | //@src")
    assert not [link for link in links if server in link]


def test_the_entity_pages_are_real_attacks_that_our_parse_ignores(tmp_path: Path, http_server):
    server, _requests = http_server
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(SECRET)
    pages = hostile_entity_pages(server, secret_file)
    # the control: an XML parser told to resolve entities reads the file the page names
    careless = etree.XMLParser(resolve_entities=True, load_dtd=True, no_network=True, recover=True)
    leaked = etree.fromstring(pages["xhtml"].replace("%p;", "").encode(), careless)
    assert SECRET in "".join(leaked.itertext())
    for text in pages.values():
        tree = parse_html_bytes(text.encode(), "utf-8")
        assert SECRET not in lxml.html.tostring(tree, encoding="unicode")


HOSTILE_STRINGS = ('<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', "'; alert(3); '",
                   "$\\frac{$", "../../../../tmp/evil", "%2e%2e%2fevil", "C:\\evil", "\x00nul")


def hostile_records() -> list[tuple[str, bytes, dict]]:
    """Accepted-looking articles whose URL, host, title and metadata are hostile strings."""
    urls = [
        "https://<script>alert(1)</script>.example/news/2024/05/one",
        'https://x"onload=alert(1)\'.example/news/2024/05/two',
        "https://a$\\frac{$b.example/news/2024/05/three",
        "https://news.example.org/../../../../tmp/evil/news/2024/05/four",
        "https://news.example.org/news/2024/05/%2e%2e%2fevil?x=<script>alert(1)</script>",
        "file:///etc/passwd",
        # hosts a spreadsheet would take for formulas, in report/host_pages.csv
        "http://=cmd|calc!A0/news/2024/05/five",
        "https://+sum(1,2).example/news/2024/05/six",
        "https://-2+3.example/news/2024/05/seven",
        "https://news.example.org/@SUM(1+1)/2024/05/eight",
    ]
    records = []
    for index, url in enumerate(urls):
        title = f"Story {index} {' '.join(HOSTILE_STRINGS)}"
        head = (f"<meta name='author' content='{HOSTILE_STRINGS[1]}'><meta property='og:site_name' "
                f"content='{HOSTILE_STRINGS[0]}'><link rel='canonical' href='{url}'>")
        body = article_html(title, paragraphs=14).replace(b"</head>", head.encode() + b"</head>")
        records.append((url, body, {}))
    return records


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("hostile-run")
    inputs = root / "in"
    inputs.mkdir()
    write_warc(inputs / "hostile.warc.gz", hostile_records())
    (inputs / "page.html").write_bytes(hostile_records()[0][1])
    assert cli("run", inputs, "--out", root / "out") == 0  # the report is part of `run`
    return inputs, root / "out"


def test_report_escapes_every_string_from_a_page(hostile_run):
    _inputs, out = hostile_run
    rows = rows_of(out)
    assert sum(row["kept"] for row in rows) >= 3  # hostile hosts reach the host figure and its CSV
    assert any("<script>" in (row["title"] or "") for row in rows)
    index = (out / "report" / "index.html").read_text(encoding="utf-8")
    # The example pages per reason show titles and text from the pages, escaped: as text, never markup.
    assert "<script" not in index.lower()
    document = lxml.html.document_fromstring(index)
    assert any("<script>alert(1)</script>" in text for text in document.xpath("//td/text()"))
    assert not document.xpath("//script | //iframe | //object | //@*[starts-with(name(), 'on')]")
    assert all(not href.startswith(("javascript:", "http", "/", "..")) for href in document.xpath("//@href | //@src"))


def test_output_file_names_never_come_from_urls_or_pages(hostile_run):
    inputs, out = hostile_run
    written = sorted(path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file())
    report = {"cooccurrence", "funnel", "page_types", "segments", "language_keep_rates", "hosts", "languages",
              "reasons", "years", "split_era",
              *(f"signal_{name}" for name in ("article_score", "word_count", "link_code_char_fraction",
                                             "large_block_char_fraction", "product_score",
                                             "cdc_duplicated_fraction", "gopher_alpha_word_fraction",
                                             "kept_type_probability"))}
    keys = {file_key(str(inputs / "hostile.warc.gz")), file_key(str(inputs / "page.html"))}
    expected = {*(f"{folder}accepted/{name}-00000-of-00001.parquet" for name in SPLITS for folder in ("", "segments/")),
                "rejected/part-00000.parquet", "segments/rejected/part-00000.parquet", "stats.json", "metrics.json",
                "README.md",
                "work/manifest.json", MARKER, f"work/{MARKER}",
                "report/index.html", "report/host_pages.csv",
                *(f"report/{name}.{ext}" for name in report for ext in ("png", "csv")),
                *(f"work/extract/{key}.{ext}" for key in keys for ext in ("parquet", "json"))}
    assert set(written) == expected
    for name in written:
        assert not any(part in name for part in ("script", "alert", "evil", "..", "$", "passwd", "example"))
    assert sorted(p.name for p in out.parent.iterdir()) == ["in", "out"]  # nothing written beside the run
    stats = json.loads((out / "stats.json").read_text())
    assert stats["records_in"] == len(hostile_records()) + 1


def test_no_report_csv_cell_is_a_spreadsheet_formula(hostile_run):
    """Hosts from the crawl such as `=cmd|calc!a0` reach report/host_pages.csv; every text cell
    starting with `=`, `+`, `-`, `@`, a tab or a CR is written with a leading `'` (OWASP's CSV
    injection advice). A number may start with `-`: a spreadsheet reads it as a value."""
    _inputs, out = hostile_run
    tables = sorted((out / "report").glob("*.csv"))
    assert len(tables) > 10
    formulas, cells = [], 0
    for table in tables:
        with table.open(newline="", encoding="utf-8") as handle:
            for row in csv.reader(handle):
                for cell in row:
                    cells += 1
                    if cell.startswith(("=", "+", "-", "@", "\t", "\r")) and not _is_number(cell):
                        formulas.append((table.name, cell))
    assert cells > 100 and not formulas, formulas
    hosts = (out / "report" / "host_pages.csv").read_text(encoding="utf-8")
    for host in ("'=cmd|calc!a0", "'+sum(1,2).example", "'-2+3.example"):
        assert host in hosts  # the page reached the CSV, neutralised, not dropped


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_spreadsheet_safe_prefixes_each_formula_start_and_leaves_numbers():
    from pipeline.report.accepted_pages import spreadsheet_safe

    frame = pl.DataFrame({"host": ["=1+1", "+1", "-1", "@x", "\tx", "\rx", "a=b", None],
                          "pages": [-1, 2, 3, 4, 5, 6, 7, 8], "-column": ["x"] * 8})
    safe = spreadsheet_safe(frame)
    assert safe["host"].to_list() == ["'=1+1", "'+1", "'-1", "'@x", "'\tx", "'\rx", "a=b", None]
    assert safe["pages"].to_list() == frame["pages"].to_list()
    assert safe.columns == ["host", "pages", "'-column"]
    languages = pl.DataFrame({"language": pl.Series(["=x", "en"], dtype=pl.Categorical)})
    assert spreadsheet_safe(languages)["language"].to_list() == ["'=x", "en"]


def test_every_csv_of_pipeline_goes_through_the_safe_writer():
    """One writer for every CSV, so no new table bypasses the neutralising."""
    root = Path(__file__).resolve().parents[2]
    writers = [f"{path.relative_to(root)}:{number}"
               for path in sorted((root / "pipeline").rglob("*.py"))
               for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if ".write_csv(" in line or "csv.writer(" in line or "csv.DictWriter(" in line]
    assert writers == ["pipeline/report/accepted_pages.py:" + str(_line_of_safe_writer(root))], writers


def _line_of_safe_writer(root: Path) -> int:
    lines = (root / "pipeline" / "report" / "accepted_pages.py").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if "spreadsheet_safe(frame).write_csv(" in line)


def test_report_draws_a_mathtext_host_as_plain_text(hostile_run):
    _inputs, out = hostile_run
    hosts = (out / "report" / "host_pages.csv").read_text(encoding="utf-8")
    assert "a$\\frac{$b.example" in hosts and (out / "report" / "hosts.png").stat().st_size > 0


def test_pipeline_run_on_a_directory_of_hostile_html_files(tmp_path: Path):
    """The CLI in its own process: every file gets its row and reason, one copy of the article is kept,
    and the process stays within a few hundred MB (its peak RSS, from the OS)."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    article = "<html><head><title>Cycling lanes</title><link rel='canonical' href='https://news.example.org/news/2024/05/{}'></head><body><article>{}</article></body></html>"
    files = {
        "01-deep.html": b"<html><body>" + b"<div>" * 100_000 + b"</body></html>",
        "02-random.html": bytes(range(256)) * 4_000,
        "03-png.html": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 1_000,
        "04-nul.html": article.format("nul", ARTICLE.replace(" ", "\x00")).encode(),
        "05-huge-line.html": b"<html><body><p>" + b"word " * 10_000_000 + b"</p></body></html>",
        "06-attribute.html": article.format("attr", f"<div style='{'color:red;' * 100_000}'>{ARTICLE}</div>").encode(),
        "07-tiny.html": article.format("tiny", "<p>a b.</p>" * 100_000 + ARTICLE).encode(),
        "08-scripts.html": article.format("scripts", "<script>var x = 1;</script>" * 5_000 + ARTICLE).encode(),
        "09-article.html": article.format("article", ARTICLE).encode(),
    }
    for name, body in files.items():
        (inputs / name).write_bytes(body)
    (tmp_path / "params.yaml").write_text("extract:\n  page_time_budget_seconds: 1.0\n")
    result = run_child([sys.executable, "-m", "pipeline.cli", "run", str(inputs), "--out", str(tmp_path / "out"),
                        "--params", str(tmp_path / "params.yaml")], timeout=300)
    assert result.returncode == 0, result.stderr
    rows = {Path(row["source_file"]).name: row for row in rows_of(tmp_path / "out")}
    assert sorted(rows) == sorted(files)
    assert rows["01-deep.html"]["reasons"][0] == "record.too_deep"
    assert rows["02-random.html"]["reasons"] == rows["03-png.html"]["reasons"] == ["record.undecodable"]
    assert rows["04-nul.html"]["reasons"] == ["record.undecodable"]  # a NUL for every space
    assert rows["05-huge-line.html"]["reasons"] == ["record.too_large"]
    # 06-09 carry the same article: the first in reading order that passes the rules is kept, and
    # the others are its duplicates
    copies = [rows[name] for name in ("06-attribute.html", "07-tiny.html", "08-scripts.html", "09-article.html")]
    assert sum(row["kept"] for row in copies) == 1, [row["reasons"] for row in copies]
    assert "dup.exact" in rows["09-article.html"]["reasons"]
    assert all(row["error"] is None or row["error"].startswith("error.timeout") for row in rows.values())
    # this run's own process tree (os.wait4), not every child of this test process
    assert result.peak_rss_mib < 1500, f"peak RSS {result.peak_rss_mib:.0f} MiB"  # measured: 317 MiB
