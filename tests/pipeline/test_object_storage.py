"""Object storage (docs/scale.md): inputs, `--out` and the work directory at `s3://` URLs.

A real S3-compatible server, moto's standalone server, runs in a subprocess on 127.0.0.1 with
fake credentials and `AWS_ENDPOINT_URL` in the environment (nothing goes beyond the loopback);
the bundled sample is uploaded to it once. A run at URLs is compared with the same run into a
local directory: the same shard bytes and the same stats.json less timings. Input paths are
stored as given, less any `user:password@` (`s3://corpus/sample/sample.warc.gz`), so a run of the
uploaded sample and one of the local copy differ only in those names (and in the ids and URLs
made from them).

Drawing the report's figures is not under test here (tests/pipeline/test_report.py): runs skip the
report, as test_crash.py does, or draw a stand-in (`_stub_report`) whose files are published.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pipeline.cli
from conftest import cli, shard_bytes, skip_report, stats_without_timings

s3fs = pytest.importorskip("s3fs", reason="object storage needs the s3 extra (pip install -e '.[s3]')")
pytest.importorskip("moto.server", reason="the object-storage tests need moto[server] (pip install -e '.[test]')")
boto3 = pytest.importorskip("boto3", reason="the object-storage tests need boto3 (pip install -e '.[test]')")

from pipeline.io.byte_ranges import plan_ranges  # noqa: E402
from pipeline.io.readers import discover_inputs  # noqa: E402
from pipeline.store.ownership import MARKER  # noqa: E402
from pipeline.store.storage import (  # noqa: E402
    column_batches,
    forwarded_environment,
    is_url,
    redact,
    without_credentials,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample"
PARAMS = ROOT / "params.yaml"
BUCKET = "corpus"
INPUT = f"s3://{BUCKET}/sample"
TEMP_NAME = re.compile(r"^\..+\.(tmp|tmp-\d+|tmp-\d+-[0-9a-f]+|new|old)$")
SECRET = "hunter2-not-a-real-secret"


def _stub_report(run_dir: Path, out_dir: Path, executor: object = None, here_too: bool = False) -> list[Path]:
    """Stands in for `pipeline.report.index.write_report`: two files made from the run's stats.json."""
    stats = json.loads((run_dir / "stats.json").read_text())
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "funnel.csv").write_text("".join(f"{step['stage']},{step['remaining']}\n" for step in stats["funnel"]))
    (out_dir / "index.html").write_text(f"<p>{stats['records_in']} records, {stats['accepted']} accepted</p>\n")
    return [out_dir / "funnel.csv", out_dir / "index.html"]


@pytest.fixture
def stub_report(monkeypatch):
    monkeypatch.setattr("pipeline.report.index.write_report", _stub_report)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_up(endpoint: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"moto server exited with status {server.returncode}")
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=1).close()  # noqa: S310 (loopback)
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    pytest.fail("moto server did not start within 60 s")


def _fresh_filesystems() -> None:
    """s3fs keeps one file system object per process, made with the environment of its time."""
    s3fs.S3FileSystem.clear_instance_cache()


@pytest.fixture(scope="module")
def s3(tmp_path_factory) -> SimpleNamespace:
    """A moto S3 server on the loopback, the environment pointing at it, and the sample uploaded
    to s3://corpus/sample/."""
    base = tmp_path_factory.mktemp("s3")
    port = _free_port()
    endpoint = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_until_up(endpoint, server)
        with pytest.MonkeyPatch.context() as patch:
            for name in list(os.environ):
                if name.startswith(("AWS_", "FSSPEC_")):
                    patch.delenv(name)
            patch.setenv("AWS_ACCESS_KEY_ID", "testing")
            patch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
            patch.setenv("AWS_DEFAULT_REGION", "us-east-1")
            patch.setenv("AWS_ENDPOINT_URL", endpoint)
            # No instance metadata service (a request beyond the loopback) and no user config.
            patch.setenv("AWS_EC2_METADATA_DISABLED", "true")
            patch.setenv("AWS_CONFIG_FILE", str(base / "no-aws-config"))
            patch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(base / "no-aws-credentials"))
            _fresh_filesystems()
            client = boto3.client("s3")
            client.create_bucket(Bucket=BUCKET)
            for path in sorted(SAMPLE.rglob("*")):
                if path.is_file():
                    client.upload_file(str(path), BUCKET, f"sample/{path.relative_to(SAMPLE).as_posix()}")
            yield SimpleNamespace(endpoint=endpoint, fs=s3fs.S3FileSystem(), base=base)
            _fresh_filesystems()
    finally:
        server.terminate()
        server.wait(timeout=30)


