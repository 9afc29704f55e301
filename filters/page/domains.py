"""Registered domains: which site a host belongs to, by the Public Suffix List.

A "site" is the registered domain of RFC 6265 §5.3 / the HTML "schemelessly same site" test: the host's public
suffix (https://publicsuffix.org/list/) plus one label. `news.bbc.co.uk` and `www.bbc.co.uk` are one site,
`bbc.co.uk`; `city.kawasaki.jp` is a site of its own (`*.kawasaki.jp` with the exception `!city.kawasaki.jp`).
Input: a host name; output (`registered_domain`): its site in lower-case ASCII, or None (`same_site` compares
two). The list is the copy the `publicsuffixlist` package bundles (`PUBLIC_SUFFIX_LIST_VERSION` ends in its
date): nothing is fetched, and a newer package can move a host to another site, so a dataset split by site
should record the version. Pure: the only state is the list, built once on the first call, and a memo of the
last 16,384 hosts. Why the list, and what it costs: docs/decisions.md.
"""

from __future__ import annotations

import functools
import ipaddress

import idna
import publicsuffixlist
from publicsuffixlist import PublicSuffixList

PUBLIC_SUFFIX_LIST_VERSION: str = publicsuffixlist.__version__
# RFC 1035 §2.3.4: 253 characters, and a trailing dot; a Unicode host is no longer than its ASCII
# form. The bound also keeps hostile links cheap (the `idna` package takes seconds on a megabyte
# host) and out of the memo.
MAX_HOST_CHARS = 254


@functools.cache
def _public_suffix_list() -> PublicSuffixList:
    # No `source`: the package's bundled file. Private suffixes are kept (only_icann=False).
    return PublicSuffixList(accept_unknown=True, only_icann=False)


def _ip_site(host: str) -> str | None:
    """The canonical form of an IP literal, or None when `host` is not one."""
    # An IPv4 address ends in a digit, an IPv6 one has colons; no top-level domain does either, and
    # a failing `ip_address` costs more than the whole lookup.
    if not (host[-1].isdigit() or ":" in host):
        return None
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]")).compressed
    except ValueError:
        return None


def _ascii_host(host: str) -> str:
    if host.isascii():
        return host.lower()
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        pass
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host.lower()  # a label over 63 characters: no ASCII form, keep it as written


def registered_domain(host: str | None) -> str | None:
    """The site of `host`: its registered domain, lower-case ASCII.

    `host` is a host name as `urlsplit(url).hostname` gives it (no port, no userinfo). None for None, an empty
    host, one with an empty label (`a..b`, `.example.com`) and one longer than DNS allows. Our readings:
    * Private suffixes count (the list's PRIVATE section: `github.io`, `myshopify.com`, `blogspot.com`,
      `s3.amazonaws.com`, ...): `alice.github.io` and `bob.github.io` are two sites, as browsers treat them.
    * A host that is itself a public suffix (`co.uk`, `github.io`, `localhost`) is its own site, returned as it
      is, so it never merges with the sites under it.
    * An IP address (v4, v6 with or without brackets) is its own site, in canonical form (`[::FFFF:1.2.3.4]` and
      `::ffff:102:304` are one; full-width digits are mapped first): `1.2.3.4` is not the domain `3.4`.
    * A Unicode host is turned into its ASCII (`xn--`) form by IDNA 2008 with UTS #46 mapping (the `idna`
      package, as browsers do: `straße.de` is `xn--strae-oqa.de`, not `strasse.de`), falling back to Python's
      IDNA 2003 codec for what IDNA 2008 refuses (symbols, `_`), so `bücher.de` and `xn--bcher-kva.de` are one.
    * Case and trailing dots do not matter; `www.` is only a label (the list decides: `www.ck` is a registered
      domain under `*.ck`); an unknown top-level domain (`.internal`) is a public suffix of one label.
    """
    if not host or len(host) > MAX_HOST_CHARS:
        return None
    return _registered_domain(host)


@functools.lru_cache(maxsize=16384)
def _registered_domain(host: str) -> str | None:
    host = _ascii_host(host.strip().rstrip("."))
    if not host:
        return None
    ip = _ip_site(host)
    if ip is not None:
        return ip
    psl = _public_suffix_list()
    site = psl.privatesuffix(host)
    if site is not None:
        return site
    # Nothing above the public suffix: the host is one itself (`co.uk`), or it is invalid (`a..b`).
    return host if psl.is_public(host) else None


def same_site(host: str | None, other: str | None) -> bool:
    """True when both hosts have a site and it is the same one (`a.b.co.uk` and `c.b.co.uk`)."""
    site = registered_domain(host)
    return site is not None and site == registered_domain(other)
