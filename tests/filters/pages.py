"""Small hand-written pages for the filter tests (realistic shapes, invented text)."""

from __future__ import annotations

import random

import lxml.html
import numpy as np

from filters.parse.parsed import Page

SENTENCE = ("The committee met on Tuesday to review the new cycling lanes, and residents described how the "
            "changes had shortened their morning commute across the river. ")


def words(n: int) -> str:
    base = SENTENCE.split()
    return " ".join(base[i % len(base)] for i in range(n))


def paragraphs(count: int, words_each: int) -> str:
    """`count` different paragraphs of `words_each` words (extractors drop repeated paragraphs)."""
    base = SENTENCE.split()
    out = []
    for i in range(count):
        rng = random.Random(i)
        out.append("<p>" + " ".join(rng.choice(base) for _ in range(words_each)) + ".</p>")
    return "".join(out)


def page(html: str, url: str | None = "https://blog.example.org/blog/cycling-lanes") -> Page:
    return Page(lxml.html.document_fromstring(html), url)


def html(body: str, head: str = "", lang: str | None = None) -> str:
    lang_attr = f' lang="{lang}"' if lang else ""
    return f"<!doctype html><html{lang_attr}><head><title>T</title>{head}</head><body>{body}</body></html>"


NAV = "<nav>" + "".join(f"<a href='/section/{i}'>Section {i}</a>" for i in range(12)) + "</nav>"
FOOTER = "<footer><p>Copyright 2024 Example Media. All rights reserved across every edition.</p></footer>"
JSON_LD_POST = ('<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting",'
                '"headline":"Cycling lanes","author":{"@type":"Person","name":"Ada Byron"},'
                '"datePublished":"2024-05-01T08:00:00Z"}</script>')
OG_ARTICLE = '<meta property="og:type" content="article"><meta property="og:title" content="Cycling lanes">'


def _vocabulary(size: int = 3000) -> list[str]:
    rng = np.random.default_rng(0)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    return ["".join(rng.choice(letters, size=rng.integers(2, 10))) for _ in range(size)]


VOCABULARY = _vocabulary()


def random_text(n_words: int, seed: int) -> str:
    """Words drawn at random from a fixed invented vocabulary: unrelated texts share words, not runs."""
    rng = np.random.default_rng(seed)
    return " ".join(VOCABULARY[i] for i in rng.integers(0, len(VOCABULARY), n_words))
