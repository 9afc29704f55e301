"""trafilatura's main extractor (`trafilatura.main_extractor.extract_content`, trafilatura 2.3.1),
its page text (`html2txt`) and its jusText rescue, with their XPath selections made by
`filters.trafilatura_paths`.

Copied from trafilatura 2.3.1 (pyproject pins `trafilatura>=2.3.1,<2.4`): `extract_content`,
`_extract`, `recover_wild_text` and `prune_unwanted_sections` (`trafilatura.main_extractor`),
`html2txt` for a parsed page and `basic_cleaning` (`trafilatura.baseline`), `justext_rescue`
(`trafilatura.external`), each changed only where it names an XPath (`BODY_XPATH`,
`OVERALL_DISCARD_XPATH`, `DISCARD_IMAGE_ELEMENTS`, `TEASER_DISCARD_XPATH`,
`PRECISION_DISCARD_XPATH`, `BASIC_CLEAN_XPATH`), which here is the `trafilatura_paths` selection
of the same elements without lxml's per-element calls into Python for `re:test` (their time was
most of the main extractor's). Everything else is trafilatura's own functions and constants, its
debug logging left out. `tests/filters/test_trafilatura_extractor.py` checks the results against
trafilatura's functions on the shared corpora, `tests/filters/test_fallback.py` the whole sequence
against its `bare_extraction`; a new trafilatura version means comparing these functions with its
own.
"""

from __future__ import annotations

from copy import copy, deepcopy

from lxml.etree import Element, _Element, strip_elements, strip_tags
from trafilatura.baseline import _spaced_text
from trafilatura.external import try_justext
from trafilatura.htmlprocessing import (
    delete_by_link_density,
    link_density_test_tables,
    process_node,
    prune_unwanted_nodes,
)
from trafilatura.main_extractor import NOT_AT_THE_END, REBUILT_BLOCKS, _elem_text, handle_textelem
from trafilatura.settings import DEDUPE_SCAN_CAP, INLINE_FORMATTABLE, MIN_DUPLICATE_LENGTH, TAG_CATALOG, Extractor
from trafilatura.utils import SPACING_PROTECTED, text_chars_test, trim
from trafilatura.xml import delete_element

from filters.trafilatura_paths import (
    BODY,
    DISCARD_IMAGE,
    OVERALL_DISCARD,
    PRECISION_DISCARD,
    TEASER_DISCARD,
    basic_clean_sections,
)


def extract_content(cleaned_tree: _Element, options: Extractor) -> tuple[_Element, str]:
    """`trafilatura.main_extractor.extract_content`: the main content of a cleaned, converted tree
    (which it changes) and its text."""
    backup_tree = deepcopy(cleaned_tree)
    # source order before the main pass moves elements, the backup keeps it
    order = list(cleaned_tree.iter())

    result_body, temp_text, potential_tags = _extract(cleaned_tree, options)

    if len(result_body) == 0 or len(temp_text) < options.min_extracted_size:
        # copies of what the main pass consumed are not recovered again
        consumed: set[_Element] = {twin for elem, twin in zip(order, backup_tree.iter(), strict=True)
                                   if elem.tag == "done"}
        result_body = recover_wild_text(backup_tree, result_body, options, potential_tags, consumed)
        temp_text = " ".join(result_body.itertext()).strip()
    # drop substantial elements repeating the previous one
    previous = None
    for el in list(result_body):
        current = _elem_text(el)
        if current and current == previous and len(current) > MIN_DUPLICATE_LENGTH:
            delete_element(el, keep_tail=False)
        else:
            previous = current
    strip_elements(result_body, "done")
    strip_tags(result_body, "div")
    # a <lb> left carrying only the indentation of stripped divs loses it, but in code and pre
    for linebreak in result_body.iter("lb"):
        if (
            linebreak.tail
            and not text_chars_test(linebreak.tail)
            and not any(anc.tag in SPACING_PROTECTED for anc in linebreak.iterancestors())
        ):
            linebreak.tail = None
    return result_body, temp_text


