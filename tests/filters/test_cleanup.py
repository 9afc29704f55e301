"""Seed 000 §4 pre-processing: templates and cookie overlays."""

from __future__ import annotations

import random

import lxml.html
from lxml import etree

from filters.core.vocabulary import CONSENT_PLATFORMS
from filters.extract.cleanup import _CONSENT_DIALOGS, _MARKER, has_consent_overlay, remove_cookie_overlays
from filters.parse.html import parse_html
from pages import paragraphs


def test_templates_are_stripped_before_parsing():
    html = "<html><body><p>keep</p><template><p>ghost text</p></template><TEMPLATE id=x>more</TEMPLATE></body></html>"
    tree = parse_html(html)
    assert "ghost" not in tree.text_content() and "more" not in tree.text_content()
    assert "keep" in tree.text_content()


def test_html_without_templates_is_untouched():
    assert parse_html("<p>nothing to strip</p>").text_content() == "nothing to strip"


def test_at_least_thirty_named_selectors():
    assert len(CONSENT_PLATFORMS) >= 30
    platforms = " ".join(entry[0] for entry in CONSENT_PLATFORMS)
    for name in ("CookieYes", "Cookiebot", "OneTrust", "Complianz", "Borlabs", "WP GDPR"):
        assert name in platforms


def tree_of(body: str):
    return lxml.html.document_fromstring(f"<html><body>{body}</body></html>")


def test_named_overlays_removed_and_article_kept():
    body = (f"<article>{paragraphs(3, 40)}</article>"
            "<div id='onetrust-banner-sdk'><p>We use cookies.</p></div>"
            "<div id='CybotCookiebotDialog'>Cookie settings</div>"
            "<div class='cmplz-cookiebanner'>Manage consent</div>"
            "<div id='BorlabsCookieBox'>Privacy preference</div>")
    tree = tree_of(body)
    assert remove_cookie_overlays(tree) == 4
    text = tree.text_content()
    assert "We use cookies" not in text and "committee" in text


def test_keyword_sweep_catches_dynamic_names_but_not_articles_about_cookies():
    banner = "<div class='consent-wrap-7f3a'>This website uses cookies. <button>OK</button></div>"
    article = (f"<div class='cookie-recipes'><h1>Chocolate chip cookies</h1>{paragraphs(5, 40)}"
               "<p>Bake the cookies for twelve minutes.</p></div>")
    tree = tree_of(banner + article)
    assert remove_cookie_overlays(tree) == 1
    text = tree.text_content()
    assert "This website uses cookies" not in text and "Bake the cookies" in text


def test_the_gdpr_is_named_in_other_languages_too():
    """DSGVO (German) and RGPD (French, Spanish, Portuguese) name a site's own banner as GDPR does;
    the WP DSGVO Tools plugin's popup, a thousand words of service descriptions, goes by name."""
    banners = ("<div class='dsgvo-hinweis'>Diese Website verwendet Cookies. <button>Akzeptieren</button></div>"
               "<div id='bandeau-rgpd'>Ce site utilise des cookies. <button>OK</button></div>"
               "<div class='sp-dsgvo sp-dsgvo-popup-overlay not-accepted'><div class='sp-dsgvo-privacy-popup'>"
               f"{paragraphs(12, 100)}</div></div>")
    article = f"<article><h1>DSGVO: was Vereine wissen müssen</h1>{paragraphs(5, 40)}</article>"
    tree = tree_of(banners + article)
    assert remove_cookie_overlays(tree) == 4  # two banners, the plugin's overlay and its popup inside
    text = tree.text_content()
    assert "verwendet Cookies" not in text and "utilise des cookies" not in text
    assert "DSGVO: was Vereine" in text and "committee" in text


def test_sweep_needs_cookie_talk():
    tree = tree_of("<div id='consent-form'><p>Sign the petition for a new park.</p></div>")
    assert remove_cookie_overlays(tree) == 0


def test_tail_text_survives_removal():
    tree = tree_of("<p>before<span id='cookie-notice'>We use cookies</span> after</p>")
    remove_cookie_overlays(tree)
    assert " ".join(tree.text_content().split()) == "before after"


def test_parse_strips_first_line_doctype_and_control_characters():
    doctype = ('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
               '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n')
    body = "<html><head><title>T</title></head><body><article>" + paragraphs(4, 40) + "</article></body></html>"
    tree = parse_html(doctype + body.replace("committee", "comm\x0bittee", 1))
    assert tree is not None and len(tree.text_content().split()) >= 150
    assert "\x0b" not in tree.text_content()


