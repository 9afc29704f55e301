from filters.page.content_type import is_html_media_type, looks_like_html, media_type, resolve_media_type


def test_media_type_strips_parameters():
    assert media_type("Text/HTML; charset=UTF-8") == "text/html"
    assert media_type("") is None
    assert media_type(None) is None


def test_header_wins_over_identified_type_and_sniffing():
    assert resolve_media_type("application/pdf", "text/html", b"<html>") == "application/pdf"
    assert resolve_media_type(None, "text/html", b"%PDF-1.4") == "text/html"


def test_sniff_only_when_nothing_declared():
    assert resolve_media_type(None, None, b"  <!DOCTYPE html><html>") == "text/html"
    assert resolve_media_type(None, None, b"<!-- c --><div>x</div>") == "text/html"
    assert resolve_media_type(None, None, b"%PDF-1.4 ...") is None
    assert resolve_media_type(None, None, b"") is None


def test_html_media_types():
    assert is_html_media_type("application/xhtml+xml")
    assert not is_html_media_type("text/plain")
    assert not looks_like_html(b"plain words <html> later")
