import codecs

import pytest

from pipeline.io.decode import decode_html, normalise_label, undecodable_fraction

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


@pytest.mark.parametrize(("label", "codec"), [
    ("ISO-8859-1", "cp1252"), ("latin1", "cp1252"), ("us-ascii", "cp1252"), ("UTF8", "utf-8"),
    ("iso-8859-9", "cp1254"), ("x-sjis", "cp932"), ("gb2312", "gbk"), ("tis-620", "cp874"),
    ("ks_c_5601-1987", "cp949"), (' "windows-1250" ', "cp1250"),
    # Python's names, not WHATWG labels: looked up again as browsers would read Python's name
    ("latin-1", "cp1252"), ("utf_8", "utf-8"), ("iso8859_9", "cp1254"), ("cp932", "cp932"),
    # WHATWG "replacement": Python's own codec
    ("iso-2022-kr", "iso2022_kr"), ("hz-gb-2312", "hz"),
    ("utf-16", "utf-16-le"),
])
def test_label_normalisation(label, codec):
    assert normalise_label(label) == codec


@pytest.mark.parametrize("label", ["no-such-charset", "x-user-defined", "iso-2022-cn"])
def test_unknown_labels(label):
    assert normalise_label(label) is None


def test_iso_8859_9_label_reads_windows_1254():
    # 0x80 is a C1 control in ISO-8859-9 and the euro sign in windows-1254, as browsers show it
    text = "<html><body><p>Fiyatı 5 € oldu, Şişli'de.</p></body></html>"
    decoded = decode_html(text.encode("cp1254"), "text/html; charset=iso-8859-9")
    assert (decoded.encoding, decoded.source) == ("cp1254", "http")
    assert "5 € oldu, Şişli" in decoded.text


def test_gb2312_label_reads_gbk():
    text = "<html><head><meta charset=gb2312></head><body><p>张喆在北京。</p></body></html>"  # 喆: GBK only
    decoded = decode_html(text.encode("gbk"), None)
    assert (decoded.encoding, decoded.source) == ("gbk", "meta")
    assert "张喆" in decoded.text


@pytest.mark.parametrize("meta", ['<meta charset="utf-16">', '<meta charset="UTF-16LE">'])
def test_meta_utf16_is_utf8(meta):
    payload = page(meta).encode("utf-8")
    payload += b" " * (len(payload) % 2)  # even length: would decode as UTF-16 without the rule
    decoded = decode_html(payload, None)
    assert (decoded.encoding, decoded.source) == ("utf-8", "meta")
    assert "Größe" in decoded.text


def test_utf32_label_without_bom_does_not_raise():
    # Python's utf-32 decoder raises UnicodeError, not UnicodeDecodeError, on a stream without BOM
    payload = "<html><body><p>text</p></body></html>".encode("utf-32-le")
    decoded = decode_html(payload, "text/html; charset=utf-32")
    assert decoded.source == "detected"


def test_bom_before_http_charset():
    payload = codecs.BOM_UTF8 + page().encode("utf-8")
    decoded = decode_html(payload, "text/html; charset=iso-8859-1")
    assert (decoded.encoding, decoded.source) == ("utf-8", "bom")
    assert "Crème brûlée" in decoded.text


def test_utf8_with_a_few_broken_bytes_stays_utf8():
    body = ("<html><body>" + "<p>Ünïcödé text — with accents, ça va.</p>" * 200 + "</body></html>").encode()
    decoded = decode_html(body[:500] + b"\xff" + body[500:], None)
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")
    assert "ça va" in decoded.text


def test_undecodable_fraction_uses_a_prefix():
    text = "a" * (16 * 1024) + "\x00" * 1000
    assert undecodable_fraction(text, text.encode(), "utf-8") == 0.0
