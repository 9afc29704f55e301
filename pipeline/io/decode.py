"""Bytes -> text: find the character encoding of an HTML payload and record where it came from.

Order (with the byte-order mark first, as in the WHATWG Encoding Standard): byte-order
mark -> HTTP `charset` -> `<meta charset>` / http-equiv in the first 4 KB -> detection (strict
UTF-8 first, then charset-normalizer) -> UTF-8 with replacement. Labels are read as browsers read
them (`normalise_label`). A declared encoding is used only if the first 64 KiB decode with it strictly;
declarations are wrong often enough on the web that a failing one falls through to the next
source. If nothing decodes strictly, the first declared encoding (or UTF-8) is used with
replacement characters; the share of replacement and control characters in the first 16 KiB
is the `undecodable_char_fraction` signal.

The whole payload is not turned into a Python str here: the parser gets the bytes and the
chosen encoding and decodes in C (libxml2), invalid sequences becoming U+FFFD as in browsers
(why: docs/decisions.md). `Decoded.text` decodes on demand for callers that want the text.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from functools import cached_property

import webencodings
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
# WHATWG encodings no Python codec implements: "replacement" (iso-2022-kr, hz-gb-2312, ...) turns
# a page into one U+FFFD so that browsers cannot be fooled into running script hidden in those
# encodings, a danger to browsers only; "x-user-defined" maps bytes to private-use characters.
_NO_PYTHON_CODEC = ("replacement", "x-user-defined")
_UNDECODABLE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_DETECT_BYTES = 256 * 1024
_SAMPLE_CHARS = 16 * 1024
# A page that is valid UTF-8 but for a few broken bytes is UTF-8 (a cut or a bad paste), not
# one of the single-byte code pages a detector would guess for it.
_UTF8_MAX_BROKEN_FRACTION = 0.001


_CHECK_BYTES = 64 * 1024


@dataclass(frozen=True)
class Decoded:
    data: bytes  # the payload without its byte-order mark
    encoding: str
    source: str  # http | bom | meta | detected | fallback
    undecodable_char_fraction: float

    @cached_property
    def text(self) -> str:
        """The whole payload as text (invalid sequences replaced), decoded on first use."""
        return self.data.decode(self.encoding, errors="replace")


def decode_html(payload: bytes, http_content_type: str | None) -> Decoded:
    """Decode an HTML payload following the order above."""
    declared: list[tuple[str, str, bytes]] = []
    bom = _bom(payload)
    if bom:
        declared.append((bom[0], "bom", payload[len(bom[1]):]))
    http_label = _http_charset(http_content_type)
    if http_label:
        declared.append((http_label, "http", payload))
    meta_label = _meta_charset(payload)
    if meta_label:
        declared.append((meta_label, "meta", payload))
    for encoding, source, data in declared:
        if _valid_prefix(data, encoding):
            return _result(data, encoding, source)
    detected = _detect(payload)
    if detected is not None:
        return _result(payload, detected, "detected")
    encoding, _source, data = declared[0] if declared else ("utf-8", "fallback", payload)
    return _result(data, encoding, "fallback")


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
    """Python codec name for an encoding label, as browsers read the label; None if unknown.

    The WHATWG Encoding Standard's label table (webencodings) decides, so `latin1`, `iso-8859-1`
    and `us-ascii` are windows-1252, `iso-8859-9` windows-1254, `gb2312` GBK, `tis-620`
    windows-874, `shift_jis` cp932 and `euc-kr` cp949: the supersets pages labelled so are
    written in. A label the table lacks but Python knows (`latin-1`, `utf_8` from the detector,
    `cp932`, `utf-32`) is looked up again under Python's name for it, so `latin-1` is
    windows-1252 too. Labels of WHATWG's "replacement" encoding get Python's codec (`iso-2022-kr`
    decodes as such here); `x-user-defined` is None, like an unknown label: no text is in it.
    """
    label = label.strip().strip("\"'")
    encoding = webencodings.lookup(label)
    if encoding is None:
        try:
            python_name = codecs.lookup(label).name
        except LookupError:
            return None
        encoding = webencodings.lookup(python_name)
        if encoding is None:
            return python_name
    if encoding.name not in _NO_PYTHON_CODEC:
        return encoding.codec_info.name
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def _result(data: bytes, encoding: str, source: str) -> Decoded:
    head = _decode_prefix(data, encoding, _SAMPLE_CHARS, errors="replace") or ""
    return Decoded(data, encoding, source, undecodable_fraction(head, data, encoding))


def _decode_prefix(data: bytes, encoding: str, size: int, errors: str = "strict") -> str | None:
    """The first `size` bytes decoded; a character cut at the end is left out, not an error."""
    try:
        decoder = codecs.getincrementaldecoder(encoding)(errors=errors)
        return decoder.decode(data[:size], final=len(data) <= size)
    except (UnicodeError, LookupError):  # Python's utf-16/utf-32 raise UnicodeError with no BOM
        return None


def _valid_prefix(data: bytes, encoding: str) -> bool:
    return _decode_prefix(data, encoding, _CHECK_BYTES) is not None


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
    if label and label.replace("_", "-").startswith("utf-16"):
        return "utf-8"
    return label


def _detect(payload: bytes) -> str | None:
    """The encoding of an undeclared payload, judged on its first 64 KiB (256 KiB for the detector)."""
    if _valid_prefix(payload, "utf-8"):
        return "utf-8"
    head = _decode_prefix(payload, "utf-8", _CHECK_BYTES, errors="replace") or ""
    if head.count("\ufffd") <= _UTF8_MAX_BROKEN_FRACTION * max(len(head), 1):
        return "utf-8"
    best = from_bytes(payload[:_DETECT_BYTES]).best()
    if best is None or best.encoding is None:
        return None
    return normalise_label(best.encoding) or best.encoding