def keys(s3: SimpleNamespace, url: str) -> dict[str, bytes]:
    """Every object under `url`, by key relative to it."""
    prefix = url.removeprefix("s3://")
    s3.fs.invalidate_cache()
    return {name[len(prefix) + 1:]: s3.fs.cat_file(name) for name in sorted(s3.fs.find(prefix))}


def download(s3: SimpleNamespace, url: str, local: Path) -> Path:
    """The output at `url` (its work directory left out) as a local directory."""
    for name, data in keys(s3, url).items():
        if not name.startswith("work/"):
            (local / name).parent.mkdir(parents=True, exist_ok=True)
            (local / name).write_bytes(data)
    return local


def stats_without_paths(out: Path, prefix: str) -> dict:
    """stats.json less timings, input paths relative to the INPUT they were found under."""
    stats = stats_without_timings(out)
    for entry in stats["files"]:
        entry["path"] = entry["path"].removeprefix(prefix)
    stats["skipped_files"] = [path.removeprefix(prefix) for path in stats["skipped_files"]]
    stats["skipped_reasons"] = {path.removeprefix(prefix): why for path, why in stats["skipped_reasons"].items()}
    stats["warnings"] = [warning.removeprefix(prefix) for warning in stats["warnings"]]  # "FILE: what"
    return stats


def without_task_bytes(stats: dict) -> dict:
    stats["params"]["extract"].pop("task_bytes")
    return stats


def decisions(out: Path) -> pl.DataFrame:
    """What each record became, by file name and offset: independent of where the file was read."""
    frame = pl.read_parquet(sorted(out.glob("*ed/*.parquet")))
    return frame.select(pl.col("source_file").str.split("/").list.last().alias("name"), "source_offset", "kept",
                        "reasons", "text", "title", "word_count").sort("name", "source_offset")


def params_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "params.yaml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def ranges_params(s3) -> Path:
    """sample.warc.gz (68 kB) read as 8 byte-range tasks, each seeking in the object."""
    return params_file(s3.base, "extract:\n  task_bytes: 8192\n")


@pytest.fixture(scope="module")
def remote_run(s3, ranges_params) -> SimpleNamespace:
    """Inputs from the bucket, --out in the bucket, byte ranges, the report (a stand-in) uploaded."""
    out = f"s3://{BUCKET}/runs/remote"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pipeline.report.index.write_report", _stub_report)
        assert cli("run", INPUT, "--out", out, "--params", ranges_params) == 0
    return SimpleNamespace(url=out, local=download(s3, out, s3.base / "remote"))


@pytest.fixture(scope="module")
def local_out_run(s3) -> SimpleNamespace:
    """The same inputs from the bucket (named with credentials in the URL), --out a local directory."""
    out = s3.base / "local-out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline.cli, "_report", skip_report)
        code = cli("run", f"s3://user:{SECRET}@{BUCKET}/sample", "--out", out, "--params", PARAMS)
    assert code == 0
    return SimpleNamespace(local=out)


@pytest.fixture(scope="module")
def local_run(s3) -> Path:
    """The local sample into a local directory: what every run at URLs is measured against."""
    out = s3.base / "local"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline.cli, "_report", skip_report)
        assert cli("run", SAMPLE, "--out", out, "--params", PARAMS) == 0
    return out


# ---------------------------------------------------------------- storage helpers

def test_a_url_is_a_scheme_fsspec_knows_and_anything_else_a_local_path():
    assert is_url("s3://bucket/key.warc.gz") and is_url("memory://x")
    assert not is_url("data/a:b.warc") and not is_url("C:/x") and not is_url("nosuchscheme://x")
    assert without_credentials("s3://user:pw@bucket/k") == "s3://bucket/k"
    assert without_credentials("data/user:pw@x") == "data/user:pw@x"
    assert redact("cannot read s3://user:pw@bucket/k and ftp://me@host/x") == "cannot read s3://bucket/k and ftp://host/x"


