"""filters.trafilatura_paths: each selection the same elements, in the same order, as the
trafilatura XPath it stands for, on random trees built from the expressions' own words and on
every page of the shared corpora."""

from __future__ import annotations

import hashlib
import random
import re
from copy import copy

import lxml.html
import pytest
from lxml import etree
from trafilatura import xpaths
from trafilatura.htmlprocessing import convert_tags, tree_cleaning
from trafilatura.settings import BASIC_CLEAN_XPATH

from filters import trafilatura_paths as paths
from filters.fallback import options_for

# (our list, trafilatura's list, whether trafilatura only reads the first element selected)
LISTS = [
    (paths.RAW_TREE_PRUNE, xpaths.RAW_TREE_PRUNE_XPATH, False),
    (paths.REMOVE_COMMENTS, xpaths.REMOVE_COMMENTS_XPATH, False),
    (paths.REMOVE_COMMENTS_AND_LISTS, xpaths.REMOVE_COMMENTS_AND_LISTS_XPATH, False),
    (paths.BODY, xpaths.BODY_XPATH, True),
    (paths.OVERALL_DISCARD, xpaths.OVERALL_DISCARD_XPATH, False),
    (paths.DISCARD_IMAGE, xpaths.DISCARD_IMAGE_ELEMENTS, False),
    (paths.TEASER_DISCARD, xpaths.TEASER_DISCARD_XPATH, False),
    (paths.PRECISION_DISCARD, xpaths.PRECISION_DISCARD_XPATH, False),
    ([paths.basic_clean_sections], [BASIC_CLEAN_XPATH], False),
]
PAIRS = {ours.__name__: (ours, theirs, first_only)
         for our_list, their_list, first_only in LISTS for ours, theirs in zip(our_list, their_list, strict=True)}
# The selections the tree walk before the main extractor uses (on the raw page); the others run
# on the cleaned and converted tree (`list`, `item` … instead of `ul`, `li`).
RAW_TREE_SELECTIONS = {s.__name__ for s in [*paths.RAW_TREE_PRUNE, *paths.REMOVE_COMMENTS_AND_LISTS,
                                              paths.basic_clean_sections]}

# sha256 of each mirrored expression's source as trafilatura 2.3.1 has it: a change in trafilatura
# fails here first, and the selection must be compared with the new expression.
SOURCES = {
    "appended_article_containers": "01e7c660fd6406f29932819d2dbd7530e2f3bdac11dde83565e977e391303444",
    "elementor_share_buttons": "3c7afe92279543d5530365aa7b921c6e5b51243033e5622cae1dc85e08976f87",
    "comment_sections": "5d97216ca15d05582de538174e876b27626b7a166810320152081c7e26bb5ca2",
    "comment_sections_and_lists": "9cc18d34e6e2d258172b5df02bc44e578c95ef709b8e06722846c7a410c3a46f",
    "article_body": "caaa561ceca17064773e97bf7c610f55e6c6a64a2477328c060642912d489b3b",
    "first_article": "dffd8931d1ae80603f90a76c740f97399048e73bf0329f23058d4f753fb749c6",
    "story": "6c9b5e1fdc092943ebdd87206a2e8a8b4c4666497fb00e6661d2a519d00f37f9",
    "main_content": "10a7ceacc0ff8cdfd8c58a575b5197b5d07ba24000f072101735478c2c585978",
    "main": "95f15d1c1b6d4052b99a29f7e30be7aad583e8048a1d3f76c2ae8e176d211717",
    "boilerplate_blocks": "a837e58a1b1ea116ce1dada53d856dec093fe9f64b37dc503698e30f96a87dd3",
    "hidden_and_reply_elements": "c1d5b70b8cd03783545d6b715c69062ae6967c222b2d8f4e2399762362d426c0",
    "caption_blocks": "cb1ab981e44913f706048bad10e9f027314ffccb36c56ffc66c8ff5e1e340c58",
    "teaser_blocks": "ebb02f066626551dbb0222a6cb631691f6ccacf0477c1381263f112b0bc9cdfa",
    "headers": "be67925fffa9fcb273d6d6f6969ce1bf8b68c0f4ad1cd6d6d2e800e343947b6d",
    "basic_clean_sections": "db6c25acd08aef99afbf1be38c751d8c7cf7132256d1a013d1d2e4e4fe86651f",
    "bottom_and_link_blocks": "53d31ea1df47920acee695b26b87b1ce36f16913686e547edc2ae0ba6efab5f7",
}


def selected(name: str, tree: etree._Element) -> tuple[list, list]:
    """(ours, trafilatura's) selection on `tree`; trafilatura's cut to its first element where
    trafilatura reads no more."""
    ours, theirs, first_only = PAIRS[name]
    expected = theirs(tree)
    return ours(tree), expected[:1] if first_only else expected


