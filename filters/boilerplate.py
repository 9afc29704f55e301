"""Boilerplate line filters (seed 004, "Structural Content Filtering", `isBoilerplate` and
`preserveContentStructure`: "removes navigation, ads, social buttons, newsletters; filters video
captions and figure elements").

Applied to the blocks of the winning extraction. Each filter is deliberately narrow ("minimal
pattern matching to avoid false positives", seed 004) and only looks at *short* blocks (at most
`MAX_BOILERPLATE_CHARS`), matched as a whole, so a paragraph that merely mentions a copyright, a
photo, a newsletter or an advertisement is never touched:

* relative timestamps: the whole block is "5 minutes ago", "Updated 2 hours ago", "yesterday";
* copyright lines: a short block starting with © or "(c) ", or with "Copyright" followed by a
  year, or "All rights reserved" alone;
* square-bracket annotations: the whole block is `[...]` ("[Advertisement]", "[Photo: …]");
* ALL-CAPS promotions: a block that is entirely one link and entirely upper-case (seed 004's
  Fox News rule: both conditions, never either alone);
* advertisement labels: the whole block is "Advertisement", "Anzeige", "Publicité", "Story
  continues below advertisement", ...;
* photo credits and caption labels: a block that starts with "Photo:", "Image credit:", "Foto:",
  "(Photo by", "Bild:", ...;
* bylines: "By Jane Doe", "Von Anna Schmidt und Max Meier", "Par Jean Dupont | 12 mars 2024": a
  by-word followed only by capitalised names, connectors, dates and times (never a heading:
  "By Land and Sea" is a title);
* share and newsletter prompts: "Share this article", "Share on Facebook", "Follow us on X", a
  block of nothing but social network names, a block that opens with "Sign up for our
  newsletter" or "Newsletter abonnieren";
* related headlines: a heading such as "Related articles" / "Read more" / "Lesen Sie auch" and
  the run of short link-only blocks after it, or a single "Read more: <link>" block.

`body_blocks` is not a seed 004 filter and removes nothing from `text`: extractors repeat the
page's headline as the first block, and seed 002's block statistics must be measured on the body
(a 60-character headline lowers the share of text in large blocks of every short news story). A
leading block (among the first three, before the first block of 200 characters) that equals the
page's `<title>`, `og:title`, JSON-LD headline or an `<h1>` (or the part of a "Headline | Site" title
with at least three words), compared on case-folded letters and digits, is the headline.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from filters.blocks import LARGE_BLOCK_CHARS, Block

MAX_BOILERPLATE_CHARS = 120
MAX_PROMPT_CHARS = 160  # newsletter prompts are a sentence with a call to action
HEADLINE_MAX_POSITION = 3
HEADLINE_MAX_CHARS = LARGE_BLOCK_CHARS  # a block this long is body: the headline search stops there
RELATED_ITEM_MAX_CHARS = 150
RELATED_ITEM_MIN_LINK_FRACTION = 0.8

_RELATIVE_TIME = re.compile(
    r"^(?:(?:updated|posted|published|edited)\s*:?\s*)?"
    r"(?:(?:\d+|an?|one|a few)\s+(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago"
    r"|just now|yesterday|today)\.?$",
    re.IGNORECASE,
)
# "© …" / "(c) …" at the start, or the word "Copyright" followed by a year: "Copyright law
# protects …" is prose, "Copyright 2024 Example Media" is a notice.
_COPYRIGHT = re.compile(r"^(?:©|\((?i:c)\)\s|(?i:copyright)\s*(?:©\s*)?(?:\d{4}|\(c\)))")
_RIGHTS_RESERVED = re.compile(r"^all rights reserved\.?$", re.IGNORECASE)
_BRACKETED = re.compile(r"^\[[^\[\]]{1,100}\]$")
_ADVERTISEMENT = re.compile(
    r"^(?:(?:story|article|text) continues below(?: (?:this )?(?:advertisement|ad))?|"
    r"(?:advertisement|advertising|sponsored|anzeige|werbung|publicité|publicidad|pubblicità|publicidade|reclame|"
    r"advertentie|реклама|reklama|annons|mainos|mainonta)"
    r"(?:\s*[-–—:|]?\s*(?:(?:story|article) continues below|continue reading below|scroll to continue(?: with content)?"
    r"|weiterlesen nach der anzeige|lesen sie nach der anzeige weiter))?)[.:]?$",
    re.IGNORECASE)
_CREDIT = re.compile(
    r"^[(\[]?(?:photo|photograph|photos|image|images|picture|pic|video|illustration|graphic|credit|photo credit|"
    r"image credit|image source|source|foto|fotos|bild|bilder|quelle|crédit|crédit photo|crédits|fotografía|imagen|"
    r"immagine|fotografia|zdjęcie|фото)\s*(?::|©|by\b|von\b|par\b|de\b|di\b)",
    re.IGNORECASE)
_BYLINE_START = re.compile(r"^(?:by|von|par|por|di|door|av|af|przez|от)\s+(?=\S)", re.IGNORECASE)
_BYLINE_CONNECTORS = frozenset({"and", "und", "et", "y", "e", "&", "en", "och", "og", "i", "de", "van", "von", "der",
                                "den", "la", "le", "du", "da", "del", "dos", "di", "bin", "al", "|", "-", "–", "—", "·",
                                "•", "/", "am", "on", "updated", "published", "aktualisiert", "il"})
_BYLINE_MAX_TOKENS = 12
_DATEISH = re.compile(r"^[\d.:/,-]+(?:am|pm|h|uhr)?[,.]?$", re.IGNORECASE)
_SHARE = re.compile(
    r"^(?:share|share this(?: (?:article|story|post|page|video))?|share (?:on|via|to) [\w ]{1,20}|tweet(?: this)?|"
    r"pin it|email this(?: (?:article|story))?|print(?: this)?(?: (?:article|story|page))?|"
    r"follow us(?: on [\w ]{1,30})?|like us on facebook|teilen|artikel teilen|(?:auf|bei) [\w ]{1,15} teilen|"
    r"partager(?: (?:sur|cet article) ?[\w ]{0,20})?|compartir(?: en [\w ]{1,20})?|condividi(?: su [\w ]{1,20})?|"
    r"delen|udostępnij|поделиться|dela|del)[.:!]?$",
    re.IGNORECASE)
SOCIAL_NAMES = frozenset({"facebook", "twitter", "x", "linkedin", "whatsapp", "pinterest", "reddit", "email", "e-mail",
                          "mail", "print", "telegram", "xing", "tumblr", "messenger", "copy", "link", "copy link",
                          "flipboard", "threads", "bluesky", "mastodon", "sms", "share", "teilen", "drucken"})
_NEWSLETTER = re.compile(
    r"^(?:(?:sign up|signup|subscribe|register|get|receive|join)\b.{0,40}\bnewsletters?\b|"
    r"(?:our |the |unser(?:en)? |den )?newsletters?\b.{0,20}\b(?:abonnieren|bestellen|sign up|subscribe)|"
    r"(?:inscrivez-vous|abonnez-vous|suscríbete|iscriviti|abonneer|zapisz się)\b.{0,40}\b(?:newsletter|lettre))",
    re.IGNORECASE)
_RELATED_HEADING = re.compile(
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
_READ_MORE_LINK = re.compile(
    r"^(?:read more|read also|also read|see also|related|lesen sie auch|mehr dazu|lire aussi|à lire aussi|"
    r"leggi anche|lee también|lees ook|czytaj także|читайте также)\s*[:»>|-]\s*\S",
    re.IGNORECASE)


def boilerplate_kind(block: Block) -> str | None:
    """Which boilerplate filter removes this block on its own, or None to keep it."""
    text = block.text.strip()
    if not text or len(text) > MAX_PROMPT_CHARS:
        return None
    if len(text) <= MAX_BOILERPLATE_CHARS:
        kind = _short_kind(text, block)
        if kind is not None:
            return kind
    if _NEWSLETTER.search(text):
        return "newsletter_prompt"
    if _READ_MORE_LINK.match(text) and block.link_chars >= RELATED_ITEM_MIN_LINK_FRACTION * (len(text) - 12):
        return "related_links"
    return None


def _short_kind(text: str, block: Block) -> str | None:
    if _RELATIVE_TIME.match(text):
        return "relative_time"
    if _COPYRIGHT.match(text) or _RIGHTS_RESERVED.match(text):
        return "copyright"
    if _BRACKETED.match(text):
        return "bracket_annotation"
    if block.link_chars >= block.chars and _is_all_caps(text):
        return "all_caps_link"
    if _ADVERTISEMENT.match(text):
        return "advertisement"
    if _CREDIT.match(text):
        return "credit"
    if block.kind != "heading" and _is_byline(text):
        return "byline"
    if _SHARE.match(text) or _is_social_list(text):
        return "share_prompt"
    return None


def remove_boilerplate(blocks: list[Block]) -> tuple[list[Block], dict[str, int]]:
    """Blocks that survive, and how many each filter removed."""
    kept: list[Block] = []
    removed: dict[str, int] = {}
    in_related_list = False
    for block in blocks:
        if in_related_list and _is_related_item(block):
            removed["related_links"] = removed.get("related_links", 0) + 1
            continue
        in_related_list = False
        if _RELATED_HEADING.match(block.text.strip()):
            in_related_list = True
            removed["related_links"] = removed.get("related_links", 0) + 1
            continue
        kind = boilerplate_kind(block)
        if kind is None:
            kept.append(block)
        else:
            removed[kind] = removed.get(kind, 0) + 1
    return kept, removed


def body_blocks(blocks: list[Block], headlines: Iterable[str]) -> list[Block]:
    """`blocks` without the leading blocks that repeat the page's headline (see the module docstring)."""
    wanted = _headline_keys(headlines)
    if not wanted:
        return blocks
    kept = list(blocks)
    position = 0
    while position < min(HEADLINE_MAX_POSITION, len(kept)):
        block = kept[position]
        if block.chars >= HEADLINE_MAX_CHARS:
            break
        if _normalise(block.text) in wanted:
            del kept[position]
            continue
        position += 1
    return kept


