"""Pre-processing before any extractor: cookie-consent and GDPR overlays removed from the parsed tree
(docs/filters.md, "Extraction"). (The other step, `<template>` removal, happens before the parse:
`filters.parse.html.parse_html_bytes`.)

`remove_cookie_overlays` removes, in place, the containers of the common consent platforms
(`filters.core.vocabulary.CONSENT_PLATFORMS`: CookieYes, Cookiebot, OneTrust, Complianz, Borlabs, ...) and,
by a keyword sweep for dynamically named widgets, a container whose id or class mentions cookies, consent or
the GDPR (GDPR, DSGVO, RGPD) and whose text is short (`SWEEP_MAX_WORDS`) and talks about cookies; it returns
how many went. The text guard keeps an article *about* cookies intact. It runs after scoring and page
classification, which must still see the banner, and before the extractors, on the shared tree.
"""

from __future__ import annotations

import bisect
import itertools
import re

import re2
from lxml import etree
from lxml.html import HtmlElement

from filters.core import phrases
from filters.core.re2_options import RE2_OPTIONS
from filters.core.vocabulary import CONSENT_WORDS, consent_platform

# The platforms' named containers are `filters.core.vocabulary.CONSENT_PLATFORMS`, shared with the
# cookie-wall check of `filters.page.page_signals`.

# Attribute values worth a look: the sweep's words plus a substring of every named platform's
# selectors (tests/filters/test_cleanup.py checks that each is covered). Fetched in one walk of
# the elements, screened together in one pass, then told apart in Python; XPath predicates per
# element (one per named selector) cost several times the parse.
_MARKERS = ("ookie", "onsent", "gdpr", "GDPR", "cliSettings", "onetrust", "cky-", "Cybot", "cmplz", "Borlabs",
            "osano", "qc-cmp2", "didomi", "usercentrics", "uc-banner", "truste", "klaro", "iubenda", "termly", "cc-",
            "cc--", "sp_message", "ccc", "axeptio", "pea_cook", "fc-consent", "tc_privacy", "privacy-iframe", "dsgvo",
            "DSGVO", "rgpd", "RGPD")
_MARKER = re.compile("|".join(re.escape(marker) for marker in _MARKERS))
_MARKER_SCREEN = re2.compile(_MARKER.pattern, RE2_OPTIONS)  # one automaton pass whatever the markers
_BODIES = etree.XPath("//body[not(ancestor::body)]")
# `//body//*[@role='dialog' and (contains(@aria-label, 'ookie') or contains(@aria-label, 'onsent'))]`
# from the role attributes: a predicate on every element costs twice as much.
_CONSENT_DIALOGS = etree.XPath(
    "//body//*/@role[. = 'dialog'][contains(../@aria-label, 'ookie') or contains(../@aria-label, 'onsent')]/..")
SWEEP_MAX_WORDS = 120  # a consent widget says a few sentences; an article about cookies says more
_KEEP_TAGS = frozenset({"html", "body", "main", "article"})


def remove_cookie_overlays(tree: HtmlElement) -> int:
    """Remove consent overlays in place; returns how many elements were removed."""
    removed = 0
    for element in _candidates(tree):
        if element.tag in _KEEP_TAGS or element.getparent() is None:
            continue
        if is_consent_overlay(element):
            removed += _drop(element)
    return removed


def has_consent_overlay(tree: HtmlElement) -> bool:
    """Whether `remove_cookie_overlays` would remove anything: the cookie-wall check asks this."""
    return any(element.tag not in _KEEP_TAGS and is_consent_overlay(element) for element in _candidates(tree))


def is_consent_overlay(element: HtmlElement) -> bool:
    """A candidate (see `_candidates`) that is a named platform's container or a consent dialog, or
    whose id/class names cookies/consent/GDPR and whose text is short and talks about cookies."""
    if is_named_overlay(element):
        return True
    marks = f"{element.get('id', '')} {element.get('class', '')}".lower()
    if not any(word in marks for word in CONSENT_WORDS):
        return False
    text = element.text_content()
    return len(text.split()) <= SWEEP_MAX_WORDS and bool(phrases.CONSENT_TALK.search(text))


def is_named_overlay(element: HtmlElement) -> bool:
    if element.get("role") == "dialog":
        return True  # only consent dialogs reach here (see _candidates)
    return consent_platform(element.get("id"), element.get("class")) is not None


def _candidates(tree: HtmlElement) -> list[HtmlElement]:
    """Elements whose id/class carries a marker, plus consent dialogs, in document order, once each."""
    seen: set[int] = set()
    found = []
    values, owners = _ids_and_classes(tree)
    # One search over all values joined by newlines (no marker holds one), on RE2: more than half
    # of the pages carry no marker at all, and on the others the matches point to their values.
    joined = "\n".join(values)
    starts: list[int] | None = None
    for match in _MARKER_SCREEN.finditer(joined):
        if starts is None:
            starts = list(itertools.accumulate((len(value) + 1 for value in values[:-1]), initial=0))
        element = owners[bisect.bisect_right(starts, match.start()) - 1]
        if id(element) not in seen:
            seen.add(id(element))
            found.append(element)
    for element in _CONSENT_DIALOGS(tree):
        if id(element) not in seen:
            seen.add(id(element))
            found.append(element)
    return found


def _ids_and_classes(tree: HtmlElement) -> tuple[list[str], list[HtmlElement]]:
    """The id and class values of `<body>` and the elements in it, in document order, and the
    element of each. One walk of the elements: an XPath that returns the values as strings that
    know their element costs twice as much."""
    values: list[str] = []
    owners: list[HtmlElement] = []
    for body in _BODIES(tree):
        for element in body.iter(etree.Element):  # elements only: a processing instruction has `get` too
            for name in ("id", "class"):
                value = element.get(name)
                if value is not None:
                    values.append(value)
                    owners.append(element)
    return values, owners


def _drop(element: HtmlElement) -> bool:
    """Remove an element but keep its tail text (which belongs to the parent)."""
    parent = element.getparent()
    if parent is None or element.tag in _KEEP_TAGS:
        return False
    element.drop_tree()
    return True
