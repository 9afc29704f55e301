import codecs

import pytest

from pipeline.decode import decode_html, normalise_label, undecodable_fraction

TEXT = "<html><head>{meta}</head><body><p>Crème brûlée — très bien, Größe</p></body></html>"


def page(meta: str = "") -> str:
    return TEXT.format(meta=meta)


def test_http_charset_first():
    decoded = decode_html(page().encode("cp1252"), "text/html; charset=windows-1252")
    assert (decoded.encoding, decoded.source) == ("cp1252", "http")
    assert "Crème brûlée — très" in decoded.text


def test_wrong_http_charset_falls_through_to_meta():
    payload = page('<meta charset="windows-1252">').encode("cp1252")
    decoded = decode_html(payload, "text/html; charset=utf-8")
    assert (decoded.encoding, decoded.source) == ("cp1252", "meta")
    assert "Größe" in decoded.text


def test_bom_before_meta():
    payload = codecs.BOM_UTF16_LE + page('<meta charset="iso-8859-1">').encode("utf-16-le")
    decoded = decode_html(payload, "text/html")
    assert decoded.source == "bom"
    assert decoded.text.startswith("<html>")


def test_meta_http_equiv():
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'
    decoded = decode_html(page(meta).encode("cp1252"), None)
    assert (decoded.encoding, decoded.source) == ("cp1252", "meta")
    assert "Größe" in decoded.text


def test_detection_for_undeclared_non_utf8():
    body = "<html><body>" + "<p>日本語のテキストです。東京の天気は晴れです。今日は良い日でした。</p>" * 40
    decoded = decode_html((body + "</body></html>").encode("shift_jis"), None)
    assert decoded.source == "detected"
    assert "東京の天気" in decoded.text
    assert decoded.undecodable_char_fraction == 0.0


def test_plain_utf8_detected_without_declaration():
    decoded = decode_html(page().encode("utf-8"), None)
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")


def test_binary_garbage_has_high_undecodable_fraction():
    import random

    rng = random.Random(7)
    garbage = bytes(rng.randrange(256) for _ in range(4096))
    decoded = decode_html(garbage, "text/html")
    assert decoded.undecodable_char_fraction > 0.05


def test_undecodable_fraction_bounds():
    assert undecodable_fraction("") == 0.0
    assert undecodable_fraction("abc\ufffd") == pytest.approx(0.25)
    assert undecodable_fraction("tab\tnew\nline\r") == 0.0


@pytest.mark.parametrize("text", ["plain\x00te\x07xt\x1b", "tab\tnew\nline\r", "caf\u00e9 \x01\ufffd"])
@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "utf-16-le"])
def test_byte_count_agrees_with_regex(text, encoding):
    data = text.encode(encoding, errors="replace")
    decoded = data.decode(encoding)
    assert undecodable_fraction(decoded, data, encoding) == pytest.approx(undecodable_fraction(decoded))


def test_label_normalisation():
    assert normalise_label("ISO-8859-1") == "cp1252"
    assert normalise_label("UTF8") == "utf-8"
    assert normalise_label("no-such-charset") is None


def test_utf8_with_a_few_broken_bytes_stays_utf8():
    body = ("<html><body>" + "<p>Ünïcödé text — with accents, ça va.</p>" * 200 + "</body></html>").encode()
    decoded = decode_html(body[:500] + b"\xff" + body[500:], None)
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")
    assert "ça va" in decoded.text


def test_undecodable_fraction_uses_a_prefix():
    text = "a" * (16 * 1024) + "\x00" * 1000
    assert undecodable_fraction(text, text.encode(), "utf-8") == 0.0
