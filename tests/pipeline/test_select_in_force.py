"""What `pipeline select` records is what it did (docs/cli.md, `pipeline select`): extract-stage params
are the work directory's, asking select for other ones is an error naming each; every output in its
--out (shards, stats, card, report) describes this selection."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import article_html, cli, shard_bytes, write_warc


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """A run whose extraction used a non-default extract key (the gate's threshold)."""
    base = tmp_path_factory.mktemp("in_force")
    records = [(f"https://site{number}.example/story-{number}", article_html(f"Story {number} of the valley"), {})
               for number in range(6)]
    write_warc(base / "in.warc.gz", records)
    (base / "extract.yaml").write_text(yaml.safe_dump({"extract": {"gate": {"min_page_article_probability": 0.05}}}))
    assert cli("run", base / "in.warc.gz", "--out", base / "out", "--params", base / "extract.yaml") == 0
    return base


def _params(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data))
    return path


def test_an_extract_key_other_than_the_work_directory_s_is_refused_by_name(extracted, tmp_path, capsys):
    asked = _params(tmp_path / "p.yaml", {"extract": {"gate": {"min_page_article_probability": 0.01},
                                                      "cascade": {"selection": "seed"}}})
    capsys.readouterr()
    assert cli("select", extracted / "out" / "work", "--out", tmp_path / "out", "--params", asked) == 2
    error = capsys.readouterr().err
    assert "extract.gate.min_page_article_probability (extracted with 0.05, asked 0.01" in error
    assert 'extract.cascade.selection (extracted with "cascade", asked "seed"' in error
    assert "pipeline extract" in error and "select.page.min_kept_type_probability" in error
    assert not (tmp_path / "out" / "stats.json").exists()


def test_extract_keys_left_out_are_the_work_directory_s_and_recorded_as_in_force(extracted, tmp_path):
    asked = _params(tmp_path / "p.yaml", {"extract": {"task_bytes": 4096}, "select": {"length": {"min_tokens": 10}}})
    assert cli("select", extracted / "out" / "work", "--out", tmp_path / "out", "--params", asked) == 0
    stats = json.loads((tmp_path / "out" / "stats.json").read_text())
    assert stats["params"]["extract"]["gate"]["min_page_article_probability"] == 0.05  # not the default
    assert stats["params"]["select"]["length"]["min_tokens"] == 10  # select's own keys apply
    card = (tmp_path / "out" / "README.md").read_text()
    assert "| `extract.gate.min_page_article_probability` | `0.05` |" in card


@pytest.mark.parametrize(("asked", "named"), [
    ({"segment": {"max_per_page": 10}}, "segment.max_per_page (extracted with 500, asked 10, in "),
    ({"segment": None}, "segment (extracted with it on, asked null, in "),
])
def test_a_segment_key_of_the_extract_stage_is_refused_with_both_values(extracted, tmp_path, capsys, asked, named):
    capsys.readouterr()
    assert cli("select", extracted / "out" / "work", "--out", tmp_path / "out",
               "--params", _params(tmp_path / "p.yaml", asked)) == 2
    assert named in capsys.readouterr().err
    assert not (tmp_path / "out" / "stats.json").exists()


def test_segments_switched_off_at_extraction_are_off_in_what_select_records(tmp_path):
    write_warc(tmp_path / "in.warc.gz", [("https://a.example/story", article_html("A story of the valley"), {})])
    off = _params(tmp_path / "off.yaml", {"segment": None})
    assert cli("extract", tmp_path / "in.warc.gz", "--out", tmp_path / "work", "--params", off) == 0
    select_only = _params(tmp_path / "select.yaml", {"select": {"length": {"min_tokens": 10}}})
    assert cli("select", tmp_path / "work", "--out", tmp_path / "out", "--params", select_only) == 0
    stats = json.loads((tmp_path / "out" / "stats.json").read_text())
    assert stats["params"]["segment"] is None and not stats["warnings"]
    assert "segment.min_tokens" not in (tmp_path / "out" / "README.md").read_text()
    # asking for a segment key is asking for segments, which extraction did not find
    asks_segments = _params(tmp_path / "on.yaml", {"segment": {"min_tokens": 50}})
    assert cli("select", tmp_path / "work", "--out", tmp_path / "again", "--params", asks_segments) == 2


def test_a_work_directory_of_another_version_or_row_format_is_named_as_such(extracted, tmp_path):
    work = tmp_path / "work"
    shutil.copytree(extracted / "out" / "work", work)
    manifest = json.loads((work / "manifest.json").read_text())

    def warnings_with(**changed: object) -> list[str]:
        (work / "manifest.json").write_text(json.dumps({**manifest, **changed}))
        out = tmp_path / "out"
        assert cli("select", work, "--out", out, "--no-report", "--params", _params(tmp_path / "p.yaml", {})) == 0
        return json.loads((out / "stats.json").read_text())["warnings"]

    assert warnings_with() == []
    [version] = warnings_with(version="0.0.1", fingerprint="0")
    assert "extracted by corpus-filter 0.0.1, and this is " in version
    [row_format] = warnings_with(format=1, fingerprint="0")
    assert "holds rows of format 1, where this corpus-filter writes format " in row_format


def test_work_directories_of_different_extract_stage_values_are_refused_together(extracted, tmp_path, capsys):
    other = _params(tmp_path / "other.yaml", {"segment": {"max_per_page": 3}})
    write_warc(tmp_path / "b.warc.gz", [("https://b.example/story", article_html("Another story"), {})])
    assert cli("extract", tmp_path / "b.warc.gz", "--out", tmp_path / "work-b", "--params", other) == 0
    capsys.readouterr()
    assert cli("select", extracted / "out" / "work", tmp_path / "work-b", "--out", tmp_path / "out",
               "--params", _params(tmp_path / "p.yaml", {})) == 2
    error = capsys.readouterr().err
    assert "extract.gate.min_page_article_probability (0.05 in " in error
    assert "segment.max_per_page (500 in " in error and "3 in " in error