def _extract(tree: _Element, options: Extractor) -> tuple[_Element, str, set[str]]:
    """`trafilatura.main_extractor._extract`: the first body candidate (`BODY`) that yields more
    than a lone image, pruned and converted block by block."""
    potential_tags = set(TAG_CATALOG)
    if options.tables is True:
        potential_tags.update(["table", "td", "th", "tr"])
    if options.images is True:
        potential_tags.add("graphic")
    if options.links is True:
        potential_tags.add("ref")
    result_body = Element("body")
    for expr in BODY:
        subtree = next(iter(expr(tree)), None)
        if subtree is None:
            continue
        subtree = prune_unwanted_sections(subtree, potential_tags, options)
        if len(subtree) == 0:
            continue
        # no paragraphs containing text, or not enough
        ptest = subtree.xpath("//p//text()")
        factor = 1 if options.focus == "precision" else 3
        if not ptest or len("".join(ptest)) < options.min_extracted_size * factor:
            potential_tags.add("div")

        subelems = subtree.xpath(".//*")
        # a single text run (only lb or inline elements): process the frame itself
        tags = {e.tag for e in subelems}
        if tags == {"lb"} or (subtree.tag == "div" and "div" in potential_tags and tags <= INLINE_FORMATTABLE | {"lb"}):
            subelems = [subtree]
        # the frame's own text before its first child, kept if the frame is accepted
        lead, start = None, len(result_body)
        if subelems != [subtree] and text_chars_test(subtree.text):
            lead = Element("p")
            lead.text = subtree.text
            lead = process_node(lead, options)
        for elem in subelems:
            # an element moved into result_body with an emitted ancestor is not emitted again
            if elem.getroottree().getroot() is result_body:
                continue
            # handlers may rename the element to "done", so read these first
            tag, tail = elem.tag, elem.tail
            processed_elem = handle_textelem(elem, potential_tags, options)
            if processed_elem is not None:
                result_body.append(processed_elem)
                # a copy leaves its source behind for a later, wider subtree
                if elem.getroottree().getroot() is not result_body:
                    elem.tag = "done"
            # text right after a rebuilt block is a paragraph of its own, unless already carried over
            if tag in REBUILT_BLOCKS and text_chars_test(tail) and (processed_elem is None
                                                                    or processed_elem.tail is None):
                tail_elem = Element("p")
                tail_elem.text = tail
                if process_node(tail_elem, options) is not None:
                    result_body.append(tail_elem)
        # remove trailing titles
        while len(result_body) > 0 and (result_body[-1].tag in NOT_AT_THE_END):
            delete_element(result_body[-1], keep_tail=False)
        # exit once there is real content, not just a lone image
        if sum(e.tag != "graphic" for e in result_body) > 1:
            if lead is not None:
                result_body.insert(start, lead)
            break
    temp_text = " ".join(result_body.itertext()).strip()
    return result_body, temp_text, potential_tags


def recover_wild_text(tree: _Element, result_body: _Element, options: Extractor, potential_tags: set[str],
                      consumed: set[_Element]) -> _Element:
    """`trafilatura.main_extractor.recover_wild_text`: paragraphs, code, quotes and tables (recall:
    divs, line breaks and lists too) of the whole pruned page that `result_body` lacks, added to it."""
    # a copy: the recall branch below adds to it
    potential_tags = set(potential_tags)
    search_expr = ".//code|.//p|.//quote|.//table|.//div[contains(@class, 'w3-code')]"
    if options.focus == "recall":
        potential_tags.update(["div", "lb"])
        search_expr += "|.//div|.//lb|.//list"
    # fast mode (no comparison after it) keeps teaser-class blocks
    search_tree = prune_unwanted_sections(tree, potential_tags, options, keep_teasers=options.fast)
    subelems = search_tree.xpath(search_expr)
    # skip what the main pass already took: the same text, or a longer text it is part of
    elem_texts = [_elem_text(el) for el in result_body]
    existing = "\n".join(filter(None, elem_texts))
    existing_elems = set(elem_texts)
    # elements emitted or deduped whole: their descendants are covered
    handled: set[_Element] = set()
    for subelem in subelems:
        if (consumed and subelem in consumed) or any(a in handled for a in subelem.iterancestors()):
            continue
        processed = handle_textelem(subelem, potential_tags, options)
        if processed is None:
            continue
        if processed is subelem:
            handled.add(subelem)
        text = _elem_text(processed)
        # image-only blocks have no text to compare, check their sources against the live body
        images = {img.get("src") for img in processed.iter("graphic")}
        if not text and images and images <= {g.get("src") for g in result_body.iter("graphic")}:
            continue
        # past the cap, the substring scan is skipped and `existing` stops growing
        under_cap = len(existing) <= DEDUPE_SCAN_CAP
        # a copy carrying its source tail is a fragment of a text run: no length gate
        fragment = trim(text + (processed.tail or "")) if text_chars_test(processed.tail) else ""
        if text and (
            text in existing_elems
            or (under_cap and ((len(text) > MIN_DUPLICATE_LENGTH and text in existing)
                               or (fragment and fragment in existing)))
        ):
            continue
        result_body.append(processed)
        if under_cap:
            existing += "\n" + (fragment or text)
        existing_elems.add(text)
    return result_body