def test_every_named_selector_passes_the_marker_prefilter():
    # The prefilter skips pages with no marker at all; a platform it missed would never be removed.
    for name, ids, classes, prefixes in CONSENT_PLATFORMS:
        for value in (*ids, *classes, *prefixes):
            assert _MARKER.search(value), (name, value)


def test_detection_agrees_with_removal():
    named = tree_of(f"<div id='didomi-host'><p>We value your privacy.</p></div>{paragraphs(3, 40)}")
    assert has_consent_overlay(named)
    assert remove_cookie_overlays(named) == 1 and not has_consent_overlay(named)
    swept = tree_of(f"<div class='my-gdpr-box'><p>We use cookies. Accept?</p></div>{paragraphs(3, 40)}")
    assert has_consent_overlay(swept)
    about = tree_of(f"<div class='cookie-recipes'>{paragraphs(8, 40)}</div>")
    assert not has_consent_overlay(about) and remove_cookie_overlays(about) == 0


def _random_page(rng: random.Random) -> str:
    """Nested elements, in and out of <body>, with role and aria-label values near the ones looked for."""
    roles = ("dialog", "Dialog", " dialog", "dialog ", "alertdialog", "button", "")
    labels = ("Cookie consent", "cookies", "Consent", "onsent", "ookie", "Privacy", "", "COOKIE")

    def element(depth: int) -> str:
        tag = rng.choice(("div", "section", "aside", "span", "p", "form"))
        attributes = ""
        if rng.random() < 0.5:
            attributes += f' role="{rng.choice(roles)}"'
        if rng.random() < 0.5:
            attributes += f' aria-label="{rng.choice(labels)}"'
        inner = "".join(element(depth + 1) for _ in range(rng.randint(0, 3))) if depth < 4 else "text"
        return f"<{tag}{attributes}>{inner}</{tag}>"

    body_role = f' role="{rng.choice(roles)}" aria-label="{rng.choice(labels)}"' if rng.random() < 0.3 else ""
    head = element(3) if rng.random() < 0.2 else ""
    return f"<html><head>{head}</head><body{body_role}>{''.join(element(0) for _ in range(4))}</body></html>"


def test_consent_dialogs_are_the_elements_the_plain_predicate_selects():
    plain = etree.XPath(
        "//body//*[@role='dialog' and (contains(@aria-label, 'ookie') or contains(@aria-label, 'onsent'))]")
    rng = random.Random(3)
    found = 0
    for _ in range(300):
        tree = lxml.html.fromstring(_random_page(rng))
        expected = plain(tree)
        assert _CONSENT_DIALOGS(tree) == expected
        found += len(expected)
    assert found > 50


def _marked_page(rng: random.Random) -> str:
    """Nested elements with ids and classes that carry markers or nearly do, comments and processing
    instructions (whose pseudo-attributes `get` reads) between them, and marked <head> elements."""
    values = ("cookie-bar", "Cookie", "consent", "x onsent y", "gdpr", "cc-window", "cc", "ccc", "nav", "cky-",
              "main", "", "didomi-host", "cookiee", "qc-cmp2-ui")

    def element(depth: int) -> str:
        tag = rng.choice(("div", "section", "span", "p", "aside"))
        attributes = "".join(f' {name}="{rng.choice(values)}"' for name in ("id", "class") if rng.random() < 0.5)
        extra = rng.choice(("", "<!-- id='cookie' -->", "<?php id=\"cookie\" ?>", "tail"))
        inner = "".join(element(depth + 1) for _ in range(rng.randint(0, 3))) if depth < 4 else "text"
        return f"<{tag}{attributes}>{inner}</{tag}>{extra}"

    body = f' class="{rng.choice(values)}"' if rng.random() < 0.3 else ""
    head = f"<meta id='{rng.choice(values)}'>" if rng.random() < 0.5 else ""
    return f"<html><head>{head}</head><body{body}>{''.join(element(0) for _ in range(4))}</body></html>"


def test_candidates_are_the_elements_whose_id_or_class_holds_a_marker():
    # read here the plain way: an XPath over the attributes of <body> and the elements in it
    from filters.extract.cleanup import _candidates

    values = etree.XPath("//body//@id | //body//@class")
    rng = random.Random(5)
    found = 0
    for _ in range(300):
        tree = lxml.html.fromstring(_marked_page(rng))
        expected: list = []
        for value in values(tree):
            if _MARKER.search(value) and value.getparent() not in expected:
                expected.append(value.getparent())
        expected += [dialog for dialog in _CONSENT_DIALOGS(tree) if dialog not in expected]
        assert _candidates(tree) == expected
        found += len(expected)
    assert found > 200