# `(?<!\s)`: a match starts where a whitespace run starts, never inside one (runs of spaces made
# the old form quadratic: every start inside a run rescanned it; see tests/filters/test_regex_safety.py).
_TITLE_SEPARATORS = re.compile(r"(?<!\s)\s+(?:[|\-–—:·•»/]|::)\s+")


def _headline_keys(headlines: Iterable[str]) -> set[str]:
    """Normalised headlines, and the parts of "Headline | Site" titles that are long enough to be one."""
    keys: set[str] = set()
    for headline in headlines:
        if not headline:
            continue
        keys.add(_normalise(headline))
        for part in _TITLE_SEPARATORS.split(headline):
            if len(part.split()) >= 3:
                keys.add(_normalise(part))
    keys.discard("")
    return keys


def _normalise(text: str) -> str:
    """Case-folded letters and digits only: quotes, dashes and spacing differ between title and body."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if c.isalnum())


def _is_related_item(block: Block) -> bool:
    return block.chars <= RELATED_ITEM_MAX_CHARS and block.link_chars >= RELATED_ITEM_MIN_LINK_FRACTION * block.chars


def _is_byline(text: str) -> bool:
    start = _BYLINE_START.match(text)
    if start is None or text.endswith((".", "!", "?")) and not text.endswith((" Jr.", " Sr.")):
        return False
    tokens = text[start.end():].replace(",", " , ").split()
    if not tokens or len(tokens) > _BYLINE_MAX_TOKENS or not tokens[0][:1].isupper():
        return False
    return all(token[:1].isupper() or token.lower() in _BYLINE_CONNECTORS or token == "," or _DATEISH.match(token)
               for token in tokens)


def _is_social_list(text: str) -> bool:
    words = [word.strip(",|·•/").lower() for word in text.split()]
    words = [word for word in words if word]
    return len(words) >= 2 and all(word in SOCIAL_NAMES for word in words)


def _is_all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)
