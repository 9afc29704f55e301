"""URL rules (docs/filters.md, "Scoring a page"): the canonical form of a URL and the exclusion rules.

`normalize_url` lower-cases scheme and host, drops the fragment and default ports, strips tracking parameters
and sorts what is left by (key, value); parameters stay exactly as written and path case is kept, so a server
would see the same request. Why not courlan or w3lib: docs/decisions.md.

`url_signals` turns the exclusion rules into the three flags of the decision table's `url` group:
`url_hard_excluded` (the hard-exclude path patterns, `HARD_EXCLUDE_PATTERNS`, searched anywhere in the path and
case-insensitively: `/blog/wp-admin/`, `/WP-Content/Uploads/`), `url_excluded_extension` (`EXCLUDED_EXTENSIONS`,
on the last path segment only, `;params` ignored: `/pdf-guide/` is a page, `/a.pdf;jsessionid=1` a PDF) and
`url_exclude_regex_matched` (the user's `extract.url.exclude_regex`, applied after the built-in rules as a
search over the *normalised* URL, on RE2: `compile_patterns`). Every flag is None when there is no http(s) URL
to judge (`file://` paths of plain HTML files, `mailto:`, relative references, a URL `urlsplit` cannot parse).
Pure and deterministic: the only state is the memo of compiled user regexes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, unquote_plus, urlsplit

import pyarrow as pa
import re2

from filters.core.declarations import Rule, Signal
from filters.core.re2_options import RE2_OPTIONS

# Parameters that identify a click, a visitor or a campaign, never the content; the same article
# shared on two networks must become one URL. Sources: Google Ads / Analytics, Meta, Microsoft,
# Yandex, Mailchimp, HubSpot, Marketo, Matomo/Piwik, Alibaba, TikTok, Twitter/X, LinkedIn, AT
# Internet, Wicked Reports, Firefox's query-stripping list and `ref`. Compared
# lower-cased, as whole names. Deliberately absent: anything that can select content (`id`, `p`,
# `page`, `q`, `lang`, `source`, `keyword`, `uid`, `cid`, generic `pk_*`), and referral or
# affiliate names that also carry a redirect target (`referer`, `referrer`).
#
# Not courlan's `TRACKERS_RE` (trafilatura's URL library), nor a union with it: it matches name
# *parts* after a word boundary or `_`, so it also strips `cidTexte` (Légifrance's text id),
# `keyword`, `source`, `uid`, `list_uids` (PubMed ids), `gallery`, `refresh` and TYPO3's
# `tx_..._glossary[term]`. The union merged 145 of the 117 528 link URLs of the shared corpora
# into 27, different pages among them (PubMed abstracts, keyword searches, Yandex Market filters).
# Its names that are trackers only are here (`ysclid`, `xtor`, `itm_*`).
TRACKING_PARAMS: frozenset[str] = frozenset({
    # Google
    "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "gad_source", "srsltid", "_ga", "_gl",
    # Meta
    "fbclid", "fb_action_ids", "fb_action_types", "fb_ref", "fb_source", "igshid", "igsh",
    # Microsoft, Yandex, Twitter/X, TikTok, LinkedIn, AT Internet (Xiti), Wicked Reports
    "msclkid", "yclid", "ysclid", "_openstat", "twclid", "ttclid", "li_fat_id", "xtor", "wickedid",
    # Mailchimp, HubSpot, Marketo, Vero, Omeda
    "mc_cid", "mc_eid", "_hsenc", "_hsmi", "__hstc", "__hssc", "__hsfp", "hsctatracking",
    "mkt_tok", "vero_conv", "vero_id", "oly_anon_id", "oly_enc_id",
    # Matomo / Piwik campaign names (only these; `pk_` alone is a common primary-key prefix)
    "pk_campaign", "pk_kwd", "pk_keyword", "pk_source", "pk_medium", "pk_content", "pk_cid",
    # Referral markers (`ref` and its variants) and Alibaba's super-position model
    "ref", "ref_src", "ref_url", "spm",
})

# Whole families: Google's UTM set (`utm_source`, `utm_medium`, `utm_campaign`, `utm_term`,
# `utm_content`, `utm_id`, ...), Matomo's `mtm_*`, HubSpot ads' `hsa_*` and the internal-campaign
# `itm_*` (Parse.ly's convention: `itm_source`, `itm_campaign`, ...).
TRACKING_PREFIXES: tuple[str, ...] = ("utm_", "mtm_", "hsa_", "itm_")
# `?a=1&amp;utm_medium=x`: a link written HTML-escaped twice reaches us with the key `amp;utm_medium`.
_ESCAPED_AMPERSAND = "amp;"

# The hard-exclude rules (docs/filters.md), over the URL path, matched case-insensitively: `/WP-Content/Uploads/`
# on a case-insensitive server is the same junk, and no article path is a near miss. The rule's `.amp(?|$)` over
# path+query means "the path ends in `.amp`" (the `?` is where the path ends), so it is `\.amp$` over the path
# alone, with a literal dot: a bare `.` would drop `/on-ramp`, and matching the query would drop `?f=x.amp`.
HARD_EXCLUDE_PATTERNS: tuple[str, ...] = (
    r"/_next/static/",
    r"/cdn-cgi/",
    r"/wp-content/uploads/",
    r"/__webpack",
    r"/wp-json/",
    r"/wp-admin/",
    r"/xmlrpc\.php",
    r"\.amp$",  # `.amp(?|$)` over path+query: an AMP duplicate such as `/story.amp` or `/story.amp?x=1`
)

# The excluded extensions (docs/filters.md). `.tar.gz` is covered by `.gz`.
EXCLUDED_EXTENSIONS: frozenset[str] = frozenset({
    ".pdf", ".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp",
    ".css", ".js", ".woff", ".woff2", ".ttf", ".ico",
    ".zip", ".tar", ".gz",
})

WEB_SCHEMES: frozenset[str] = frozenset({"http", "https"})

_DEFAULT_PORTS: dict[str, int] = {"http": 80, "https": 443}
# One alternation: a single scan of the path per record instead of eight.
_HARD_EXCLUDE_RE = re.compile("|".join(HARD_EXCLUDE_PATTERNS), re.IGNORECASE)
_EXCLUDED_EXTENSION_SUFFIXES: tuple[str, ...] = tuple(sorted(EXCLUDED_EXTENSIONS))
# A port at the end of host[:port]; an IPv6 literal ends in `]`, so its colons never match.
# `(?<!:)`: from the first colon of a run only (a host of many colons was quadratic).
_PORT_RE = re.compile(r"(?<!:):+(\d*)$")
# Schemes written with an authority even when it is empty (`file:///x.html`), as `urlunsplit` does.
_AUTHORITY_SCHEMES: frozenset[str] = frozenset({"http", "https", "file", "ftp"})


def _split(url: str) -> SplitResult | None:
    """`urlsplit` of the stripped URL, or None where it raises (bad IPv6 literal and the like)."""
    try:
        return urlsplit(url.strip())
    except ValueError:
        return None


def _is_tracking_key(key: str) -> bool:
    name = key.lower()
    if "%" in name or "+" in name:
        name = unquote_plus(name)
    while name.startswith(_ESCAPED_AMPERSAND):
        name = name[len(_ESCAPED_AMPERSAND):]
    return name in TRACKING_PARAMS or name.startswith(TRACKING_PREFIXES)


def _normalize_query(query: str) -> str:
    kept: list[tuple[str, str, str]] = []
    for raw_pair in query.split("&"):
        # Whitespace round a pair is not part of any real URL; dropping it keeps normalisation idempotent.
        pair = raw_pair.strip()
        if not pair:
            continue
        key, _, value = pair.partition("=")
        if _is_tracking_key(key):
            continue
        # The raw pair breaks the tie between `a` and `a=`, keeping the order total.
        kept.append((key, value, pair))
    kept.sort()
    return "&".join(pair for _, _, pair in kept)


def _normalize_netloc(netloc: str, scheme: str) -> str:
    # Userinfo is case-sensitive; only host[:port] is lower-cased.
    userinfo, at, hostport = netloc.rpartition("@")
    hostport = hostport.lower()
    port = _PORT_RE.search(hostport)
    # An empty port means the default one (RFC 3986 §6.2.3), for any scheme.
    if port is not None and (not port.group(1) or int(port.group(1)) == _DEFAULT_PORTS.get(scheme)):
        hostport = hostport[: port.start()]
    return userinfo + at + hostport


def _unsplit(scheme: str, netloc: str, path: str, query: str) -> str:
    # Not `urlunsplit`: it writes an empty host with path `//x` as `http://x`, whose host is `x`,
    # so normalising twice would give two different URLs.
    if netloc or path.startswith("//") or scheme in _AUTHORITY_SCHEMES:
        if path and not path.startswith("/"):
            path = "/" + path
        path = "//" + netloc + path
    url = f"{scheme}:{path}" if scheme else path
    # Dropping a fragment or a last tracking pair can leave whitespace that input stripping would remove.
    return (f"{url}?{query}" if query else url).strip()


def _normalized(parts: SplitResult) -> str:
    netloc = _normalize_netloc(parts.netloc, parts.scheme) if parts.netloc else ""
    path = parts.path or ("/" if netloc else "")
    query = _normalize_query(parts.query) if parts.query else ""
    return _unsplit(parts.scheme, netloc, path, query)


def normalize_url(url: str) -> str:
    """Canonical form of `url` (URL normalisation, docs/filters.md).

    Lower-case scheme and host, drop the fragment, drop default ports (80 for http, 443 for https;
    an empty port too), strip tracking parameters (`TRACKING_PARAMS`, `TRACKING_PREFIXES`) and empty or
    whitespace-only ones, sort the remaining query pairs by (key, value) (repeated keys have no given
    order: `?a=2&a=1` and `?a=1&a=2` are one URL), keep parameters as written (no decode and re-encode)
    and path case (paths are case-sensitive on most servers), turn an empty path into `/`. An IDNA or
    percent-encoded host is kept as given, only lower-cased. Never raises: a URL `urlsplit` cannot
    parse is returned stripped of surrounding whitespace.
    """
    parts = _split(url)
    if parts is None:
        return url.strip()
    return _normalized(parts)


def _path_is_hard_excluded(path: str) -> bool:
    return _HARD_EXCLUDE_RE.search(path) is not None


def _path_has_excluded_extension(path: str) -> bool:
    last_segment = path.rpartition("/")[2].partition(";")[0]
    return last_segment.lower().endswith(_EXCLUDED_EXTENSION_SUFFIXES)


@functools.lru_cache(maxsize=64)
def compile_patterns(patterns: tuple[str, ...]) -> tuple[Any, ...]:
    """Compile user regexes with RE2 once per distinct tuple; ValueError naming the first pattern RE2 refuses,
    and why.

    RE2 (the `google-re2` package) matches in time linear in the URL, where Python's `re` backtracks: `(a+)+$`
    spent a page's whole time budget on every long URL (docs/decisions.md). It has no backreferences or
    lookaround (such a pattern is refused when the params are loaded), writes the end of text `\\z`, and its
    `\\w`, `\\d`, `\\s` and `\\b` are ASCII (`\\pL` is a letter of any script);
    https://github.com/google/re2/wiki/Syntax."""
    compiled: list[Any] = []
    for pattern in patterns:
        try:
            compiled.append(re2.compile(pattern, options=RE2_OPTIONS))
        except re2.error as exc:
            raise ValueError(_refusal(pattern, exc)) from None
    return tuple(compiled)


