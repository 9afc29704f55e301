"""The page-type model in the pipeline: `page.not_article` (select) and `article.page_model`
(before extraction), the `page_type` / `article_probability` columns, and the seed preset."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from conftest import cli
from filters.page_model.model import DEFAULT_MODEL, load_model
from filters.rules import reasons
from pipeline.params import Params, load_params, params_from_dict

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample"


def test_not_article_fires_below_the_threshold_only():
    rule = reasons.RULES_BY_CODE["page.not_article"]
    params = params_from_dict({"select": {"page": {"min_kept_type_probability": 0.4}}})
    assert rule.fires(0.39, params) and not rule.fires(0.4, params) and not rule.fires(0.9, params)
    assert not rule.fires(None, params)
    off = params_from_dict({"select": {"page": {"use_page_model": False, "min_kept_type_probability": 0.4}}})
    assert not rule.fires(0.0, off)  # switched off, whatever the threshold
    assert Params().select.page.use_page_model  # on by default


def test_a_null_threshold_is_the_model_files_own(tmp_path: Path):
    model = load_model(None)
    own = params_from_dict({"select": {"page": {"min_kept_type_probability": None}}})
    select = reasons.RULES_BY_CODE["page.not_article"]
    below, above = model.full.min_article_probability - 1e-6, model.full.min_article_probability
    assert select.fires(below, own) and not select.fires(above, own)
    gate = reasons.RULES_BY_CODE["article.page_model"]
    assert gate.fires(model.page.min_article_probability - 1e-6, Params())
    assert not gate.fires(model.page.min_article_probability, Params())
    # another model file: its own thresholds, not the shipped one's
    document = json.loads(DEFAULT_MODEL.read_text(encoding="utf-8"))
    document["full"]["min_article_probability"] = 0.25
    other = tmp_path / "other.json"
    other.write_text(json.dumps(document), encoding="utf-8")
    theirs = params_from_dict({"select": {"page": {"model": str(other)}}})
    assert select.fires(0.249, theirs) and not select.fires(0.25, theirs)


def test_page_model_gate_fires_below_the_threshold_only():
    rule = reasons.RULES_BY_CODE["article.page_model"]
    params = params_from_dict({"extract": {"gate": {"min_page_article_probability": 0.05}}})
    assert rule.fires(0.049, params) and not rule.fires(0.05, params)
    assert rule.stage == "extract" and rule.applies_to_gated


def test_the_shipped_model_loads_and_is_small():
    # two boosters of about 1.9 MB of LightGBM text and the text model's float16 weights (1.2 MB)
    assert DEFAULT_MODEL.stat().st_size < 6_000_000
    model = load_model()
    assert model.page.features and model.full.features
    assert 0 < model.page.min_article_probability < model.full.min_article_probability < 1


def test_keep_types_must_be_page_types(tmp_path: Path):
    (tmp_path / "p.yaml").write_text("select:\n  page:\n    min_kept_type_probability: 0.5\n    keep_types: [recipe]\n")
    assert cli("run", SAMPLE / "sample.warc.gz", "--out", tmp_path / "out", "--params", tmp_path / "p.yaml") == 2


def rows_of(out: Path) -> pl.DataFrame:
    return pl.concat([pl.read_parquet(path) for path in sorted(out.glob("*ed/*.parquet"))], how="diagonal_relaxed")


@pytest.fixture(scope="module")
def model_run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("model-run")
    (out / "p.yaml").write_text("extract:\n  gate:\n    min_page_article_probability: 0.02\n"
                                "select:\n  page:\n    min_kept_type_probability: 0.5\n")
    assert cli("run", SAMPLE / "sample.warc.gz", "--out", out / "run", "--params", out / "p.yaml") in (0, 1)
    return out / "run"


@pytest.fixture(scope="module")
def model_run(model_run_dir: Path) -> pl.DataFrame:
    return rows_of(model_run_dir)


def test_the_report_draws_the_probability_histogram(model_run_dir: Path, model_run: pl.DataFrame):
    table = pl.read_csv(model_run_dir / "report" / "signal_kept_type_probability.csv")
    measured = model_run["signals"].struct.field("kept_type_probability").drop_nulls()
    assert table["accepted"].sum() + table["rejected"].sum() == measured.len() > 10
    assert (model_run_dir / "report" / "signal_kept_type_probability.png").stat().st_size > 0


def test_pages_never_parsed_get_no_page_type(model_run: pl.DataFrame):
    unparsed = model_run.filter(pl.col("signals").struct.field("structure_link_count").is_null())
    assert unparsed.height > 0  # the sample has damaged, undecodable and non-HTML records
    assert unparsed["page_type"].null_count() == unparsed.height
    assert not unparsed["reasons"].list.contains("page.not_article").any()


def test_select_writes_page_type_and_probability_for_html_rows(model_run: pl.DataFrame):
    html = model_run.filter(pl.col("signals").struct.field("structure_link_count").is_not_null())
    assert html.height > 10
    assert html["page_type"].null_count() == 0 and html["article_probability"].null_count() == 0
    assert set(html["page_type"]) <= {"article", "collection", "documentation", "forum", "listing", "product",
                                      "service"}
    assert html["article_probability"].is_between(0, 1).all()


def test_not_article_is_given_exactly_below_the_threshold(model_run: pl.DataFrame):
    decided = model_run.filter(~pl.col("signals").struct.field("extraction_gated").fill_null(True))
    probability = decided["signals"].struct.field("kept_type_probability")
    has_reason = decided["reasons"].list.contains("page.not_article")
    assert (has_reason == (probability < 0.5)).all()


def test_page_model_gate_records_its_probability(model_run: pl.DataFrame):
    # every page that reached the gate (a URL or record rule may reject a page before it)
    html = model_run.filter(pl.col("signals").struct.field("structure_link_count").is_not_null())
    assert html.height > 10
    probability = html["signals"].struct.field("page_article_probability")
    assert probability.null_count() == 0
    gated = html["reasons"].list.contains("article.page_model")
    assert (gated == (probability < 0.02)).all()


def test_the_seed_preset_is_the_seed_and_the_default_keeps_the_sample_pages_it_keeps(tmp_path: Path):
    # the manifest's decisions under the seed preset: tests/pipeline/test_sample_run.py
    preset = load_params(ROOT / "presets" / "seed.yaml")
    assert preset.extract.gate.article_score_min == 35
    assert not preset.select.page.use_page_model and not preset.extract.gate.use_page_model
    assert preset.select.block.min_large_block_char_fraction == 0.75
    assert cli("run", SAMPLE, "--out", tmp_path / "default") in (0, 1)
    default = rows_of(tmp_path / "default")
    manifest = json.loads((SAMPLE.parent / "sample.manifest.json").read_text(encoding="utf-8"))
    expected = {(entry["file"], entry["offset"]) for entry in manifest if entry["kept"]}
    kept = {(Path(row["source_file"]).resolve().relative_to(SAMPLE.resolve()).as_posix(), row["source_offset"])
            for row in default.filter(pl.col("kept")).to_dicts()}
    # no page the seed's rules reject gets in, the Japanese news story is kept (its blocks are measured
    # in widths, so the seed's block rules pass it too: manifest note), and the model may lose one of the
    # sample's hand-written articles (the file-only essay paper-notebook.html)
    japanese = {(entry["file"], entry["offset"]) for entry in manifest if entry["kind"] == "japanese_article"}
    assert len(japanese) == 1 and japanese <= kept and japanese <= expected
    assert kept <= expected
    assert len(expected - kept) <= 1


def test_the_dataset_card_names_the_model_when_it_decides(tmp_path: Path):
    (tmp_path / "p.yaml").write_text("select:\n  page:\n    min_kept_type_probability: 0.5\n")
    assert cli("run", SAMPLE / "sample.warc.gz", "--out", tmp_path / "m", "--params", tmp_path / "p.yaml") in (0, 1)
    card = (tmp_path / "m" / "README.md").read_text(encoding="utf-8")
    assert "page_type.json" in card and "threshold 0.5" in card and "CC-BY-4.0" in card
    assert cli("run", SAMPLE / "sample.warc.gz", "--out", tmp_path / "d", "--params", ROOT / "presets" / "seed.yaml") \
        in (0, 1)
    assert "No page-type model was used" in (tmp_path / "d" / "README.md").read_text(encoding="utf-8")


def test_each_threshold_is_stored_once_in_the_model_file():
    # params and presets leave the model's thresholds to the model file (null: the model's own)
    defaults = Params()
    assert defaults.extract.gate.min_page_article_probability is None
    assert defaults.select.page.min_kept_type_probability is None
    for preset in sorted((ROOT / "presets").glob("*.yaml")):
        params = load_params(preset)
        assert params.extract.gate.min_page_article_probability is None, preset.name
        assert params.select.page.min_kept_type_probability is None, preset.name
    preset = load_params(ROOT / "presets" / "page-model.yaml")
    assert preset.extract.gate == defaults.extract.gate and preset.select.page == defaults.select.page


def test_predictions_are_the_same_in_slices_over_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # select predicts a slice of rows at a time, the slices over the run's workers: rows cut
    # anywhere, in other processes, give the same columns as one slice in this process
    from pipeline.run.executors import LocalExecutor
    from pipeline.stages import page_types

    work = tmp_path / "work"
    assert cli("extract", SAMPLE / "sample.warc.gz", "--out", work, "--workers", "1") == 0
    unit = sorted(str(path) for path in (work / "extract").rglob("*.parquet"))
    whole = page_types.predictions(unit, Params())
    assert whole.height > 20 and whole["page_type"].n_unique() > 2
    monkeypatch.setattr(page_types, "SLICE_ROWS", 7)
    with LocalExecutor(2) as executor:
        sliced = page_types.predictions(unit, Params(), executor)
    assert sliced.equals(whole)
