from pathlib import Path

from filters import reasons
from filters.reasons import GROUP_ORDER, RULES, Rule, decide, in_pipeline_order
from pipeline.params import Params


def test_rule_fires_only_on_non_null_values():
    rule = Rule("record.empty", "m", "payload_bytes", "==", "extract", constant=0)
    assert rule.fires(0, Params())
    assert not rule.fires(1, Params())
    assert not rule.fires(None, Params())


def test_params_threshold_and_null_switch_off():
    rule = reasons.RULES_BY_CODE["record.too_large"]
    limit = Params().extract.read.max_payload_bytes
    assert rule.fires(limit + 1, Params())
    assert not rule.fires(limit, Params())
    from pipeline.params import params_from_dict
    off = params_from_dict({"extract": {"read": {"max_payload_bytes": None}}})
    assert not rule.fires(10**12, off)


def test_http_status_outside_2xx():
    rule = reasons.RULES_BY_CODE["record.http_status"]
    assert [rule.fires(s, Params()) for s in (199, 200, 299, 300, 404)] == [True, False, False, True, True]


def test_decide_and_order():
    values = {"payload_bytes": 0, "is_html": False}
    assert decide(RULES, values, Params()) == ["record.not_html", "record.empty"]
    assert in_pipeline_order(["dup.near", "record.empty", "error.x", "input.corrupt"]) == [
        "input.corrupt", "record.empty", "error.x", "dup.near"]


def test_codes_are_group_rule_and_groups_known():
    for rule in RULES:
        group, _, name = rule.code.partition(".")
        assert name and rule.code == rule.code.lower()
        assert group in GROUP_ORDER


def test_extract_stage_groups_precede_select_stage_groups():
    """The select stage appends its reasons after the stored ones; that keeps pipeline order."""
    extract = [GROUP_ORDER.index(r.group) for r in RULES if r.stage == "extract"]
    select = [GROUP_ORDER.index(r.group) for r in RULES if r.stage == "select"]
    if select:
        assert max(extract) <= min(select)


def test_every_params_key_exists():
    for rule in RULES:
        keys = rule.params_key if isinstance(rule.params_key, tuple) else (rule.params_key, rule.enabled_key)
        for key in keys:
            if key:
                Params().get(key)


def test_outside_with_open_bounds_and_not_in():
    from pipeline.params import params_from_dict

    rule = reasons.RULES_BY_CODE["gopher.word_count"]
    assert rule.fires(49, Params()) and not rule.fires(50, Params()) and rule.fires(100_001, Params())
    no_max = params_from_dict({"select": {"gopher": {"max_words": None}}})
    assert not rule.fires(10**9, no_max) and rule.fires(49, no_max)
    both_off = params_from_dict({"select": {"gopher": {"max_words": None, "min_words": None}}})
    assert not rule.enabled(both_off)
    lang = reasons.RULES_BY_CODE["lang.not_allowed"]
    assert not lang.enabled(Params()) and not lang.fires("xx", Params())
    only_en = params_from_dict({"select": {"lang": {"allowed": ["en"]}}})
    assert lang.fires("de", only_en) and not lang.fires("en", only_en) and not lang.fires(None, only_en)


def test_flag_rule_with_switch():
    from pipeline.params import params_from_dict

    rule = reasons.RULES_BY_CODE["quality.metadata"]
    assert not rule.fires(False, Params())
    assert rule.fires(False, params_from_dict({"select": {"quality": {"require_metadata": True}}}))


def test_readme_reason_table_is_the_registry():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("<!-- reasons:start -->\n", 1)[1].split("\n<!-- reasons:end -->", 1)[0]
    assert table == reasons.markdown_table(), "regenerate with: python -m filters.reasons"
    for rule in RULES:
        assert f"`{rule.code}`" in table
