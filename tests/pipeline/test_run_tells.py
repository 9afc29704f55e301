"""What a run says about itself where nobody watches a terminal (docs/cli.md): a line for every input
not read whole, progress lines and a log for batch jobs, `--version`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import article_html, cli, write_warc


@pytest.fixture(scope="module")
def damaged(tmp_path_factory) -> Path:
    """A WARC cut in the middle of its last record, and a text file named like a WARC."""
    base = tmp_path_factory.mktemp("damaged")
    records = [(f"https://site{number}.example/story", article_html(f"Story {number} of the hills"), {})
               for number in range(4)]
    offsets = write_warc(base / "whole.warc.gz", records)
    data = (base / "whole.warc.gz").read_bytes()
    (base / "inputs").mkdir()
    (base / "inputs" / "cut.warc.gz").write_bytes(data[:offsets[-1] + (len(data) - offsets[-1]) // 2])
    (base / "inputs" / "notes.warc.gz").write_text("these are my notes, not a crawl\n")
    return base


def test_every_input_not_read_whole_is_a_warning_line_a_count_and_a_report_entry(damaged, tmp_path, capsys):
    out = tmp_path / "out"
    capsys.readouterr()
    assert cli("run", damaged / "inputs", "--out", out) == 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.startswith("pipeline: warning: ")]
    assert len(lines) == 2, captured.err
    cut = next(line for line in lines if "cut.warc.gz" in line)
    assert "offset" in cut and "bytes" in cut  # where the damage starts and how much of the file it is
    assert any("notes.warc.gz" in line for line in lines)
    assert "warnings: 2" in captured.out
    stats = json.loads((out / "stats.json").read_text())
    assert len(stats["warnings"]) == 2
    index = (out / "report" / "index.html").read_text()
    assert "<h2>Warnings</h2>" in index and "notes.warc.gz" in index.split("<h2>Warnings</h2>")[1].split("</ul>")[0]


def test_a_whole_input_gives_no_warning(damaged, tmp_path, capsys):
    capsys.readouterr()
    assert cli("run", damaged / "whole.warc.gz", "--out", tmp_path / "out") == 0
    captured = capsys.readouterr()
    assert "pipeline: warning" not in captured.err and "warnings: 0" in captured.out
    assert "<h2>Warnings</h2>" not in (tmp_path / "out" / "report" / "index.html").read_text()