def test_a_bucket_prefix_is_walked_like_a_local_directory(s3, tmp_path):
    files, skipped = discover_inputs([INPUT])
    local_files, local_skipped = discover_inputs([str(SAMPLE)])
    assert [name.removeprefix(INPUT) for name in files] == [name.removeprefix(str(SAMPLE)) for name in local_files]
    assert skipped == local_skipped == {}
    # a file that is not an input is skipped in a bucket as in a directory, and said so
    boto3.client("s3").put_object(Bucket=BUCKET, Key="walk/notes.txt", Body=b"notes")
    boto3.client("s3").upload_file(str(SAMPLE / "sample.warc.gz"), BUCKET, "walk/sample.warc.gz")
    files, skipped = discover_inputs([f"s3://{BUCKET}/walk"])
    assert files == [f"s3://{BUCKET}/walk/sample.warc.gz"] and list(skipped) == [f"s3://{BUCKET}/walk/notes.txt"]
    assert discover_inputs([f"{INPUT}/sample.warc.gz", f"{INPUT}/"])[0][0] == f"{INPUT}/sample.warc.gz"
    with pytest.raises(FileNotFoundError):
        discover_inputs([f"{INPUT}/missing.warc.gz"])


def test_byte_ranges_of_an_object_are_planned_as_those_of_the_local_file(s3):
    remote = plan_ranges(f"{INPUT}/sample.warc.gz", 8192)
    assert remote == plan_ranges(str(SAMPLE / "sample.warc.gz"), 8192)
    assert len(remote[1]) == 9


# ---------------------------------------------------------------- runs

def test_inputs_and_out_in_a_bucket_give_the_bytes_of_a_local_out(remote_run, local_out_run):
    assert shard_bytes(remote_run.local) and shard_bytes(remote_run.local) == shard_bytes(local_out_run.local)
    remote, local = stats_without_timings(remote_run.local), stats_without_timings(local_out_run.local)
    assert without_task_bytes(remote) == without_task_bytes(local)
    assert remote["files"][-1]["path"] == f"{INPUT}/sample.warc.gz"  # input paths: the URLs as given
    report = sorted(path.name for path in (remote_run.local / "report").iterdir())
    assert report == ["funnel.csv", "index.html"]
    # the dataset card is published beside the shards, as in a local out (its params differ: task bytes)
    card, local_card = (remote_run.local / "README.md").read_text(), (local_out_run.local / "README.md").read_text()
    assert card.splitlines()[:20] == local_card.splitlines()[:20]


def test_a_bucket_input_decides_every_record_as_the_local_file(local_out_run, local_run):
    assert stats_without_paths(local_out_run.local, INPUT) == stats_without_paths(local_run, str(SAMPLE))
    assert decisions(local_out_run.local).equals(decisions(local_run))


def test_local_inputs_with_out_in_a_bucket(s3, local_run, no_report, tmp_path, capsys):
    out = f"s3://user:{SECRET}@{BUCKET}/runs/local-inputs"
    assert cli("run", SAMPLE, "--out", out, "--params", PARAMS) == 0
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err
    assert f"stats: s3://{BUCKET}/runs/local-inputs/stats.json" in captured.out
    result = download(s3, f"s3://{BUCKET}/runs/local-inputs", tmp_path / "result")
    assert shard_bytes(result) == shard_bytes(local_run)
    assert stats_without_timings(result) == stats_without_timings(local_run)
    assert not [name for name in keys(s3, f"s3://{BUCKET}/runs/local-inputs") if TEMP_NAME.match(name.split("/")[-1])]


def test_credentials_in_a_url_are_never_stored_or_printed(s3, local_out_run, capsys):
    stored = [path.read_bytes() for path in local_out_run.local.rglob("*") if path.is_file()]
    assert stored and not [data for data in stored if SECRET.encode() in data]
    assert "s3://user:" not in (local_out_run.local / "stats.json").read_text()
    # what the run printed: the warning names no credentials
    assert cli("extract", f"s3://user:{SECRET}@{BUCKET}/sample/html/repair-cafes.html", "--out",
               s3.base / "creds-work", "--params", PARAMS) == 0
    captured = capsys.readouterr()
    assert "credentials in URLs are not used" in captured.err and SECRET not in captured.out + captured.err
    assert not [path for path in (s3.base / "creds-work").rglob("*") if path.is_file()
                and SECRET.encode() in path.read_bytes()]


