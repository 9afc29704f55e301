"""Failures the CLI reports in one line, with the right exit status, leaving no partial output.

Usage errors (exit 2) are checked on a real process where it matters (nothing created, no
traceback); runtime failures (exit 1) are simulated in-process: a full disk is a patched
pyarrow writer raising ENOSPC part-way through a file or a shard.
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import pipeline.cli
from conftest import SEED_PARAMS, article_html, cli, write_warc
from pipeline.stages.select import PARTITIONS_DIR
from pipeline.store.ownership import MARKER

ROOT = Path(__file__).resolve().parents[2]
# Small row groups and shards, so a failure can land in the middle of a file or a shard.
SMALL = "extract:\n  rows_per_row_group: 2\nselect:\n  output:\n    shard_max_rows: 2\n"


def run_process(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PIPELINE_DEBUG", "PIPELINE_TEST_KILL_AT")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


STAGE_END = re.compile(r"pipeline: \w+ finished in \d+:\d\d:\d\d")


def one_line(err: str) -> str:
    """The one line a failure prints (the end lines of the stages that finished before it aside)."""
    lines = [line for line in err.strip().splitlines() if not STAGE_END.match(line)]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under `directory` (dotted temporary names included) and its bytes, less select's
    de-duplication partitions, which a failed select leaves for `--resume`."""
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file() and PARTITIONS_DIR not in p.relative_to(directory).parts}


def hidden(directory: Path) -> list[str]:
    """Temporary files and directories left behind (the output marker is meant to stay)."""
    return [p.relative_to(directory).as_posix() for p in directory.rglob(".*") if p.name != MARKER]


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """Three WARC files of three distinct articles each."""
    root = tmp_path / "in"
    root.mkdir()
    for name in ("a", "b", "c"):
        write_warc(root / f"{name}.warc.gz",
                   [(f"http://{name}.example/post/{i}", article_html(f"{name} {i}"), {}) for i in range(3)])
    return root


@pytest.fixture
def small_params(tmp_path: Path) -> Path:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL)
    return path


