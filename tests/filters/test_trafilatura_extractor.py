"""filters.trafilatura_extractor: the same results as trafilatura's own `extract_content` (and the
same tree left behind), `html2txt` and `justext_rescue` on the pages of the shared corpora."""

from __future__ import annotations

from copy import copy, deepcopy
from functools import cache

import pytest
from lxml import etree
from trafilatura.baseline import html2txt as trafilaturas_html2txt
from trafilatura.external import justext_rescue as trafilaturas_justext_rescue
from trafilatura.htmlprocessing import convert_tags, tree_cleaning
from trafilatura.main_extractor import extract_content as trafilaturas_extract_content

from filters.fallback import options_for
from filters.trafilatura_extractor import extract_content, html2txt, justext_rescue


def options(focus: str, fast: bool):
    chosen = copy(options_for(focus == "precision"))
    chosen.focus, chosen.fast = focus, fast
    return chosen


@cache  # parsed once for the three focuses (never changed: each run works on a copy)
def corpus_pages(path) -> list[etree._Element]:
    from filters.html import parse_html_bytes
    from pipeline.decode import decode_html
    from pipeline.readers import FileReport, read_file

    trees = []
    for raw in read_file(str(path), 5_000_000, FileReport(str(path))):
        if raw.payload is not None:
            decoded = decode_html(raw.payload, raw.http_content_type)
            tree = parse_html_bytes(decoded.data, decoded.encoding)
            if tree is not None:
                trees.append(tree)
    return trees


# the cascade's first run (balanced, fast mode) on every page, the others on every fourth; not in
# fast mode, the recovery of wild text drops teasers as the main pass does
@pytest.mark.parametrize("focus, fast, every", [("balanced", True, 1), ("precision", True, 4), ("recall", True, 4),
                                               ("balanced", False, 4)])
@pytest.mark.parametrize("corpus", ["trafilatura-eval.warc.gz", "product-pages.warc.gz"])
def test_same_result_as_trafilaturas_extract_content(shared_corpora, corpus, focus, fast, every):
    chosen = options(focus, fast)
    pages = corpus_pages(shared_corpora / corpus)[::every]
    assert len(pages) >= 15
    for index, page in enumerate(pages):
        cleaned = convert_tags(tree_cleaning(copy(page), chosen), chosen, None)
        ours_tree, theirs_tree = deepcopy(cleaned), deepcopy(cleaned)
        ours, theirs = extract_content(ours_tree, chosen), trafilaturas_extract_content(theirs_tree, chosen)
        assert ours[1] == theirs[1], (corpus, index)
        assert etree.tostring(ours[0]) == etree.tostring(theirs[0]), (corpus, index)
        assert etree.tostring(ours_tree) == etree.tostring(theirs_tree), (corpus, index)


@pytest.mark.parametrize("corpus", ["trafilatura-eval.warc.gz", "product-pages.warc.gz"])
def test_same_page_text_and_justext_as_trafilaturas(shared_corpora, corpus):
    """html2txt on every fifth page and on its body alone (an element without a <body> below it),
    jusText on every tenth (the selection it differs by is tested on every page in
    test_trafilatura_paths)."""
    chosen = options("balanced", True)
    for index, page in enumerate(corpus_pages(shared_corpora / corpus)[::5]):
        before = etree.tostring(page)
        assert html2txt(page) == trafilaturas_html2txt(page), (corpus, index)
        body = page.find(".//body")
        if body is not None:
            assert html2txt(body) == trafilaturas_html2txt(body), (corpus, index)
        assert etree.tostring(page) == before
        if index % 2 == 0:
            ours, theirs = justext_rescue(deepcopy(page), chosen), trafilaturas_justext_rescue(deepcopy(page), chosen)
            assert ours[1] == theirs[1], (corpus, index)
            assert etree.tostring(ours[0]) == etree.tostring(theirs[0]), (corpus, index)
