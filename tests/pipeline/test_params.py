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


# --- bounds declared with each parameter (filters.core.declarations.Bounds) -----------------------


@pytest.mark.parametrize("data, message", [
    ({"select": {"page": {"min_kept_type_probability": 1.5}}},
     r"'select\.page\.min_kept_type_probability' must be in \[0, 1\], got 1\.5"),
    ({"select": {"length": {"min_tokens": -5}}}, r"'select\.length\.min_tokens' must be at least 0, got -5"),
    ({"select": {"gopher": {"max_dup_5gram_char_fraction": -0.1}}}, r"must be in \[0, 1\], got -0\.1"),
    ({"extract": {"gate": {"min_page_article_probability": 2}}}, r"must be in \[0, 1\], got 2\.0"),
    ({"select": {"page": {"keep_types": ["article", "articles"]}}},
     r"'select\.page\.keep_types' must be one of article, collection, .*, got 'articles'"),
    ({"extract": {"cascade": {"selection": "best"}}}, r"'extract\.cascade\.selection' must be one of .*agreement"),
    ({"select": {"dedup": {"near": {"min_containment": 0}}}}, r"must be in \(0, 1\], got 0\.0"),
    ({"dataset": {"split_by": "site"}}, r"'dataset\.split_by' must be one of registered_domain, host"),
    ({"extract": {"minhash": {"permutations": 5000}}}, r"must be in \[1, 1024\], got 5000"),
    ({"dataset": {"split": {"train": 1.2, "validation": -0.1, "test": -0.1}}}, r"must be in \[0, 1\]"),
])
def test_a_value_outside_its_declared_bounds_is_one_line_naming_the_key(data, message):
    with pytest.raises(ParamsError, match=message):
        params_from_dict(data)


def test_null_still_switches_a_bounded_rule_off():
    params = params_from_dict({"select": {"length": {"min_tokens": None}, "page": {"min_kept_type_probability": None}}})
    assert params.select.length.min_tokens is None and params.select.page.min_kept_type_probability is None


def test_every_share_and_count_declares_its_bounds():
    """A threshold named as a share or probability is declared in [0, 1], one named as a count of
    something is declared non-negative: the bounds live with the declaration, and a new parameter
    cannot go without them."""
    from pipeline.params import declared_bounds, flatten, leaf_hints

    shares = counts = 0
    for key, hint in leaf_hints().items():
        name = key.rsplit(".", 1)[-1]
        bounds = declared_bounds(hint)
        if name.endswith(("_fraction", "_probability", "_density", "_ratio", "_containment")) and "symbol" not in name:
            assert any(b.low is not None and b.low >= 0 and b.high is not None and b.high <= 1 for b in bounds), key
            shares += 1
        elif name.endswith(("_words", "_tokens", "_chars", "_bytes", "_posts", "_paragraphs", "_blocks", "_count")):
            assert any(b.low is not None and b.low >= 0 for b in bounds), key
            counts += 1
    assert shares > 25 and counts > 10
    assert set(leaf_hints()) == set(flatten(Params().to_dict()))  # every key, none twice


def test_a_renamed_key_is_still_read_under_its_old_name_with_a_warning(tmp_path, capsys):
    import warnings

    from pipeline.params import RenamedKeyWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        params = params_from_dict({"select": {"page": {"min_article_probability": 0.5}}})
    assert params.select.page.min_kept_type_probability == 0.5
    assert [warning.category for warning in caught] == [RenamedKeyWarning]
    with pytest.raises(ParamsError, match="old name"):
        params_from_dict({"select": {"page": {"min_article_probability": 0.5, "min_kept_type_probability": 0.4}}})
    # the command line prints it as one warning line and goes on
    from conftest import ROOT, cli

    (tmp_path / "p.yaml").write_text("select:\n  page:\n    min_article_probability: 0.5\n")
    given = tmp_path / "p.yaml"
    assert cli("run", ROOT / "data" / "sample" / "html", "--out", tmp_path / "out", "--params", given) == 0
    err = capsys.readouterr().err
    assert "pipeline: warning: params: 'select.page.min_article_probability' is now " \
           "'select.page.min_kept_type_probability'" in err