def test_every_expression_is_mirrored_as_written():
    assert set(PAIRS) == set(SOURCES)
    for name, (_, theirs, _) in PAIRS.items():
        assert hashlib.sha256(theirs.path.encode()).hexdigest() == SOURCES[name], name


# --- random trees

TAGS = ["div", "item", "list", "p", "section", "span", "article", "main", "aside", "details", "ol", "ul", "header",
        "h1", "a", "li", "b", "footer", "script", "style", "svg", "template", "fencedframe"]
ATTRIBUTES = ["id", "class", "role", "style", "aria-hidden", "itemprop", "data-component",
              "data-lp-replacement-content", "href"]
SEPARATORS = ["", "", "-", "_", " ", " ", "__", "\t", "\n", "\u00a0"]


def _fragments() -> list[str]:
    """The words of every mirrored expression's quoted strings, and each regex alternative with its
    syntax taken out ('bread-?crumb' -> 'bread-crumb', '(?:^| )ad-' -> ' ad-')."""
    found = set()
    for _, theirs, _ in PAIRS.values():
        for literal in re.findall(r"'([^']*)'", theirs.path):
            found.add(literal)
            found.update(re.findall(r"[A-Za-z0-9_:]+", literal))
            for alternative in literal.split("|"):
                found.add(re.sub(r"\(\?:|\(\?!\w+\)|\\s|[()^$?\\]", "", alternative).replace("[-_]", "-"))
    return sorted(found - {""})


FRAGMENTS = _fragments()
CASES = [str, str, str, str.lower, str.upper, str.capitalize, str.swapcase]


