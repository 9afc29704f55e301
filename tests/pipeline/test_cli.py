"""End-to-end: the CLI on real and deliberately broken inputs."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from conftest import SEED_PARAMS, article_html, cli, shard_bytes, stats_without_timings, write_warc
from filters.corpus.dataset import SPLITS


def load(out: Path) -> tuple[dict, pl.DataFrame]:
    stats = json.loads((out / "stats.json").read_text())
    rows = pl.concat([pl.read_parquet(p) for p in sorted(out.glob("*ed/*.parquet"))])
    return stats, rows



@pytest.fixture
def broken_inputs(tmp_path: Path) -> Path:
    """A directory of damaged and odd files, each with a known fate."""
    root = tmp_path / "in"
    root.mkdir()
    records = [(f"http://site.example/post/{i}", article_html(f"Post {i}"), {}) for i in range(3)]
    offsets = write_warc(root / "flipped.warc.gz", records)
    data = bytearray((root / "flipped.warc.gz").read_bytes())
    for i in range(offsets[1] + 40, offsets[1] + 60):
        data[i] ^= 0xFF
    (root / "flipped.warc.gz").write_bytes(bytes(data))
    other = [(f"http://other.example/post/{i}", article_html(f"Other {i}"), {}) for i in range(3)]
    offsets = write_warc(root / "truncated.warc.gz", other)
    (root / "truncated.warc.gz").write_bytes((root / "truncated.warc.gz").read_bytes()[: offsets[2] + 30])
    (root / "garbage.warc.gz").write_bytes(b"\x89garbage\x00" * 50)
    (root / "zero.warc").write_bytes(b"")
    (root / "zero.html").write_bytes(b"")
    rng = random.Random(8)
    russian = ("город река мост утро вечер зима лето рынок школа музей сад дорога станция площадь улица окно "
               "старый новый тихий большой малый светлый и в на с что как по для").split()
    text = "".join("<p>" + " ".join(" ".join(rng.choice(russian) for _ in range(15)).capitalize() + "."
                                     for _ in range(5)) + "</p>" for _ in range(8))
    koi8 = f"<html><body><h1>Москва</h1>{text}</body></html>".encode("koi8-r")
    (root / "unknown-encoding.html").write_bytes(koi8)
    write_warc(root / "statuses.warc.gz", [
        ("http://site.example/missing", b"<html><body>Not found</body></html>", {"status": "404 Not Found"}),
        ("http://site.example/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(40), {"content_type": "image/png"}),
        ("http://site.example/empty", b"", {}),
        ("http://site.example/binary", bytes(range(256)) * 8, {}),
        ("http://site.example/post/sniffed", article_html("Sniffed"), {"content_type": None}),
    ])
    return root


def test_broken_inputs_are_accounted_for(broken_inputs, tmp_path):
    out = tmp_path / "out"
    assert cli("run", broken_inputs, "--out", out, "--params", SEED_PARAMS) == 0
    stats, rows = load(out)
    assert stats["records_in"] == stats["accepted"] + stats["rejected"] == rows.height
    by_file = {Path(f["path"]).name: f for f in stats["files"]}
    assert set(by_file) == {"flipped.warc.gz", "truncated.warc.gz", "garbage.warc.gz", "zero.warc",
                            "zero.html", "unknown-encoding.html", "statuses.warc.gz"}
    assert by_file["zero.warc"]["records"] == 0 and by_file["zero.warc"]["errors"]

    def reasons_of(name: str) -> list[list[str]]:
        part = rows.filter(pl.col("source_file").str.ends_with(name)).sort("source_offset")
        return part["reasons"].to_list()

    assert reasons_of("flipped.warc.gz") == [[], ["input.corrupt"], []]
    assert reasons_of("truncated.warc.gz") == [[], [], ["input.corrupt"]]
    assert reasons_of("garbage.warc.gz") == [["input.unreadable"]]  # no gzip stream, no record header: not a WARC
    assert reasons_of("zero.html") == [["record.empty"]]
    # every input not read whole warns, an empty HTML file included (docs/cli.md, "Warnings")
    assert {Path(line.split(": ", 1)[0]).name for line in stats["warnings"]} >= {
        "flipped.warc.gz", "truncated.warc.gz", "garbage.warc.gz", "zero.warc", "zero.html"}
    assert not any("unknown-encoding.html" in line or "statuses.warc.gz" in line for line in stats["warnings"])
    assert reasons_of("unknown-encoding.html") == [[]]
    assert reasons_of("statuses.warc.gz") == [
        ["record.http_status"], ["record.not_html", "url.extension"], ["record.empty"], ["record.undecodable"], []]
    koi = rows.filter(pl.col("source_file").str.ends_with("unknown-encoding.html")).row(0, named=True)
    assert koi["encoding_source"] == "detected" and "город" in koi["text"]
    assert koi["url"].startswith("file://")
    sniffed = rows.filter(pl.col("url") == "http://site.example/post/sniffed").row(0, named=True)
    assert sniffed["content_type"] == "text/html" and sniffed["kept"]


def test_accepted_and_rejected_partition_the_rows(broken_inputs, tmp_path):
    out = tmp_path / "out"
    assert cli("run", broken_inputs, "--out", out) == 0
    accepted = pl.read_parquet(out / "accepted")
    rejected = pl.read_parquet(out / "rejected")
    assert accepted["kept"].all() and (accepted["reasons"].list.len() == 0).all()
    assert (~rejected["kept"]).all() and (rejected["reasons"].list.len() > 0).all()
    stats = json.loads((out / "stats.json").read_text())
    assert sum(stats["first_reason"].values()) == stats["rejected"] == rejected.height
    assert stats["funnel"][0] == {"stage": "records_in", "remaining": stats["records_in"]}
    assert stats["funnel"][-1]["remaining"] == stats["accepted"]


def test_warcio_testdata_accounting(shared_corpora, tmp_path):
    data = tmp_path / "warcio"
    shutil.copytree(shared_corpora / "warcio-testdata", data)
    out = tmp_path / "out"
    # The .bad file is not picked up by a directory walk; naming it explicitly reads it by content.
    assert cli("run", data, data / "example-bad.warc.gz.bad", "--out", out, "--params", SEED_PARAMS) == 0
    stats, rows = load(out)
    assert stats["records_in"] == stats["accepted"] + stats["rejected"] == rows.height
    assert len(stats["files"]) == len(list(data.iterdir()))
    assert stats["skipped_files"] == []  # named explicitly, so not reported as skipped
    by_file = {Path(f["path"]).name: f for f in stats["files"]}
    wrong = rows.filter(pl.col("source_file").str.ends_with("example-wrong-chunks.warc.gz"))
    # Its first gzip member ends inside the first record (cut off), and the record's body
    # follows as a member of its own that is not a record: two damaged regions.
    assert wrong.sort("source_offset").select("source_offset", "reasons").rows() == [
        (0, ["input.corrupt"]), (516, ["input.corrupt"])]
    assert any("Replacing spaces" in e for e in by_file["example-space-in-url.arc"]["errors"])
    for name, responses in (("example-bad-non-chunked.warc.gz", 1), ("example-bad.warc.gz.bad", 2)):
        assert any("non-chunked gzip" in e for e in by_file[name]["errors"])
        assert by_file[name]["record_types"]["response"] == responses
    assert by_file["example-digest.warc"]["record_types"] == {"request": 4}
    assert stats["record_types"]["revisit"] >= 3
    iana = rows.filter(pl.col("url") == "http://www.iana.org/").row(0, named=True)
    # A home page: the article-score gate rejects it before extraction (docs/filters.md).
    assert iana["reasons"] == ["article.score"] and iana["article_score"] < 35 and iana["text"] is None
    assert iana["title"] == "Internet Assigned Numbers Authority"


@pytest.mark.parametrize(("preset", "gate_reason"), [(None, "article.page_model"), (SEED_PARAMS, "article.score")])
def test_extract_all_fills_text_but_keeps_reasons(tmp_path, preset, gate_reason):
    sample = Path(__file__).resolve().parents[2] / "data" / "sample"
    params = ["--params", preset] if preset else []
    assert cli("run", sample, "--out", tmp_path / "gated", *params) == 0
    assert cli("run", sample, "--out", tmp_path / "all", "--extract-all", *params) == 0
    _, gated = load(tmp_path / "gated")
    _, everything = load(tmp_path / "all")
    key = ["source_file", "source_offset"]
    joined = gated.join(everything, on=key, suffix="_all")
    assert joined.height == gated.height
    assert (joined["reasons"] == joined["reasons_all"]).all()
    was_gated = joined.filter(pl.col("reasons").list.contains(gate_reason))
    assert was_gated.height >= 3
    assert was_gated["text"].is_null().all() and was_gated["text_all"].is_not_null().sum() >= 3


def test_determinism_and_worker_count(broken_inputs, tmp_path):
    outs = [tmp_path / name for name in ("a", "b", "c")]
    assert cli("run", broken_inputs, "--out", outs[0]) == 0
    assert cli("run", broken_inputs, "--out", outs[1]) == 0
    assert cli("run", broken_inputs, "--out", outs[2], "--workers", "2") == 0
    first = shard_bytes(outs[0])
    assert first and shard_bytes(outs[1]) == first and shard_bytes(outs[2]) == first
    assert stats_without_timings(outs[1]) == stats_without_timings(outs[0]) == stats_without_timings(outs[2])


def test_input_order_does_not_change_output(tmp_path):
    a, b = tmp_path / "a.warc.gz", tmp_path / "b.warc.gz"
    write_warc(a, [("http://a.example/post/1", article_html("A"), {})])
    write_warc(b, [("http://b.example/post/1", article_html("B"), {})])
    assert cli("run", a, b, "--out", tmp_path / "ab") == 0
    assert cli("run", b, a, "--out", tmp_path / "ba") == 0
    assert shard_bytes(tmp_path / "ab") == shard_bytes(tmp_path / "ba")


def test_resume_skips_finished_files_and_redoes_changed_ones(tmp_path, capsys):
    a, b = tmp_path / "a.warc.gz", tmp_path / "b.warc.gz"
    write_warc(a, [("http://a.example/post/1", article_html("A"), {})])
    write_warc(b, [("http://b.example/post/1", article_html("B"), {})])
    out = tmp_path / "out"
    assert cli("run", a, b, "--out", out) == 0
    before = shard_bytes(out)
    capsys.readouterr()
    assert cli("run", a, b, "--out", out, "--resume") == 0
    assert "resumed 2 of 2" in capsys.readouterr().err
    assert shard_bytes(out) == before
    write_warc(b, [("http://b.example/post/2", article_html("B2"), {})])
    assert cli("run", a, b, "--out", out, "--resume") == 0
    assert "resumed 1 of 2" in capsys.readouterr().err
    _, rows = load(out)
    assert sorted(rows["url"].to_list()) == ["http://a.example/post/1", "http://b.example/post/2"]


def test_stages_separately_and_bounded_shards(tmp_path):
    records = [(f"http://a.example/post/{i}", article_html(f"P{i}"), {}) for i in range(5)]
    write_warc(tmp_path / "in.warc.gz", records)
    (tmp_path / "p.yaml").write_text("select:\n  output:\n    shard_max_rows: 2\n")
    work, out = tmp_path / "work", tmp_path / "out"
    assert cli("extract", tmp_path / "in.warc.gz", "--out", work) == 0
    assert cli("select", work, "--out", out, "--params", tmp_path / "p.yaml") == 0
    split = pl.read_parquet(out / "accepted" / "*.parquet")["split"].unique().item()  # one site, one split
    shards = sorted((out / "accepted").glob(f"{split}-*"))
    assert [p.name for p in shards] == [f"{split}-0000{n}-of-00003.parquet" for n in range(3)]
    assert [pl.read_parquet(p).height for p in shards] == [2, 2, 1]
    others = sorted(p.name for p in (out / "accepted").iterdir() if not p.name.startswith(split))
    assert others == sorted(f"{name}-00000-of-00001.parquet" for name in SPLITS if name != split)  # empty
    assert [p.name for p in (out / "rejected").iterdir()] == ["part-00000.parquet"]  # empty, schema only
    # Re-selecting with larger shards replaces the old set: no stale shard is left behind.
    assert cli("select", work, "--out", out) == 0
    assert sorted(p.name for p in (out / "accepted").iterdir()) == sorted(
        f"{name}-00000-of-00001.parquet" for name in SPLITS)


@pytest.mark.parametrize("args, message", [
    (["run", "no/such/path", "--out", "x"], "input not found"),
    (["run", "--bogus"], "error:"),
    (["run", ".", "--out", "x", "--workers", "0"], "positive integer"),
    (["select", "no/such/workdir", "--out", "x"], "work directory not found"),
    (["frobnicate"], "invalid choice"),
])
def test_usage_errors_exit_2_with_one_line(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli(*args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_params_exit_2(tmp_path, capsys):
    (tmp_path / "in.html").write_bytes(article_html())
    (tmp_path / "p.yaml").write_text("select:\n  outptu: {}\n")
    assert cli("run", tmp_path / "in.html", "--out", tmp_path / "o", "--params", tmp_path / "p.yaml") == 2
    err = capsys.readouterr().err.strip()
    assert "unknown key 'select.outptu'" in err and len(err.splitlines()) == 1


def test_console_script_runs_as_a_process(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "in.html.gz").write_bytes(gzip.compress(article_html(), mtime=0))
    result = subprocess.run([sys.executable, "-m", "pipeline.cli", "run", str(tmp_path / "in"), "--out",
                             str(tmp_path / "o"), "--params", str(SEED_PARAMS)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "accepted: 1" in result.stdout
    # no progress bar noise when stderr is not a terminal: one line at the end of each stage
    assert [line.split(" finished in ")[0] for line in result.stderr.splitlines()] == [
        "pipeline: extract", "pipeline: select", "pipeline: report"], result.stderr
    assert "1 records from 1 files" in result.stderr and "1 records, 1 accepted" in result.stderr
    for command in (["extract", str(tmp_path / "in"), "--out", str(tmp_path / "w")],
                    ["select", str(tmp_path / "w"), "--out", str(tmp_path / "s"), "--no-report"]):
        alone = subprocess.run([sys.executable, "-m", "pipeline.cli", *command, "--params", str(SEED_PARAMS)],
                               capture_output=True, text=True, timeout=120)
        assert alone.returncode == 0, alone.stderr
        assert alone.stderr.startswith(f"pipeline: {command[0]} finished in "), alone.stderr
        assert alone.stdout.startswith("records: 1 "), alone.stdout  # extract prints its summary too


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_stops_the_workers_and_exits_with_one_line(tmp_path, workers):
    """A terminated run (a scheduler's SIGTERM to the driver) leaves no worker behind, running a
    task nobody will read, and says so in one line."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    for index in range(3):
        write_warc(inputs / f"{index}.warc.gz", [(f"https://example.org/{index}", article_html(), {})])
    hung = tmp_path / "hung"
    hung.mkdir()
    env = {**os.environ, "PIPELINE_TEST_HANG": f"extract.task@{hung}"}
    driver = subprocess.Popen([sys.executable, "-m", "pipeline.cli", "run", str(inputs), "--out", str(tmp_path / "o"),
                               "--workers", str(workers)], env=env, stderr=subprocess.PIPE, text=True)
    task_pids: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(list(hung.glob("*.pid"))) < workers and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.1)
        task_pids = [int(path.read_text()) for path in hung.glob("*.pid")]
        assert len(task_pids) == workers, driver.stderr.read() if driver.poll() is not None else "no task started"
        driver.send_signal(signal.SIGTERM)
        assert driver.wait(timeout=60) == 128 + signal.SIGTERM
        assert driver.stderr.read().strip() == "pipeline: terminated; re-run with --resume to go on"
        for pid in task_pids:
            if pid != driver.pid:
                assert not _alive(pid, timeout=10), f"worker {pid} still running after its driver was terminated"
    finally:  # a failure must not leave sleeping processes behind
        for pid in [driver.pid, *task_pids]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int, timeout: float) -> bool:
    """Whether process `pid` still runs (a zombie waiting for its parent does not) after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return False
        if state == "Z":
            return False
        time.sleep(0.1)
    return True


@pytest.mark.parametrize("argv, hint", [
    (["explain", "page.html"], "pipeline: terminated; re-run to go on"),
    (["report", "out"], "pipeline: terminated; re-run to go on"),
    (["select", "work", "--out", "out"], "pipeline: terminated; re-run with --resume to go on"),
])
def test_a_terminated_command_suggests_only_options_it_has(argv, hint, monkeypatch, capsys):
    import pipeline.cli

    def terminated(args):
        raise pipeline.cli.Terminated()

    monkeypatch.setitem(pipeline.cli.HANDLERS, argv[0], terminated)
    assert cli(*argv) == 128 + signal.SIGTERM
    assert capsys.readouterr().err.strip() == hint


def test_every_command_told_to_resume_has_the_option():
    from pipeline.arguments import RESUMABLE, build_parser

    for command in RESUMABLE:
        args = build_parser().parse_args([command, "x", "--out", "y", "--resume"])
        assert args.resume is True
    with pytest.raises(SystemExit):
        build_parser().parse_args(["explain", "x", "--resume"])


def test_a_file_named_like_an_option_gets_a_hint(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write_warc(tmp_path / "-dash.warc.gz", [("http://site.example/post/1", article_html("Dash"), {})])
    assert cli("run", "-dash.warc.gz", "--out", "out") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "-dash.warc.gz is a file" in err and "`pipeline run --out DIR -- -dash.warc.gz`" in err
    assert cli("run", "--out", "out", "--", "-dash.warc.gz") == 0  # what the hint says works
    assert json.loads((tmp_path / "out" / "stats.json").read_text())["records_in"] == 1


def test_no_dash_hint_when_no_such_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli("run", "-nothing.warc.gz", "--out", "out") == 2
    assert "is a file" not in capsys.readouterr().err


def test_workers_default_to_every_core_this_process_may_use():
    from pipeline.arguments import build_parser

    cores = len(os.sched_getaffinity(0))
    for argv in (["run", "x.warc", "--out", "o"], ["extract", "x.warc", "--out", "o"], ["select", "w", "--out", "o"],
                 ["train", "l.json", "--out", "m.json"]):
        assert build_parser().parse_args(argv).workers == cores
    assert build_parser().parse_args(["run", "x.warc", "--out", "o", "--workers", "1"]).workers == 1


def test_a_tee_over_a_closed_stream_is_no_terminal():
    """Ray resets colours at exit and asks stdout whether it is a terminal; a quiet run's null
    stream is closed by then, and the question must not raise."""
    import io

    from pipeline.cli import _Tee

    shown = io.StringIO()
    tee = _Tee(shown, None)
    shown.close()
    assert tee.isatty() is False
