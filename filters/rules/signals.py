"""Registry of every signal a row can carry in its `signals` struct.

Signals are numbers and flags computed once per record (RedPajama-V2 style): thresholds are
applied later by the decision table in `filters.rules.reasons`, so re-tuning never re-computes them.
A signal's name carries its unit (`_bytes`, `_fraction`, `_chars`, `_count`). The registry
fixes the Arrow type of each field so every shard has the same struct schema; a signal that
was not computed for a record is null.
"""

from __future__ import annotations

import pyarrow as pa

from filters.core.declarations import Signal
from filters.corpus import dataset
from filters.page import page_structure, product
from filters.page.article_score import WEIGHTS

__all__ = ["SCORE_COMPONENTS", "SIGNALS", "SIGNALS_BY_NAME", "Signal", "check_signal_names", "signals_struct_type"]

SCORE_COMPONENTS: tuple[str, ...] = tuple(WEIGHTS)


SIGNALS: tuple[Signal, ...] = (
    Signal("input_corrupt", pa.bool_(), "the row stands for a damaged region of an input file"),
    Signal("corrupt_region_bytes", pa.int64(), "bytes skipped from the damage to the next record found"),
    Signal("input_unreadable", pa.bool_(), "the input file could not be opened or recognised"),
    Signal("payload_bytes", pa.int64(), "HTTP body size after transfer/content decoding"),
    Signal("payload_declared_bytes", pa.int64(), "record Content-Length as declared in the WARC header"),
    Signal("warc_truncated", pa.bool_(), "the crawler truncated the payload (WARC-Truncated header)"),
    Signal("is_html", pa.bool_(), "media type (HTTP, WARC-Identified-Payload-Type or sniffed) is HTML"),
    Signal("undecodable_char_fraction", pa.float64(), "share of U+FFFD and control chars after decoding"),
    Signal("html_bytes", pa.int64(), "bytes of the HTML handed to the parser (payload without BOM)"),
    Signal("html_depth_limit_reached", pa.bool_(), "elements nest 256 levels deep, where the parser stops reading"),
    # URL rules (docs/filters.md)
    Signal("url_hard_excluded", pa.bool_(), "URL path matches a hard-exclude pattern"),
    Signal("url_excluded_extension", pa.bool_(), "URL ends in an excluded file extension"),
    Signal("url_exclude_regex_matched", pa.bool_(), "URL matches one of extract.url.exclude_regex"),
    # article score (docs/filters.md): one field per table row, in points
    *(Signal(f"article_score_{name}", pa.int32(), f"article score points for '{name}'")
      for name in SCORE_COMPONENTS),
    Signal("body_word_count", pa.int32(), "words of visible body text without nav/header/footer/script/style"),
    Signal("h1_count", pa.int32(), "<h1> elements"),
    Signal("paragraph_count", pa.int32(), "<p> elements with at least 20 characters"),
    Signal("outbound_link_count", pa.int32(), "<a href> links to another host"),
    # page classification and needs_js (docs/filters.md)
    Signal("page_body_word_count", pa.int32(), "PageSignals.body_word_count (page classification)"),
    Signal("page_is_js_spa", pa.bool_(), "framework root with < 200 words, or < 10 words and external scripts"),
    Signal("page_is_cookie_walled", pa.bool_(), "cookie/GDPR overlay detected"),
    Signal("page_is_paywalled", pa.bool_(), "paywall phrases plus metered markers"),
    Signal("page_js_frameworks", pa.string(), "named JS frameworks detected, comma-separated"),
    Signal("page_has_amp_url", pa.bool_(), "<link rel=amphtml> present"),
    Signal("page_has_feed_url", pa.bool_(), "RSS/Atom <link rel=alternate> present"),
    Signal("page_type", pa.string(), "COOKIE_WALLED, PAYWALLED, JS_SPA, STATIC_HTML or UNKNOWN"),
    Signal("page_strategy", pa.string(), "what a live fetcher would do next; recorded only"),
    Signal("page_confidence", pa.float64(), "confidence of the classification"),
    Signal("external_script_count", pa.int32(), "<script src> elements"),
    Signal("needs_js", pa.bool_(), "any of the four needs_js signals"),
    Signal("needs_js_message", pa.bool_(), "explicit 'enable JavaScript' message in the body text"),
    Signal("needs_js_root", pa.bool_(), "JS framework root element and < 100 words"),
    Signal("needs_js_heavy_scripts", pa.bool_(), "> 8 external scripts and < 50 words"),
    Signal("needs_js_noscript", pa.bool_(), "<noscript> with > 20 words"),
    *product.SIGNALS,  # shop / product pages
    *page_structure.SIGNALS,  # structural counts read by the page-type model
    Signal("page_article_probability", pa.float64(), "pre-extraction page-type model: probability that the page "
           "is an article (null: model not run)"),
    Signal("extraction_gated", pa.bool_(), "a pre-extraction rule (url, article score) rejected the page"),
    # extraction cascade trace and block structure (docs/filters.md)
    Signal("cookie_overlays_removed_count", pa.int32(), "consent overlays removed before extraction"),
    Signal("cascade_policy", pa.string(), "selection policy that picked the winner"),
    Signal("cascade_reason", pa.string(), "why the winner won, with the word counts compared"),
    Signal("cascade_errors", pa.string(), "extractors that raised (with the exception) or were skipped: empty"),
    Signal("cascade_jsonld_words", pa.int32(), "words of the JSON-LD articleBody candidate (null: not run)"),
    Signal("cascade_trafilatura_words", pa.int32(), "words of the trafilatura candidate (after the precision retry)"),
    Signal("cascade_trafilatura_recall_words", pa.int32(), "words of the first trafilatura run, when it was retried"),
    Signal("cascade_trafilatura_precision_words", pa.int32(), "words of the favor_precision retry (null: no retry)"),
    Signal("cascade_trafilatura_link_code_fraction", pa.float64(), "share of trafilatura's text in links or code"),
    Signal("cascade_readability_words", pa.int32(), "words of the readability candidate (null: not run)"),
    Signal("cascade_dom_words", pa.int32(), "words of the DOM-heuristic candidate (null: not run)"),
    Signal("headline_block_count", pa.int32(), "leading blocks of text repeating the headline (not in block stats)"),
    Signal("boilerplate_blocks_removed_count", pa.int32(), "blocks removed by the boilerplate line filters"),
    Signal("text_chars", pa.int64(), "characters of the extracted blocks"),
    Signal("block_count", pa.int32(), "blocks of the extracted content"),
    Signal("longest_block_chars", pa.int64(), "characters of the longest block"),
    Signal("link_code_char_fraction", pa.float64(), "share of text characters inside links or code"),
    Signal("large_block_char_fraction", pa.float64(), "share of text in blocks of >= 200 characters"),
    Signal("short_list_table_char_fraction", pa.float64(), "share of text in list items/table cells <= 100 chars"),
    # text filters (docs/filters.md): length, C4 NoPunc, Gopher (on the C4-cleaned text), language, quality
    Signal("token_count", pa.int32(), "tokens of the text: words, and each CJK character (length.tokens)"),
    Signal("c4_line_count", pa.int32(), "non-blank lines of the extracted text"),
    Signal("c4_removed_line_fraction", pa.float64(), "share of lines C4 NoPunc removes (no terminal punctuation)"),
    Signal("c4_removed_word_fraction", pa.float64(), "share of the text's words in lines C4 NoPunc removes"),
    Signal("c4_kept_word_count", pa.int32(), "words of the lines C4 NoPunc keeps"),
    Signal("gopher_measured_uncleaned", pa.bool_(), "C4 kept < 50 of >= 50 words: Gopher measured the raw text"),
    Signal("gopher_word_count", pa.int32(), "whitespace words of the C4-cleaned text"),
    Signal("gopher_median_word_length", pa.float64(), "median word length in characters"),
    Signal("gopher_symbol_word_ratio", pa.float64(), "('#' + ellipses) per word"),
    Signal("gopher_alpha_word_fraction", pa.float64(), "share of words with an alphabetic character"),
    Signal("gopher_stop_word_count", pa.int32(), "distinct English required words present (null: not English)"),
    Signal("gopher_bullet_line_fraction", pa.float64(), "share of lines starting with a bullet"),
    Signal("gopher_ellipsis_line_fraction", pa.float64(), "share of lines ending with an ellipsis"),
    Signal("gopher_dup_line_fraction", pa.float64(), "share of lines repeating an earlier line"),
    Signal("gopher_dup_line_char_fraction", pa.float64(), "share of line characters in repeated lines"),
    *(Signal(f"gopher_top_{n}gram_char_fraction", pa.float64(), f"word characters covered by the top {n}-gram")
      for n in (2, 3, 4)),
    *(Signal(f"gopher_dup_{n}gram_char_fraction", pa.float64(), f"word characters in duplicated {n}-grams")
      for n in range(5, 11)),
    Signal("gopher_max_repeated_sequence_count", pa.int32(), "most back-to-back repeats of a 1-13 word sequence"),
    Signal("text_language", pa.string(), "language ID of the extracted text (py3langid), ISO 639-1 where one exists"),
    Signal("text_language_confidence", pa.float64(), "normalised probability of text_language"),
    Signal("quality_paragraph_count", pa.int32(), "paragraph blocks of the extracted content"),
    Signal("quality_text_html_ratio", pa.float64(), "extracted characters / decoded HTML characters"),
    Signal("quality_link_density", pa.float64(), "characters inside links / extracted characters"),
    Signal("quality_metadata_complete", pa.bool_(), "title and (author or date) present"),
    # duplication: hashes at extract, decisions at select (docs/filters.md)
    Signal("content_hash", pa.string(), "SHA-256 of the first 5 000 characters, 16 hex (null: short)"),
    Signal("simhash64", pa.int64(), "64-bit simhash over 2-word shingles, stored as signed int64"),
    Signal("cdc_duplicated_fraction", pa.float64(), "share of text bytes in CDC chunks seen earlier on the host"),
    Signal("exact_duplicate", pa.bool_(), "an earlier candidate has the same content hash"),
    Signal("url_duplicate", pa.bool_(), "an earlier candidate has the same normalised or canonical URL"),
    Signal("record_duplicate", pa.bool_(), "an earlier row (in output order) is a document with the same "
           "WARC-Record-ID (a copied or re-packed file, a duplicated member)"),
    Signal("minhash", pa.binary(), "MinHash signature over word n-grams: extract.minhash.permutations little-endian "
           "uint32 values (null: no words)"),
    Signal("near_duplicate", pa.bool_(), "an earlier page of the same near-duplicate cluster is kept"),
    Signal("near_duplicate_distance", pa.int32(), "simhash: Hamming distance to the closest earlier page of the "
           "cluster (null: none)"),
    Signal("near_duplicate_similarity", pa.float64(), "MinHash: similarity to the closest earlier page of the "
           "cluster, from the share of LSH bands they share (null: none)"),
    Signal("kept_type_probability", pa.float64(), "page-type model: probability that the page is of a kept type "
           "(select.page.keep_types; select stage)"),
    *dataset.SIGNALS,  # per-site balance of the detector dataset (select stage, after dedup)
    Signal("reading_time_minutes", pa.int32(), "max(1, ceil(words / 200)) of the extracted text"),
    Signal("js_shell_extracted_words", pa.int32(), "extracted words, set only for JS shells (page.js_shell)"),
    Signal("cookie_wall_extracted_words", pa.int32(), "extracted words, set only for cookie walls"),
    Signal("paywall_extracted_words", pa.int32(), "extracted words, set only for paywalled pages"),
)

SIGNALS_BY_NAME: dict[str, Signal] = {s.name: s for s in SIGNALS}


def signals_struct_type() -> pa.StructType:
    """Arrow struct type of the `signals` column."""
    return pa.struct([pa.field(s.name, s.type) for s in SIGNALS])


def check_signal_names(values: dict[str, object]) -> None:
    """Raise if a filter produced a signal that is not registered (a programming error)."""
    unknown = sorted(set(values) - set(SIGNALS_BY_NAME))
    if unknown:
        raise KeyError(f"unregistered signals: {', '.join(unknown)}")