def _value(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return ""
    parts = [rng.choice(FRAGMENTS)]
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        parts += [rng.choice(SEPARATORS), rng.choice(FRAGMENTS + ["commentary", "post", "x"])]
    value = "".join(parts)
    if rng.random() < 0.2:
        value = rng.choice(SEPARATORS + ["x"]) + value
    if rng.random() < 0.2:
        value += rng.choice(SEPARATORS + ["x"])
    return rng.choice(CASES)(value)


def _grow(parent: etree._Element, rng: random.Random, depth: int) -> None:
    for _ in range(rng.randint(0, 4 if depth < 4 else 0)):
        roll = rng.random()
        if roll < 0.06:
            parent.append(etree.Comment("comment"))
            continue
        if roll < 0.09:
            parent.append(etree.ProcessingInstruction("pi", 'id="hidden" class="main"'))
            continue
        child = etree.SubElement(parent, rng.choice(TAGS))
        for name in rng.sample(ATTRIBUTES, rng.choice([0, 1, 2, 2, 3, 4])):  # random attribute order
            child.set(name, _value(rng))
        child.text = rng.choice(["", "text"])
        _grow(child, rng, depth + 1)


def random_tree(seed: int) -> etree._Element:
    rng = random.Random(seed)
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    if rng.random() < 0.5:
        body.set("class", _value(rng))
    _grow(body, rng, 0)
    return root


RANDOM_TREES = [random_tree(seed) for seed in range(1500)]


def contexts(tree: etree._Element, seed: int) -> list[etree._Element]:
    """The root, the body and two elements at random: the selections start below them (a subtree
    of a matching tag must not select itself)."""
    elements = list(tree.iter(*TAGS))
    return [tree, tree[0], *random.Random(seed).sample(elements, min(2, len(elements)))]


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_same_elements_as_trafilaturas_xpath_on_random_trees(name):
    selecting, tried = 0, 0
    for seed, tree in enumerate(RANDOM_TREES):
        for context in contexts(tree, seed):
            ours, expected = selected(name, context)
            assert ours == expected, (name, etree.tostring(context))
            selecting += bool(expected)
            tried += 1
    # the trees exercise the expression: it selects something in some and nothing in others
    assert 0 < selecting < tried


def test_random_trees_have_both_attribute_orders_and_comments():
    elements = [e for tree in RANDOM_TREES for e in tree.iter(etree.Element)]
    orders = {tuple(n for n in e.attrib if n in ("id", "class")) for e in elements}
    assert {("id", "class"), ("class", "id")} <= orders
    assert any(isinstance(e, etree._Comment) for tree in RANDOM_TREES for e in tree.iter())


@pytest.mark.parametrize("markup, name, selects", [
    # @id|@class is the one of the two that comes first in the element's attributes
    ("<div id='x' class='cookie-notice'></div>", "boilerplate_blocks", False),
    ("<div class='cookie-notice' id='x'></div>", "boilerplate_blocks", True),
    ("<div id='cookie-notice' class='x'></div>", "boilerplate_blocks", True),
    ("<div style='x' id='hidden'></div>", "hidden_and_reply_elements", False),
    ("<div id='hidden' style='x'></div>", "hidden_and_reply_elements", True),
    ("<p class='reply-form' id='x'></p>", "hidden_and_reply_elements", True),
    ("<p id='x' class='reply-form'></p>", "hidden_and_reply_elements", False),
    # case: 'i' flag, translate() of single letters
    ("<div class='FullText'></div>", "story", True),
    ("<div role='NAVIGATION'></div>", "boilerplate_blocks", False),
    ("<div role='Navigation'></div>", "boilerplate_blocks", True),
    ("<div id='TeaSer'></div>", "teaser_blocks", False),
    ("<div id='Teaser'></div>", "teaser_blocks", True),
    ("<div class='Main-Content'></div>", "main_content", True),
    ("<div class='Page-Content'></div>", "main_content", True),
    # an attribute present but empty is there (data-lp-replacement-content) and is '' (the others)
    ("<div data-lp-replacement-content=''></div>", "boilerplate_blocks", True),
    ("<div class=''></div>", "boilerplate_blocks", False),
    # the comment lists: ol/ul only by a comment id or class, not Disqus's
    ("<ul id='disqus_thread'></ul>", "comment_sections_and_lists", False),
    ("<div id='disqus_thread'></div>", "comment_sections_and_lists", True),
    ("<ul class='comment-list'></ul>", "comment_sections_and_lists", True),
    ("<ul id='commentary'></ul>", "comment_sections_and_lists", False),
    # infinite scroll containing an h1 stays, unless it is Zox News's
    ("<div class='infinite-scroll'><h1>t</h1></div>", "appended_article_containers", False),
    ("<div class='infinite-scroll'><p>t</p></div>", "appended_article_containers", True),
    ("<div id='mvp-post-add-box'><h1>t</h1></div>", "appended_article_containers", True),
    # \s is any white space (Python's, Unicode's)
    ("<div class='page\tbottom\nx'></div>", "bottom_and_link_blocks", True),
    ("<div id='a\u00a0link\u2028'></div>", "bottom_and_link_blocks", True),
    ("<div class='see-link\tx'></div>", "bottom_and_link_blocks", False),
    ("<div class='x' id='footer'></div>", "basic_clean_sections", False),
    ("<div id='footer' class='x'></div>", "basic_clean_sections", True),
    ("<p id='Notice__CookieX'></p>", "basic_clean_sections", True),
    # the union's first in document order
    ("<main><div class='main-col'></div></main>", "main", True),
])
def test_hand_written_cases(markup, name, selects):
    tree = lxml.html.fromstring(f"<html><body>{markup}</body></html>")
    ours, expected = selected(name, tree)
    assert ours == expected
    assert bool(expected) is selects


def test_main_is_the_first_in_document_order_of_the_union():
    tree = lxml.html.fromstring("<html><body><div id='main-a'><main>x</main></div><main>y</main></body></html>")
    assert paths.main(tree) == [tree.find(".//div")] == xpaths.BODY_XPATH[4](tree)[:1]
    tree = lxml.html.fromstring("<html><body><main><div id='main-a'>x</div></main></body></html>")
    assert paths.main(tree) == [tree.find(".//main")] == xpaths.BODY_XPATH[4](tree)[:1]


# --- the shared corpora

def corpus_trees(path) -> list[tuple[etree._Element, etree._Element]]:
    """Every page of a WARC as the pipeline parses it, and as trafilatura's cleaning and tag
    conversion leave it for the main extractor."""
    from filters.html import parse_html_bytes
    from pipeline.decode import decode_html
    from pipeline.readers import FileReport, read_file

    options = options_for(False)
    trees = []
    for raw in read_file(str(path), 5_000_000, FileReport(str(path))):
        if raw.payload is None:
            continue
        decoded = decode_html(raw.payload, raw.http_content_type)
        tree = parse_html_bytes(decoded.data, decoded.encoding)
        if tree is not None:
            trees.append((tree, convert_tags(tree_cleaning(copy(tree), options), options, None)))
    return trees


@pytest.mark.parametrize("corpus, pages", [("trafilatura-eval.warc.gz", 980), ("product-pages.warc.gz", 60)])
def test_same_elements_as_trafilaturas_xpath_on_the_shared_corpora(shared_corpora, corpus, pages):
    trees = corpus_trees(shared_corpora / corpus)
    assert len(trees) >= pages
    for name in sorted(PAIRS):
        for index, (raw, converted) in enumerate(trees):
            tree = raw if name in RAW_TREE_SELECTIONS else converted
            ours, expected = selected(name, tree)
            assert ours == expected, (corpus, name, index)


def test_no_pattern_matches_the_empty_string():
    """The walks go past elements without attributes: every attribute of theirs is '', and no
    expression selects an element on empty strings alone as long as no pattern matches ''."""
    patterns = [value for value in vars(paths).values() if isinstance(value, re.Pattern)]
    assert len(patterns) >= 15
    for pattern in patterns:
        assert pattern.search("") is None, pattern.pattern
