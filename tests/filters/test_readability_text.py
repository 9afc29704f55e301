"""filters.readability_text: readability's text without its link rewriting, block for block the
same as readability-lxml's own `Document` on pages with everything the skipped work touches."""

from __future__ import annotations

import lxml.html
import pytest
from readability import Document

from conftest import SHARED
from filters.blocks import blocks_from_element
from filters.readability_text import TextDocument
from pages import NAV, html, paragraphs

PAGES = {
    "javascript links and handlers": html(NAV + "<article><h1>Lanes</h1>" + paragraphs(6, 40)
                                          + "<p><a href='javascript:void(0)' onclick='go()'>Open the map</a> "
                                          "to see where the new lanes run, street by street.</p></article>"),
    "relative links under a base": html("<article>" + paragraphs(5, 45) + "<p>See <a href='../report.pdf'>the "
                                        "report</a> for the figures the council used.</p></article>",
                                        head="<base href='https://cdn.example.org/news/'>"),
    "protocol-relative video": html("<article>" + paragraphs(4, 50) + "<iframe src='//www.youtube.com/embed/x1'>"
                                    "</iframe>" + paragraphs(3, 30) + "</article>"),
    "relative video under a base": html("<article>" + paragraphs(4, 50) + "<iframe src='/embed/x1'></iframe>"
                                        + paragraphs(2, 30) + "</article>", head="<base href='https://vimeo.com/'>"),
    "hidden and display:none": html("<article>" + paragraphs(5, 40) + "<div hidden><p>" + "secret " * 40
                                    + "</p></div><p style='display: none'>Invisible words here.</p></article>"),
    "short page (lenient retry)": html("<div><p>Only a short note about the lanes.</p></div>"),
    # the rewritten passes: <div>s with and without block tags below them (`<picture>` starts like
    # `<p`, `<article>` does not), nested ones, odd tag names; unlikely classes and ids
    "divs as paragraphs": html("<div id='main'><div>A lane <b>opened</b> on <a href='#'>Main Street</a>.</div>"
                               "<div><span>Riders</span> <picture><img src='a.jpg'></picture></div>"
                               "<div><em>x</em><article>" + paragraphs(3, 40) + "</article></div>"
                               "<div><div><div>" + paragraphs(2, 30) + "</div></div></div>"
                               "<div><dİv>odd name</dİv><param>p-ish</param><o:p>office</o:p></div>"
                               + "<div>" + paragraphs(4, 45) + "</div></div>"),
    "unlikely candidates": html("<div class='sidebar'><p>" + "menu entry " * 30 + "</p></div>"
                                "<div id='comments' class='article-comments'>" + paragraphs(2, 30) + "</div>"
                                "<div class='footer'><pre class='comment'>code</pre></div>"
                                "<article class='main'>" + paragraphs(5, 40) + "</article>"),
}


def blocks(document_class: type, page_html: str, url: str | None) -> list[tuple[str, str, int]]:
    tree = lxml.html.document_fromstring(page_html)
    summary = document_class(tree, url=url).summary(html_partial=True)
    element = lxml.html.fromstring(summary) if summary.strip() else None
    return [(b.kind, b.text, b.link_chars) for b in blocks_from_element(element)] if element is not None else []


@pytest.mark.parametrize("url", ["https://blog.example.org/blog/cycling-lanes", None])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_same_blocks_as_readability(name, url):
    assert blocks(TextDocument, PAGES[name], url) == blocks(Document, PAGES[name], url)


def test_the_video_iframe_is_a_block_as_in_readability():
    found = blocks(TextDocument, PAGES["protocol-relative video"], "https://blog.example.org/post")
    assert any(text == "VIDEO" for _, text, _ in found)


def test_the_given_tree_loses_hidden_elements_as_with_readability():
    """Callers rely on the same side effect on the shared tree (the cascade runs it last)."""
    trees = [lxml.html.document_fromstring(PAGES["hidden and display:none"]) for _ in range(2)]
    Document(trees[0]).summary(html_partial=True)
    TextDocument(trees[1]).summary(html_partial=True)
    assert lxml.html.tostring(trees[0]) == lxml.html.tostring(trees[1])
    assert b"secret" not in lxml.html.tostring(trees[1])


def test_same_blocks_on_the_shared_corpus_pages():
    corpus = SHARED / "corpora" / "trafilatura-eval.warc.gz"
    if not corpus.exists():
        pytest.skip("../shared corpora not present")
    from filters.html import parse_html_bytes
    from pipeline.decode import decode_html
    from pipeline.readers import FileReport, read_file

    checked = 0
    for index, raw in enumerate(read_file(str(corpus), 5_000_000, FileReport(str(corpus)))):
        if index % 10 or raw.payload is None:  # every tenth page: seconds, not minutes
            continue
        decoded = decode_html(raw.payload, raw.http_content_type)
        page_html = lxml.html.tostring(parse_html_bytes(decoded.data, decoded.encoding), encoding="unicode")
        assert blocks(TextDocument, page_html, raw.url) == blocks(Document, page_html, raw.url), raw.url
        checked += 1
    assert checked >= 90


