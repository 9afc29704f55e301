"""Crash safety: `pipeline run` SIGKILLed at exact points, then `--resume`.

A run is killed with the test hook PIPELINE_TEST_KILL_AT=NAME[:N] (pipeline/faults.py,
`crash_point`): the process SIGKILLs itself the Nth time it reaches NAME. After every kill no
partial file may be visible under a final name; after `--resume` the shards must be
byte-identical to an uninterrupted run and stats.json identical but for `timings`, and files
finished before the kill must not be extracted again.

Input: the bundled sample (two WARC files and five HTML files), with row groups of two rows and
shards of four, so kills land inside a file and inside a shard. The resumed runs are
in-process and skip the report step (plotting, not under test).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
import pytest
import yaml

import pipeline.cli
from conftest import SEED_PARAMS, cli, shard_bytes, skip_report, stats_without_timings
from filters.corpus.dataset import SPLITS
from pipeline.stages.select import PARTITIONS_DIR
from pipeline.store.ownership import MARKER

ROOT = Path(__file__).resolve().parents[2]
# The seed's rules (presets/seed.yaml): the sample's hand-written pages are decided as its manifest says.
_SEED = yaml.safe_load(SEED_PARAMS.read_text(encoding="utf-8"))
PARAMS = yaml.safe_dump({"extract": {**_SEED["extract"], "rows_per_row_group": 2},
                         "select": {**_SEED["select"], "output": {"shard_max_rows": 4}}}, sort_keys=True)
FILES = 7  # in sorted order: damaged.warc.gz (3 rows), five HTML files (1 row each), sample.warc.gz (38)
TEMP_NAME = re.compile(r"^\..+\.(tmp|tmp-\d+|new|old)$")


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> SimpleNamespace:
    base = tmp_path_factory.mktemp("crash")
    inputs = base / "in"
    shutil.copytree(ROOT / "data" / "sample", inputs, ignore=shutil.ignore_patterns("manifest.json"))
    params = base / "params.yaml"
    params.write_text(PARAMS)
    reference = base / "reference"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline.cli, "_report", skip_report)
        assert cli("run", inputs, "--out", reference, "--params", params) == 0
    assert len(list((reference / "accepted").iterdir())) > 2  # several shards to be killed between
    return SimpleNamespace(inputs=inputs, params=params, reference=reference)


def run_killed(*args: object, kill_at: str, expect: int = -signal.SIGKILL) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PIPELINE_DEBUG"}
    env.update(PIPELINE_TEST_KILL_AT=kill_at, PYTHONPATH=str(ROOT))
    # one worker: the kill points are in the driver (several workers would be killed instead)
    result = subprocess.run([sys.executable, "-m", "pipeline.cli", "run", "--workers", "1", *map(str, args)], cwd=ROOT,
                            env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == expect, result.stderr
    return result


def resume(sample: SimpleNamespace, out: Path, capsys) -> str:
    capsys.readouterr()
    assert cli("run", sample.inputs, "--out", out, "--params", sample.params, "--resume") == 0
    return capsys.readouterr().err


def assert_nothing_partial(out: Path) -> None:
    """Every file under a final name is complete; everything else has a dotted temporary name, is
    in select's partitions directory, or is the output marker."""
    for directory in (out / "accepted", out / "rejected"):
        for path in directory.glob("*") if directory.is_dir() else ():
            assert re.fullmatch(r"(part-\d{5}|(train|validation|test)-\d{5}-of-\d{5})\.parquet", path.name), path
            pq.read_table(path)
    extract = out / "work" / "extract"
    for path in extract.rglob("*") if extract.is_dir() else ():
        if TEMP_NAME.match(path.name) or path.is_dir():  # byte-range parts are in subdirectories
            continue
        if path.suffix == ".parquet":
            pq.read_table(path)
        else:
            summary = json.loads(path.read_text())
            assert pq.ParquetFile(path.with_suffix(".parquet")).metadata.num_rows == summary["rows"]
    for path in out.rglob(".*"):
        # select's de-duplication partitions stay for `--resume` (removed when select succeeds),
        # and the output marker (written first, so a killed first run is still known as ours)
        assert TEMP_NAME.match(path.name) or path.name in (PARTITIONS_DIR, MARKER), path
    if (out / "stats.json").exists():  # stats.json, when present, describes the shards beside it
        stats = json.loads((out / "stats.json").read_text())
        for name, key in (("accepted", "accepted"), ("rejected", "rejected")):
            rows = sum(pq.ParquetFile(p).metadata.num_rows for p in (out / name).glob("*.parquet"))
            assert rows == stats[key]


