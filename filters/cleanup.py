"""Pre-processing before any extractor (seed 000 §4), point 2: cookie-consent overlay removal.
(Point 1, `<template>` removal, has to happen before the parse: `filters.html.parse_html_bytes`.)

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

# (description, XPath) — the selectors of the consent platforms, as XPath (no cssselect needed).
# (platform, ids, class tokens, id prefixes): the named selectors of the consent platforms.
COOKIE_SELECTORS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("CookieYes (GDPR Cookie Consent)", ("cookie-law-info-bar", "cliSettingsPopup", "cookie-law-info-again"), (), ()),
    ("CookieYes v3", (), ("cky-consent-container", "cky-overlay", "cky-modal", "cky-consent-bar"), ()),
    ("Cookiebot", ("CybotCookiebotDialog", "CybotCookiebotDialogBodyUnderlay", "CookiebotWidget"), (), ()),
    ("OneTrust", ("onetrust-banner-sdk", "onetrust-consent-sdk", "onetrust-pc-sdk"), ("onetrust-pc-dark-filter",), ()),
    ("Complianz", ("cmplz-cookiebanner-container", "cmplz-manage-consent"), ("cmplz-cookiebanner",), ()),
    ("Borlabs Cookie", ("BorlabsCookieBox", "BorlabsCookieWidget", "BorlabsCookieBoxWrap"), (), ()),
    ("WP GDPR Compliance", ("wpgdprc-consent-bar",), ("wpgdprc-consent-bar",), ()),
    ("GDPR Cookie Compliance (Moove)", ("moove_gdpr_cookie_info_bar", "moove_gdpr_cookie_modal"), (), ()),
    ("Cookie Notice (dFactory)", ("cookie-notice",), (), ()),
    ("GDPR Cookie Consent bar", ("gdpr-cookie-consent-bar", "gdpr-cookie-consent-show-again"), (), ()),
    ("Osano", (), ("osano-cm-window", "osano-cm-dialog"), ()),
    ("Quantcast Choice", ("qc-cmp2-container",), ("qc-cmp2-container",), ()),
    ("Didomi", ("didomi-host", "didomi-popup", "didomi-notice"), (), ()),
    ("Usercentrics", ("usercentrics-root", "uc-banner-modal"), (), ()),
    ("TrustArc", ("truste-consent-track", "consent_blackbar", "teconsent"), (), ()),
    ("Klaro", (), ("klaro",), ()),
    ("Iubenda", ("iubenda-cs-banner",), (), ()),
    ("Termly", ("termly-code-snippet-support",), (), ()),
    ("CookieConsent (Osano OSS)", (), ("cc-window", "cc-banner"), ()),
    ("CookieConsent v3", ("cc-main", "cc--main"), (), ()),
    ("Cookie Script", ("cookiescript_injected", "cookiescript_injected_wrapper"), (), ()),
    ("CookieFirst", (), ("cookiefirst-root",), ()),
    ("Sourcepoint", (), (), ("sp_message_container",)),
    ("Civic Cookie Control", ("ccc", "ccc-overlay"), (), ()),
    ("Axeptio", ("axeptio_overlay", "axeptio_main_button"), (), ()),
    ("EU Cookie Law", (), ("pea_cook_wrapper",), ()),
    ("Cookie Law Info", ("cookie-law-info",), (), ()),
    ("Ezoic consent", ("ez-cookie-dialog", "ez-cookie-dialog-wrapper"), (), ()),
    ("Google Funding Choices", (), ("fc-consent-root",), ()),
    ("TrustCommander", ("footer_tc_privacy", "privacy-iframe"), (), ()),
    ("generic cookie banner", ("cookie-banner", "cookie-consent", "cookieConsent", "cookie-bar", "cookies-banner",
                               "gdpr-banner", "cookie-popup"), ("cookie-banner", "cookie-consent"), ()),
)
_NAMED_IDS = frozenset(i for _, ids, _, _ in COOKIE_SELECTORS for i in ids)
_NAMED_CLASSES = frozenset(c for _, _, classes, _ in COOKIE_SELECTORS for c in classes)
_NAMED_ID_PREFIXES = tuple(p for _, _, _, prefixes in COOKIE_SELECTORS for p in prefixes)
# Attribute values worth a look: the sweep's words plus every named platform's marker. Fetched in
# one walk as attribute strings (cheap), then told apart in Python; XPath predicates per element
# (one per named selector) cost several times the parse.
_MARKERS = ("ookie", "onsent", "gdpr", "GDPR", "onetrust", "cky-", "Cybot", "cmplz", "Borlabs", "osano", "qc-cmp2",
            "didomi", "usercentrics", "uc-banner", "truste", "klaro", "iubenda", "termly", "cc-", "cc--", "sp_message",
            "ccc", "axeptio", "pea_cook", "fc-consent", "tc_privacy", "privacy-iframe")
_MARKER = re.compile("|".join(re.escape(marker) for marker in _MARKERS))
_ID_CLASS_VALUES = etree.XPath("//body//@id | //body//@class", smart_strings=False)
_ID_CLASS_ATTRIBUTES = etree.XPath("//body//@id | //body//@class")  # smart strings: know their element
_CONSENT_DIALOGS = etree.XPath(
    "//body//*[@role='dialog' and (contains(@aria-label, 'ookie') or contains(@aria-label, 'onsent'))]")
_SWEEP_WORDS = ("cookie", "consent", "gdpr")
_COOKIE_TALK = re.compile(r"\b(cookies?|consent|gdpr|privacy (?:policy|settings)|tracking technolog)", re.IGNORECASE)
SWEEP_MAX_WORDS = 120  # a consent widget says a few sentences; an article about cookies says more
_KEEP_TAGS = frozenset({"html", "body", "main", "article"})


def remove_cookie_overlays(tree: HtmlElement) -> int:
    """Remove consent overlays in place; returns how many elements were removed."""
    removed = 0
    for element in _candidates(tree):
        if element.tag in _KEEP_TAGS or element.getparent() is None:
            continue
        if is_named_overlay(element):
            removed += _drop(element)
            continue
        marks = f"{element.get('id', '')} {element.get('class', '')}".lower()
        if not any(word in marks for word in _SWEEP_WORDS):
            continue
        text = element.text_content()
        if len(text.split()) <= SWEEP_MAX_WORDS and _COOKIE_TALK.search(text):
            removed += _drop(element)
    return removed


def is_named_overlay(element: HtmlElement) -> bool:
    element_id = element.get("id") or ""
    if element_id in _NAMED_IDS or (_NAMED_ID_PREFIXES and element_id.startswith(_NAMED_ID_PREFIXES)):
        return True
    if element.get("role") == "dialog":
        return True  # only consent dialogs reach here (see _candidates)
    return any(token in _NAMED_CLASSES for token in (element.get("class") or "").split())


def _candidates(tree: HtmlElement) -> list[HtmlElement]:
    """Elements whose id/class carries a marker, plus consent dialogs, in document order, once each."""
    seen: set[int] = set()
    found = []
    # Two thirds of pages carry no marker at all: one joined-string search rules them out.
    if _MARKER.search(" ".join(_ID_CLASS_VALUES(tree))):
        for value in _ID_CLASS_ATTRIBUTES(tree):
            if not _MARKER.search(value):
                continue
            element = value.getparent()
            if id(element) in seen:
                continue
            seen.add(id(element))
            found.append(element)
    for element in _CONSENT_DIALOGS(tree):
        if id(element) not in seen:
            seen.add(id(element))
            found.append(element)
    return found


def _drop(element: HtmlElement) -> bool:
    """Remove an element but keep its tail text (which belongs to the parent)."""
    parent = element.getparent()
    if parent is None or element.tag in _KEEP_TAGS:
        return False
    element.drop_tree()
    return True
