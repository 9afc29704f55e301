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
from typing import Any

import polars as pl

from filters.core.declarations import FLAG_OPS, GROUP_ORDER, PRE_EXTRACTION_GROUPS, Rule, Stage
from filters.corpus import dataset
from filters.page import product

__all__ = ["FLAG_OPS", "GROUP_ORDER", "PRE_EXTRACTION_GROUPS", "RULES", "RULES_BY_CODE", "Rule", "Stage",
           "applicable", "decide", "gated_expr", "in_pipeline_order", "markdown_table", "rules_for"]

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
    Rule("record.too_deep", "elements nested as deep as the HTML parser goes (256 levels): the parse stopped "
         "there and the rest of the page was not read", "html_depth_limit_reached", "is_true", "extract"),
    Rule("url.hard_excluded", "URL path matches a hard-exclude pattern of the URL rules (build assets, "
         "CDN, WordPress admin/API/uploads, AMP duplicates)", "url_hard_excluded", "is_true", "extract"),
    Rule("url.extension", "URL ends in an excluded extension (the URL rules: images, PDF, CSS/JS, fonts, "
         "archives)", "url_excluded_extension", "is_true", "extract"),
    Rule("url.exclude_regex", "URL matches a user pattern (extract.url.exclude_regex)",
         "url_exclude_regex_matched", "is_true", "extract"),
    Rule("article.score", "article score below the threshold; not extracted unless "
         "--extract-all", "article_score", "<", "extract", params_key="extract.gate.article_score_min"),
    Rule("article.page_model", "the pre-extraction page-type model (URL, title, metadata, page, product and "
         "structure signals) gives the page a low article probability: not extracted unless --extract-all",
         "page_article_probability", "<", "extract", params_key="extract.gate.min_page_article_probability"),
    Rule("extract.empty", "the extractor found no main text", "word_count", "==", "extract",
         constant=0),
    Rule("page.js_shell", "JS-only shell (SPA or needs_js) and the extraction found too "
         "little text", "js_shell_extracted_words", "<", "extract",
         params_key="extract.page.too_little_text_words"),
    Rule("page.cookie_wall", "cookie/GDPR wall and the extraction found too little text",
         "cookie_wall_extracted_words", "<", "extract", params_key="extract.page.too_little_text_words"),
    Rule("page.paywall", "paywall and the extraction found too little text",
         "paywall_extracted_words", "<", "extract", params_key="extract.page.too_little_text_words"),
    # ---- select stage: thresholds on stored signals, re-tunable without re-extracting
    *product.RULES,
    Rule("page.not_article", "the page-type model gives the kept page types (select.page.keep_types, by default "
         "article) a probability below the threshold: a shop, category, listing, forum, documentation or "
         "marketing page", "kept_type_probability", "<", "select", params_key="select.page.min_article_probability"),
    Rule("lang.not_allowed", "text language (language ID of the extracted text) not in the allow-list",
         "text_language", "not_in", "select", params_key="select.lang.allowed"),
    Rule("length.tokens", "fewer tokens than the minimum (the article filter: 200); a token is a word, or one CJK "
         "character", "token_count", "<", "select", params_key="select.length.min_tokens"),
    Rule("block.link_code", "too much of the text inside links or code", "link_code_char_fraction",
         ">", "select", params_key="select.block.max_link_code_char_fraction"),
    Rule("block.no_long_block", "no block longer than 250 characters: likely not paragraphs",
         "longest_block_chars", "<=", "select", params_key="select.block.long_block_chars"),
    Rule("block.large_block_share", "too little text in large blocks of >= 200 characters",
         "large_block_char_fraction", "<", "select", params_key="select.block.min_large_block_char_fraction"),
    Rule("block.list_table", "too much text in short list items / table cells of <= 100 characters",
         "short_list_table_char_fraction", ">", "select",
         params_key="select.block.max_short_list_table_char_fraction"),
    Rule("c4.nopunc_lines", "too many lines without terminal punctuation (C4 document rule; off by default)",
         "c4_removed_line_fraction", ">=", "select", params_key="select.c4.max_nopunc_line_fraction"),
    Rule("c4.removed_words", "C4 NoPunc line removal took most of the text's words (lines without terminal "
         "punctuation: menus, lists, hashtag or caption lines); Gopher then measures the text as extracted",
         "c4_removed_word_fraction", ">", "select", params_key="select.c4.max_removed_word_fraction"),
    *(Rule(f"gopher.{code}", meaning, signal, op, "select", params_key=key)  # type: ignore[arg-type]
      for code, meaning, signal, op, key in (
        ("word_count", "word count outside the Gopher range", "gopher_word_count", "outside",
         ("select.gopher.min_words", "select.gopher.max_words")),
        ("median_word_length", "median word length outside the Gopher range", "gopher_median_word_length",
         "outside", ("select.gopher.min_median_word_length", "select.gopher.max_median_word_length")),
        ("symbol_ratio", "too many '#' and ellipses per word", "gopher_symbol_word_ratio", ">",
         "select.gopher.max_symbol_word_ratio"),
        ("alpha_words", "too few words with an alphabetic character", "gopher_alpha_word_fraction", "<",
         "select.gopher.min_alpha_word_fraction"),
        ("stop_words", "fewer than 2 of the English required words (English text only)", "gopher_stop_word_count",
         "<", "select.gopher.min_stop_words"),
        ("bullet_lines", "too many lines starting with a bullet", "gopher_bullet_line_fraction", ">",
         "select.gopher.max_bullet_line_fraction"),
        ("ellipsis_lines", "too many lines ending with an ellipsis", "gopher_ellipsis_line_fraction", ">",
         "select.gopher.max_ellipsis_line_fraction"),
        ("dup_lines", "too many duplicated lines", "gopher_dup_line_fraction", ">",
         "select.gopher.max_dup_line_fraction"),
        ("dup_line_chars", "too many characters in duplicated lines", "gopher_dup_line_char_fraction", ">",
         "select.gopher.max_dup_line_char_fraction"),
        *((f"top_{n}gram", f"most common {n}-gram covers too many characters", f"gopher_top_{n}gram_char_fraction",
           ">", f"select.gopher.max_top_{n}gram_char_fraction") for n in (2, 3, 4)),
        *((f"dup_{n}gram", f"duplicated {n}-grams cover too many characters", f"gopher_dup_{n}gram_char_fraction",
           ">", f"select.gopher.max_dup_{n}gram_char_fraction") for n in range(5, 11)),
        ("repeated_sequence", "a token sequence repeated back to back too often (off by default)",
         "gopher_max_repeated_sequence_count", ">", "select.gopher.max_repeated_sequence_count"),
    )),
    Rule("quality.link_density", "links/text ratio at or above the quality metrics limit (0.3)",
         "quality_link_density", ">=", "select", params_key="select.quality.max_link_density"),
    Rule("quality.paragraphs", "fewer paragraphs than the minimum (the quality metrics: > 2 required; off by default)",
         "quality_paragraph_count", "<", "select", params_key="select.quality.min_paragraphs"),
    Rule("quality.text_density", "text/HTML ratio at or below the quality metrics limit (0.25; off by default)",
         "quality_text_html_ratio", "<=", "select", params_key="select.quality.min_text_html_ratio"),
    Rule("quality.metadata", "no title, or neither author nor date (the quality metrics; off by default)",
         "quality_metadata_complete", "is_false", "select", enabled_key="select.quality.require_metadata"),
    # ---- dedup (select stage, after every other rule: candidates are the pages that pass them all)
    Rule("dup.cdc", "more than half of the text's bytes are in Rabin-CDC chunks already seen on earlier pages of the "
         "same host that pass every non-duplicate rule",
         "cdc_duplicated_fraction", ">", "dedup", params_key="select.dedup.cdc.max_duplicated_fraction"),
    Rule("dup.exact", "same content hash (SHA-256 of the first 5 000 characters) as an earlier kept page",
         "exact_duplicate", "is_true", "dedup", enabled_key="select.dedup.exact"),
    Rule("dup.near", "an earlier page of its near-duplicate cluster is kept (MinHash LSH over word 5-grams, or "
         "simhash)", "near_duplicate", "is_true", "dedup", enabled_key="select.dedup.near.method"),
    Rule("dup.record", "the same WARC record (same WARC-Record-ID) was read more than once in the run (a copied or "
         "re-packed WARC, a duplicated gzip member) and another copy keeps the id: the first in the global order "
         "that passes every other rule, else the first",
         "record_duplicate", "is_true", "dedup", enabled_key="select.dedup.record"),
    Rule("dup.url", "same normalised URL or canonical URL as an earlier kept page", "url_duplicate",
         "is_true", "dedup", enabled_key="select.dedup.url"),
    # ---- dataset assembly (select stage, after dedup: the balance counts the pages still kept)
    *dataset.RULES,
)

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
    """The reason-code table of docs/output.md, generated from `RULES` (a test keeps them equal)."""
    lines = ["| code | stage | meaning | rule (signal, comparison, params key) |", "|---|---|---|---|"]
    for rule in RULES:
        lines.append(f"| `{rule.code}` | {rule.stage} | {rule.meaning} | `{rule.describe()}` |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
