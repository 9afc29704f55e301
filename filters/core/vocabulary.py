"""Names the web uses for things the filters look for, each written down once.

* **schema.org types** (`ARTICLE_TYPES`, `WEBPAGE_TYPES`, `PRODUCT_TYPES`, `OFFER_TYPES`,
  `CONTRIBUTION_TYPES`) and the one reading of a JSON-LD `@type` (`schema_type`, `schema_types`), used by
  `filters.parse.parsed`, `filters.metadata.fields`, `filters.metadata.jsonld`, `filters.extract.cascade`,
  `filters.page.product` and `filters.segment.units`. The article score's own five article types stay in
  `filters.page.article_score`: they are a row of its table. The page-type model's schema groups
  (`filters.page_model.words.SCHEMA_GROUPS`) are features of a trained model: they group these names by
  the page type they describe (TechArticle with documentation, a forum's posting with forums), a test
  keeps every name of them one the vocabulary knows, and changing them is a retrain.
* **consent platforms** (`CONSENT_PLATFORMS`, `consent_platform`): the containers the
  pre-processing removes (`filters.extract.cleanup`) and page classification's cookie-wall check looks for
  (`filters.page.page_signals`), so detection and removal agree.
* **JS framework roots** (`JS_FRAMEWORK_ROOTS`, `JS_ROOT_ATTRIBUTES`): the element a framework
  mounts into, for page classification's single-page-app check and `needs_js_root`
  (`filters.page.page_signals`).

Data and pure functions only.
"""

from __future__ import annotations

from typing import Any

# --- provenance -------------------------------------------------------------------------------------

# The `published_source` of a date htmldate inferred (filters.metadata.dates.infer_date): not declared by
# the page, so not "Published date in metadata" for the page-type model (filters.page_model.features).
HTMLDATE_SOURCE = "htmldate"
# Where a publication date comes from (`published_source`): declared by the page's metadata (structured
# data, Open Graph, <meta>, microdata), or found by a reader in its markup (our `<time datetime>`
# look-up, htmldate). `era_date_source` calls the first `published`, the second `inferred`.
DECLARED_DATE_SOURCES = ("json-ld", "og", "meta", "itemprop")
INFERRED_DATE_SOURCES = ("time", HTMLDATE_SOURCE)


# --- schema.org ------------------------------------------------------------------------------------

# The article score names Article, BlogPosting, NewsArticle, TechArticle, ScholarlyArticle; the rest are
# schema.org subtypes of Article that publishers use for the same kind of page.
ARTICLE_TYPES = frozenset({
    "Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "Report",
    "AnalysisNewsArticle", "AskPublicNewsArticle", "BackgroundNewsArticle", "OpinionNewsArticle",
    "ReportageNewsArticle", "ReviewNewsArticle", "LiveBlogPosting", "SocialMediaPosting",
    "DiscussionForumPosting", "SatiricalArticle", "AdvertiserContentArticle", "MedicalScholarlyArticle",
})
# Article types whose object is one post among many on its page (a forum thread's opening post):
# its articleBody is not the page's text. Measured: a DiscussionForumPosting body as the
# `jsonld` candidate lowered `jsonld_first` on trafilatura-eval (0.9040 -> 0.9037).
POSTING_TYPES = frozenset({"SocialMediaPosting", "DiscussionForumPosting"})
# Pages about one thing, whose fields describe the page rather than an article on it.
WEBPAGE_TYPES = frozenset({
    "WebPage", "ItemPage", "AboutPage", "CollectionPage", "ProfilePage", "QAPage", "FAQPage",
    "MedicalWebPage", "ContactPage", "SearchResultsPage",
})

# Products and their offers, lower-case (`filters.page.product` compares lower-cased types): a page
# that declares one sells something, unless the product is only what a review is about.
PRODUCT_TYPES = frozenset({"product", "productgroup", "individualproduct", "productmodel", "someproducts",
                           "offer", "aggregateoffer"})