def test_only_the_storage_variables_that_are_set_go_to_ray_tasks(monkeypatch):
    monkeypatch.setenv("AWS_SESSION_TOKEN", "token")
    monkeypatch.setenv("FSSPEC_S3_ENDPOINT_URL", "http://127.0.0.1:1")
    monkeypatch.setenv("AWS_SOMETHING_ELSE", "not a storage setting we know")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    forwarded = forwarded_environment()
    assert forwarded["AWS_SESSION_TOKEN"] == "token" and "FSSPEC_S3_ENDPOINT_URL" in forwarded
    assert "AWS_SOMETHING_ELSE" not in forwarded and "AWS_PROFILE" not in forwarded and "HOME" not in forwarded


def test_the_ray_executor_reads_and_writes_the_bucket(s3, remote_run, ranges_params, no_report):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")
    # Ray starts without the storage variables: its tasks get them only from the executor.
    hidden = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("AWS_")}
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    finally:
        os.environ.update(hidden)
    try:
        out = f"s3://{BUCKET}/runs/ray"
        assert cli("run", INPUT, "--out", out, "--params", ranges_params, "--executor", "ray") == 0
    finally:
        ray.shutdown()
    result = download(s3, out, s3.base / "ray")
    assert shard_bytes(result) == shard_bytes(remote_run.local)
    assert stats_without_timings(result) == stats_without_timings(remote_run.local)


def test_resume_on_a_remote_out_reuses_the_finished_extract_outputs(s3, remote_run, no_report, capsys):
    out = f"s3://{BUCKET}/runs/resume"
    s3.fs.copy(f"{BUCKET}/runs/remote/work", f"{BUCKET}/runs/resume/work", recursive=True)
    stale = f"{BUCKET}/runs/resume/work/extract/.sample.warc.gz-0.parquet.tmp-12345-0badcafe"
    s3.fs.pipe_file(stale, b"left by a killed run")
    capsys.readouterr()
    assert cli("run", INPUT, "--out", out, "--params", PARAMS, "--resume") == 0
    assert "resumed 7 of 7 files" in capsys.readouterr().err
    s3.fs.invalidate_cache()
    assert not s3.fs.exists(stale)
    result = download(s3, out, s3.base / "resume")
    assert shard_bytes(result) == shard_bytes(remote_run.local)