def prune_unwanted_sections(tree: _Element, potential_tags: set[str], options: Extractor,
                            keep_teasers: bool = False) -> _Element:
    """`trafilatura.main_extractor.prune_unwanted_sections`: boilerplate, captions, teasers (unless
    kept) and (precision) headers, then link-dense blocks."""
    favor_precision = options.focus == "precision"
    tree = prune_unwanted_nodes(tree, OVERALL_DISCARD, with_backup=True)
    if "graphic" not in potential_tags:
        tree = prune_unwanted_nodes(tree, DISCARD_IMAGE)
    if options.focus != "recall":
        if not keep_teasers:
            tree = prune_unwanted_nodes(tree, TEASER_DISCARD)
        if favor_precision:
            tree = prune_unwanted_nodes(tree, PRECISION_DISCARD)
    # remove elements by link density, several passes
    for _ in range(2):
        tree = delete_by_link_density(tree, "div", backtracking=True, favor_precision=favor_precision)
        tree = delete_by_link_density(tree, "list", backtracking=False, favor_precision=favor_precision)
        tree = delete_by_link_density(tree, "p", backtracking=False, favor_precision=favor_precision)
    if "table" in potential_tags or favor_precision:
        # collected before deleting: removing a table mid-iteration can make iter() skip one
        boilerplate_tables = [elem for elem in tree.iter("table") if link_density_test_tables(elem) is True]
        for elem in boilerplate_tables:
            delete_element(elem, keep_tail=False)
    if favor_precision:
        # delete trailing titles
        while len(tree) > 0 and (tree[-1].tag == "head"):
            delete_element(tree[-1], keep_tail=False)
        tree = delete_by_link_density(tree, "head", backtracking=False, favor_precision=True)
        tree = delete_by_link_density(tree, "quote", backtracking=False, favor_precision=True)
    # after the link density tests, which need the refs
    strip_tags(tree, "span", *(() if "ref" in potential_tags else ("ref",)))
    return tree


def html2txt(tree: _Element) -> str:
    """`trafilatura.baseline.html2txt` of a parsed page (copied, never changed): the text of its
    body (or of itself when it has none), less what `basic_cleaning` drops."""
    tree = copy(tree)
    body = tree.find(".//body")
    if body is None:
        body = tree
    return _spaced_text(basic_cleaning(body))


def justext_rescue(tree: _Element, options: Extractor) -> tuple[_Element, str]:
    """`trafilatura.external.justext_rescue`: jusText's paragraphs of `tree` (which it changes)."""
    body = try_justext(basic_cleaning(tree), options.url, options.lang)
    return body, trim(" ".join(body.itertext()))


def basic_cleaning(tree: _Element) -> _Element:
    """`trafilatura.baseline.basic_cleaning`: asides, footers, scripts, cookie banners … deleted
    (their tails kept)."""
    for elem in basic_clean_sections(tree):
        delete_element(elem)
    return tree
