from pathlib import Path

import polars as pl
import pytest

from filters.rules import reasons
from filters.rules.reasons import GROUP_ORDER, RULES, Rule, decide, in_pipeline_order
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


def test_docs_reason_table_is_the_registry():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "output.md").read_text(encoding="utf-8")
    table = readme.split("<!-- reasons:start -->\n", 1)[1].split("\n<!-- reasons:end -->", 1)[0]
    assert table == reasons.markdown_table(), "regenerate with: python -m filters.rules.reasons"
    for rule in RULES:
        assert f"`{rule.code}`" in table


# --- one evaluation: the polars form of every rule equals Rule.fires on both sides -------------------
class _Switched:
    """The default params, with every rule switched on (a threshold where the default is off)."""

    ON = {"is_true": True, "not_in": ("en", "de")}

    def __init__(self) -> None:
        self.defaults = Params()

    def get(self, key: str) -> object:
        if any(key == r.enabled_key for r in RULES):
            return True
        value = self.defaults.get(key)
        if value is None:
            rule = next(r for r in RULES if key in (r.enabled_key, r.params_key)
                        or (isinstance(r.params_key, tuple) and key in r.params_key))
            return True if key == rule.enabled_key else self.ON.get(rule.op, 0.5)
        if isinstance(value, (list, tuple)) and not value:
            return ("en", "de")
        return value


def _values_around(rule: Rule, params: _Switched) -> list[object]:
    threshold = rule.threshold(params)
    if rule.op in ("is_true", "is_false"):
        return [True, False, None]
    if rule.op in ("not_in", "in"):
        return [threshold[0], "xx", None]
    if rule.op == "outside":
        bounds = [b for b in threshold if b is not None]
        return [v for b in bounds for v in (b - 1, b, b + 1)] + [None]
    step = 1 if isinstance(threshold, int) and not isinstance(threshold, bool) else 0.001
    return [threshold - step, threshold, threshold + step, None]


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_polars_expression_equals_fires_on_both_sides_of_the_threshold(rule):
    params = _Switched()
    assert rule.enabled(params), rule.code
    values = _values_around(rule, params)
    expected = [rule.fires(v, params) for v in values]
    assert True in expected and False in expected  # both sides of the threshold were reached
    as_column = pl.DataFrame({rule.signal: values}).select(rule.expr(params, [rule.signal]))
    as_signal = pl.DataFrame({"signals": [{rule.signal: v} for v in values]}).select(rule.expr(params))
    assert as_column.to_series().to_list() == expected
    assert as_signal.to_series().to_list() == expected


def test_a_gated_page_keeps_only_pre_extraction_rules():
    select_rules = reasons.rules_for("select")
    assert reasons.applicable(select_rules, gated=True) == ()
    assert reasons.applicable(select_rules, gated=False) == select_rules
    extract_rules = reasons.applicable(reasons.rules_for("extract"), gated=True)
    assert {r.group for r in extract_rules} == set(reasons.PRE_EXTRACTION_GROUPS) & {r.group for r in RULES}


def test_every_group_has_a_rule_but_error():
    """error.* codes come from exceptions and the time budget, not from the table; every other
    group of the pipeline order has at least one rule (no group that nothing can fill)."""
    assert set(GROUP_ORDER) - {rule.group for rule in RULES} == {"error"}
