"""Every sentence about the run is built from the params in force and the rules that ran (#68): the
card's Known limits, the reasons' meanings that the report and explain print, and the report's
"as it ran" column."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from conftest import SEED_PARAMS, article_html, cli, write_warc
from filters.rules.reasons import RULES, RULES_BY_CODE
from pipeline.params import Params, load_params, params_from_dict
from pipeline.report.dataset_card import dataset_card


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("card_in_force")
    write_warc(base / "in.warc.gz", [(f"https://site{number}.example/story-{number}",
                                      article_html(f"Story {number} of the valley", paragraphs=3 + number % 2), {})
                                     for number in range(4)])  # 250 and 335 words: kept at 200, not at 400
    (base / "p.yaml").write_text(yaml.safe_dump({"select": {"length": {"min_tokens": 400}}}))
    assert cli("run", base / "in.warc.gz", "--out", base / "out", "--params", base / "p.yaml") == 0
    return base / "out"


def _limits(card: str) -> str:
    return card.split("## Known limits\n", 1)[1]


def _card(run: Path, params: Params) -> str:
    stats = json.loads((run / "stats.json").read_text())
    manifest = json.loads((run / "work" / "manifest.json").read_text())
    return dataset_card(stats, manifest, params.effective())  # as select gives it


def test_the_known_limits_name_what_ran_under_the_defaults(run):
    limits = _limits(_card(run, Params()))
    assert "page-type model" in limits and "dated by htmldate" in limits and "**Segments**" in limits
    # off under the defaults: the article score, the shop-page rule (page.product) and the block rules
    assert "article score" not in limits and "shop-page rule" not in limits and "block rules" not in limits


def test_the_known_limits_name_what_ran_under_the_seed_preset(run):
    limits = _limits(_card(run, load_params(SEED_PARAMS)))  # infer_dates: false, no page-type model
    assert "htmldate" not in limits and "no date is inferred" in limits
    assert "page-type model" not in limits
    assert "article score" in limits and "shop-page rule" in limits and "block rules" in limits


def test_the_known_limits_say_nothing_of_segments_or_splits_that_did_not_run(run):
    limits = _limits(_card(run, params_from_dict({"segment": None, "dataset": {"split_by": None},
                                                  "select": {"dedup": {"near": {"method": None}}}})))
    assert "**Segments**" not in limits and "segments" not in limits
    assert "Splits by site" not in limits and "every page is in `train`" in limits
    assert "near-duplicate" not in limits and "Exact removal" in limits.replace("exact removal", "Exact removal")


def test_no_rule_meaning_states_a_threshold_of_its_own_params():
    """The report and explain print a rule's meaning beside the run's own values: a meaning that
    named a default (`the article filter: 200`) was false under any other value."""
    defaults = Params()
    for rule in RULES:
        keys = rule.params_key if isinstance(rule.params_key, tuple) else (rule.params_key,)
        for key in filter(None, keys):
            value = defaults.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool):
                assert not re.search(rf"(?<![\w.]){re.escape(f'{value:g}')}(?![\w.])", rule.meaning), (rule.code, value)


def test_the_report_and_the_card_show_the_thresholds_that_ran(run):
    assert RULES_BY_CODE["length.tokens"].in_force(load_params(SEED_PARAMS)) == "token_count < 200"
    report = (run / "report" / "index.html").read_text()
    assert "<code>token_count &lt; 400</code>" in report  # the length rule as it ran, beside its meaning
    assert "200" not in report.split('data-reason="length.tokens"', 1)[1].split("</tr>", 1)[0]
    card = (run / "README.md").read_text()
    assert "| `select.length.min_tokens` | `400` |" in card


def _section(card: str, title: str) -> str:
    return card.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_text_and_era_sections_name_only_the_rules_and_readers_that_ran(run):
    default = _card(run, Params())
    text = _section(default, "The text")
    assert "the MinHash signature" in text and "the content hash" in text
    assert "language" not in text.split("judged exactly this text:", 1)[1].split(".", 1)[0]  # lang.not_allowed off
    assert "htmldate" in _section(default, "Era")
    no_near = _card(run, params_from_dict({"select": {"dedup": {"near": {"method": None}}}}))
    assert "MinHash signature" not in _section(no_near, "The text")
    seed_era = _section(_card(run, load_params(SEED_PARAMS)), "Era")
    assert "htmldate did not run" in seed_era