@pytest.fixture
def disk_full_after(monkeypatch):
    """`disk_full_after(n)`: the (n+1)th Parquet write_table call from now on fails with ENOSPC,
    after writing part of its rows, as a full disk would."""
    def arm(calls: int) -> None:
        real = pq.ParquetWriter.write_table
        seen = [0]

        def write_table(self, table, *args, **kwargs):
            seen[0] += 1
            if seen[0] > calls:
                real(self, table.slice(0, table.num_rows // 2), *args, **kwargs)
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(self, table, *args, **kwargs)

        monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)
    return arm


def test_missing_input_path(tmp_path):
    result = run_process("run", "no/such/path", "--out", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert "input not found: no/such/path" in one_line(result.stderr)
    assert not (tmp_path / "out").exists()


def test_empty_input_directory_is_a_usage_error(tmp_path):
    # Not an empty run: a re-run replaces every shard, so an empty dataset would silently
    # replace a good one; an empty input directory is almost always a wrong path.
    (tmp_path / "empty").mkdir()
    result = run_process("run", "empty", "--out", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert "no input files found in empty" in one_line(result.stderr)
    assert not (tmp_path / "out").exists()


def test_empty_input_keeps_the_previous_output(inputs, tmp_path, capsys, no_report):
    out = tmp_path / "out"
    assert cli("run", inputs, "--out", out) == 0
    before = snapshot(out)
    only_skipped = tmp_path / "notes"
    only_skipped.mkdir()
    (only_skipped / "readme.txt").write_text("not a crawl")
    capsys.readouterr()
    assert cli("run", only_skipped, "--out", out) == 2
    line = one_line(capsys.readouterr().err)
    assert "no input files found" in line and "1 file(s) skipped" in line
    assert snapshot(out) == before


def test_output_under_a_regular_file(inputs, tmp_path):
    (tmp_path / "file").write_text("")
    result = run_process("run", inputs, "--out", "file/out", cwd=tmp_path)
    assert result.returncode == 2
    assert "output directory file/out is not writable" in one_line(result.stderr)
    assert (tmp_path / "file").read_text() == ""


def test_output_path_is_a_file(inputs, tmp_path, capsys):
    (tmp_path / "out").write_text("keep me")
    assert cli("extract", inputs, "--out", tmp_path / "out") == 2
    assert "exists and is not a directory" in one_line(capsys.readouterr().err)
    assert (tmp_path / "out").read_text() == "keep me"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root writes into a read-only directory: permissions cannot make it fail "
                           "(the not-a-directory case covers the same check)")
def test_output_directory_not_writable(inputs, tmp_path, capsys):
    parent = tmp_path / "locked"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        assert cli("run", inputs, "--out", parent / "out") == 2
        assert "is not writable" in one_line(capsys.readouterr().err)
        assert list(parent.iterdir()) == []
    finally:
        parent.chmod(0o700)


@pytest.mark.parametrize("workers", ["0", "-1", "x", "1.5"])
def test_bad_worker_count(workers, inputs, tmp_path, capsys):
    assert cli("run", inputs, "--out", tmp_path / "out", f"--workers={workers}") == 2
    assert "--workers: expected a positive integer" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def test_bad_worker_count_in_a_process(inputs, tmp_path):
    result = run_process("run", inputs, "--out", "out", "--workers", "x", cwd=tmp_path)
    assert result.returncode == 2
    assert "expected a positive integer, got 'x'" in one_line(result.stderr)
    assert not (tmp_path / "out").exists()


def test_a_fifo_named_or_walked_is_skipped_with_a_reason_not_waited_for(inputs, tmp_path):
    """Opening a FIFO blocks until a writer comes: it used to hang the run (named) or vanish from
    the accounting (walked). In a process with a timeout, so a regression fails instead of hanging."""
    os.mkfifo(inputs / "d.warc.gz")
    named = tmp_path / "named.warc"
    os.mkfifo(named)
    result = run_process("run", inputs, named, "--out", "out", "--params", SEED_PARAMS, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    stats = json.loads((tmp_path / "out" / "stats.json").read_text())
    assert sorted(stats["skipped_files"]) == sorted([str(inputs / "d.warc.gz"), str(named)])
    assert all(why == "a FIFO (named pipe), not a regular file: never opened"
               for why in stats["skipped_reasons"].values()) and len(stats["skipped_reasons"]) == 2
    assert stats["records_in"] == 9 and len(stats["files"]) == 3
    alone = run_process("run", named, "--out", "out2", cwd=tmp_path)
    assert alone.returncode == 2 and "FIFO" in one_line(alone.stderr)


def test_disk_full_while_selecting_keeps_previous_output(inputs, small_params, tmp_path, capsys,
                                                         disk_full_after, monkeypatch):
    work, out = tmp_path / "work", tmp_path / "out"
    assert cli("extract", inputs, "--out", work, "--params", small_params) == 0
    assert cli("select", work, "--out", out, "--params", small_params) == 0
    before = snapshot(out)
    assert len([name for name in before if name.startswith("accepted/")]) >= 5  # 9 rows, 2 per shard, by split
    capsys.readouterr()
    write_table = pq.ParquetWriter.write_table
    disk_full_after(3)  # the fourth row batch: the third shard, half written
    assert cli("select", work, "--out", out, "--params", small_params) == 1
    line = one_line(capsys.readouterr().err)
    assert f"no space left on device while writing to {out}" in line
    assert snapshot(out) == before  # old shards and stats.json untouched, staging removed
    assert hidden(out) == [PARTITIONS_DIR]  # the de-duplication partitions stay for --resume
    monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)  # space again
    assert cli("select", work, "--out", out, "--params", small_params, "--resume") == 0
    assert snapshot(out).keys() == before.keys() and hidden(out) == []


def test_disk_full_while_extracting_in_a_run(inputs, small_params, tmp_path, capsys, disk_full_after,
                                             no_report):
    out = tmp_path / "out"
    assert cli("run", inputs, "--out", out, "--params", small_params) == 0
    published = {name: data for name, data in snapshot(out).items() if not name.startswith("work/")}
    capsys.readouterr()
    # No --resume: every file is extracted again; the 4th batch is the second file's second.
    disk_full_after(3)
    assert cli("run", inputs, "--out", out, "--params", small_params) == 1
    assert "no space left on device" in one_line(capsys.readouterr().err)
    now = snapshot(out)
    assert {name: data for name, data in now.items() if not name.startswith("work/")} == published
    extract = out / "work" / "extract"
    assert hidden(out) == []  # the half-written temporary file is gone
    # a was extracted again and c not yet: both stay finished (c from the first run); b, whose
    # extraction failed, is not marked finished, whatever its Parquet file holds.
    finished = sorted(p.name.split(".")[0] for p in extract.glob("*.json"))
    assert finished == ["a", "c"]
    assert not (out / "work" / "manifest.json").exists()  # nor is the extraction as a whole
    # `select` on the half-extracted work directory refuses, in one line.
    capsys.readouterr()
    assert cli("select", out / "work", "--out", tmp_path / "other") == 2
    assert "extraction has not finished" in one_line(capsys.readouterr().err)


def test_unexpected_failure_is_one_line_even_for_a_multi_line_message(inputs, tmp_path, capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("first line\nsecond line")

    monkeypatch.setattr(pipeline.cli, "select", broken)
    monkeypatch.delenv("PIPELINE_DEBUG", raising=False)
    assert cli("run", inputs, "--out", tmp_path / "out") == 1
    line = one_line(capsys.readouterr().err)
    assert "RuntimeError: first line second line" in line and "PIPELINE_DEBUG=1" in line
