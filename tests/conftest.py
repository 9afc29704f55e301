"""Shared fixtures: small WARC builders and the optional ../shared corpora."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture
def shared_corpora() -> Path:
    path = SHARED / "corpora"
    if not path.is_dir():
        pytest.skip("../shared/corpora is not present (fresh clone)")
    return path


ARTICLE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
    "<nav><a href='/'>Home</a></nav><article><h1>{title}</h1>{paragraphs}</article></body></html>"
)


def article_html(title: str = "A walk along the river", paragraphs: int = 6) -> bytes:
    body = "".join(
        f"<p>Paragraph {i}: the river bends past the old mill, where herons wait in the shallows "
        f"and the towpath narrows between willows that lean over the slow brown water.</p>"
        for i in range(paragraphs)
    )
    return ARTICLE.format(title=title, paragraphs=body).encode("utf-8")


def response_record(writer: WARCWriter, url: str, body: bytes, status: str = "200 OK",
                    content_type: str | None = "text/html; charset=utf-8", extra_headers=None):
    headers = [("Content-Length", str(len(body)))]
    if content_type is not None:
        headers.insert(0, ("Content-Type", content_type))
    headers += list(extra_headers or [])
    http = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
    return writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http,
                                     warc_headers_dict={"WARC-Date": "2024-05-01T10:00:00Z"})


def write_warc(path: Path, records: list[tuple], gzip: bool = True) -> list[int]:
    """Write (url, body, kwargs) responses; returns each record's start offset."""
    offsets = []
    with open(path, "wb") as fh:
        writer = WARCWriter(fh, gzip=gzip)
        for url, body, kwargs in records:
            offsets.append(fh.tell())
            writer.write_record(response_record(writer, url, body, **kwargs))
    return offsets


def cli(*args: object) -> int:
    """Run the CLI in-process and return its exit status (argparse's SystemExit included)."""
    from pipeline.cli import main

    try:
        return main([str(a) for a in args])
    except SystemExit as exc:
        return int(exc.code or 0)


sys.path.insert(0, str(ROOT))
