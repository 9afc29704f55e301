"""`benchmarks/same_output.py`, the proof of a refactor: it compares what two runs wrote, less their
timings, and refuses a comparison of nothing."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "same_output.py"


def compare(first, second) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), str(first), str(second)], capture_output=True, text=True)


def write_run(directory, shard: bytes, seconds: float) -> None:
    (directory / "accepted").mkdir(parents=True)
    (directory / "accepted" / "train-00000-of-00001.parquet").write_bytes(shard)
    (directory / "stats.json").write_text(json.dumps({"accepted": 1, "timings": {"select": seconds}}))
    (directory / "work").mkdir()
    (directory / "work" / "a.json").write_text(json.dumps({"rows": 1, "timings": {"read": seconds}}))


def test_runs_that_differ_only_in_timings_are_the_same_and_a_byte_is_a_difference(tmp_path):
    write_run(tmp_path / "a", b"shard", 1.0)
    write_run(tmp_path / "b", b"shard", 2.0)
    assert compare(tmp_path / "a", tmp_path / "b").returncode == 0
    write_run(tmp_path / "c", b"shard!", 1.0)
    result = compare(tmp_path / "a", tmp_path / "c")
    assert result.returncode == 1 and "differs: accepted/train-00000-of-00001.parquet" in result.stdout


def test_a_run_that_wrote_nothing_proves_nothing(tmp_path):
    write_run(tmp_path / "a", b"shard", 1.0)
    (tmp_path / "empty").mkdir()
    for first, second in ((tmp_path / "missing", tmp_path / "a"), (tmp_path / "empty", tmp_path / "a"),
                          (tmp_path / "a", tmp_path / "missing")):
        result = compare(first, second)
        assert result.returncode != 0 and "nothing to compare" in result.stderr
