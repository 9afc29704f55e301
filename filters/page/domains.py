"""Registered domains: which site a host belongs to, by the Public Suffix List.

A "site" is the registered domain of RFC 6265 §5.3 / the HTML "schemelessly same site" test: the
host's public suffix (https://publicsuffix.org/list/) plus one label. `news.bbc.co.uk` and
`www.bbc.co.uk` are one site, `bbc.co.uk`; `city.kawasaki.jp` is a site of its own because
`*.kawasaki.jp` is a wildcard rule with the exception `!city.kawasaki.jp`.

The list comes from the `publicsuffixlist` package, which bundles a copy (its version string ends
in the list's date, `PUBLIC_SUFFIX_LIST_VERSION`); `PublicSuffixList()` with no source reads that
file and nothing is ever fetched. A newer package can move a host to another site, so a dataset
split by site should record the version it was made with. The guess this replaces ("the last two
labels, or three under a short second level") disagreed with the list on 411 of the 9 291 hosts
in the shared corpora: it split `blogs.taz.de` from `taz.de` and `abo.nzz.ch` from `nzz.ch`,
joined every `*.blogspot.com` author, and read `203.192.6.89` as `192.6.89`.

Pure: the only state is the list, built once, and a memo of the last 16 384 hosts.

Decisions:

* **Private suffixes count** (the list's PRIVATE section: `github.io`, `myshopify.com`,
  `blogspot.com`, `s3.amazonaws.com`, ...): `alice.github.io` and `bob.github.io` are two
  authors, `shop.myshopify.com` and `other.myshopify.com` two shops, as browsers treat them.
* **A host that is itself a public suffix** (`co.uk`, `github.io`, `localhost`) has no registered
  domain; it is its own site, so it never merges with the sites under it.
* **IP addresses** (v4, v6 with or without brackets) are their own site, in canonical form
  (`[::FFFF:1.2.3.4]` and `::ffff:102:304` are one; full-width digits are mapped first): the
  list's rules say nothing about them, and `1.2.3.4` would otherwise be read as the domain `3.4`.
* **IDN**: Unicode hosts are turned into their ASCII (`xn--`) form, IDNA 2008 with UTS #46
  mapping (the `idna` package, as browsers do: `straße.de` is `xn--strae-oqa.de`, not
  `strasse.de`), falling back to Python's IDNA 2003 codec for what IDNA 2008 refuses (symbols,
  `_`), so `bücher.de` and `xn--bcher-kva.de` are one site. Results are lower-case ASCII.
* Case and trailing dots do not matter; `www.` is only a label (the list decides: `www.ck` is a
  registered domain under `*.ck`); unknown top-level domains (`.internal`) count as public
  suffixes of one label.

Cost (measured on the development machine): importing takes 8 ms; building the list 50-100 ms,
paid once per process on the first call, not at import; a lookup 3-4 µs (a Unicode host about
40 µs, in the `idna` package), a repeated host (the page's own, on every link) 0.2 µs from the
memo. `filters/page/product.py` asks about 170 times a page (8 900 distinct hosts over the 1 059 pages
of the shared corpora): no measurable change in its time, 9.0 ms a page before and after.
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
    """The site of `host`: its registered domain, lower-case ASCII (see the module docstring).

    `host` is a host name as `urlsplit(url).hostname` gives it (no port, no userinfo). None for
    None, an empty host, one with an empty label (`a..b`, `.example.com`) and one longer than DNS
    allows. A host that is a public suffix is returned as it is; an IP address in canonical form.
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