def test_the_same_params_select_again_byte_identical(extracted, tmp_path):
    same = extracted / "extract.yaml"
    assert cli("select", extracted / "out" / "work", "--out", tmp_path / "out", "--params", same) == 0
    assert shard_bytes(tmp_path / "out") == shard_bytes(extracted / "out")


def _funnel_end(report: Path) -> int:
    with (report / "funnel.csv").open(encoding="utf-8") as handle:
        return int(list(csv.DictReader(handle))[-1]["remaining"])


def test_select_into_a_run_directory_draws_its_report_again_or_removes_it(extracted, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(extracted / "out", run)
    before = json.loads((run / "stats.json").read_text())["accepted"]
    assert before > 0 and _funnel_end(run / "report") == before
    stricter = _params(tmp_path / "p.yaml", {"select": {"length": {"min_tokens": 100000}}})
    assert cli("select", run / "work", "--out", run, "--params", stricter) == 0
    after = json.loads((run / "stats.json").read_text())["accepted"]
    assert after == 0 and _funnel_end(run / "report") == after  # not the first run's report
    assert cli("select", run / "work", "--out", run, "--params", extracted / "extract.yaml", "--no-report") == 0
    assert not (run / "report").exists() and (run / "stats.json").is_file()


def test_a_probability_of_1_5_is_refused_in_one_line_before_anything_is_written(extracted, tmp_path, capsys):
    asked = _params(tmp_path / "p.yaml", {"select": {"page": {"min_kept_type_probability": 1.5}}})
    capsys.readouterr()
    assert cli("select", extracted / "out" / "work", "--out", tmp_path / "out", "--params", asked) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and "'select.page.min_kept_type_probability' must be in [0, 1]" in error
    assert not (tmp_path / "out").exists()


def test_a_run_that_accepts_nothing_has_a_card_that_says_so_and_loads_its_rejected_records(
        extracted, tmp_path, monkeypatch):
    out = tmp_path / "out"
    nothing = _params(tmp_path / "p.yaml", {"select": {"length": {"min_tokens": 100000}},
                                            "segment": {"min_tokens": 100000}})
    assert cli("select", extracted / "out" / "work", "--out", out, "--params", nothing, "--no-report") == 0
    card = (out / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    assert [config["config_name"] for config in header["configs"]] == ["rejected"]
    assert "**No page was accepted**" in card
    datasets = pytest.importorskip("datasets", reason="the Hugging Face check needs the datasets library")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    rejected = datasets.load_dataset(str(out), "rejected", cache_dir=str(tmp_path / "cache"))
    assert rejected["rejected"].num_rows == json.loads((out / "stats.json").read_text())["records_in"]


def _suggested_calls(card: str) -> list[tuple[str, ...]]:
    """The `load_dataset(DIR, ...)` calls the card's text suggests, as their arguments after DIR."""
    calls = re.findall(r"`load_dataset\(DIR([^)]*)\)`", card)
    return [tuple(re.findall(r'"([^"]*)"', arguments)) for arguments in calls]


@pytest.mark.parametrize(("payload", "calls"), [(b"hello, this is a text file\n", [("rejected",)]), (b"", [])])
def test_a_run_that_accepts_nothing_puts_no_row_in_a_training_split_and_its_suggested_calls_work(
        tmp_path, monkeypatch, payload, calls):
    """A text file named .warc.gz (one `input.unreadable` row) and a zero-byte WARC (no row): no split
    named train holds a rejected row, and every `load_dataset` call the card suggests works."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.warc.gz").write_bytes(payload)
    out = tmp_path / "out"
    assert cli("run", tmp_path / "in" / "x.warc.gz", "--out", out) == 0
    card = (out / "README.md").read_text()
    assert _suggested_calls(card) == calls
    datasets = pytest.importorskip("datasets", reason="the Hugging Face check needs the datasets library")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for arguments in calls:
        loaded = datasets.load_dataset(str(out), *arguments, cache_dir=str(tmp_path / "cache"))
        assert list(loaded) == ["rejected"] and loaded["rejected"]["reasons"] == [["input.unreadable"]]
    if calls:  # the directory itself loads the one config there is, with no training split
        assert list(datasets.load_dataset(str(out), cache_dir=str(tmp_path / "cache2"))) == ["rejected"]
    else:
        assert "**No record was read**" in card


def test_the_simhash_method_on_a_work_directory_extracted_without_the_simhash_is_refused(extracted, tmp_path, capsys):
    asked = _params(tmp_path / "p.yaml", {"select": {"dedup": {"near": {"method": "simhash"}}},
                                          "dataset": {"cross_split_min_containment": None}})
    capsys.readouterr()
    assert cli("select", extracted / "out" / "work", "--out", tmp_path / "out", "--params", asked) == 2
    assert "'extract.simhash: true': set both" in capsys.readouterr().err
    both = _params(tmp_path / "both.yaml", {"select": {"dedup": {"near": {"method": "simhash"}}},
                                            "dataset": {"cross_split_min_containment": None},
                                            "extract": {"simhash": True}})
    assert cli("select", extracted / "out" / "work", "--out", tmp_path / "out", "--params", both) == 2
    assert "extract.simhash (extracted with false, asked true" in capsys.readouterr().err
