from pathlib import Path

import pytest
import yaml

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
    # and names every key: a default is written once in code, and params.yaml shows it, never changes it
    written = leaf_keys(yaml.safe_load(path.read_text(encoding="utf-8")))
    assert written == leaf_keys(Params().to_dict())


def leaf_keys(tree: dict, prefix: str = "") -> set[str]:
    keys = set()
    for name, value in tree.items():
        key = f"{prefix}{name}"
        keys |= leaf_keys(value, f"{key}.") if isinstance(value, dict) else {key}
    return keys


def test_the_key_lister_sees_a_missing_key():
    assert leaf_keys({"a": {"b": 1, "c": {"d": None}}, "e": []}) == {"a.b", "a.c.d", "e"}


@pytest.mark.parametrize("pattern, message", [
    (r"(a)\1", r"'extract.url.exclude_regex': regex '\(a\)\\\\1' is not supported by the linear-time matcher"),
    ("(", r"'extract.url.exclude_regex': invalid regex '\(': missing \)"),
])
def test_exclude_regex_refused_at_load(pattern, message):
    with pytest.raises(ParamsError, match=message):
        params_from_dict({"extract": {"url": {"exclude_regex": ["/ok/", pattern]}}})


def test_exclude_regex_refusal_is_one_line_exit_2(tmp_path, capfd):
    """Also no log line from the regex engine itself (it writes to the process's stderr)."""
    from conftest import cli

    params = tmp_path / "params.yaml"
    params.write_text("extract:\n  url:\n    exclude_regex: ['/x(?=y)']\n")
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>hello</p></body></html>")
    assert cli("run", page, "--out", tmp_path / "out", "--params", params) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "exclude_regex" in err and "lookaround" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()
