"""Registered domains by the Public Suffix List (filters/page/domains.py): the cases a "last two labels"
guess gets wrong, private suffixes, wildcard and exception rules, IPs and IDN."""

from __future__ import annotations

import socket

import pytest
from publicsuffixlist import PublicSuffixList

from filters.page.domains import registered_domain, same_site


@pytest.mark.parametrize("host, site", [
    ("example.com", "example.com"),
    ("www.example.com", "example.com"),
    ("a.b.c.example.com", "example.com"),
    ("a.b.co.uk", "b.co.uk"),
    ("news.bbc.co.uk", "bbc.co.uk"),
    ("example.com.au", "example.com.au"),      # three labels under a two-level ccTLD suffix
    ("www.example.com.au", "example.com.au"),
    ("news.abc.de", "abc.de"),                 # a short second label is not a suffix under .de
    ("sub.example.co", "example.co"),
    ("x.github.io", "x.github.io"),            # private section: each github.io user is a site
    ("shop.myshopify.com", "shop.myshopify.com"),
    ("bucket.s3.amazonaws.com", "bucket.s3.amazonaws.com"),
    ("foo.example.internal", "example.internal"),  # unknown TLD: a public suffix of one label
])
def test_registered_domain(host, site):
    assert registered_domain(host) == site


@pytest.mark.parametrize("host, site", [
    ("www.city.kawasaki.jp", "city.kawasaki.jp"),  # `!city.kawasaki.jp`: an exception to the wildcard
    ("foo.kawasaki.jp", "foo.kawasaki.jp"),        # `*.kawasaki.jp`: foo.kawasaki.jp is a suffix itself
    ("a.foo.kawasaki.jp", "a.foo.kawasaki.jp"),
    ("www.ck", "www.ck"),                          # `*.ck` with `!www.ck`: `www.` is not always noise
    ("a.www.ck", "www.ck"),
])
def test_wildcard_and_exception_rules(host, site):
    assert registered_domain(host) == site


@pytest.mark.parametrize("host", ["co.uk", "github.io", "com.au", "kawasaki.jp", "localhost", "com"])
def test_a_public_suffix_is_its_own_site(host):
    assert registered_domain(host) == host


@pytest.mark.parametrize("host, site", [
    ("WWW.Example.COM", "example.com"),
    ("www.example.com.", "example.com"),  # fully qualified form
    (" example.com ", "example.com"),
    ("XN--BCHER-KVA.de", "xn--bcher-kva.de"),
    ("www.Bücher.de", "xn--bcher-kva.de"),
    ("пример.рф", "xn--e1afmkfd.xn--p1ai"),
    ("straße.de", "xn--strae-oqa.de"),       # IDNA 2008 keeps ß, as browsers do (not `strasse.de`)
    ("ＥＸＡＭＰＬＥ.com", "example.com"),     # full-width letters map to ASCII (UTS #46)
    ("例え。テスト", "xn--r8jz45g.xn--zckzah"),  # the ideographic full stop is a dot
    ("☃.net", "xn--n3h.net"),                # refused by IDNA 2008; Python's IDNA 2003 codec takes it
    ("a_b.example.com", "example.com"),
])
def test_case_dots_and_idn(host, site):
    assert registered_domain(host) == site


@pytest.mark.parametrize("host, site", [
    ("1.2.3.4", "1.2.3.4"),                  # not the "domain" 3.4
    ("192.168.0.1", "192.168.0.1"),
    ("[2001:DB8::1]", "2001:db8::1"),
    ("2001:0db8:0000::0001", "2001:db8::1"),
    ("::FFFF:1.2.3.4", "::ffff:102:304"),
])
def test_ip_addresses_are_their_own_site(host, site):
    assert registered_domain(host) == site


@pytest.mark.parametrize("host", [None, "", " ", ".", "a..b", ".example.com"])
def test_no_site(host):
    assert registered_domain(host) is None


def test_longest_dns_name_has_a_site_a_longer_one_none():
    longest = ".".join(["a" * 63] * 3 + ["b" * 57, "com"])  # 253 characters
    assert registered_domain(longest) == "b" * 57 + ".com"
    assert registered_domain(longest + ".") == "b" * 57 + ".com"
    assert registered_domain("é" * 1_000_000 + ".com") is None  # at once: never handed to the `idna` package


@pytest.mark.parametrize("a, b", [
    ("a.b.co.uk", "c.b.co.uk"),
    ("www.example.com", "shop.example.com"),
    ("example.com", "EXAMPLE.com."),
    ("bücher.de", "xn--bcher-kva.de"),
    ("www.city.kawasaki.jp", "city.kawasaki.jp"),
    ("co.uk", "co.uk"),
])
def test_same_site(a, b):
    assert same_site(a, b)


@pytest.mark.parametrize("a, b", [
    ("x.github.io", "y.github.io"),
    ("shop.myshopify.com", "other.myshopify.com"),
    ("bbc.co.uk", "co.uk"),
    ("a.co.uk", "b.co.uk"),
    ("example.com.au", "other.com.au"),
    ("foo.kawasaki.jp", "bar.kawasaki.jp"),
    ("1.2.3.4", "1.2.3.5"),
    ("3.4", "1.2.3.4"),
    ("example.com", "example.org"),
    (None, None),
    ("a..b", "a..b"),
    ("example.com", None),
])
def test_not_same_site(a, b):
    assert not same_site(a, b)


def test_the_bundled_list_is_read_without_the_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the Public Suffix List must not be fetched")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    assert PublicSuffixList().privatesuffix("a.b.co.uk") == "b.co.uk"