def _refusal(pattern: str, exc: Exception) -> str:
    """Why RE2 refused `pattern`: malformed (Python's parser says where), or syntax RE2 does not run."""
    reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
    try:
        re.compile(pattern)
    except re.error as malformed:
        return f"invalid regex {pattern!r}: {malformed}"
    return (f"regex {pattern!r} is not supported by the linear-time matcher RE2 ({reason}): it has no "
            f"backreferences or lookaround, and writes the end of text \\z")


def matches_any(url: str, patterns: tuple[str, ...]) -> bool:
    """True when any pattern matches anywhere in `url`, taken as given (`url_signals` passes it normalised)."""
    return any(compiled.search(url) for compiled in compile_patterns(patterns))


def url_signals(url: str | None, exclude_regex: tuple[str, ...] = ()) -> dict[str, bool | None]:
    """The URL-rule flags for one record's URL; all None when there is no http(s) URL to judge.

    `url_exclude_regex_matched` is False, not None, when no regex is configured: the URL was
    judged and nothing matched.
    """
    parts = _split(url) if url is not None else None
    if parts is None or parts.scheme not in WEB_SCHEMES:
        return {"url_hard_excluded": None, "url_excluded_extension": None, "url_exclude_regex_matched": None}
    regex_matched = bool(exclude_regex) and matches_any(_normalized(parts), exclude_regex)
    return {
        "url_hard_excluded": _path_is_hard_excluded(parts.path),
        "url_excluded_extension": _path_has_excluded_extension(parts.path),
        "url_exclude_regex_matched": regex_matched,
    }

