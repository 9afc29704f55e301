"""trafilatura's fallback rules on the cascade's readability: each rule at both sides, and the sequence
against trafilatura's own non-fast run."""

from __future__ import annotations

import random
from copy import deepcopy

import lxml.html
import pytest
import trafilatura
from lxml import etree
from trafilatura.baseline import html2txt
from trafilatura.external import try_readability
from trafilatura.htmlprocessing import prune_unwanted_nodes

from filters import fallback
from filters.blocks import blocks_from_element
from filters.fallback import Readability, accept_justext, is_unclean, prefer_readability, structurally_deficient
from pages import html, page, paragraphs, words

ARTICLE = etree.fromstring(f"<body><p>{words(30)}</p><p>{words(20)}</p></body>")
TABLES = etree.fromstring(f"<body><p>{words(10)}</p><table><row><cell>a</cell></row></table>"
                          "<table><row><cell>b</cell></row></table></body>")


def readability_of(text: str, tag: str = "p") -> Readability:
    return Readability(lxml.html.fromstring(f"<div><{tag}>{text}</{tag}></div>") if text else None)


def chars(n: int) -> str:
    return ("x" * 9 + " ") * (n // 10)


@pytest.mark.parametrize("own_chars, algo, expected", [
    (300, "", False),                    # readability found nothing
    (299, chars(300), False),            # ... or the same length (trim drops the last space)
    (601, chars(300), False),            # trafilatura's is more than twice as long
    (0, chars(300), True),               # trafilatura found nothing
    (100, chars(300), True),             # readability's is more than twice as long
    (149, chars(300), True),             # 299 characters > 2 x 149
    (150, chars(300), False),            # ... not > 2 x 150
    (100, "{" + chars(300), False),      # ... unless it is raw JSON
    (400, chars(600), False),            # well-formed trafilatura text, readability only 1.5x
])
def test_prefer_readability_by_length(own_chars, algo, expected):
    assert prefer_readability(ARTICLE, own_chars, readability_of(algo), "balanced", 250) is expected


def test_prefer_readability_when_trafilatura_is_structurally_deficient():
    longer = readability_of(chars(600))
    assert prefer_readability(TABLES, 400, longer, "balanced", 250)            # more tables than paragraphs
    assert not prefer_readability(TABLES, 400, readability_of(chars(500)), "balanced", 250)  # needs > 2 x 250
    no_paragraph = etree.fromstring("<body><head>Title</head><list><item>x</item></list></body>")
    assert prefer_readability(no_paragraph, 400, longer, "balanced", 250)
    assert not prefer_readability(ARTICLE, 400, longer, "balanced", 250)


def test_recall_focus_prefers_readability_sooner():
    assert prefer_readability(ARTICLE, 300, readability_of(chars(460)), "recall", 250)      # > 1.5 x
    assert not prefer_readability(ARTICLE, 300, readability_of(chars(460)), "balanced", 250)
    assert not prefer_readability(ARTICLE, 300, readability_of(chars(450)), "recall", 250)  # 1.5 x exactly
    # a headed article where trafilatura found no heading
    headed = Readability(lxml.html.fromstring(f"<div><h2>Part one</h2><p>{chars(320)}</p></div>"))
    assert prefer_readability(ARTICLE, 300, headed, "recall", 250)
    with_head = etree.fromstring(f"<body><head>T</head><p>{words(30)}</p></body>")
    assert not prefer_readability(with_head, 300, headed, "recall", 250)


def test_structurally_deficient():
    assert not structurally_deficient(ARTICLE)
    assert structurally_deficient(TABLES)
    assert structurally_deficient(etree.fromstring("<body><p/><p></p></body>"))  # paragraphs without text
    assert not structurally_deficient(etree.fromstring("<body><p><hi>bold</hi></p></body>"))


def test_is_unclean():
    assert not is_unclean(ARTICLE)
    assert is_unclean(lxml.html.fromstring(f"<div><p>{words(10)}</p><figure>x</figure></div>"))
    assert is_unclean(lxml.html.fromstring(f"<div><p>{words(10)}<button>Buy</button></p></div>"))


@pytest.mark.parametrize("current, justext, unclean, expected", [
    (100, 0, False, False),   # jusText found nothing
    (100, 0, True, False),
    (100, 101, False, True),  # short: must grow
    (100, 100, False, False),
    (300, 100, True, True),   # unclean: may shrink to a third
    (301, 100, True, False),
])
def test_accept_justext(current, justext, unclean, expected):
    assert accept_justext(current, justext, unclean) is expected


def run(body: str, readability_html: str | None = None) -> tuple[fallback.Result, str, int]:
    """`fallback.run` on a page, readability's output given; the text and how often readability was asked."""
    calls = []

    def readability() -> Readability:
        calls.append(1)
        return Readability(lxml.html.fromstring(readability_html) if readability_html else None)

    result = fallback.run(page(html(body)).tree, False, readability)
    text = " ".join(b.text for b in blocks_from_element(result.body)) if result.body is not None else ""
    return result, text, len(calls)


def test_own_extraction_kept_on_an_article():
    result, text, calls = run(f"<article><h1>Title</h1>{paragraphs(6, 50)}</article>", f"<div><p>{words(40)}</p></div>")
    assert result.fallback is None and len(text) > 1500 and calls == 1


def test_readability_replaces_a_short_extraction():
    result, text, _ = run(f"<article><p>{words(20)}</p></article>", f"<div>{paragraphs(8, 40)}</div>")
    assert result.fallback == "readability" and len(text) > 1500
    assert result.body.tag == "div" and result.body.find(".//p") is not None  # sanitized, still blocks


def test_justext_rescues_text_trafilatura_misses():
    body = "<div>" + "".join(f"<div class='x'>{words(30)} {i}.</div>" for i in range(8)) + "</div>"
    result, text, _ = run(body)
    assert result.fallback == "justext" and len(text) > 1000


def test_escalation_takes_justext_when_it_finds_much_more():
    result, text, _ = run(ESCALATING)
    assert result.fallback == "justext" and len(text) > 5000


def test_escalation_keeps_a_recall_retry_that_is_clearly_longer():
    result, text, _ = run(RECALL_RETRY)
    assert result.fallback is None and len(text) > 5000


def test_short_page_without_fallback_keeps_what_trafilatura_found():
    result, text, _ = run(f"<article><p>{words(20)}</p></article>")
    assert result.fallback is None and text.startswith("The committee")


def test_input_tree_is_not_changed():
    tree = page(html(f"<div id='comments'>{paragraphs(3, 30)}</div><article>{paragraphs(3, 40)}</article>")).tree
    before = etree.tostring(tree)
    fallback.run(tree, False, lambda: Readability(None))
    fallback.run(tree, True, lambda: Readability(None))
    assert etree.tostring(tree) == before


SPANS = "".join(f"<span>{words(30)} {i}.</span><br>" for i in range(30))
# trafilatura's own result (the article) is a tenth of the page's text: the escalation runs
ESCALATING = f"<article>{paragraphs(3, 30)}</article><div class='sidebar'>{SPANS}</div>"
# ... and trafilatura's recall retry finds the text in divs
RECALL_RETRY = (f"<div class='teaser'>{paragraphs(3, 30)}</div><div>"
                + "".join(f"<div>{words(30)} {i}.</div>" for i in range(30)) + "</div>")

PAGES = [
    f"<article><h1>Title</h1>{paragraphs(6, 50)}</article>",
    f"<article><p>{words(20)}</p></article><div class='sidebar'>{paragraphs(3, 30)}</div>",
    "<div>" + "".join(f"<div class='x'>{words(30)} {i}.</div>" for i in range(8)) + "</div>",
    "<table>" + "".join(f"<tr><td>{words(30)} {i}.</td></tr>" for i in range(8)) + "</table>",
    f"<p>{words(10)}</p><ul>" + "".join(f"<li>{words(40)} {i}.</li>" for i in range(6)) + "</ul>",
    f"<main><section><aside>{words(50)}</aside><figure>{words(40)}</figure><p>{words(15)}</p></section></main>",
    ESCALATING,
    RECALL_RETRY,
]


@pytest.mark.parametrize("precision", [False, True])
@pytest.mark.parametrize("body", PAGES)
def test_sequence_is_trafilaturas_given_its_readability(monkeypatch, body, precision):
    """Fed trafilatura's own readability port (on the tree it gives it), `run` returns what
    `bare_extraction` without fast mode returns: the sequence and rules are trafilatura's."""
    monkeypatch.setattr(fallback, "options_for", lambda p: trafilatura.settings.Extractor(
        output_format="xml", precision=p, comments=False, tables=True, links=True, formatting=True))
    tree = page(html(body)).tree

    def port() -> Readability:
        pruned = prune_unwanted_nodes(deepcopy(tree), trafilatura.xpaths.RAW_TREE_PRUNE_XPATH)
        pruned = prune_unwanted_nodes(pruned, trafilatura.xpaths.REMOVE_COMMENTS_AND_LISTS_XPATH)
        if precision:
            pruned = prune_unwanted_nodes(pruned, trafilatura.xpaths.OVERALL_DISCARD_XPATH)
        return Readability(try_readability(pruned))

    ours = fallback.run(tree, precision, port)
    theirs = trafilatura.bare_extraction(tree, favor_precision=precision, include_comments=False, include_tables=True,
                                         include_links=True, include_formatting=True, output_format="xml")
    assert (theirs is None) == (ours.body is None)
    if theirs is not None:
        assert " ".join(theirs.body.itertext()).split() == " ".join(ours.body.itertext()).split()


def _random_pages(count: int, seed: int) -> list[str]:
    """Minified HTML of blocks, inline tags, script/style, removed sections, odd whitespace."""
    rng = random.Random(seed)
    pieces = ["<div>", "</div>", "<p>", "</p>", "<span>", "</span>", "<b>x</b>", "<li>", "<aside>", "</aside>",
              "<footer>", "</footer>", "<script>var a=1;</script>", "<style>p{}</style>", "<br>", "<h2>", "</h2>",
              "word", "two words", " ", "\n", "\u00a0", "\u2028", "wo\u200brd", "<td>", "<div class='cookie-banner'>",
              "<svg><text>svg</text></svg>", "<a href='/'>link</a>"]
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 60))) for _ in range(count)]


@pytest.mark.parametrize("body", _random_pages(300, seed=13) + ["<div>a</div><div>b</div>", ""])
def test_page_chars_at_most_bounds_html2txt(body):
    for tree in (page(html(body)).tree, lxml.html.fragment_fromstring(body or "<div></div>", create_parent="div")):
        assert fallback.page_chars_at_most(tree) >= len(html2txt(tree))