OFFER_TYPES = frozenset({"offer", "aggregateoffer"})
# One person's contribution to a page (a microdata `itemtype`, lower-case), by the segment kind it
# is (`filters.segment.units`).
CONTRIBUTION_TYPES = {"comment": "comment", "answer": "answer", "question": "question",
                      "discussionforumposting": "post", "socialmediaposting": "post", "review": "review"}

# Organization and the subtypes publishers name as an author or publisher.
ORGANISATION_TYPES = frozenset({
    "Organization", "NewsMediaOrganization", "Corporation", "LocalBusiness", "OnlineBusiness",
    "EducationalOrganization", "GovernmentOrganization", "NGO", "MedicalOrganization", "Brand",
})


def schema_type(value: Any) -> str | None:
    """One `@type` value as its bare schema.org name; None for a non-string or empty one.

    Publishers write the same type as `NewsArticle`, `https://schema.org/NewsArticle`,
    `http://schema.org/NewsArticle` or (with a prefixed @context) `schema:NewsArticle`.
    """
    if not isinstance(value, str):
        return None
    name = value.strip().rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return name or None


def schema_types(obj: Any) -> set[str]:
    """The bare type names of one JSON-LD object (`@type` is a string or a list of them)."""
    if not isinstance(obj, dict):
        return set()
    value = obj.get("@type")
    names = (schema_type(item) for item in (value if isinstance(value, list) else [value]))
    return {name for name in names if name is not None}


# --- consent platforms -----------------------------------------------------------------------------

# (platform, element ids, class tokens, id prefixes): the containers the common consent platforms
# render their banner or dialog into, matched exactly (ids, class tokens) or by prefix.
CONSENT_PLATFORMS: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
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
    ("WP DSGVO Tools (Shapepress)", (), ("sp-dsgvo-popup-overlay", "sp-dsgvo-privacy-popup"), ()),
    ("generic cookie banner", ("cookie-banner", "cookie-consent", "cookieConsent", "cookie-bar", "cookies-banner",
                               "gdpr-banner", "cookie-popup"), ("cookie-banner", "cookie-consent"), ()),
)
# Words in an id/class that mark a consent widget no platform above names (a site's own banner).
# "dsgvo" and "rgpd" are the GDPR's German and French/Spanish/Portuguese initials.
CONSENT_WORDS = ("cookie", "consent", "gdpr", "dsgvo", "rgpd")

_CONSENT_IDS = {element_id: name for name, ids, _, _ in CONSENT_PLATFORMS for element_id in ids}
_CONSENT_CLASSES = {token: name for name, _, classes, _ in CONSENT_PLATFORMS for token in classes}
_CONSENT_ID_PREFIXES = tuple((prefix, name) for name, _, _, prefixes in CONSENT_PLATFORMS for prefix in prefixes)


def consent_platform(element_id: str | None, class_value: str | None) -> str | None:
    """The consent platform whose container has this id or class attribute, or None."""
    element_id = element_id or ""
    if element_id in _CONSENT_IDS:
        return _CONSENT_IDS[element_id]
    for prefix, name in _CONSENT_ID_PREFIXES:
        if element_id.startswith(prefix):
            return name
    for token in (class_value or "").split():
        if token in _CONSENT_CLASSES:
            return _CONSENT_CLASSES[token]
    return None


# --- JS framework roots ----------------------------------------------------------------------------

# SPA path A / needs_js signal 2: the id of the element each framework mounts the page into.
JS_FRAMEWORK_ROOTS: dict[str, tuple[str, ...]] = {
    "Next.js": ("__next",),
    "React": ("root", "react-root"),
    "Vue": ("app", "__nuxt"),
    "Angular": ("app-root",),
    "Gatsby": ("gatsby-focus-wrapper",),
    "Svelte": ("svelte",),
    "Ember": ("ember",),
}
# Roots marked by an attribute rather than an id: React's and Vue's server render, AngularJS's app.
JS_ROOT_ATTRIBUTES: dict[str, str] = {"React": "data-reactroot", "Vue": "data-server-rendered", "Angular": "ng-app"}
