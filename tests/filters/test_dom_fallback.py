"""Seed 000 §5: priority selectors with the validation chain, density scoring, 55 % rule, body."""

from __future__ import annotations

import lxml.html

from filters.extract.dom_fallback import PRIORITY_SELECTORS, dom_heuristic, passes_validation_chain
from pages import paragraphs, words


def tree_of(body: str):
    return lxml.html.document_fromstring(f"<html><body>{body}</body></html>")


ARTICLE = f"<h1>Title</h1><time datetime='2024-01-01'>1 Jan</time>{paragraphs(4, 40)}"


def test_first_priority_selector_passing_the_chain_wins():
    tree = tree_of(f"<div class='post-content'>{ARTICLE}</div><main>{ARTICLE}</main>")
    result = dom_heuristic(tree)
    assert result.step == "selector:main"  # main comes before .post-content in the seed's order


def test_selector_failing_the_chain_is_skipped():
    short_article = "<article><p>Only a teaser of twelve words here, with nothing more to read today.</p></article>"
    tree = tree_of(short_article + f"<div id='content'>{ARTICLE}</div>")
    assert dom_heuristic(tree).step == "selector:#content"


def test_validation_chain_each_stage():
    good = lxml.html.fragment_fromstring(f"<div>{ARTICLE}</div>")
    assert passes_validation_chain(good)
    two_paragraphs = lxml.html.fragment_fromstring(f"<div><h1>T</h1>{paragraphs(2, 60)}</div>")
    assert not passes_validation_chain(two_paragraphs)
    no_indicator = lxml.html.fragment_fromstring(f"<div>{paragraphs(4, 40)}</div>")
    assert not passes_validation_chain(no_indicator)
    linky = lxml.html.fragment_fromstring(
        f"<div><h1>T</h1>{paragraphs(3, 10)}" + "".join(f"<p><a href='/{i}'>{words(12)}</a></p>" for i in range(4))
        + "</div>")
    assert not passes_validation_chain(linky)
    tiny = lxml.html.fragment_fromstring("<div><h1>T</h1><p>a</p><p>b</p><p>c</p></div>")
    assert not passes_validation_chain(tiny)


def test_decompose_removes_boilerplate_before_selection():
    tree = tree_of(f"<main><aside class='sidebar'>{words(300)}</aside>{ARTICLE}</main>")
    result = dom_heuristic(tree)
    assert "sidebar" not in lxml.html.tostring(result.element, encoding="unicode")
    assert tree.find(".//aside") is not None  # the caller's tree is not touched


def test_density_winner_when_it_dominates():
    body = f"<div class='x'>{paragraphs(6, 50)}</div><div class='y'><p>{words(20)}</p></div>"
    result = dom_heuristic(tree_of(body))
    assert result.step == "density" and result.element.get("class") == "x"


def test_body_when_no_element_dominates():
    body = "".join(f"<section><h2>Part {i}</h2>{paragraphs(2, 40)}</section>" for i in range(3))
    result = dom_heuristic(tree_of(body))
    assert result.step == "body" and result.element.tag == "body"


def test_body_when_nothing_has_ten_words():
    result = dom_heuristic(tree_of("<div><span>just a few words</span></div>"))
    assert result.step == "body"


def test_selectors_are_the_seeds():
    assert PRIORITY_SELECTORS[:4] == ("article", "main", '[role="main"]', '[itemprop="articleBody"]')
    assert len(PRIORITY_SELECTORS) == 19 and PRIORITY_SELECTORS[-1] == ".single-content"
