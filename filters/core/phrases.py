"""The boilerplate-phrase vocabulary: words and phrases that mark text as page furniture rather
than content, in the languages we have seen them in. One place for all of them, so the filter
that detects a kind of furniture and the one that removes it read the same list.

* line patterns, matched against one whole short block by `filters.extract.boilerplate` (the
  boilerplate line filters): relative times, copyright notices, advertisement and photo-credit labels, byline
  openers, share and newsletter prompts, related-headline headings;
* page phrases, searched for in a page's lower-cased body text by `filters.page.page_signals` (page
  classification: cookie banners, paywalls, "enable JavaScript" messages) and `filters.extract.cleanup`
  (what a consent widget talks about), through `mentions`.

Shop vocabulary (cart buttons, availability) is the product filter's own (`filters.page.product`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# ---- line patterns (whole short blocks; filters.extract.boilerplate)
RELATIVE_TIME = re.compile(
    r"^(?:(?:updated|posted|published|edited)\s*:?\s*)?"
    r"(?:(?:\d+|an?|one|a few)\s+(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago"
    r"|just now|yesterday|today)\.?$",
    re.IGNORECASE,
)
# "© …" / "(c) …" at the start, or the word "Copyright" followed by a year: "Copyright law
# protects …" is prose, "Copyright 2024 Example Media" is a notice.
COPYRIGHT = re.compile(r"^(?:©|\((?i:c)\)\s|(?i:copyright)\s*(?:©\s*)?(?:\d{4}|\(c\)))")
RIGHTS_RESERVED = re.compile(r"^all rights reserved\.?$", re.IGNORECASE)
ADVERTISEMENT_LABEL = re.compile(
    r"^(?:(?:story|article|text) continues below(?: (?:this )?(?:advertisement|ad))?|"
    r"(?:advertisement|advertising|sponsored|anzeige|werbung|publicité|publicidad|pubblicità|publicidade|reclame|"
    r"advertentie|реклама|reklama|annons|mainos|mainonta)"
    r"(?:\s*[-–—:|]?\s*(?:(?:story|article) continues below|continue reading below|scroll to continue(?: with content)?"
    r"|weiterlesen nach der anzeige|lesen sie nach der anzeige weiter))?)[.:]?$",
    re.IGNORECASE)
CREDIT_LABEL = re.compile(
    r"^[(\[]?(?:photo|photograph|photos|image|images|picture|pic|video|illustration|graphic|credit|photo credit|"
    r"image credit|image source|source|foto|fotos|bild|bilder|quelle|crédit|crédit photo|crédits|fotografía|imagen|"
    r"immagine|fotografia|zdjęcie|фото)\s*(?::|©|by\b|von\b|par\b|de\b|di\b)",
    re.IGNORECASE)
BYLINE_START = re.compile(r"^(?:by|von|par|por|di|door|av|af|przez|от)\s+(?=\S)", re.IGNORECASE)
BYLINE_CONNECTORS = frozenset({"and", "und", "et", "y", "e", "&", "en", "och", "og", "i", "de", "van", "von", "der",
                                "den", "la", "le", "du", "da", "del", "dos", "di", "bin", "al", "|", "-", "–", "—", "·",
                                "•", "/", "am", "on", "updated", "published", "aktualisiert", "il"})
SHARE_PROMPT = re.compile(
    r"^(?:share|share this(?: (?:article|story|post|page|video))?|share (?:on|via|to) [\w ]{1,20}|tweet(?: this)?|"
    r"pin it|email this(?: (?:article|story))?|print(?: this)?(?: (?:article|story|page))?|"
    r"follow us(?: on [\w ]{1,30})?|like us on facebook|teilen|artikel teilen|(?:auf|bei) [\w ]{1,15} teilen|"
    r"partager(?: (?:sur|cet article) ?[\w ]{0,20})?|compartir(?: en [\w ]{1,20})?|condividi(?: su [\w ]{1,20})?|"
    r"delen|udostępnij|поделиться|dela|del)[.:!]?$",
    re.IGNORECASE)
SOCIAL_NAMES = frozenset({"facebook", "twitter", "x", "linkedin", "whatsapp", "pinterest", "reddit", "email", "e-mail",
                          "mail", "print", "telegram", "xing", "tumblr", "messenger", "copy", "link", "copy link",
                          "flipboard", "threads", "bluesky", "mastodon", "sms", "share", "teilen", "drucken"})
NEWSLETTER_PROMPT = re.compile(
    r"^(?:(?:sign up|signup|subscribe|register|get|receive|join)\b.{0,40}\bnewsletters?\b|"
    r"(?:our |the |unser(?:en)? |den )?newsletters?\b.{0,20}\b(?:abonnieren|bestellen|sign up|subscribe)|"
    r"(?:inscrivez-vous|abonnez-vous|suscríbete|iscriviti|abonneer|zapisz się)\b.{0,40}\b(?:newsletter|lettre))",
    re.IGNORECASE)
RELATED_HEADING = re.compile(
    r"^(?:related|related (?:articles?|stories|posts|news|content|coverage|reading|links)|read more|read also|"
    r"read next|more reading|further reading|see also|also read|more (?:from|on|about) [\w' ]{1,30}|more stories|"
    r"more news|more like this|you may also like|you might also like|recommended(?: for you| reading)?|most (?:read|"
    r"popular|viewed)|trending(?: now)?|editors?[’']? (?:recommendations|picks)|top stories|latest news|popular now|"
    r"don[’']t miss|weitere artikel|mehr zum thema|lesen sie auch|auch interessant|empfehlungen der redaktion|"
    r"meistgelesen|"
    r"das könnte sie auch interessieren|à lire aussi|lire aussi|voir aussi|sur le même sujet|leggi anche|"
    r"potrebbe interessarti|te puede interesar|lee también|leia também|lees ook|czytaj także|czytaj też|"
    r"читайте также|läs också|les også)\s*[:.]?$",
    re.IGNORECASE)
READ_MORE_LINK = re.compile(
    r"^(?:read more|read also|also read|see also|related|lesen sie auch|mehr dazu|lire aussi|à lire aussi|"
    r"leggi anche|lee también|lees ook|czytaj także|читайте также)\s*[:»>|-]\s*\S",
    re.IGNORECASE)


# ---- page phrases (lower-cased body text; filters.page.page_signals, filters.extract.cleanup)
# needs_js signal 1: explicit "JavaScript required" messages.
JS_REQUIRED_MESSAGES = ("enable javascript", "javascript is required", "please enable javascript",
                        "javascript must be enabled", "this site requires javascript",
                        "you need to enable javascript")
# page classification, cookie walls: what a consent banner says.
COOKIE_PHRASES = ("we use cookies", "this website uses cookies", "this site uses cookies", "accept all cookies",
                  "accept cookies", "cookie settings", "cookie preferences", "manage cookies",
                  "consent to the use of cookies", "cookie consent", "reject all", "wir verwenden cookies",
                  "nous utilisons des cookies", "utilizziamo i cookie", "utilizamos cookies")
# page classification, paywalls: what a paywall says (with metered markers in the markup).
PAYWALL_PHRASES = ("subscribe to continue reading", "subscribe to read", "subscribers only", "subscriber-only",
                   "to continue reading", "already a subscriber", "this article is for subscribers",
                   "sign in to read", "log in to continue reading", "premium content", "free articles remaining",
                   "you have reached your limit", "become a member to read", "unlock this article")
# What a consent widget talks about: a small block flagged by consent markup is removed only
# when its text does (filters.extract.cleanup).
CONSENT_TALK = re.compile(r"\b(cookies?|consent|gdpr|privacy (?:policy|settings)|tracking technolog)", re.IGNORECASE)


def mentions(lowered_text: str, phrases: Iterable[str]) -> bool:
    """Whether the lower-cased text contains any of the phrases."""
    return any(phrase in lowered_text for phrase in phrases)
