"""The decision table: every reason code, its meaning, and the rule that gives it.

A rule is (reason code, signal, comparison, threshold) where the threshold is either a
constant or a key into `params.yaml`; a threshold of `null` switches the rule off. Rules
fire only on non-null signals, so a signal that was never computed rejects nothing.

`stage` says where a rule is applied: `extract` rules decide whether a record is worth
decoding, parsing and extracting at all (their thresholds live under `extract:` and
changing them means re-extracting); `select` rules are applied to stored signals and can be
re-tuned without touching extraction.

The order of `RULES` is the pipeline order (input -> record -> url -> article -> extract ->
page -> lang -> length -> block -> c4 -> gopher -> quality -> dup -> dataset); `reasons` lists and
`first_reason` in stats.json follow it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

import polars as pl

from filters.core.declarations import FLAG_OPS, GROUP_ORDER, PRE_EXTRACTION_GROUPS, Rule, Stage
from filters.corpus import dataset, dedup
from filters.extract import cascade
from filters.page import article_score, page_signals, page_structure, product, url_rules
from filters.page_model import decision as page_model
from filters.parse import record
from filters.segment import segments
from filters.text import blocks, c4, gopher, language_id, length, quality

__all__ = ["FLAG_OPS", "GROUP_ORDER", "PRE_EXTRACTION_GROUPS", "RULES", "RULES_BY_CODE", "Rule", "Stage",
           "applicable", "decide", "decide_expr", "declared_in", "gated_expr", "in_pipeline_order", "markdown_table",
           "rules_for", "values_of"]

# The modules that declare rules, each with its tuple of them, in pipeline order (input -> record
# -> url -> article -> extract -> page -> lang -> length -> block -> c4 -> gopher -> quality -> dup
# -> dataset): the order of `reasons` on every row. `RULES` and `declared_in` both read it.
_DECLARED: tuple[tuple[ModuleType, tuple[Rule, ...]], ...] = (
    (record, record.RULES),
    (url_rules, url_rules.RULES),
    (article_score, article_score.RULES),
    (page_model, page_model.GATE_RULES),
    (cascade, cascade.RULES),
    (page_signals, page_signals.RULES),
    # select stage: thresholds on stored signals, re-tunable without re-extracting
    (product, product.RULES),
    (page_model, page_model.SELECT_RULES),
    (segments, segments.RULES),
    (page_structure, page_structure.RULES),
    (language_id, language_id.RULES),
    (length, length.RULES),
    (blocks, blocks.RULES),
    (c4, c4.RULES),
    (gopher, gopher.RULES),
    (quality, quality.RULES),
    # dedup (select stage, after every other rule: candidates are the pages that pass them all)
    (dedup, dedup.RULES),
    # dataset assembly (select stage, after dedup: the balance counts the pages still kept)
    (dataset, dataset.RULES),
)
RULES: tuple[Rule, ...] = tuple(rule for _, rules in _DECLARED for rule in rules)

RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in RULES}
_ORDER: dict[str, int] = {r.code: i for i, r in enumerate(RULES)}


def rules_for(stage: Stage, groups: Iterable[str] | None = None) -> tuple[Rule, ...]:
    wanted = None if groups is None else set(groups)
    return tuple(r for r in RULES if r.stage == stage and (wanted is None or r.group in wanted))


def applicable(rules: Iterable[Rule], gated: bool) -> tuple[Rule, ...]:
    """The rules that may give a row reasons: all of them, or for a gated page only the
    pre-extraction ones (the one gating rule for extract, select and explain)."""
    return tuple(r for r in rules if not gated or r.applies_to_gated)


def gated_expr() -> pl.Expr:
    """`extraction_gated` as a polars expression (null: not gated)."""
    return pl.col("signals").struct.field("extraction_gated").fill_null(False)


def decide(rules: Iterable[Rule], values: Mapping[str, Any], params: Any, gated: bool = False) -> list[str]:
    """Reason codes of the rules that fire on one row's `values` (signals and columns by name,
    `values_of`); on a `gated` row only the pre-extraction rules apply. The one evaluator of rules
    for a row (extract, explain); `decide_expr` is the same over a frame (select)."""
    return [r.code for r in applicable(rules, gated) if r.fires(values.get(r.signal), params)]


def decide_expr(rules: Iterable[Rule], params: Any, columns: Iterable[str] = (), gate: bool = True) -> pl.Expr | None:
    """`decide` over a frame: a list column of the codes that fire on each row (a signal is a
    column when named in `columns`, else a field of `signals`); with `gate`, only the
    pre-extraction rules fire on a row with `extraction_gated`. None: no rule is on."""
    names = tuple(columns)
    not_gated = ~gated_expr()
    fired = [pl.when(r.expr(params, names) if not gate or r.applies_to_gated else r.expr(params, names) & not_gated)
             .then(pl.lit(r.code)) for r in rules if r.enabled(params)]
    return pl.concat_list(fired).list.drop_nulls() if fired else None


def values_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row's columns and signals by name, as `decide` reads them."""
    return {**row, **row["signals"]}


def in_pipeline_order(codes: Iterable[str]) -> list[str]:
    """Sort reason codes by pipeline order; codes outside the table (error.*) go by group."""
    def key(code: str) -> tuple[int, int, str]:
        group = code.split(".", 1)[0]
        group_rank = GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER)
        return (group_rank, _ORDER.get(code, len(_ORDER)), code)
    return sorted(set(codes), key=key)


_MODULE_OF: dict[str, ModuleType] = {rule.code: module for module, rules in _DECLARED for rule in rules}


def declared_in(rule: Rule) -> str:
    """The file of the module that declares `rule`: its signal's computation, its params and its test."""
    module = _MODULE_OF.get(rule.code)
    if module is None:
        raise KeyError(f"{rule.code}: declared in no module of the rule table")
    return f"{module.__name__.replace('.', '/')}.py"


def markdown_table() -> str:
    """The reason-code table of docs/output.md, generated from `RULES` (a test keeps them equal)."""
    lines = ["| code | stage | meaning | rule (signal, comparison, params key) | declared in |",
             "|---|---|---|---|---|"]
    for rule in RULES:
        lines.append(f"| `{rule.code}` | {rule.stage} | {rule.meaning} | `{rule.describe()}` | `{declared_in(rule)}` |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
