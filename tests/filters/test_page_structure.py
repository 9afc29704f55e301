"""Structural counts for the page-type model (filters/page/page_structure.py)."""

from __future__ import annotations

import json

from filters.page.page_structure import SIGNALS, structure_signals
from pages import html, page, words


def test_counts_of_a_shop_like_page():
    ld = json.dumps({"@type": ["Product", "https://schema.org/Offer"], "name": "Kettle"})
    body = ("<nav><a href='/a'>Home</a><a href='/b'>Shop</a></nav>"
            "<form action='/cart'><input name='qty'><select><option>1</option></select><button>Add</button></form>"
            "<ul><li>one</li><li>two</li><li>three</li></ul><img src='k.jpg'><h2>Details</h2><h3>Size</h3>"
            f"<table><tr><td>{words(10)}</td></tr></table><aside>x</aside><iframe src='v'></iframe>")
    signals = structure_signals(page(html(body, head=f"<script type='application/ld+json'>{ld}</script>")))
    assert signals["structure_form_count"] == 1
    assert signals["structure_input_count"] == 2
    assert signals["structure_button_count"] == 1
    assert signals["structure_list_item_count"] == 3
    assert signals["structure_image_count"] == 1
    assert signals["structure_heading_count"] == 2
    assert signals["structure_table_count"] == 1
    assert signals["structure_nav_count"] == signals["structure_aside_count"] == signals["structure_iframe_count"] == 1
    assert signals["structure_article_element_count"] == signals["structure_time_element_count"] == 0
    assert signals["structure_link_count"] == 2
    assert signals["structure_schema_types"] == "offer,product"


def test_link_word_fraction_separates_link_lists_from_prose():
    links = "".join(f"<a href='/p/{i}'>Story number {i}</a> " for i in range(30))
    link_list = structure_signals(page(html(f"<div>{links}</div>")))
    prose = structure_signals(page(html(f"<article><time>2024</time><p>{words(300)} <a href='/x'>one link</a>"
                                        "</p></article>")))
    assert link_list["structure_link_word_fraction"] > 0.9
    assert prose["structure_link_word_fraction"] < 0.02
    assert prose["structure_article_element_count"] == prose["structure_time_element_count"] == 1


def test_an_empty_page_has_every_signal():
    signals = structure_signals(page(html("")))
    assert set(signals) == {signal.name for signal in SIGNALS}
    assert signals["structure_link_word_fraction"] == 0.0 and signals["structure_schema_types"] is None
