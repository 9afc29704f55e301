"""What the reader and the parser say about a record: its input file, payload, type and decoding.

The values are computed in `pipeline.io` (reading, decoding) and `filters.parse.html` (the
parse); the signals and rules are declared here, with the other filters'.
"""

from __future__ import annotations

import pyarrow as pa

from filters.core.declarations import Rule, Signal

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
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
)
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
)