# This filter's signals and rules, registered in `filters.rules.signals` and `filters.rules.reasons`.
SIGNALS: tuple[Signal, ...] = (
    Signal("url_hard_excluded", pa.bool_(), "URL path matches a hard-exclude pattern"),
    Signal("url_excluded_extension", pa.bool_(), "URL ends in an excluded file extension"),
    Signal("url_exclude_regex_matched", pa.bool_(), "URL matches one of extract.url.exclude_regex"),
)
RULES: tuple[Rule, ...] = (
    Rule("url.hard_excluded", "URL path matches a hard-exclude pattern of the URL rules (build assets, "
         "CDN, WordPress admin/API/uploads, AMP duplicates)", "url_hard_excluded", "is_true", "extract"),
    Rule("url.extension", "URL ends in an excluded extension (the URL rules: images, PDF, CSS/JS, fonts, "
         "archives)", "url_excluded_extension", "is_true", "extract"),
    Rule("url.exclude_regex", "URL matches a user pattern (extract.url.exclude_regex)",
         "url_exclude_regex_matched", "is_true", "extract"),
)


# This filter's params (the `params.yaml` group it is read from is in `pipeline/params.py`).
@dataclass(frozen=True)
class UrlParams:
    # Extra regexes (re.search over the whole URL) that reject a record: the optional
    # user patterns of the URL rules (docs/filters.md), applied after the built-in rules, on RE2.
    exclude_regex: tuple[str, ...] = ()
