"""Bytes -> text: find the character encoding of an HTML payload and record where it came from.

Order (issue #2): HTTP `charset` -> byte-order mark -> `<meta charset>` / http-equiv in the
first 4 KB -> detection (strict UTF-8 first, then charset-normalizer) -> UTF-8 with
replacement. A declared encoding is used only if the bytes decode with it strictly;
declarations are wrong often enough on the web that a failing one falls through to the next
source. If nothing decodes strictly, the first declared encoding (or UTF-8) is used with
replacement characters, and the share of those is the `undecodable_char_fraction` signal.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_HTTP_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([\w.:-]+)", re.IGNORECASE)
# Browsers (WHATWG Encoding) read these labels as windows-1252, a superset; so do we.
_ALIASES = {"iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252",
            "us-ascii": "cp1252", "ascii": "cp1252", "x-sjis": "shift_jis", "utf8": "utf-8"}
_UNDECODABLE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_DETECT_BYTES = 256 * 1024
_SAMPLE_CHARS = 16 * 1024
# A page that is valid UTF-8 but for a few broken bytes is UTF-8 (a cut or a bad paste), not
# one of the single-byte code pages a detector would guess for it.
_UTF8_MAX_BROKEN_FRACTION = 0.001


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    source: str  # http | bom | meta | detected | fallback
    undecodable_char_fraction: float


def decode_html(payload: bytes, http_content_type: str | None) -> Decoded:
    """Decode an HTML payload following the order above."""
    declared: list[tuple[str, str, bytes]] = []
    http_label = _http_charset(http_content_type)
    if http_label:
        declared.append((http_label, "http", payload))
    bom = _bom(payload)
    if bom:
        declared.append((bom[0], "bom", payload[len(bom[1]):]))
    meta_label = _meta_charset(payload)
    if meta_label:
        declared.append((meta_label, "meta", payload))
    for encoding, source, data in declared:
        text = _strict(data, encoding)
        if text is not None:
            return _result(text, data, encoding, source)
    detected = _detect(payload)
    if detected is not None:
        return _result(detected[1], payload, detected[0], "detected")
    encoding, _source, data = declared[0] if declared else ("utf-8", "fallback", payload)
    return _result(data.decode(encoding, errors="replace"), data, encoding, "fallback")


def undecodable_fraction(text: str, data: bytes | None = None, encoding: str = "") -> float:
    """Share of U+FFFD and C0 control characters (tab, newlines and form feed excepted).

    Measured on the first 16 KiB: binary garbage is uniform, so a prefix tells as much as the
    whole page at a fraction of the cost. With the bytes at hand in an ASCII-compatible
    encoding, control characters are counted on them with `bytes.translate` (C speed); the
    regex over the text is the fallback.
    """
    if not text:
        return 0.0
    head = text[:_SAMPLE_CHARS]
    if data is None or encoding.replace("-", "_").startswith(("utf_16", "utf_32")):
        return len(_UNDECODABLE.findall(head)) / len(head)
    sample = data[:_SAMPLE_CHARS]
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return min(1.0, (controls + head.count("\ufffd")) / min(len(text), max(len(sample), 1)))


def normalise_label(label: str) -> str | None:
    """Python codec name for an encoding label, or None if Python does not know it."""
    label = label.strip().strip("\"'").lower()
    label = _ALIASES.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def _result(text: str, data: bytes, encoding: str, source: str) -> Decoded:
    return Decoded(text, encoding, source, undecodable_fraction(text, data, encoding))


def _http_charset(content_type: str | None) -> str | None:
    if not content_type:
        return None
    match = _HTTP_CHARSET.search(content_type)
    return normalise_label(match.group(1)) if match else None


def _bom(payload: bytes) -> tuple[str, bytes] | None:
    for mark, encoding in _BOMS:
        if payload.startswith(mark):
            return encoding, mark
    return None


def _meta_charset(payload: bytes) -> str | None:
    match = _META_CHARSET.search(payload[:4096])
    if not match:
        return None
    label = normalise_label(match.group(1).decode("ascii", errors="ignore"))
    # A page that says utf-16 in an ASCII-compatible <meta> cannot be utf-16 (WHATWG rule).
    if label and label.startswith("utf_16"):
        return "utf-8"
    return label


def _strict(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _detect(payload: bytes) -> tuple[str, str] | None:
    text = _strict(payload, "utf-8")
    if text is not None:
        return "utf-8", text
    text = payload.decode("utf-8", errors="replace")
    if text.count("\ufffd") <= _UTF8_MAX_BROKEN_FRACTION * len(text):
        return "utf-8", text
    best = from_bytes(payload[:_DETECT_BYTES]).best()
    if best is None or best.encoding is None:
        return None
    encoding = normalise_label(best.encoding) or best.encoding
    text = _strict(payload, encoding)
    if text is None:
        # The sample decoded but the whole payload does not (the cut fell mid-character).
        text = payload.decode(encoding, errors="replace")
    return encoding, text
