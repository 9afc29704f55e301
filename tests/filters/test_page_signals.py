"""Seed 000 §2 (page classification) and §3 (needs_js), each path and its false-positive cases."""

from __future__ import annotations

import pytest

from filters.core.vocabulary import JS_FRAMEWORK_ROOTS
from filters.extract.cleanup import remove_cookie_overlays
from filters.page.page_signals import classify, frameworks_detected, is_cookie_walled, is_paywalled, needs_js
from filters.parse.parsed import Page
from pages import FOOTER, NAV, html, page, paragraphs, words

SCRIPTS = "".join(f'<script src="https://cdn.example.net/bundle-{i}.js"></script>' for i in range(10))
ADS = "".join(f'<script src="https://ads{i}.example.com/tag.js"></script><div class="ad">Ad</div>'
              for i in range(12))


def test_nextjs_shell_is_spa_by_framework():
    p = page(html('<div id="__next"></div><script src="/_next/static/chunks/main.js"></script>'
                  '<script id="__NEXT_DATA__" type="application/json">{"props":{}}</script>'))
    signals = classify(p)
    assert frameworks_detected(p) == ["Next.js"]
    assert signals["page_is_js_spa"] and signals["page_class"] == "JS_SPA"
    assert (signals["page_strategy"], signals["page_confidence"]) == ("playwright", 0.90)


def test_framework_root_with_real_text_is_not_spa():
    """Path A needs BOTH the root and sparse text (< 200 words): server-rendered React is static."""
    p = page(html(f'<div id="root"><article>{paragraphs(5, 50)}</article></div>'))
    signals = classify(p)
    assert frameworks_detected(p) == ["React"]
    # With >= 200 words the fingerprints cannot change the verdict, so they are not looked up.
    assert signals["page_js_frameworks"] is None
    assert not signals["page_is_js_spa"] and signals["page_class"] == "STATIC_HTML"


def test_thin_body_with_external_script_is_spa_without_framework():
    signals = classify(page(html('<div class="x">Loading</div><script src="/app.js"></script>')))
    assert signals["page_is_js_spa"] and signals["page_js_frameworks"] == ""
    assert (signals["page_class"], signals["page_confidence"]) == ("JS_SPA", 0.80)
    assert not classify(page(html('<div class="x">Loading</div><script>inline()</script>')))["page_is_js_spa"]


def test_spa_with_amp_alternative():
    head = '<link rel="amphtml" href="https://example.org/story.amp">'
    signals = classify(page(html('<div id="app"></div><script src="/app.js"></script>', head=head)))
    assert (signals["page_class"], signals["page_strategy"]) == ("JS_SPA", "amp")


def test_static_and_unknown_by_word_count():
    assert classify(page(html(f"<div>{words(150)}</div>")))["page_strategy"] == "static"
    assert classify(page(html(f"<div>{words(149)}</div>")))["page_strategy"] == "mobile_ua"
    assert classify(page(html(f"<div>{words(50)}</div>")))["page_strategy"] == "mobile_ua"
    assert classify(page(html(f"<div>{words(49)}</div>")))["page_class"] == "UNKNOWN"


def test_needs_js_message():
    p = page(html('<noscript>You need to enable JavaScript to run this app.</noscript><div id="x"></div>'))
    assert needs_js(p)["needs_js_message"] and needs_js(p)["needs_js"]
    assert not needs_js(page(html(f"<p>{words(80)}</p>")))["needs_js_message"]


def test_needs_js_root_requires_sparse_text():
    assert needs_js(page(html(f'<div id="app">{words(99)}</div>')))["needs_js_root"]
    assert not needs_js(page(html(f'<div id="app">{words(100)}</div>')))["needs_js_root"]
    assert needs_js(page(html('<div data-reactroot="">hi</div>')))["needs_js_root"]


def test_needs_js_heavy_scripts_needs_more_than_8_and_few_words():
    assert needs_js(page(html(f"<div>{words(10)}</div>{SCRIPTS}")))["needs_js_heavy_scripts"]
    eight = "".join(f'<script src="/b{i}.js"></script>' for i in range(8))
    assert not needs_js(page(html(f"<div>{words(10)}</div>{eight}")))["needs_js_heavy_scripts"]


