"""The select stage's duplicate passes: order, URL, exact, per-host CDC, near against kept pages."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import polars as pl

from conftest import ROOT, article_html, cli, prose, write_warc
from filters.corpus.dedup import simhash64, to_int64
from pipeline.params import Params, params_from_dict
from pipeline.stages.dedup import exact_duplicates, host_partition, near_duplicates, order_candidates, url_duplicates


def compact(rows: list[dict]) -> pl.DataFrame:
    base = {"file": 0, "row": 0, "id": "x", "host": "a.example", "warc_date": None, "url": None,
            "normalized_url": None, "canonical_key": None, "content_hash": None, "simhash64": None,
            "candidate": True}
    frame = [{**base, "row": i, "id": f"id{i}", **row} for i, row in enumerate(rows)]
    return pl.DataFrame(frame, schema_overrides={"file": pl.UInt32, "row": pl.UInt32,
                                                 "warc_date": pl.Datetime("us", "UTC")})


def test_order_is_capture_time_then_url_then_id_with_unknown_times_last():
    t = datetime(2024, 1, 1, tzinfo=UTC)
    frame = compact([{"warc_date": None, "url": "a"}, {"warc_date": t, "url": "z"}, {"warc_date": t, "url": "b"},
                     {"candidate": False, "warc_date": t, "url": "a"}])
    assert order_candidates(frame)["row"].to_list() == [2, 1, 0]


def test_url_duplicates_by_normalised_or_canonical_url():
    frame = order_candidates(compact([
        {"url": "1", "normalized_url": "https://a.example/x"},
        {"url": "2", "normalized_url": "https://a.example/y", "canonical_key": "https://a.example/x"},
        {"url": "3", "normalized_url": "https://a.example/z"},
        {"url": "4", "normalized_url": "https://a.example/z"},
    ]))
    assert url_duplicates(frame).to_list() == [False, True, False, True]


def test_exact_duplicates_first_occurrence_wins():
    frame = order_candidates(compact([{"url": "1", "content_hash": "h"}, {"url": "2", "content_hash": "g"},
                                      {"url": "3", "content_hash": "h"}, {"url": "4", "content_hash": None}]))
    assert exact_duplicates(frame).to_list() == [False, False, True, False]


def test_near_duplicates_match_only_kept_pages():
    text = " ".join(prose("near", paragraphs=4))
    value = to_int64(simhash64(text))
    frame = order_candidates(compact([{"url": "1", "simhash64": value}, {"url": "2", "simhash64": value},
                                      {"url": "3", "simhash64": value}]))
    # First one is blocked by another rule, so it is not "kept": the second is the first kept one.
    blocked = pl.Series([True, False, False])
    assert near_duplicates(frame, blocked, 3) == [None, None, 0]
    assert near_duplicates(frame, pl.Series([False] * 3), None) == [None, None, None]


def test_host_partition_is_stable():
    assert host_partition("a.example", 7) == host_partition("a.example", 7)
    assert {host_partition(f"h{i}.example", 4) for i in range(50)} == {0, 1, 2, 3}


def run(tmp_path, records, params: dict | None = None, name="out"):
    path = tmp_path / f"{name}.warc.gz"
    write_warc(path, records)
    args = ["run", path, "--out", tmp_path / name]
    if params:
        (tmp_path / f"{name}.yaml").write_text(json.dumps(params))
        args += ["--params", tmp_path / f"{name}.yaml"]
    assert cli(*args) == 0
    rows = pl.concat([pl.read_parquet(tmp_path / name / "accepted"), pl.read_parquet(tmp_path / name / "rejected")])
    return {r["url"]: r for r in rows.iter_rows(named=True)}


SHARED = "".join(f"<p>{p}</p>" for p in prose("site-wide disclaimer", paragraphs=6))


def template(title: str) -> bytes:
    return article_html(title, paragraphs=2).replace(b"</article>", SHARED.encode() + b"</article>")


def test_cdc_is_per_host(tmp_path):
    rows = run(tmp_path, [
        ("http://a.example/post/1", template("One"), {}),
        ("http://a.example/post/2", template("Two"), {}),
        ("http://b.example/post/3", template("Three"), {}),
    ])
    assert rows["http://a.example/post/1"]["signals"]["cdc_duplicated_fraction"] == 0.0
    second = rows["http://a.example/post/2"]
    assert second["signals"]["cdc_duplicated_fraction"] > 0.5 and "dup.cdc" in second["reasons"]
    other_host = rows["http://b.example/post/3"]
    assert other_host["signals"]["cdc_duplicated_fraction"] == 0.0 and "dup.cdc" not in other_host["reasons"]


def test_cdc_threshold_and_algorithm_are_select_params(tmp_path):
    records = [("http://a.example/post/1", template("One"), {}), ("http://a.example/post/2", template("Two"), {})]
    loose = run(tmp_path, records, {"select": {"dedup": {"cdc": {"max_duplicated_fraction": 0.99}}}}, "loose")
    assert "dup.cdc" not in loose["http://a.example/post/2"]["reasons"]
    fast = run(tmp_path, records, {"select": {"dedup": {"cdc": {"algorithm": "fastcdc"}, "partitions": 3}}}, "fast")
    assert fast["http://a.example/post/2"]["signals"]["cdc_duplicated_fraction"] > 0.5


def test_duplicates_across_hosts(tmp_path):
    body = article_html("Original story", paragraphs=10)
    rows = run(tmp_path, [
        ("http://a.example/post/original", body, {}),
        ("http://b.example/post/copy", body, {}),
        ("http://a.example/post/original?utm_source=x", article_html("Other text", paragraphs=10), {}),
    ])
    assert rows["http://a.example/post/original"]["reasons"] == []
    assert {"dup.exact", "dup.near"} <= set(rows["http://b.example/post/copy"]["reasons"])
    assert rows["http://a.example/post/original?utm_source=x"]["reasons"] == ["dup.url"]


def test_sample_dup_fates(tmp_path):
    assert cli("run", ROOT / "data" / "sample", "--out", tmp_path / "s") == 0
    rows = pl.concat([pl.read_parquet(tmp_path / "s" / "accepted"), pl.read_parquet(tmp_path / "s" / "rejected")])
    manifest = json.loads((ROOT / "data" / "sample" / "manifest.json").read_text())
    for kind, code in (("near_duplicate", "dup.near"), ("exact_duplicate", "dup.exact"), ("url_duplicate", "dup.url")):
        entry = next(e for e in manifest if e["kind"] == kind)
        row = rows.filter(pl.col("source_offset") == entry["offset"]).row(0, named=True)
        assert code in row["reasons"], (kind, row["reasons"])
    templates = [e for e in manifest if e["kind"] == "template_page"]
    fates = [rows.filter(pl.col("source_offset") == e["offset"]).row(0, named=True)["reasons"] for e in templates]
    assert fates[0] == [] and all("dup.cdc" in f for f in fates[1:])


def test_params_reject_unknown_cdc_algorithm():
    import pytest

    from pipeline.params import ParamsError

    with pytest.raises(ParamsError, match="rabin or fastcdc"):
        params_from_dict({"select": {"dedup": {"cdc": {"algorithm": "gear"}}}})
    assert Params().select.dedup.near.max_hamming_distance == 3


def test_slices_of_rows_give_the_same_output_as_whole_files(tmp_path, monkeypatch):
    """The write pass and the CDC pass read a file a few rows at a time (memory flat over large
    inputs): any slice size gives the same rows, reasons and stats."""
    from pipeline.stages import dedup, select

    assert cli("extract", ROOT / "data" / "sample", "--out", tmp_path / "work") == 0

    def outcome(name: str) -> tuple[pl.DataFrame, dict]:
        assert cli("select", tmp_path / "work", "--out", tmp_path / name) == 0
        rows = pl.concat([pl.read_parquet(tmp_path / name / part) for part in ("accepted", "rejected")])
        stats = json.loads((tmp_path / name / "stats.json").read_text())
        stats.pop("timings")
        return rows.sort("id"), stats

    whole_rows, whole_stats = outcome("whole")
    assert whole_stats["by_reason"].get("dup.cdc", 0) > 0
    for rows_at_once in (1, 3):
        monkeypatch.setattr(select, "SLICE_ROWS", rows_at_once)
        monkeypatch.setattr(dedup, "TEXT_BATCH_ROWS", rows_at_once)
        rows, stats = outcome(f"slices{rows_at_once}")
        assert stats == whole_stats
        assert rows.equals(whole_rows)
