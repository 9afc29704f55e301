"""Shared fixtures: small WARC builders and the optional ../shared corpora."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
# The seed's rules without the page-type model: for tests of the seed rules and of accounting on
# hand-written pages (too thin for a model of real pages to call them articles).
SEED_PARAMS = ROOT / "presets" / "seed.yaml"


def skip_report(run_dir: Path, out: Path | None, executor: object = None, here_too: bool = False) -> Path:
    """What `pipeline.cli._report` returns, without drawing: for tests of a run that do not look at
    its report (plotting is seconds of a small run)."""
    return run_dir / "report" / "index.html"


@pytest.fixture
def no_report(monkeypatch):
    """`pipeline run` and `select` without their report step (`skip_report`)."""
    monkeypatch.setattr("pipeline.cli._report", skip_report)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that reads the shared corpora is of the full tier (`corpus`): `make test-fast` runs
    `-m "not corpus"`, so its time does not depend on whether ../shared is present."""
    for item in items:
        if "shared_corpora" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.corpus)


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
_VOCABULARY = (
    "the river town council market bridge morning evening winter summer harbour library school garden "
    "road station farmer baker teacher doctor visitor neighbour family children history museum festival "
    "rain wind sun stone timber window street square church mill orchard meadow valley hill forest path "
    "walked built opened closed visited remembered painted repaired carried watched planted crossed "
    "quiet busy old new narrow wide early late small large bright dark careful patient generous local "
    "slowly quickly often rarely together again during before after between across along beside under"
).split()
_GLUE = ("the", "and", "of", "to", "with", "that", "in", "a")


def prose(seed: str, paragraphs: int = 8, sentences: int = 5) -> list[str]:
    """Deterministic, varied, punctuated filler text: every seed gives different sentences.

    Realistic enough for the text filters (stop words, sentence ends, long paragraphs) and
    different enough between seeds that the duplicate rules do not link test pages.
    """
    rng = random.Random(seed)
    result = []
    for _ in range(paragraphs):
        parts = []
        for _ in range(sentences):
            words = [rng.choice(_VOCABULARY if i % 3 else _GLUE) for i in range(rng.randint(12, 20))]
            parts.append(" ".join(words).capitalize() + ".")
        result.append(" ".join(parts))
    return result


def article_html(title: str = "A walk along the river", paragraphs: int = 8) -> bytes:
    body = "".join(f"<p>{text}</p>" for text in prose(title, paragraphs))
    return ARTICLE.format(title=title, paragraphs=body).encode("utf-8")


def response_record(writer: WARCWriter, url: str, body: bytes, status: str = "200 OK",
                    content_type: str | None = "text/html; charset=utf-8", extra_headers=None,
                    warc_date: str = "2024-05-01T10:00:00Z", record_id: str | None = None):
    """A response record; its WARC-Record-ID a new random one unless `record_id` is given."""
    headers = [("Content-Length", str(len(body)))]
    if content_type is not None:
        headers.insert(0, ("Content-Type", content_type))
    headers += list(extra_headers or [])
    http = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
    return writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http,
                                     warc_headers_dict={"WARC-Date": warc_date,
                                                        **({"WARC-Record-ID": record_id} if record_id else {})})


def write_warc(path: Path, records: list[tuple], gzip: bool = True) -> list[int]:
    """Write (url, body, kwargs) responses; returns each record's start offset."""
    offsets = []
    with open(path, "wb") as fh:
        writer = WARCWriter(fh, gzip=gzip)
        for url, body, kwargs in records:
            offsets.append(fh.tell())
            writer.write_record(response_record(writer, url, body, **kwargs))
    return offsets


def shard_bytes(out: Path, pattern: str = "*ed/*.parquet") -> dict[str, bytes]:
    """Every file of a run's accepted/ and rejected/ folders that matches `pattern`, by path."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.glob(pattern))}


def stats_without_timings(out: Path) -> dict:
    """A run's stats.json less its wall-clock timings (the only part allowed to differ)."""
    stats = json.loads((out / "stats.json").read_text())
    stats.pop("timings")
    return stats


# Commands whose --workers defaults to every core: tests run them in this process unless they
# ask for workers, so that what a test patches here is what runs.
WORKER_COMMANDS = ("run", "extract", "select", "train")


def cli(*args: object) -> int:
    """Run the CLI in-process and return its exit status (argparse's SystemExit included).
    Without `--workers`, one worker: the tasks run in this process."""
    from pipeline.cli import main

    argv = [str(a) for a in args]
    if argv and argv[0] in WORKER_COMMANDS and "--workers" not in argv:
        argv[1:1] = ["--workers", "1"]
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class ChildRun:
    returncode: int
    stdout: str
    stderr: str
    peak_rss_mib: float  # the largest process of the child's own tree (the child and what it waited for)


def run_child(args: list[str], timeout: float) -> ChildRun:
    """Run `args` and measure its peak RSS from its own `os.wait4` usage.

    `resource.getrusage(RUSAGE_CHILDREN)` covers every child this test process ever waited for, so
    another test's subprocess in the same pytest worker could raise it; `wait4` on the one pid
    reports that child and its descendants alone.
    """
    with open(os.devnull, "rb") as stdin, tempfile.TemporaryFile() as out, \
            tempfile.TemporaryFile() as err:
        process = subprocess.Popen(args, stdin=stdin, stdout=out, stderr=err)
        killer = threading.Timer(timeout, process.kill)
        killer.start()
        try:
            _pid, status, usage = os.wait4(process.pid, 0)
        finally:
            killer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)  # already reaped: Popen must not wait again
        out.seek(0)
        err.seek(0)
        return ChildRun(process.returncode, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                        usage.ru_maxrss / 1024)