def test_cleaned_length_is_the_length_of_readabilitys_clean():
    """`_cleaned_length` counts without rewriting: the same as `len(clean(text))` on random mixes of
    letters and runs of spaces, tabs, line breaks and other whitespace, runs of 255 and more too."""
    import random

    from readability.readability import clean

    from filters.readability_text import _cleaned_length

    rng = random.Random(7)
    alphabet = [" ", "\n", "\t", "\xa0", "\r", "a", "b", "\u2028", "\x0c", "\x1c", ","]
    run_lengths = [1, 1, 1, 2, 3, 254, 255, 256, 400]
    changed = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) * (rng.choice(run_lengths) if rng.random() < 0.2 else 1)
                       for _ in range(rng.randrange(16)))
        assert _cleaned_length(text) == len(clean(text)), repr(text)
        changed += len(clean(text)) != len(text.strip())
    assert changed > 3_000


def test_scores_are_readabilitys():
    """The rewritten scoring gives every candidate readability's own score (float for float)."""
    for page_html in [*PAGES.values(), *(html(random_page_with_text(seed)) for seed in range(50))]:
        scores = []
        for document_class in (Document, TextDocument):
            document = document_class(lxml.html.document_fromstring(page_html))
            document._html(True)
            candidates = document.score_paragraphs()
            scores.append(sorted((document.html.getroottree().getpath(elem), candidate["content_score"])
                                 for elem, candidate in candidates.items()))
        assert scores[0] == scores[1]


def random_page_with_text(seed: int) -> str:
    """Nested blocks of paragraphs, links, commas and whitespace runs, for scoring."""
    import random

    rng = random.Random(seed)
    spaces = [" ", "  ", "\n   ", "\t", " \t ", "\xa0 "]

    def text() -> str:
        return "".join(rng.choice(["lane", "river,", "commute"]) + rng.choice(spaces) for _ in range(rng.randrange(40)))

    def block(depth: int) -> str:
        if depth > 3 or rng.random() < 0.3:
            tag = rng.choice(["p", "pre", "td", "blockquote", "a"])
            return f"<{tag}>{text()}<a href='#'>{text()}</a>{text()}</{tag}>"
        tag = rng.choice(["div", "section", "article", "ul", "li"])
        return f"<{tag} class='{rng.choice(['content', 'sidebar', ''])}'>" + "".join(
            block(depth + 1) for _ in range(rng.randrange(1, 4))) + f"</{tag}>"

    return "".join(block(0) for _ in range(3))


_TREE_TAGS = ["div", "span", "p", "pre", "code", "main", "article", "math", "section", "o:main"]
_FEATURES = ["", "comment", "sidebar", "footer main", "menu", "content", "header", "pager article"]


def random_page(rng, depth: int = 0) -> str:
    """A random tree of nested pre/code/main/article/math among ordinary tags, with classes and ids
    from a small pool (the same strings recur, as on real pages)."""
    if depth > 5 or rng.random() < 0.25:
        return "text "
    tag = rng.choice(_TREE_TAGS)
    attributes = "".join(f" {name}='{rng.choice(_FEATURES)}'" for name in ("class", "id") if rng.random() < 0.6)
    children = "".join(random_page(rng, depth + 1) for _ in range(rng.randrange(4)))
    return f"<{tag}{attributes}>{children}</{tag}> tail "


def random_trees(count: int):
    import random

    rng = random.Random(11)
    for _ in range(count):
        yield lxml.html.document_fromstring(html(random_page(rng) + random_page(rng)))


def test_subtree_walks_answer_as_readabilitys_xpath():
    from filters.readability_text import _holds_main_content, _inside_code

    checked = 0
    for tree in random_trees(300):
        for element in tree.iter():
            if not isinstance(element.tag, str):
                continue
            in_code = bool(element.xpath("ancestor-or-self::pre | ancestor-or-self::code"))
            holds = bool(element.xpath("descendant-or-self::main | descendant-or-self::article | "
                                       "descendant-or-self::math"))
            assert _inside_code(element) == in_code, lxml.html.tostring(element)
            assert _holds_main_content(element) == holds, lxml.html.tostring(element)
            checked += in_code + holds
    assert checked > 1000


def test_unlikely_verdict_is_readabilitys_patterns():
    """`_unlikely_candidate` (substring tests on ASCII text) says what readability's two patterns
    say, on random strings of their words' pieces in any case, with the non-ASCII letters that
    `re.IGNORECASE` pairs with ASCII ones (Kelvin sign, long s, dotted and dotless i)."""
    import random

    from readability.readability import REGEXES

    from filters.readability_text import _unlikely_candidate

    rng = random.Random(5)
    pieces = ["comment", "side", "bar", "foot", "er", "ad-break", "main", "content", "and", "ar", "ticle", "twit",
              "ter", "menu", "pager", "-", " ", "x", "\u212a", "\u017f", "\u0130", "\u0131", "\xe9"]
    unlikely = 0
    for _ in range(20_000):
        features = "".join(rng.choice(pieces) for _ in range(rng.randrange(6)))
        features = "".join(c.upper() if rng.random() < 0.3 else c for c in features)
        expected = bool(REGEXES["unlikelyCandidatesRe"].search(features)) and not (
            REGEXES["okMaybeItsACandidateRe"].search(features))
        assert _unlikely_candidate(features) == expected, repr(features)
        unlikely += expected
    assert 2_000 < unlikely < 18_000


