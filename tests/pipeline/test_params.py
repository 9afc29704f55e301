from pathlib import Path

import pytest

from pipeline.params import Params, ParamsError, load_params, params_from_dict


def test_defaults_when_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_params(None) == Params()


def test_reads_working_directory_params_yaml(tmp_path, monkeypatch):
    (tmp_path / "params.yaml").write_text("extract:\n  read:\n    max_payload_bytes: 123\n")
    monkeypatch.chdir(tmp_path)
    assert load_params(None).extract.read.max_payload_bytes == 123


def test_unknown_key_is_named(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("extract:\n  read:\n    max_payload_byte: 1\n")
    with pytest.raises(ParamsError, match=r"unknown key 'extract\.read\.max_payload_byte'"):
        load_params(path)


def test_unknown_top_level_group():
    with pytest.raises(ParamsError, match="unknown key 'selekt'"):
        params_from_dict({"selekt": {}})


@pytest.mark.parametrize("value", ["big", True, [1]])
def test_wrong_type_rejected(value):
    with pytest.raises(ParamsError, match="max_payload_bytes"):
        params_from_dict({"extract": {"read": {"max_payload_bytes": value}}})


def test_int_accepted_for_float_and_null_switches_off():
    params = params_from_dict({"extract": {"read": {"max_undecodable_char_fraction": 1,
                                                    "max_payload_bytes": None}}})
    assert params.extract.read.max_undecodable_char_fraction == 1.0
    assert params.extract.read.max_payload_bytes is None


def test_null_rejected_where_not_allowed():
    with pytest.raises(ParamsError, match="must not be null"):
        params_from_dict({"select": {"output": {"shard_max_rows": None}}})


def test_invalid_yaml(tmp_path: Path):
    path = tmp_path / "p.yaml"
    path.write_text("extract: [unclosed\n")
    with pytest.raises(ParamsError, match="not valid YAML"):
        load_params(path)


def test_dotted_get():
    assert Params().get("extract.read.max_payload_bytes") == Params().extract.read.max_payload_bytes


def test_repository_params_yaml_matches_defaults():
    """params.yaml at the repository root spells out the built-in defaults (CONTRACT: same values)."""
    path = Path(__file__).resolve().parents[2] / "params.yaml"
    assert load_params(path) == Params()