def run_killed(tmp: Path, *args: object, kill_at: str) -> None:
    """The CLI in a subprocess, SIGKILLed at `kill_at`; its local temporary files go to `tmp`."""
    env = {name: value for name, value in os.environ.items() if name != "PIPELINE_DEBUG"}
    env.update(PIPELINE_TEST_KILL_AT=kill_at, PYTHONPATH=str(ROOT), TMPDIR=str(tmp))
    command, *rest = map(str, args)  # one worker: the kill points are in the driver
    result = subprocess.run([sys.executable, "-m", "pipeline.cli", command, "--workers", "1", *rest], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == -signal.SIGKILL, result.stderr


def visible(objects: dict[str, bytes]) -> dict[str, bytes]:
    """The output as a reader sees it: no work directory, no temporary keys."""
    return {name: data for name, data in objects.items()
            if not name.startswith("work/") and not any(TEMP_NAME.match(part) for part in name.split("/"))}


def assert_marker_describes_shards(objects: dict[str, bytes]) -> None:
    """stats.json, when present, counts exactly the rows of the shards beside it."""
    if "stats.json" not in objects:
        return
    stats = json.loads(objects["stats.json"])
    for name in ("accepted", "rejected"):
        rows = sum(pq.ParquetFile(pa.BufferReader(data)).metadata.num_rows
                   for key, data in objects.items() if key.startswith(f"{name}/"))
        assert rows == stats[name]


def test_a_publish_killed_on_a_bucket_leaves_a_whole_output(s3, remote_run, no_report, tmp_path, capsys):
    """Killed with everything uploaded to staged keys, the previous output is untouched; killed
    half-way through replacing it, stats.json is gone (never an old one beside new shards); the
    next run removes the temporary keys and completes the output."""
    out = f"s3://{BUCKET}/runs/crash"
    s3.fs.copy(f"{BUCKET}/runs/remote/work", f"{BUCKET}/runs/crash/work", recursive=True)
    assert cli("select", f"{out}/work", "--out", out, "--params", PARAMS) == 0
    before = visible(keys(s3, out))
    assert "stats.json" in before and "accepted/train-00000-of-00001.parquet" in before
    small = params_file(tmp_path, "select:\n  output:\n    shard_max_rows: 4\n")  # several shards each

    run_killed(tmp_path, "select", f"{out}/work", "--out", out, "--params", small, kill_at="select.upload:1")
    objects = keys(s3, out)
    assert visible(objects) == before
    assert any(name.startswith(".accepted.new/") for name in objects)

    run_killed(tmp_path, "select", f"{out}/work", "--out", out, "--params", small, kill_at="select.upload:2")
    objects = keys(s3, out)
    assert "stats.json" not in objects and visible(objects) != before
    assert_marker_describes_shards(objects)

    assert cli("run", INPUT, "--out", out, "--params", small, "--resume") == 0
    objects = keys(s3, out)
    assert [name for name in objects if any(part.startswith(".") for part in name.split("/"))
            and name.rsplit("/", 1)[-1] != MARKER] == []  # no temporary key left; the output marker stays
    assert "stats.json" in objects and len([name for name in objects if name.startswith("accepted/")]) > 1
    assert_marker_describes_shards(objects)


# ---------------------------------------------------------------- errors

def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_a_missing_bucket_or_object_is_a_usage_error(s3, tmp_path, capsys):
    html = SAMPLE / "html" / "repair-cafes.html"
    capsys.readouterr()
    assert cli("run", html, "--out", "s3://no-such-bucket/run") == 2
    assert "s3://no-such-bucket/run is not writable" in one_line(capsys.readouterr().err)
    assert cli("run", "s3://no-such-bucket/x.warc.gz", "--out", tmp_path / "out") == 2
    assert "input not found: s3://no-such-bucket/x.warc.gz" in one_line(capsys.readouterr().err)
    assert cli("run", f"{INPUT}/missing.warc.gz", "--out", tmp_path / "out") == 2
    assert "input not found" in one_line(capsys.readouterr().err)


@pytest.fixture
def fresh_filesystems():
    _fresh_filesystems()
    yield
    _fresh_filesystems()


def test_no_credentials_is_one_line_and_exit_1(s3, tmp_path, monkeypatch, capsys, fresh_filesystems):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    capsys.readouterr()
    assert cli("run", INPUT, "--out", tmp_path / "out") == 1
    line = one_line(capsys.readouterr().err)
    assert "NoCredentialsError" in line and "AWS_ACCESS_KEY_ID" in line


def test_an_unreachable_endpoint_is_one_line_and_exit_1(s3, tmp_path, monkeypatch, capsys, fresh_filesystems):
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{_free_port()}")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")  # no retries with back-off: the test stays quick
    capsys.readouterr()
    assert cli("run", SAMPLE / "html" / "repair-cafes.html", "--out", f"s3://{BUCKET}/runs/unreachable") == 1
    line = one_line(capsys.readouterr().err)
    assert "EndpointConnectionError" in line and "AWS_ENDPOINT_URL" in line


def test_the_report_of_a_run_in_a_bucket_is_redrawn_there(s3, remote_run, stub_report, tmp_path, capsys):
    before = {name: data for name, data in keys(s3, remote_run.url).items() if name.startswith("report/")}
    s3.fs.rm(f"{BUCKET}/runs/remote/report/funnel.csv")
    s3.fs.pipe_file(f"{BUCKET}/runs/remote/report/stale.png", b"from an older report")
    assert cli("report", remote_run.url) == 0
    assert f"report: {remote_run.url}/report/index.html" in capsys.readouterr().out
    assert {name: data for name, data in keys(s3, remote_run.url).items() if name.startswith("report/")} == before
    assert cli("report", remote_run.url, "--out", tmp_path / "report") == 0
    assert (tmp_path / "report" / "index.html").read_bytes() == before["report/index.html"]


def test_extract_columns_are_read_from_a_url_when_no_local_copy_is_seen(s3, remote_run):
    """A CDC task on another node reads the texts at the work directory's URL."""
    name = next(key for key in keys(s3, remote_run.url) if key.startswith("work/extract/sample.warc.gz")
                and key.endswith(".parquet"))
    url = f"{remote_run.url}/{name}"
    local = s3.base / "copy.parquet"
    local.write_bytes(keys(s3, remote_run.url)[name])
    remote = list(column_batches(url, ["text", "id"], 3))
    here = list(column_batches(str(local), ["text", "id"], 3))
    assert len(remote) == len(here) > 1 and all(batch.height <= 3 for batch in remote)
    assert all(a.equals(b) for a, b in zip(remote, here, strict=True))
