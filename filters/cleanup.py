"""Pre-processing before any extractor (seed 000 §4): `<template>` removal and cookie-consent
overlay removal.

* `<template>` is stripped from the HTML text *before* parsing (`strip_templates`): lxml
  re-parents a template's children into the body, so removing the element after parsing is not
  enough (seed 000 §4, point 1).
* Cookie-consent and GDPR overlays are removed from the parsed tree by named selectors of the
  common consent platforms (CookieYes, Cookiebot, OneTrust, Complianz, Borlabs, WP GDPR
  plugins, Osano, Quantcast, Didomi, Usercentrics, TrustArc, Klaro, …) plus a keyword sweep for
  dynamically named widgets: a container whose id/class mentions cookies/consent/GDPR and whose
  text is short and talks about cookies (seed 000 §4, point 2). The sweep's text guard is what
  keeps an article *about* cookies (or a site called "Cookie Monster Recipes") intact.

This runs after scoring and page classification (which must still see the banner) and before
the extractors, on the shared tree.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

_TEMPLATE = re.compile(r"<template\b[^>]*>.*?</template\s*>", re.IGNORECASE | re.DOTALL)

# (description, XPath) — the selectors of the consent platforms, as XPath (no cssselect needed).
COOKIE_SELECTORS: tuple[tuple[str, str], ...] = (
    ("CookieYes banner", "//*[@id='cookie-law-info-bar' or @id='cliSettingsPopup' or @id='cookie-law-info-again']"),
    ("CookieYes v3", "//*[contains(concat(' ', normalize-space(@class), ' '), ' cky-consent-container ')]"),
    ("CookieYes overlay", "//*[contains(concat(' ', normalize-space(@class), ' '), ' cky-overlay ')]"),
    ("CookieYes modal", "//*[contains(concat(' ', normalize-space(@class), ' '), ' cky-modal ')]"),
    ("Cookiebot dialog", "//*[@id='CybotCookiebotDialog' or @id='CybotCookiebotDialogBodyUnderlay']"),
    ("Cookiebot declaration", "//*[@id='CookiebotWidget']"),
    ("OneTrust banner", "//*[@id='onetrust-banner-sdk' or @id='onetrust-consent-sdk' or @id='onetrust-pc-sdk']"),
    ("OneTrust filter", "//*[contains(concat(' ', normalize-space(@class), ' '), ' onetrust-pc-dark-filter ')]"),
    ("Complianz banner", "//*[contains(concat(' ', normalize-space(@class), ' '), ' cmplz-cookiebanner ')]"),
    ("Complianz container", "//*[@id='cmplz-cookiebanner-container' or @id='cmplz-manage-consent']"),
    ("Borlabs Cookie", "//*[@id='BorlabsCookieBox' or @id='BorlabsCookieWidget' or @id='BorlabsCookieBoxWrap']"),
    ("WP GDPR Compliance", "//*[@id='wpgdprc-consent-bar' or contains(@class, 'wpgdprc-consent-bar')]"),
    ("GDPR Cookie Compliance (Moove)", "//*[@id='moove_gdpr_cookie_info_bar' or @id='moove_gdpr_cookie_modal']"),
    ("Cookie Notice (dFactory)", "//*[@id='cookie-notice']"),
    ("GDPR Cookie Consent", "//*[@id='gdpr-cookie-consent-bar' or @id='gdpr-cookie-consent-show-again']"),
    ("Osano", "//*[contains(concat(' ', normalize-space(@class), ' '), ' osano-cm-window ')]"),
    ("Quantcast Choice", "//*[@id='qc-cmp2-container' or contains(@class, 'qc-cmp2-container')]"),
    ("Didomi", "//*[@id='didomi-host' or @id='didomi-popup' or @id='didomi-notice']"),
    ("Usercentrics", "//*[@id='usercentrics-root' or @id='uc-banner-modal']"),
    ("TrustArc", "//*[@id='truste-consent-track' or @id='consent_blackbar' or @id='teconsent']"),
    ("Klaro", "//*[contains(concat(' ', normalize-space(@class), ' '), ' klaro ')]"),
    ("Iubenda", "//*[@id='iubenda-cs-banner']"),
    ("Termly", "//*[@id='termly-code-snippet-support']"),
    ("CookieConsent (Osano OSS)", "//*[contains(concat(' ', normalize-space(@class), ' '), ' cc-window ')]"),
    ("CookieConsent v3", "//*[@id='cc-main' or @id='cc--main']"),
    ("Cookie Script", "//*[@id='cookiescript_injected' or @id='cookiescript_injected_wrapper']"),
    ("CookieFirst", "//*[contains(@class, 'cookiefirst-root')]"),
    ("Sourcepoint", "//*[starts-with(@id, 'sp_message_container')]"),
    ("Civic Cookie Control", "//*[@id='ccc' or @id='ccc-overlay']"),
    ("Axeptio", "//*[@id='axeptio_overlay' or @id='axeptio_main_button']"),
    ("EU Cookie Law", "//*[contains(concat(' ', normalize-space(@class), ' '), ' pea_cook_wrapper ')]"),
    ("generic cookie banner",
     "//*[@id='cookie-banner' or @id='cookie-consent' or @id='cookieConsent' "
     "or @id='cookie-bar' or @id='cookies-banner' or @id='gdpr-banner' or @id='cookie-popup']"),
    ("generic consent role",
     "//*[@role='dialog' and (contains(@aria-label, 'ookie') or contains(@aria-label, 'onsent'))]"),
)
_NAMED = etree.XPath(" | ".join(xpath for _, xpath in COOKIE_SELECTORS))

# Keyword sweep: dynamically named widgets (`cookie-notice-7f3a`, `consent_wrapper`, …).
_SWEEP = etree.XPath(
    "//body//*[contains(translate(@id, 'COKIEGDPRNST', 'cokiegdprnst'), 'cookie') "
    "or contains(translate(@class, 'COKIEGDPRNST', 'cokiegdprnst'), 'cookie') "
    "or contains(translate(@id, 'COKIEGDPRNST', 'cokiegdprnst'), 'consent') "
    "or contains(translate(@class, 'COKIEGDPRNST', 'cokiegdprnst'), 'consent') "
    "or contains(translate(@id, 'COKIEGDPRNST', 'cokiegdprnst'), 'gdpr') "
    "or contains(translate(@class, 'COKIEGDPRNST', 'cokiegdprnst'), 'gdpr')]"
)
_COOKIE_TALK = re.compile(r"\b(cookies?|consent|gdpr|privacy (?:policy|settings)|tracking technolog)", re.IGNORECASE)
SWEEP_MAX_WORDS = 120  # a consent widget says a few sentences; an article about cookies says more
_KEEP_TAGS = frozenset({"html", "body", "main", "article"})


def strip_templates(html: str) -> str:
    """Remove `<template>…</template>` from HTML text before it is parsed."""
    if "<template" not in html and "<TEMPLATE" not in html:
        return html
    return _TEMPLATE.sub("", html)


def remove_cookie_overlays(tree: HtmlElement) -> int:
    """Remove consent overlays in place; returns how many elements were removed."""
    removed = 0
    for element in _NAMED(tree):
        if _drop(element):
            removed += 1
    for element in _SWEEP(tree):
        if element.tag in _KEEP_TAGS or element.getparent() is None:
            continue
        text = element.text_content()
        if len(text.split()) <= SWEEP_MAX_WORDS and _COOKIE_TALK.search(text) and _drop(element):
            removed += 1
    return removed


def _drop(element: HtmlElement) -> bool:
    """Remove an element but keep its tail text (which belongs to the parent)."""
    parent = element.getparent()
    if parent is None or element.tag in _KEEP_TAGS:
        return False
    element.drop_tree()
    return True
