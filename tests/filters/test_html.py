"""One parse per page: from bytes and an encoding (the pipeline's path) or from text."""

from __future__ import annotations

import pytest

from filters.parse.html import parse_html, parse_html_bytes, url_hint

PAGE = "<html><head><meta charset='utf-8'><title>T</title></head><body><p>Größe — très “bien”</p></body></html>"


PLAIN = PAGE.replace("— très “bien”", "und Maß")


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "iso8859_15", "koi8_r"])
def test_bytes_parse_uses_the_given_encoding_over_the_meta_tag(encoding):
    text = PLAIN if encoding != "koi8_r" else PLAIN.replace("Größe und Maß", "Москва")
    tree = parse_html_bytes(text.encode(encoding), encoding)
    assert ("Größe und Maß" if encoding != "koi8_r" else "Москва") in tree.text_content()


def test_invalid_bytes_become_replacement_characters_and_parsing_goes_on():
    tree = parse_html_bytes(b"<html><body><p>caf\xc3\xa9 \xff\xfe</p><p>after</p></body></html>", "utf-8")
    text = tree.text_content()
    assert "café" in text and "\ufffd" in text and "after" in text


@pytest.mark.parametrize("encoding", ["utf-16-le", "mac-latin2"])
def test_encodings_libxml2_cannot_take_go_through_python(encoding):
    tree = parse_html_bytes(PLAIN.encode(encoding), encoding)
    assert tree is not None and "Größe und Maß" in tree.text_content()


def test_bytes_and_text_parses_agree():
    html = ("<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\" \"http://www.w3.org/TR/xhtml1/DTD/x.dtd\">\n"
            "<html><head><link rel='canonical' href='https://a.example/p'></head><body>"
            "<template><p>ghost</p></template><p>one\x0btwo</p><!-- note --></body></html>")
    from_bytes = parse_html_bytes(html.encode("utf-8"), "utf-8")
    from_text = parse_html(html)
    assert from_bytes.text_content() == from_text.text_content() == "onetwo"
    assert url_hint(from_bytes) == url_hint(from_text) == "https://a.example/p"


def test_empty_documents():
    assert parse_html_bytes(b"   ", "utf-8") is None
    assert parse_html("") is None


@pytest.mark.parametrize("bad", ["http://[bad/x", "https://[::1/x", "http:///no-host", "mailto:a@b.example"])
def test_a_url_hint_that_is_no_web_address_is_passed_over(bad):
    page = parse_html(f'<html><head><link rel="canonical" href="{bad}"><meta property="og:url" '
                      f'content="https://a.example/story"></head><body><p>x</p></body></html>')
    assert url_hint(page) == "https://a.example/story"  # the next candidate, and no error
