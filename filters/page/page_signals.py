"""Page classification and JS detection (docs/filters.md, "Scoring a page"): `classify` gives the page's class
(`page_class`: cookie-walled, paywalled, JS single-page app, static HTML, unknown; with a fetching strategy and a
confidence) and its inputs as signals, and `needs_js` its four signals and their flag.

Nothing is re-fetched from a WARC, so the classification is recorded; `page.js_shell`, `page.cookie_wall` and
`page.paywall` are given only when the extraction also yields too little text (`filters.rules.reasons`).
Our readings where the rules are terse:
* Cookie wall ("Cookie/GDPR overlay keywords detected in visible text"): a consent phrase in the visible text
  *and* either a consent overlay as `filters.extract.cleanup` finds and removes it (a container of a platform
  in `filters.core.vocabulary.CONSENT_PLATFORMS`, a consent dialog, a short cookie notice in an element named
  for cookies, consent or the GDPR) or little text besides (< 150 words): a lone footer sentence about cookies
  on a long article is not a wall.
* Paywall ("Paywall keywords + metered content signals"): a paywall phrase *and* a metered marker (a class or
  id saying paywall, meter, premium or subscriber), or JSON-LD `isAccessibleForFree: false` alone, which
  publishers use precisely to declare paywalled content.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa
from lxml import etree

from filters.core import phrases
from filters.core.declarations import Count, Rule, Signal
from filters.core.vocabulary import JS_FRAMEWORK_ROOTS, JS_ROOT_ATTRIBUTES
from filters.extract.cleanup import has_consent_overlay
from filters.parse.html import depth_limit_reached
from filters.parse.parsed import Page

# SPA path A: framework fingerprints (tag, attribute, value-or-substring); "*" is any element. Each
# framework's root elements come from `filters.core.vocabulary`, plus what marks it besides its root.
_OTHER_FINGERPRINTS: dict[str, tuple[tuple[str, str | None, str | None], ...]] = {
    "Next.js": (("script", "src", "/_next/"),),
    "Angular": (("app-root", None, None),),
    "Ember": (("body", "class", "ember-application"),),
}
FRAMEWORK_FINGERPRINTS: dict[str, tuple[tuple[str, str | None, str | None], ...]] = {
    name: (*(("*", "id", root) for root in roots),
           *((("*", JS_ROOT_ATTRIBUTES[name], None),) if name in JS_ROOT_ATTRIBUTES else ()),
           *_OTHER_FINGERPRINTS.get(name, ()))
    for name, roots in JS_FRAMEWORK_ROOTS.items()
}
SPA_WORD_LIMIT = 200          # SPA path A: framework AND body_word_count < 200
THIN_BODY_WORDS = 10          # SPA path B: body_word_count < 10 AND an external script

# needs_js signal 2: an element any framework mounts into (given as CSS selectors; the roots are
# `filters.core.vocabulary`'s, the same ones SPA path A looks for).
JS_ROOT_XPATH = "//*[{}]".format(" or ".join(
    [f"@id='{root}'" for roots in JS_FRAMEWORK_ROOTS.values() for root in roots]
    + [f"@{attribute}" for attribute in JS_ROOT_ATTRIBUTES.values()]))
NEEDS_JS_WORDS = 100          # needs_js threshold_words default
HEAVY_SCRIPT_COUNT = 8        # needs_js signal 3: > 8 external scripts ...
HEAVY_SCRIPT_WORDS = 50       # ... AND < 50 words
NOSCRIPT_WORDS = 20           # needs_js signal 4: <noscript> with > 20 words

# the phrases of filters.core.phrases: COOKIE_PHRASES, PAYWALL_PHRASES, JS_REQUIRED_MESSAGES
COOKIE_WALL_MAX_WORDS = 150
METERED_XPATH = ("//*[contains(translate(@class,'PAYWLMETRSUBCI','paywlmetrsubci'),'paywall') "
                 "or contains(translate(@id,'PAYWLMETRSUBCI','paywlmetrsubci'),'paywall') "
                 "or contains(@class,'metered') or contains(@class,'meter-') or contains(@class,'premium') "
                 "or contains(@class,'subscriber-only') or contains(@class,'subscription-wall') "
                 "or @data-paywall]")

PAGE_TYPES = ("COOKIE_WALLED", "PAYWALLED", "JS_SPA", "STATIC_HTML", "UNKNOWN")


def frameworks_detected(page: Page) -> list[str]:
    """Named JS frameworks whose fingerprint is on the page (SPA path A), in table order.

    Fingerprints are checked against attribute values fetched once as strings (XPath on
    attributes creates no element objects), not by walking elements per fingerprint.
    """
    seen = _fingerprint_values(page)
    found = []
    for name, fingerprints in FRAMEWORK_FINGERPRINTS.items():
        if any(_fingerprint_matches(seen, tag, attribute, value) for tag, attribute, value in fingerprints):
            found.append(name)
    return found


def needs_js(page: Page) -> dict[str, bool]:
    """The four needs_js signals, each a flag; `needs_js` is any of them."""
    lowered = page.visible_text
    words = page.body_word_count
    signals = {
        "needs_js_message": "javascript" in lowered and phrases.mentions(lowered, phrases.JS_REQUIRED_MESSAGES),
        "needs_js_root": words < NEEDS_JS_WORDS and bool(page.tree.xpath(f"boolean({JS_ROOT_XPATH})")),
        "needs_js_heavy_scripts": page.external_script_count > HEAVY_SCRIPT_COUNT and words < HEAVY_SCRIPT_WORDS,
        "needs_js_noscript": any(len(noscript.text_content().split()) > NOSCRIPT_WORDS
                                 for noscript in page.tree.iter("noscript")),
    }
    signals["needs_js"] = any(signals.values())
    return signals


def is_cookie_walled(page: Page) -> bool:
    lowered = page.visible_text
    # Every phrase but one names cookies: one scan rules out most pages before fifteen more.
    if not ("cookie" in lowered or "reject all" in lowered):
        return False
    if not phrases.mentions(lowered, phrases.COOKIE_PHRASES):
        return False
    if page.body_word_count < COOKIE_WALL_MAX_WORDS:
        return True
    return has_consent_overlay(page.tree)


def is_paywalled(page: Page) -> bool:
    declared_closed = any(_is_false(obj.get("isAccessibleForFree")) for obj in page.json_ld)
    if declared_closed:
        return True
    lowered = page.visible_text
    if not phrases.mentions(lowered, phrases.PAYWALL_PHRASES):
        return False
    return bool(page.tree.xpath(f"boolean({METERED_XPATH})"))


def classify(page: Page) -> dict[str, Any]:
    """The page's class and its inputs, as signals.

    `page_class` / `page_strategy` / `page_confidence` follow the classification table's priority order: cookie
    wall, paywall, JS single-page app (by framework fingerprint or a thin body with scripts; AMP when the page
    links one), then static HTML by its word count.
    """
    words = page.body_word_count
    # Path A needs sparse text as well as a framework: on a page with >= 200 words the
    # fingerprints cannot change the classification, so they are not looked up (null).
    frameworks = frameworks_detected(page) if words < SPA_WORD_LIMIT else None
    thin_body = words < THIN_BODY_WORDS and page.external_script_count > 0
    spa_by_framework = bool(frameworks) and words < SPA_WORD_LIMIT
    amp = bool(page.tree.xpath("//link[contains(concat(' ', normalize-space(@rel), ' '), ' amphtml ')]/@href"))
    feed = bool(page.tree.xpath("//link[contains(@rel,'alternate') and "
                                "(@type='application/rss+xml' or @type='application/atom+xml')]"))
    cookie = is_cookie_walled(page)
    paywall = is_paywalled(page)
    page_class, strategy, confidence = _classification(cookie, paywall, spa_by_framework, thin_body, amp, words)
    return {
        "page_body_word_count": words,
        "page_is_js_spa": spa_by_framework or thin_body,
        "page_is_cookie_walled": cookie,
        "page_is_paywalled": paywall,
        "page_js_frameworks": None if frameworks is None else ",".join(frameworks),
        "page_has_amp_url": amp,
        "page_has_feed_url": feed,
        "page_class": page_class,
        "page_strategy": strategy,
        "page_confidence": confidence,
        "external_script_count": page.external_script_count,
        # an addition of ours: a hostile or broken page the parser stopped reading (record.too_deep)
        "html_depth_limit_reached": depth_limit_reached(page.tree),
    }


def _classification(cookie: bool, paywall: bool, spa_by_framework: bool, thin_body: bool, amp: bool,
                    words: int) -> tuple[str, str, float]:
    if cookie:
        return "COOKIE_WALLED", "playwright", 0.85
    if paywall:
        return "PAYWALLED", "playwright", 0.75
    if (spa_by_framework or thin_body) and amp:
        return "JS_SPA", "amp", 0.90
    if spa_by_framework:
        return "JS_SPA", "playwright", 0.90
    if thin_body:
        return "JS_SPA", "playwright", 0.80
    if words >= 150:
        return "STATIC_HTML", "static", 0.90
    if words >= 50:
        return "STATIC_HTML", "mobile_ua", 0.70
    return "UNKNOWN", "static_best_effort", 0.50


_FINGERPRINT_ATTRIBUTES = etree.XPath("//@id | //script/@src | {}".format(
    " | ".join(f"//@{attribute}" for attribute in JS_ROOT_ATTRIBUTES.values())))


def _fingerprint_values(page: Page) -> dict[str, list[str]]:
    """The attribute values the fingerprints look at, fetched in one XPath pass."""
    seen: dict[str, list[str]] = {}
    for value in _FINGERPRINT_ATTRIBUTES(page.tree):
        tag = "script" if value.attrname == "src" else "*"
        seen.setdefault(f"{tag}@{value.attrname}", []).append(str(value))
    body = page.tree.find("body")
    seen["body@class"] = (body.get("class") or "").split() if body is not None else []
    seen["app-root"] = ["present"] if next(page.tree.iter("app-root"), None) is not None else []
    return seen


def _fingerprint_matches(seen: dict[str, list[str]], tag: str, attribute: str | None, value: str | None) -> bool:
    if attribute is None:
        return bool(seen.get(tag))
    values = seen.get(f"{tag}@{attribute}", [])
    if value is None:
        return bool(values)
    if attribute == "src":
        return any(value in src for src in values)
    return value in values


def _is_false(value: Any) -> bool:
    return value is False or (isinstance(value, str) and value.strip().lower() == "false")

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("page_body_word_count", pa.int32(), "words of <body> outside nav, header, footer, script and style, "
           "as the page classification counts them (Page.body_word_count)"),
    Signal("page_is_js_spa", pa.bool_(), "framework root with < 200 words, or < 10 words and external scripts"),
    Signal("page_is_cookie_walled", pa.bool_(), "cookie/GDPR overlay detected"),
    Signal("page_is_paywalled", pa.bool_(), "paywall phrases plus metered markers"),
    Signal("page_js_frameworks", pa.string(), "named JS frameworks detected, comma-separated"),
    Signal("page_has_amp_url", pa.bool_(), "<link rel=amphtml> present"),
    Signal("page_has_feed_url", pa.bool_(), "RSS/Atom <link rel=alternate> present"),
    Signal("page_class", pa.string(), "COOKIE_WALLED, PAYWALLED, JS_SPA, STATIC_HTML or UNKNOWN"),
    Signal("page_strategy", pa.string(), "what a live fetcher would do next; recorded only"),
    Signal("page_confidence", pa.float64(), "confidence of the classification"),
    Signal("external_script_count", pa.int32(), "<script src> elements"),
    Signal("needs_js", pa.bool_(), "any of the four needs_js signals"),
    Signal("needs_js_message", pa.bool_(), "explicit 'enable JavaScript' message in the body text"),
    Signal("needs_js_root", pa.bool_(), "JS framework root element and < 100 words"),
    Signal("needs_js_heavy_scripts", pa.bool_(), "> 8 external scripts and < 50 words"),
    Signal("needs_js_noscript", pa.bool_(), "<noscript> with > 20 words"),
)
WALL_SIGNALS: tuple[Signal, ...] = (
    Signal("js_shell_extracted_words", pa.int32(), "extracted words, set only for JS shells (page.js_shell)"),
    Signal("cookie_wall_extracted_words", pa.int32(), "extracted words, set only for cookie walls"),
    Signal("paywall_extracted_words", pa.int32(), "extracted words, set only for paywalled pages"),
)
RULES: tuple[Rule, ...] = (
    Rule("page.js_shell", "JS-only shell (SPA or needs_js) and the extraction found too "
         "little text", "js_shell_extracted_words", "<", "extract",
         params_key="extract.page.too_little_text_words"),
    Rule("page.cookie_wall", "cookie/GDPR wall and the extraction found too little text",
         "cookie_wall_extracted_words", "<", "extract", params_key="extract.page.too_little_text_words"),
    Rule("page.paywall", "paywall and the extraction found too little text",
         "paywall_extracted_words", "<", "extract", params_key="extract.page.too_little_text_words"),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class PageParams:
    # page.js_shell / page.cookie_wall / page.paywall only when the extraction found fewer
    # words than this: page classification (docs/filters.md) trusts a static fetch
    # ("STATIC_HTML / static") only from 150 body words up, and below it would re-fetch; we
    # cannot re-fetch, so we reject.
    too_little_text_words: Count | None = 150
