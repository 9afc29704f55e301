"""The length filter (filters/text/length.py): tokens, and `length.tokens` on both sides of its threshold."""

from __future__ import annotations

from filters.rules.reasons import RULES_BY_CODE, declared_in
from filters.text.length import LengthParams, length_signals
from pipeline.params import Params, params_from_dict


def test_tokens_are_words_and_each_character_of_an_unspaced_script():
    assert length_signals("Council votes on the new bus lanes") == {"token_count": 7}
    assert length_signals("東京都") == {"token_count": 3}


def test_length_rule_fires_below_the_minimum_only():
    rule = RULES_BY_CODE["length.tokens"]
    minimum = Params().select.length.min_tokens
    assert minimum == LengthParams.min_tokens
    assert rule.fires(minimum - 1, Params()) and not rule.fires(minimum, Params())
    assert not rule.fires(0, params_from_dict({"select": {"length": {"min_tokens": None}}}))


def test_the_length_code_leads_to_this_module():
    assert declared_in(RULES_BY_CODE["length.tokens"]) == "filters/text/length.py"
    assert declared_in(RULES_BY_CODE["page.not_article"]) == "filters/page_model/decision.py"
