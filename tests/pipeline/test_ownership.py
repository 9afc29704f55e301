"""Where a command may write (pipeline/store/ownership.py, docs/cli.md "Where outputs go"):
outputs never become inputs, and a run deletes or overwrites only what it wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import article_html, cli, shard_bytes, write_warc
from pipeline.store.ownership import MARKER, overlap


@pytest.fixture
def crawl(tmp_path: Path) -> Path:
    """An input directory with one WARC of two articles."""
    root = tmp_path / "crawl"
    root.mkdir()
    write_warc(root / "a.warc.gz", [(f"http://site.example/post/{i}", article_html(f"Post {i}"), {})
                                    for i in range(2)])
    return root


def tree(directory: Path) -> dict[str, bytes]:
    return {path.relative_to(directory).as_posix(): path.read_bytes()
            for path in sorted(directory.rglob("*")) if path.is_file()}


def refused(capsys: pytest.CaptureFixture[str], *args: object) -> str:
    """Run the CLI, expect a usage error, return its one line (what an earlier command printed is
    left out)."""
    capsys.readouterr()
    assert cli(*args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pipeline: error: --out ") and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("command", ["run", "extract"])
def test_out_that_is_the_input_directory_is_refused(crawl, capsys, command):
    before = tree(crawl)
    assert "is the input" in refused(capsys, command, crawl, "--out", crawl)
    assert tree(crawl) == before  # not even the marker


@pytest.mark.parametrize("command", ["run", "extract"])
def test_out_inside_the_input_directory_is_refused(crawl, capsys, command):
    assert "lies inside the input" in refused(capsys, command, crawl, "--out", crawl / "out")
    assert not (crawl / "out").exists()


def test_out_that_holds_an_input_is_refused(crawl, tmp_path, capsys):
    assert "contains the input" in refused(capsys, "run", crawl, "--out", tmp_path)
    assert "contains the input" in refused(capsys, "run", crawl / "a.warc.gz", "--out", crawl)


def test_a_symlink_does_not_hide_the_input(crawl, tmp_path, capsys):
    (tmp_path / "link").symlink_to(crawl, target_is_directory=True)
    assert "is the input" in refused(capsys, "run", crawl, "--out", tmp_path / "link")
    assert "lies inside the input" in refused(capsys, "run", tmp_path / "link", "--out", crawl / "out")


def test_a_second_run_over_an_input_holding_an_earlier_output_would_read_it(crawl, tmp_path):
    """Why out-inside-input is refused: the report's index.html is an input page to a walk."""
    from pipeline.io.readers import discover_inputs

    out = tmp_path / "out"
    assert cli("run", crawl, "--out", out) == 0
    inputs, _ = discover_inputs([str(tmp_path)])
    assert str(out / "report" / "index.html") in inputs


def test_a_directory_of_the_users_is_refused_and_left_as_it_was(crawl, tmp_path, capsys):
    user = tmp_path / "mine"
    (user / "accepted").mkdir(parents=True)
    (user / "README.md").write_text("my notes\n")
    (user / "accepted" / "keep.txt").write_text("my file\n")
    before = tree(user)
    for command in ("run", "extract"):
        assert "non-empty directory this pipeline did not write" in refused(capsys, command, crawl, "--out", user)
    assert tree(user) == before


def test_a_rerun_into_an_earlier_output_works_and_gives_the_same_dataset(crawl, tmp_path):
    out = tmp_path / "out"
    assert cli("run", crawl, "--out", out) == 0
    assert (out / MARKER).is_file() and (out / "work" / MARKER).is_file()
    first = shard_bytes(out)
    assert cli("run", crawl, "--out", out) == 0
    assert shard_bytes(out) == first


def test_an_output_from_before_the_marker_is_recognised_by_its_stats(crawl, tmp_path):
    out = tmp_path / "out"
    assert cli("run", crawl, "--out", out) == 0
    (out / MARKER).unlink()
    (out / "work" / MARKER).unlink()
    assert cli("run", crawl, "--out", out) == 0


def test_select_writes_around_its_work_directory_never_into_it(crawl, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli("extract", crawl, "--out", out / "work") == 0
    assert "is the work directory" in refused(capsys, "select", out / "work", "--out", out / "work")
    assert "lies inside the work directory" in refused(capsys, "select", out / "work", "--out", out / "work" / "x")
    assert cli("select", out / "work", "--out", out) == 0  # the layout of `pipeline run`
    assert (out / "stats.json").is_file() and (out / "work" / "manifest.json").is_file()


def test_select_refuses_to_replace_a_work_directory(crawl, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli("extract", crawl, "--out", out / "accepted") == 0
    assert "would replace the work directory" in refused(capsys, "select", out / "accepted", "--out", out)


def test_report_out_never_in_what_a_run_replaces(crawl, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli("run", crawl, "--out", out) == 0
    assert "is the run directory" in refused(capsys, "report", out, "--out", out)
    assert "lies inside a directory the next run" in refused(capsys, "report", out, "--out", out / "accepted" / "r")
    user = tmp_path / "site"
    user.mkdir()
    (user / "index.html").write_text("my page\n")
    assert "holds no earlier report" in refused(capsys, "report", out, "--out", user)
    assert (user / "index.html").read_text() == "my page\n"
    assert cli("report", out, "--out", tmp_path / "r") == 0
    assert cli("report", out, "--out", tmp_path / "r") == 0  # an earlier report is replaced


@pytest.mark.parametrize("out, source, relation", [
    ("s3://bucket/runs/a", "s3://bucket/runs/a/", "is"),
    ("S3://Bucket/runs/a/out", "s3://bucket/runs/a", "lies inside"),
    ("s3a://bucket/runs", "s3://bucket/runs/a/x.warc.gz", "contains"),
    ("s3://bucket/runs//a", "s3://bucket/runs/a", "is"),
    ("s3://bucket/runs/ab", "s3://bucket/runs/a", None),
    ("s3://other/runs/a", "s3://bucket/runs/a", None),
    ("/tmp/x", "s3://bucket/tmp/x", None),
])
def test_url_overlap_compares_normalised_prefixes(out, source, relation):
    pytest.importorskip("fsspec")
    assert overlap(out, source) == relation


def test_local_overlap_compares_whole_components(tmp_path):
    assert overlap(str(tmp_path / "ab"), str(tmp_path / "a")) is None
    assert overlap(str(tmp_path / "a" / ".." / "a" / "b"), str(tmp_path / "a")) == "lies inside"