def test_unlikely_candidates_removed_as_by_readability():
    """The verdicts kept per "class id" string and the tree walks remove what readability removes,
    on random trees where removed elements hold others with the same string."""
    removed = 0
    for tree in random_trees(300):
        before = len(list(tree.iter()))
        trees = {}
        for document_class in (Document, TextDocument):
            document = document_class(lxml.html.tostring(tree))
            document.html = lxml.html.document_fromstring(lxml.html.tostring(tree))
            document.remove_unlikely_candidates()
            trees[document_class] = lxml.html.tostring(document.html)
        assert trees[TextDocument] == trees[Document]
        removed += before - len(list(lxml.html.document_fromstring(trees[Document]).iter()))
    assert removed > 100


def test_divs_turned_into_paragraphs_as_by_readability():
    """The per-name verdicts on block tags turn the same `<div>`s into `<p>`s as readability's
    serialization test, on random nests of divs, inline tags and names that start like a block tag."""
    import random

    rng = random.Random(13)
    tags = ["div", "div", "span", "b", "a", "picture", "section", "dl", "o:p", "param", "img"]

    def nest(depth: int) -> str:
        if depth > 4 or rng.random() < 0.3:
            return rng.choice(["words ", "<br>", "<!-- note -->"])
        tag = rng.choice(tags)
        return f"<{tag}>" + "".join(nest(depth + 1) for _ in range(rng.randrange(4))) + f"</{tag}> tail "

    turned = 0
    for _ in range(300):
        page_html = html(nest(0) + nest(0))
        results = []
        for document_class in (Document, TextDocument):
            document = document_class(page_html)
            document.html = lxml.html.document_fromstring(page_html)
            document.transform_misused_divs_into_paragraphs()
            results.append(lxml.html.tostring(document.html))
        assert results[1] == results[0]
        turned += results[0].count(b"<p>")
    assert turned > 100


def random_article(rng) -> str:
    """Tables, lists and divisions of every kind readability's last pass weighs: with images, inputs
    (hidden ones too), embeds, links, commas, empty ones beside long text, call-to-action
    paragraphs, headers, forms and iframes."""
    leaves = ["<p>" + "A lane, a river, a commute. " * 3 + "</p>", "<p>Short.</p>", "<img src='a.jpg'>",
              "<input type='hidden'>", "<input type='text'>", "<embed src='x'>", "<li>item, one</li>",
              "<a href='#'>" + "link text " * 5 + "</a>", "<p>Sign up for the newsletter <a href='#'>here</a></p>",
              "<h2 class='comment'>Comments</h2>", "<h3>Heading</h3>", "<form><p>form text</p></form>",
              "<iframe src='https://www.youtube.com/embed/x'></iframe>", "<iframe src='/local'></iframe>",
              "", "<p>" + "long words without any comma at all " * 40 + "</p>",
              "<div><section><img src='b.jpg'></section></div>"]
    containers = ["div", "table", "ul", "section", "aside", "header", "footer", "main", "article", "ol"]
    features = ["", " class='content'", " class='sidebar'", " id='comments'", " class='article main'"]

    def block(depth: int) -> str:
        if depth > 3 or rng.random() < 0.35:
            return "".join(rng.choice(leaves) for _ in range(rng.randrange(1, 4)))
        tag = rng.choice(containers)
        children = "".join(block(depth + 1) for _ in range(rng.randrange(1, 5)))
        return f"<{tag}{rng.choice(features)}>{children}</{tag}>"

    return "<div id='root'>" + "".join(block(0) for _ in range(rng.randrange(1, 6))) + "</div>"


@pytest.mark.parametrize("keep_all_images", [False, True])
def test_sanitize_is_readabilitys(keep_all_images):
    """The rewritten last pass leaves the same HTML as readability's, candidates' scores and
    protected blocks included."""
    import random

    rng = random.Random(17)
    changed = 0
    for seed in range(300):
        page_html = html(random_article(rng))
        results = []
        for document_class in (Document, TextDocument):
            document = document_class(page_html)
            document.html = lxml.html.document_fromstring(page_html)
            node = document.html.get_element_by_id("root")
            rng_scores = random.Random(seed)  # the same scores for both documents
            candidates = {elem: {"content_score": rng_scores.uniform(-30, 30), "elem": elem}
                          for elem in node.iter("div", "section", "ul")}
            results.append(document.sanitize(node, candidates, keep_all_images))
        assert results[1] == results[0]
        changed += results[0] != lxml.html.tostring(lxml.html.document_fromstring(page_html), encoding="unicode")
    assert changed > 100
