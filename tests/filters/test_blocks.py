"""Seed 002 blocks: boundaries in HTML and in trafilatura's XML, link/code characters, and the signals at
both sides of each of the seed's thresholds (250-char block, 75 % in large blocks, 100-char list item /
table cell, 20 % link/code)."""

from __future__ import annotations

import pytest
import trafilatura
from lxml import etree, html

from filters.text.blocks import Block, block_signals, blocks_from_element, blocks_from_text

SIGNAL_KEYS = {"text_chars", "block_count", "longest_block_chars", "link_code_char_fraction",
               "large_block_char_fraction", "short_list_table_char_fraction"}


def html_blocks(fragment: str) -> list[Block]:
    return blocks_from_element(html.fragment_fromstring(fragment, create_parent="div"))


def xml_blocks(xml: str) -> list[Block]:
    return blocks_from_element(etree.fromstring(xml))


def kinds_texts(blocks: list[Block]) -> list[tuple[str, str]]:
    return [(block.kind, block.text) for block in blocks]


def chars(n: int, letter: str = "a") -> str:
    """`n` characters of word-like text (no leading/trailing space)."""
    return ((letter * 9 + " ") * (n // 10 + 1))[:n - 1] + letter


# --- HTML boundaries --------------------------------------------------------------------------------

@pytest.mark.parametrize(("tag", "kind"), [
    ("h1", "heading"), ("h6", "heading"), ("header", "heading"), ("p", "paragraph"), ("div", "div"),
    ("section", "div"), ("article", "div"), ("main", "div"), ("blockquote", "quote"), ("pre", "code"),
])
def test_each_html_block_element_splits(tag, kind):
    blocks = html_blocks(f"<span>before</span><{tag}>inside</{tag}><span>after</span>")
    assert kinds_texts(blocks) == [("div", "before"), (kind, "inside"), ("div", "after")]


def test_body_kind_and_document_head_skipped():
    doc = html.document_fromstring("<html><head><title>Tab title</title><style>p{}</style></head>"
                                   "<body>loose text<p>para</p></body></html>")
    assert kinds_texts(blocks_from_element(doc)) == [("body", "loose text"), ("paragraph", "para")]


def test_list_items_and_table_cells_get_their_kinds():
    blocks = html_blocks("<ul><li>one</li><li>two</li></ul><dl><dt>term</dt><dd>def</dd></dl>"
                         "<table><tr><th>head</th><td>cell</td></tr></table>")
    assert kinds_texts(blocks) == [("list_item", "one"), ("list_item", "two"), ("list_item", "term"),
                                   ("list_item", "def"), ("cell", "head"), ("cell", "cell")]


def test_br_and_hr_split_but_inline_elements_do_not():
    blocks = html_blocks("<p>Read <a href='/x'>the <b>full</b> story</a> <em>now</em><br>second line</p>"
                         "<div>above<hr>below</div>")
    assert kinds_texts(blocks) == [("paragraph", "Read the full story now"), ("paragraph", "second line"),
                                   ("div", "above"), ("div", "below")]


def test_nested_div_p_yields_the_p_block_only():
    blocks = html_blocks("<div><div><p>only once</p></div></div>")
    assert kinds_texts(blocks) == [("paragraph", "only once")]


def test_bare_text_beside_block_children_is_its_own_block():
    blocks = html_blocks("<div>intro<p>para</p>outro <i>tail</i></div>")
    assert kinds_texts(blocks) == [("div", "intro"), ("paragraph", "para"), ("div", "outro tail")]


def test_whitespace_and_newlines_collapse_outside_pre():
    blocks = html_blocks("<p>\n  one\n  two\u00a0\tthree  </p><p> \u00a0 </p><p>\n</p>")
    assert kinds_texts(blocks) == [("paragraph", "one two three")]


def test_pre_lines_are_code_blocks_and_pre_code_is_one_block():
    blocks = html_blocks("<pre><code>def f():\n    return 1\n\n</code></pre>")
    assert blocks == [Block("code", "def f():", 8, 0, 8), Block("code", "return 1", 8, 0, 8)]


def test_inline_code_counts_without_splitting():
    blocks = html_blocks("<p>Run <code>ls -l</code> to list.</p><li>Use <code>pip</code></li>"
                         "<div>then <code>make</code> it</div>")
    assert blocks == [Block("paragraph", "Run ls -l to list.", 18, 0, 5), Block("list_item", "Use pip", 7, 0, 3),
                      Block("div", "then make it", 12, 0, 4)]


def test_standalone_code_in_a_container_is_a_code_block():
    blocks = html_blocks("<div>text</div><code>x = 1</code>")
    assert kinds_texts(blocks) == [("div", "text"), ("code", "x = 1")]


def test_code_after_text_in_a_container_stays_inline():
    assert html_blocks("<div>then run <code>make</code></div>") == [Block("div", "then run make", 13, 0, 4)]


def test_nothing_inside_a_code_block_splits_it_but_line_breaks():
    blocks = xml_blocks("<body><code>first <p>inner</p> <item>line</item><lb/>next</code></body>")
    assert blocks == [Block("code", "first inner line", 16, 0, 16), Block("code", "next", 4, 0, 4)]


def test_link_chars_counted():
    [block] = html_blocks("<p>See <a href='/a'>this page</a> and <a href='/b'>that</a>.</p>")
    assert (block.chars, block.link_chars, block.code_chars) == (len("See this page and that."), 13, 0)


def test_link_inside_code_and_code_inside_link_not_double_counted():
    [pre, para] = html_blocks("<pre>see <a href='/x'>http://x.io</a></pre>"
                              "<p><a href='/y'>call <code>f()</code></a></p>")
    assert (pre.chars, pre.link_chars, pre.code_chars) == (15, 0, 15)
    assert (para.chars, para.link_chars, para.code_chars) == (8, 5, 3)
    assert block_signals([pre, para])["link_code_char_fraction"] == 1.0


def test_script_style_template_noscript_ignored_but_tails_kept():
    blocks = html_blocks("<p>a<script>var x = 1;</script>b<style>p {}</style>c<!-- note -->d"
                         "<noscript>enable JS</noscript>e<template><p>t</p></template>f</p>")
    assert kinds_texts(blocks) == [("paragraph", "abcdef")]


def test_namespaced_xhtml_tags_are_recognised():
    root = etree.fromstring('<div xmlns="http://www.w3.org/1999/xhtml"><P>one</P><LI>two</LI></div>')
    assert kinds_texts(blocks_from_element(root)) == [("paragraph", "one"), ("list_item", "two")]


def test_unicode_counted_as_code_points_and_soft_hyphens_dropped():
    [block] = html_blocks("<p>Grüße aus 東京 🌸 Ver\u00adschie\u00adbung</p>")
    assert block.text == "Grüße aus 東京 🌸 Verschiebung"
    assert block.chars == 27


@pytest.mark.parametrize("invisible", ["\u00ad", "\u200b", "\ufeff"])
def test_each_invisible_character_is_dropped_wherever_it_stands(invisible: str):
    # alone in a piece (which then adds nothing), inside a word, in a link and in a tail
    blocks = html_blocks(f"<p>{invisible}<a href='x'>li{invisible}nk</a>{invisible} ta{invisible}il</p>")
    assert kinds_texts(blocks) == [("paragraph", "link tail")]
    assert blocks[0].link_chars == 4


# --- trafilatura XML --------------------------------------------------------------------------------

def test_trafilatura_xml_vocabulary():
    blocks = xml_blocks(
        '<body><head rend="h2">Title</head><p>Text <hi rend="#b">bold</hi> <ref target="x">link</ref><lb/>'
        'second</p><list rend="ul"><item>one</item><item>two</item></list>'
        '<table><row><cell>c1</cell><cell><p>c2</p></cell></row></table>'
        '<code>x = 1\ny = 2</code><quote><p>quoted para</p></quote><quote>bare quote</quote>'
        '<p>See <code>ls</code> <del>old</del><graphic src="a.png"/>.</p></body>')
    assert kinds_texts(blocks) == [
        ("heading", "Title"), ("paragraph", "Text bold link"), ("paragraph", "second"), ("list_item", "one"),
        ("list_item", "two"), ("cell", "c1"), ("paragraph", "c2"), ("code", "x = 1"), ("code", "y = 2"),
        ("paragraph", "quoted para"), ("quote", "bare quote"), ("paragraph", "See ls old."),
    ]
    assert (blocks[1].link_chars, blocks[-1].code_chars) == (4, 2)


def test_trafilatura_nested_code_is_one_block_and_newlines_are_formatting():
    blocks = xml_blocks("<body><code><code>a()\nb()\n</code></code><p>line\nwrapped</p></body>")
    assert kinds_texts(blocks) == [("code", "a()"), ("code", "b()"), ("paragraph", "line wrapped")]


ARTICLE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sourdough at home</title></head>
<body><nav><ul><li><a href="/">Home</a></li><li><a href="/recipes">Recipes</a></li></ul></nav>
<article><h1>How to keep a sourdough starter alive through the summer</h1>
<p>Keeping a sourdough starter healthy in hot weather is mostly a matter of timing. Warm kitchens speed up
fermentation, so a starter that behaved perfectly in winter can turn sour and runny within a day in July.</p>
<p>The first thing to change is the feeding ratio. Instead of equal parts starter, flour and water, try one
part starter to five parts flour and five parts water; the larger meal keeps the yeast busy for longer.
<a href="/guides/ratios">Our guide to feeding ratios</a> explains the arithmetic.</p>
<h2>Use the refrigerator wisely</h2>
<p>If you bake only at weekends, keep the jar in the refrigerator from Monday to Thursday. Take it out on
Friday morning, feed it twice, and it will be lively again by Saturday, ready for a long cold proof.</p>
<p>Finally, watch the smell. A sharp, vinegary note means it is hungry; a sweet, yoghurt-like smell means
it is thriving. Trust your nose more than the clock, and adjust the schedule to your own kitchen.</p>
</article><footer><p>&copy; 2024 The Bread Desk</p></footer></body></html>"""


def test_real_trafilatura_body_blocks():
    document = trafilatura.bare_extraction(ARTICLE, output_format="python", with_metadata=False, include_links=True,
                                           include_formatting=True, include_tables=True)
    assert isinstance(document, trafilatura.settings.Document)
    blocks = blocks_from_element(document.body)
    paragraphs = [block for block in blocks if block.kind == "paragraph"]
    assert len(paragraphs) == 4
    assert paragraphs[0].text.startswith("Keeping a sourdough starter") and paragraphs[3].text.endswith("kitchen.")
    assert all(block.chars == len(block.text) > 0 and block.text == " ".join(block.text.split()) for block in blocks)
    assert paragraphs[1].link_chars == len("Our guide to feeding ratios")
    assert ("heading", "Use the refrigerator wisely") in kinds_texts(blocks)
    signals = block_signals(blocks)
    assert signals["longest_block_chars"] > 200 and signals["short_list_table_char_fraction"] == 0.0


# --- text-only candidates -----------------------------------------------------------------------------

def test_blocks_from_text_splits_on_newlines():
    blocks = blocks_from_text("First  line\n\n   \nsecond\r\nthird ")
    assert blocks == [Block("text", "First line", 10, 0, 0), Block("text", "second", 6, 0, 0),
                      Block("text", "third", 5, 0, 0)]
    assert blocks_from_text("") == []


# --- signals at the seed's thresholds -----------------------------------------------------------------

def test_longest_block_250_vs_251():
    assert block_signals(html_blocks(f"<p>{chars(250)}</p><p>short</p>"))["longest_block_chars"] == 250
    assert block_signals(html_blocks(f"<p>{chars(251)}</p><p>short</p>"))["longest_block_chars"] == 251


def test_large_block_fraction_at_exactly_three_quarters():
    signals = block_signals(html_blocks(f"<p>{chars(300)}</p><p>{chars(100)}</p>"))
    assert signals["large_block_char_fraction"] == 0.75
    signals = block_signals(html_blocks(f"<p>{chars(299)}</p><p>{chars(101)}</p>"))
    assert signals["large_block_char_fraction"] == pytest.approx(299 / 400)


def test_large_block_means_at_least_200_chars():
    assert block_signals(html_blocks(f"<p>{chars(200)}</p>"))["large_block_char_fraction"] == 1.0
    assert block_signals(html_blocks(f"<p>{chars(199)}</p>"))["large_block_char_fraction"] == 0.0
    assert block_signals(html_blocks(f"<p>{chars(199)}</p>"), large_block_chars=150)["large_block_char_fraction"] == 1.0


def test_short_list_item_100_vs_101():
    at_limit = block_signals(html_blocks(f"<ul><li>{chars(100)}</li></ul><p>{chars(300)}</p>"))
    assert at_limit["short_list_table_char_fraction"] == 0.25
    over = block_signals(html_blocks(f"<ul><li>{chars(101)}</li></ul><p>{chars(300)}</p>"))
    assert over["short_list_table_char_fraction"] == 0.0


def test_short_table_cells_counted_and_paragraphs_not():
    signals = block_signals(html_blocks(f"<table><tr><td>{chars(50)}</td><td>{chars(50)}</td></tr></table>"
                                        f"<p>{chars(100)}</p>"))
    assert signals["short_list_table_char_fraction"] == 0.5


def test_link_code_fraction_at_twenty_percent():
    at_limit = block_signals(html_blocks(f"<p>{chars(79)} <a href='/x'>{chars(20, 'l')}</a></p>"))
    assert (at_limit["text_chars"], at_limit["link_code_char_fraction"]) == (100, 0.2)
    over = block_signals(html_blocks(f"<p>{chars(78)} <a href='/x'>{chars(21, 'l')}</a></p>"))
    assert over["link_code_char_fraction"] == 0.21
    code = block_signals(html_blocks(f"<p>{chars(80)}</p><pre>{chars(20, 'c')}</pre>"))
    assert code["link_code_char_fraction"] == 0.2


def test_signals_of_nothing_are_zero():
    for blocks in (blocks_from_element(html.fragment_fromstring("<div>  <p>\n</p><script>x</script></div>")),
                   blocks_from_text(""), []):
        assert blocks == []
        signals = block_signals(blocks)
        assert set(signals) == SIGNAL_KEYS and not any(signals.values())
        assert isinstance(signals["link_code_char_fraction"], float) and isinstance(signals["text_chars"], int)


def test_signal_types_and_counts():
    signals = block_signals(html_blocks("<p>abc</p><li>de</li>"))
    assert signals == {"text_chars": 5, "block_count": 2, "longest_block_chars": 3, "link_code_char_fraction": 0.0,
                       "large_block_char_fraction": 0.0, "short_list_table_char_fraction": 0.4}


# --- odd input never raises ---------------------------------------------------------------------------

def test_odd_input_gives_no_blocks():
    assert blocks_from_element(None) == []
    assert blocks_from_element("<p>not an element</p>") == []
    assert blocks_from_element(etree.Comment("c")) == []
    assert blocks_from_element(html.fragment_fromstring("<script>x()</script>")) == []
    assert kinds_texts(blocks_from_element(etree.ElementTree(etree.fromstring("<body><p>x</p></body>")))) == [
        ("paragraph", "x")]
    assert blocks_from_text(None) == []  # type: ignore[arg-type]


def test_deep_nesting_is_walked_without_recursion():
    root = etree.Element("body")
    node = root
    for _ in range(5000):
        node = etree.SubElement(node, "div")
    node.text = "deep"
    assert kinds_texts(blocks_from_element(root)) == [("div", "deep")]


def test_block_sizes_of_chinese_and_japanese_count_each_character_three_times() -> None:
    """A 100-character Chinese paragraph says what about 300 characters of English do: it is a large
    block, as its English translation is; Latin text is measured in code points as before."""
    from filters.text.tokens import CJK_CHAR_WIDTH, text_width

    chinese = Block("paragraph", "记者从市交通运输局获悉" * 10, 110, 0, 0)  # 110 Han characters
    japanese = Block("paragraph", "気象庁によりますと、強い風が吹く見込みです。" * 5, 110, 0, 0)
    english = Block("paragraph", "x" * 150, 150, 0, 0)
    assert text_width(chinese.text) == CJK_CHAR_WIDTH * 110 and text_width("Grüße, naïve café") == 17
    assert text_width(japanese.text) == 3 * 100 + 10  # the ideographic comma and full stop count once
    signals = block_signals([chinese, japanese, english])
    assert signals["longest_block_chars"] == 330 and signals["text_chars"] == 370
    assert signals["large_block_char_fraction"] == (330 + 310) / (330 + 310 + 150)
    assert block_signals([english])["large_block_char_fraction"] == 0.0