# Left-over temporary files count too: a crashed run must not leave any behind.
ALL_FILES = "*ed/*"


def temporary(out: Path) -> list[Path]:
    """The dotted files and directories under `out` but the output markers, which stay."""
    return [path for path in out.rglob(".*") if path.name != MARKER]


def assert_same_as_reference(out: Path, reference: Path) -> None:
    assert shard_bytes(out, ALL_FILES) == shard_bytes(reference, ALL_FILES)
    assert stats_without_timings(out) == stats_without_timings(reference)
    assert temporary(out) == []  # no temporary file outlives a successful run


def finished_files(out: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime) of each finished extract output: a re-extracted file gets new ones."""
    extract = out / "work" / "extract"
    done = {}
    for summary in extract.glob("*.json"):
        for path in (summary, summary.with_suffix(".parquet")):
            stat = path.stat()
            done[path.name] = (stat.st_ino, stat.st_mtime_ns)
    return done


@pytest.mark.parametrize("kill_at, finished", [
    ("extract.batch:1", 0),      # inside the first file, before anything is finished
    ("extract.published:2", 1),  # second file's Parquet in place, its .json not yet written
    ("extract.batch:5", 6),      # inside the last file (sample.warc.gz), six files finished
])
def test_killed_during_extract(kill_at, finished, sample, tmp_path, capsys, no_report):
    out = tmp_path / "out"
    run_killed(sample.inputs, "--out", out, "--params", sample.params, kill_at=kill_at)
    assert_nothing_partial(out)
    assert not (out / "stats.json").exists() and not (out / "work" / "manifest.json").exists()
    done = finished_files(out)
    assert len(done) == 2 * finished
    err = resume(sample, out, capsys)
    assert (f"resumed {finished} of {FILES}" in err) == (finished > 0)
    assert_same_as_reference(out, sample.reference)
    kept = {name: identity for name, identity in finished_files(out).items() if name in done}
    assert kept == done  # finished files were not extracted again


def test_stale_json_never_vouches_for_newer_rows(sample, tmp_path, capsys, no_report):
    """A re-extraction with other params killed between a file's Parquet and its .json:
    the old .json (right row count, old params) must not make --resume keep the new rows."""
    out = tmp_path / "out"
    shutil.copytree(sample.reference / "work", out / "work")
    # --extract-all: same rows, different text; the last file is the one killed.
    run_killed(sample.inputs, "--out", out, "--params", sample.params, "--extract-all",
               kill_at=f"extract.published:{FILES}")
    assert_nothing_partial(out)
    resume(sample, out, capsys)
    assert_same_as_reference(out, sample.reference)


def test_killed_while_writing_a_shard_with_other_params(sample, tmp_path, capsys, no_report):
    """Killed in select with one-row shards: the stale staging directory holds more shards
    than the resumed run writes, and none of them may end up in the output."""
    out = tmp_path / "out"
    shutil.copytree(sample.reference / "work", out / "work")
    one_row = tmp_path / "one-row.yaml"
    one_row.write_text(PARAMS.replace("shard_max_rows: 4", "shard_max_rows: 1"))
    run_killed(sample.inputs, "--out", out, "--params", one_row, "--resume", kill_at="select.shard:40")
    assert_nothing_partial(out)
    staged = [p.name for p in sorted(out.glob(".*.new/*"))]
    # the sample is one unit (`pipeline.stages.select.units`): its rejected rows are written first
    assert len(staged) == 40 and len([name for name in staged if name.endswith(".tmp")]) == 1
    assert len(list(out.glob(".accepted.new/train-*"))) > len(list(sample.reference.glob("accepted/train-*")))
    before = finished_files(out)
    err = resume(sample, out, capsys)
    assert f"resumed {FILES} of {FILES}" in err
    assert finished_files(out) == before
    assert_same_as_reference(out, sample.reference)


def test_killed_while_publishing(sample, tmp_path, capsys, no_report):
    """Before the swap the previous output is whole; half-way, stats.json is gone (the set is
    visibly incomplete, never an old stats.json beside new shards); --resume completes it."""
    out = tmp_path / "out"
    shutil.copytree(sample.reference / "work", out / "work")
    previous = tmp_path / "previous.yaml"
    previous.write_text("extract:\n  rows_per_row_group: 2\n")  # same extract params, one shard each
    assert cli("select", out / "work", "--out", out, "--params", previous) == 0
    old = {name: data for name, data in shard_bytes(out, ALL_FILES).items()}
    old_stats = (out / "stats.json").read_bytes()
    assert set(old) == {*(f"accepted/{name}-00000-of-00001.parquet" for name in SPLITS), "rejected/part-00000.parquet"}

    run_killed(sample.inputs, "--out", out, "--params", sample.params, "--resume", kill_at="select.publish:1")
    assert_nothing_partial(out)
    assert shard_bytes(out, ALL_FILES) == old and (out / "stats.json").read_bytes() == old_stats

    run_killed(sample.inputs, "--out", out, "--params", sample.params, "--resume", kill_at="select.publish:2")
    assert_nothing_partial(out)
    assert not (out / "stats.json").exists()
    assert shard_bytes(out, ALL_FILES) != old

    resume(sample, out, capsys)
    assert_same_as_reference(out, sample.reference)


def test_worker_killed(sample, tmp_path, capsys, no_report):
    """A worker process dies (the OOM killer, say): exit 1 with one line, then --resume."""
    out = tmp_path / "out"
    result = run_killed(sample.inputs, "--out", out, "--params", sample.params, "--workers", "2",
                        kill_at="extract.batch:1", expect=1)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "a worker process died" in lines[0] and "--resume" in lines[0], result.stderr
    assert_nothing_partial(out)
    resume(sample, out, capsys)
    assert_same_as_reference(out, sample.reference)


RANGES = PARAMS.replace("extract:\n", "extract:\n  task_bytes: 8192\n")


@pytest.mark.parametrize("kill_at, resumed", [
    ("extract.batch:6", "resumed 6 of 7 files and 2 of 9 byte ranges"),  # inside sample.warc.gz's third range
    ("extract.merged", "resumed 6 of 7 files and 9 of 9 byte ranges"),   # merged, its .json not yet written
])
def test_killed_inside_a_file_read_in_byte_ranges(kill_at, resumed, sample, tmp_path, capsys, no_report):
    """sample.warc.gz (68 kB) read as 9 byte-range tasks: a kill keeps the finished ranges, and
    --resume reads only the others; the result is the one of an uninterrupted whole-file run."""
    out = tmp_path / "out"
    ranges = tmp_path / "ranges.yaml"
    ranges.write_text(RANGES)
    run_killed(sample.inputs, "--out", out, "--params", ranges, kill_at=kill_at)
    assert_nothing_partial(out)
    parts = sorted((out / "work" / "extract" / "parts").rglob("*.json"))
    capsys.readouterr()
    assert cli("run", sample.inputs, "--out", out, "--params", ranges, "--resume") == 0
    assert resumed in capsys.readouterr().err
    assert len(parts) == int(resumed.split(" and ")[1].split()[0])
    assert shard_bytes(out, ALL_FILES) == shard_bytes(sample.reference, ALL_FILES)
    stats, reference = stats_without_timings(out), stats_without_timings(sample.reference)
    assert stats["params"]["extract"].pop("task_bytes") == 8192
    reference["params"]["extract"].pop("task_bytes")
    assert stats == reference
    assert temporary(out) == [] and not list((out / "work" / "extract" / "parts").rglob("*.*"))