def test_ad_heavy_article_is_not_flagged():
    """The seed's named false positive: many scripts, but real text."""
    p = page(html(f"{NAV}<article><h1>Title</h1>{paragraphs(6, 60)}</article>{ADS}{FOOTER}"))
    assert not needs_js(p)["needs_js"]
    signals = classify(p)
    assert not signals["page_is_js_spa"] and signals["external_script_count"] == 12


def test_needs_js_noscript_over_20_words():
    assert needs_js(page(html(f"<noscript>{words(21)}</noscript>")))["needs_js_noscript"]
    assert not needs_js(page(html(f"<noscript>{words(20)}</noscript>")))["needs_js_noscript"]


def test_stripped_regions_do_not_count_as_text():
    """Mitigation: nav/header/footer/script/style are stripped before counting words."""
    body = f'<div id="root"></div><header>{words(300)}</header><nav>{words(100)}</nav><style>p{{}}</style>'
    assert needs_js(page(html(body)))["needs_js_root"]


COOKIE_BANNER = ('<div id="onetrust-banner-sdk"><p>We use cookies to improve your experience. '
                 '<button>Accept all cookies</button><button>Reject all</button></p></div>')


def test_cookie_wall_with_consent_platform_and_little_text():
    assert is_cookie_walled(page(html(COOKIE_BANNER)))
    assert classify(page(html(COOKIE_BANNER)))["page_class"] == "COOKIE_WALLED"


def test_cookie_phrase_on_long_article_without_banner_is_not_a_wall():
    body = f"<article>{paragraphs(6, 60)}</article><p>This site uses cookies for analytics.</p>"
    assert not is_cookie_walled(page(html(body)))
    assert is_cookie_walled(page(html(f"<article>{paragraphs(6, 60)}</article>{COOKIE_BANNER}")))


def test_cookie_container_without_phrase_is_not_a_wall():
    assert not is_cookie_walled(page(html('<div id="onetrust-banner-sdk"><p>Hello</p></div>')))


def test_paywall_needs_phrase_and_metered_marker():
    teaser = f"<article><p>{words(60)}</p>"
    walled = teaser + '<div class="paywall-prompt">Subscribe to continue reading.</div></article>'
    phrase_only = teaser + "<p>Subscribe to continue reading our newsletter.</p></article>"
    marker_only = teaser + '<div class="paywall-prompt">Thanks for visiting.</div></article>'
    assert is_paywalled(page(html(walled)))
    assert not is_paywalled(page(html(phrase_only)))
    assert not is_paywalled(page(html(marker_only)))


def test_paywall_declared_in_json_ld():
    head = '<script type="application/ld+json">{"@type":"NewsArticle","isAccessibleForFree":"False"}</script>'
    assert is_paywalled(page(html("<p>teaser</p>", head=head)))
    open_head = head.replace('"False"', "true")
    assert not is_paywalled(page(html("<p>teaser</p>", head=open_head)))


def test_cookie_wall_wins_over_paywall_in_priority():
    body = COOKIE_BANNER + '<div class="paywall">Subscribe to continue reading</div>'
    assert classify(page(html(body)))["page_class"] == "COOKIE_WALLED"


@pytest.mark.parametrize("banner", [
    '<div id="didomi-host"><p>We use cookies. <button>Accept all cookies</button></p></div>',  # named platform
    '<div class="site-consent-7f3a"><p>We use cookies. <button>Accept cookies</button></p></div>',  # sweep
])
def test_cookie_wall_on_a_long_page_is_what_cleanup_removes(banner):
    # Detection and removal read the same consent vocabulary (filters.core.vocabulary, filters.extract.cleanup).
    body = f"<article>{paragraphs(6, 60)}</article>{banner}"
    assert is_cookie_walled(page(html(body)))
    tree = page(html(body)).tree
    assert remove_cookie_overlays(tree) == 1
    assert not is_cookie_walled(Page(tree))


@pytest.mark.parametrize("framework, roots", list(JS_FRAMEWORK_ROOTS.items()))
def test_every_framework_root_is_a_fingerprint_and_a_needs_js_root(framework, roots):
    for root in roots:
        p = page(html(f'<div id="{root}">{words(20)}</div>'))
        assert framework in frameworks_detected(p)
        assert needs_js(p)["needs_js_root"]
