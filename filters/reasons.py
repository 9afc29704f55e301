"""The decision table: every reason code, its meaning, and the rule that gives it.

A rule is (reason code, signal, comparison, threshold) where the threshold is either a
constant or a key into `params.yaml`; a threshold of `null` switches the rule off. Rules
fire only on non-null signals, so a signal that was never computed rejects nothing.

`stage` says where a rule is applied: `extract` rules decide whether a record is worth
decoding, parsing and extracting at all (their thresholds live under `extract:` and
changing them means re-extracting); `select` rules are applied to stored signals and can be
re-tuned without touching extraction.

The order of `RULES` is the pipeline order (input -> record -> url -> article -> extract ->
page -> lang -> length -> block -> c4 -> gopher -> quality -> dup); `reasons` lists and
`first_reason` in stats.json follow it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Stage = Literal["extract", "select"]

# `error` (an exception inside one filter, or the page's time budget) is raised while
# extracting, so it sits with the extract-stage groups; every extract-stage group comes before
# every select-stage group, which lets the select stage append its reasons in order.
GROUP_ORDER: tuple[str, ...] = (
    "input", "record", "url", "article", "extract", "error", "page", "lang", "length",
    "block", "c4", "gopher", "quality", "date", "dup",
)

_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    ">": lambda v, t: v > t,
    ">=": lambda v, t: v >= t,
    "<": lambda v, t: v < t,
    "<=": lambda v, t: v <= t,
    "==": lambda v, t: v == t,
    "is_true": lambda v, _t: bool(v),
    "is_false": lambda v, _t: not v,
    "outside": lambda v, t: not (t[0] <= v <= t[1]),
}


@dataclass(frozen=True)
class Rule:
    code: str
    meaning: str
    signal: str
    op: str
    stage: Stage
    params_key: str | None = None
    constant: Any = None

    @property
    def group(self) -> str:
        return self.code.split(".", 1)[0]

    def threshold(self, params: Any) -> Any:
        """The value the signal is compared with; None means the rule is switched off."""
        if self.params_key is not None:
            return params.get(self.params_key)
        return self.constant

    def fires(self, value: Any, params: Any) -> bool:
        if value is None:
            return False
        threshold = self.threshold(params)
        if threshold is None and self.op not in ("is_true", "is_false"):
            return False
        return _COMPARISONS[self.op](value, threshold)

    def describe(self) -> str:
        """Human-readable comparison, e.g. `payload_bytes > extract.read.max_payload_bytes`."""
        if self.op in ("is_true", "is_false"):
            return f"{self.signal} {'is true' if self.op == 'is_true' else 'is false'}"
        if self.op == "outside":
            low, high = self.constant
            return f"{self.signal} outside [{low}, {high}]"
        target = self.params_key if self.params_key is not None else repr(self.constant)
        return f"{self.signal} {self.op} {target}"


RULES: tuple[Rule, ...] = (
    Rule("input.corrupt", "a damaged region of an input file (one row per region, at the offset "
         "where the damage began); reading resumed at the next record boundary found",
         "input_corrupt", "is_true", "extract"),
    Rule("input.unreadable", "an input file that cannot be opened or is not WARC, ARC or HTML",
         "input_unreadable", "is_true", "extract"),
    Rule("record.http_status", "HTTP status is not 2xx", "http_status", "outside", "extract",
         constant=(200, 299)),
    Rule("record.not_html", "payload is not HTML (HTTP Content-Type, else "
         "WARC-Identified-Payload-Type, else sniffed)", "is_html", "is_false", "extract"),
    Rule("record.empty", "empty payload", "payload_bytes", "==", "extract", constant=0),
    Rule("record.too_large", "payload above the size cap; not decoded", "payload_bytes", ">",
         "extract", params_key="extract.read.max_payload_bytes"),
    Rule("record.undecodable", "binary garbage: too many replacement/control characters after "
         "decoding", "undecodable_char_fraction", ">", "extract",
         params_key="extract.read.max_undecodable_char_fraction"),
    Rule("url.hard_excluded", "URL path matches a hard-exclude pattern of seed 000 §6 (build assets, "
         "CDN, WordPress admin/API/uploads, AMP duplicates)", "url_hard_excluded", "is_true", "extract"),
    Rule("url.extension", "URL ends in an excluded extension (seed 000 §6: images, PDF, CSS/JS, fonts, "
         "archives)", "url_excluded_extension", "is_true", "extract"),
    Rule("url.exclude_regex", "URL matches a user pattern (extract.url.exclude_regex)",
         "url_exclude_regex_matched", "is_true", "extract"),
    Rule("article.score", "article score below the threshold (seed 000 §1); not extracted unless "
         "--extract-all", "article_score", "<", "extract", params_key="extract.gate.article_score_min"),
    Rule("extract.empty", "the extractor found no main text", "word_count", "==", "extract",
         constant=0),
    Rule("page.js_shell", "JS-only shell (seed 000 §2 SPA or §3 needs_js) and the extraction found too "
         "little text", "js_shell_extracted_words", "<", "extract",
         params_key="extract.page.too_little_text_words"),
    Rule("page.cookie_wall", "cookie/GDPR wall (seed 000 §2) and the extraction found too little text",
         "cookie_wall_extracted_words", "<", "extract", params_key="extract.page.too_little_text_words"),
    Rule("page.paywall", "paywall (seed 000 §2) and the extraction found too little text",
         "paywall_extracted_words", "<", "extract", params_key="extract.page.too_little_text_words"),
)

RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in RULES}
_ORDER: dict[str, int] = {r.code: i for i, r in enumerate(RULES)}


def rules_for(stage: Stage, groups: Iterable[str] | None = None) -> tuple[Rule, ...]:
    wanted = None if groups is None else set(groups)
    return tuple(r for r in RULES if r.stage == stage and (wanted is None or r.group in wanted))


def decide(rules: Iterable[Rule], values: Mapping[str, Any], params: Any) -> list[str]:
    """Reason codes of the rules that fire on `values` (signals and columns by name)."""
    return [r.code for r in rules if r.fires(values.get(r.signal), params)]


def in_pipeline_order(codes: Iterable[str]) -> list[str]:
    """Sort reason codes by pipeline order; codes outside the table (error.*) go by group."""
    def key(code: str) -> tuple[int, int, str]:
        group = code.split(".", 1)[0]
        group_rank = GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER)
        return (group_rank, _ORDER.get(code, len(_ORDER)), code)
    return sorted(set(codes), key=key)


def markdown_table() -> str:
    """The README's reason-code table, generated from `RULES` (a test keeps them equal)."""
    lines = ["| code | stage | meaning | rule (signal, comparison, params key) |", "|---|---|---|---|"]
    for rule in RULES:
        lines.append(f"| `{rule.code}` | {rule.stage} | {rule.meaning} | `{rule.describe()}` |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
