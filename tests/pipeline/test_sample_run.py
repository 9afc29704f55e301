"""The bundled sample: in sync with its generator, and every implemented fate as the manifest says."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from conftest import ROOT, SEED_PARAMS, cli
from filters.rules.reasons import RULES
from pipeline.sample import write_sample
from samplegen.content import manifest_path

SAMPLE = ROOT / "data" / "sample"
ROW_TYPES = {"response", "resource", "file", "corrupt", "unreadable"}


def test_committed_sample_matches_generator(tmp_path):
    write_sample(tmp_path / "sample")
    generated = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    committed = {p.relative_to(SAMPLE.parent).as_posix(): p.read_bytes()
                 for p in (*SAMPLE.rglob("*"), manifest_path(SAMPLE)) if p.is_file()}
    assert generated == committed, "regenerate with: pipeline sample --out data/sample"


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory) -> tuple[dict, pl.DataFrame]:
    out = tmp_path_factory.mktemp("sample") / "out"
    # The manifest records the seed rules' decisions: the seed preset reproduces them.
    assert cli("run", SAMPLE, "--out", out, "--params", SEED_PARAMS) == 0
    stats = json.loads((out / "stats.json").read_text())
    rows = pl.concat([pl.read_parquet(out / "accepted"), pl.read_parquet(out / "rejected")])
    return stats, rows


def manifest() -> list[dict]:
    return json.loads(manifest_path(SAMPLE).read_text())


def row_for(rows: pl.DataFrame, entry: dict) -> dict:
    path = (SAMPLE / entry["file"]).as_posix()
    match = rows.filter((pl.col("source_file") == path) & (pl.col("source_offset") == entry["offset"]))
    assert match.height == 1, f"{entry['kind']} at {entry['file']}:{entry['offset']}: {match.height} rows"
    return match.row(0, named=True)


def test_every_record_accounted_for(sample_run):
    stats, rows = sample_run
    entries = manifest()
    assert stats["records_in"] == rows.height == sum(e["record_type"] in ROW_TYPES for e in entries)
    for entry in entries:
        if entry["record_type"] in ROW_TYPES:
            assert row_for(rows, entry)["url"] == entry["url"] or entry["record_type"] in ("file", "corrupt")
    non_documents = {t for e in entries if (t := e["record_type"]) not in ROW_TYPES}
    for record_type in non_documents:
        expected = sum(e["record_type"] == record_type for e in entries)
        assert stats["record_types"][record_type] == expected


def test_implemented_reasons_match_the_manifest(sample_run):
    """For every reason group that exists so far, rows get exactly the manifest's reasons of it."""
    _, rows = sample_run
    implemented = {rule.group for rule in RULES}
    for entry in manifest():
        if entry["record_type"] not in ROW_TYPES:
            continue
        row = row_for(rows, entry)
        expected = {r for r in entry["expected_reasons"] if r.split(".")[0] in implemented}
        actual = {r for r in row["reasons"] if r.split(".")[0] in implemented}
        assert expected <= actual, (entry["kind"], entry["url"], row["reasons"])
        if entry["kept"]:
            assert actual == set(), (entry["kind"], entry["url"], row["reasons"])


def test_encodings_of_the_html_files(sample_run):
    _, rows = sample_run
    files = rows.filter(pl.col("record_type") == "file")
    sources = dict(zip(files["source_file"].map_elements(lambda p: Path(p).name, return_dtype=pl.String),
                       files["encoding_source"], strict=True))
    assert sources["idou-toshokan-sjis.html"] == "detected"
    assert sources["zurich-cafes-cp1252.html"] == "meta"


def test_crawler_truncation_is_a_signal_not_a_rejection(sample_run):
    _, rows = sample_run
    truncated = [e for e in manifest() if e["kind"] == "truncated_article"]
    assert truncated
    row = row_for(rows, truncated[0])
    assert row["signals"]["warc_truncated"] is True
    assert not any(r.startswith(("record.", "input.")) for r in row["reasons"])
    others = rows.filter(pl.col("record_type") == "response")["signals"].struct.field("warc_truncated")
    assert others.sum() == 1


def test_kept_pages_get_the_manifest_era_on_both_sides_of_the_cut_off(sample_run):
    _, rows = sample_run
    kept = [entry for entry in manifest() if entry["kept"] is True]
    assert {entry["era"] for entry in kept} == {"pre_cutoff", "post_cutoff"}
    for entry in kept:
        row = row_for(rows, entry)
        assert row["era"] == entry["era"], entry["kind"]
        assert row["split"] in ("train", "validation", "test")
