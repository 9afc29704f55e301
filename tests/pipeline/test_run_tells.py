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


def test_without_a_terminal_progress_is_a_plain_line_and_the_log_gets_everything(damaged, tmp_path, capsys):
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    for number in range(3):  # three files: three extract tasks
        write_warc(inputs / f"part{number}.warc.gz",
                   [(f"https://a{number}.example/story", article_html(f"Story {number} of the fields"), {})])
    log = tmp_path / "run.log"
    capsys.readouterr()
    assert cli("run", inputs, "--out", tmp_path / "out", "--progress-every", "0.000001", "--log", log) == 0
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if line.startswith("pipeline: extract: ")]
    assert progress, captured.err  # stderr is not a terminal here: no bar, plain lines
    assert "of 3 tasks" in progress[-1] and "records" in progress[-1] and "so far" in progress[-1]
    written = log.read_text()
    assert progress[0] in written and "records: 3  accepted:" in written and written.startswith("# ")


def test_quiet_prints_no_progress_and_no_summary_but_still_the_warnings(damaged, tmp_path, capsys):
    capsys.readouterr()
    assert cli("run", damaged / "inputs", "--out", tmp_path / "out", "--quiet", "--progress-every", "0.000001") == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert [line for line in captured.err.splitlines() if not line.startswith("pipeline: warning: ")] == []
    assert "pipeline: warning: " in captured.err


def test_version_and_help_on_every_option(capsys):
    from pipeline.arguments import build_parser

    assert cli("--version") == 0
    assert capsys.readouterr().out.startswith("pipeline 0.")
    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command").choices
    missing = [f"{name} {action.option_strings or action.dest}" for name, command in commands.items()
               for action in command._actions if not action.help and action.dest != "help"]
    assert missing == []
