"""Seed 004 boilerplate filters, each against its false positives."""

from __future__ import annotations

import re

import pytest

from filters.extract.boilerplate import body_blocks, boilerplate_kind, remove_boilerplate
from filters.text.blocks import Block


def block(text: str, link: bool = False) -> Block:
    return Block("paragraph", text, len(text), len(text) if link else 0, 0)


@pytest.mark.parametrize("text", ["5 minutes ago", "Updated 2 hours ago", "an hour ago", "Yesterday", "just now"])
def test_relative_timestamps_removed(text):
    assert boilerplate_kind(block(text)) == "relative_time"


@pytest.mark.parametrize("text", [
    "Two years ago we moved to the coast, and the town has changed a lot since then.",
    "Ago is a word that rarely starts a sentence.",
    "5 minutes ago the lights went out across the whole district and did not come back.",
])
def test_sentences_mentioning_time_kept(text):
    assert boilerplate_kind(block(text)) is None


@pytest.mark.parametrize("text", ["© 2024 Example Media", "Copyright 2023 The Daily Herald. All rights reserved.",
                                  "(c) Example Corp", "All rights reserved."])
def test_copyright_lines_removed(text):
    assert boilerplate_kind(block(text)) == "copyright"


@pytest.mark.parametrize("text", [
    "Copyright law protects original works of authorship, and the 1976 act changed how long that protection lasts.",
    "The court ruled on the copyright dispute last week.",
])
def test_prose_about_copyright_kept(text):
    assert boilerplate_kind(block(text)) is None


@pytest.mark.parametrize("text", ["[Advertisement]", "[Photo: Jane Doe / Example]", "[1]"])
def test_bracket_annotations_removed(text):
    assert boilerplate_kind(block(text)) == "bracket_annotation"


@pytest.mark.parametrize("text", ["[Editor's note] The council later reversed its decision.", "See [1] and [2]."])
def test_text_with_brackets_kept(text):
    assert boilerplate_kind(block(text)) is None


def test_all_caps_link_removed_only_when_both():
    assert boilerplate_kind(block("CLICK HERE FOR MORE DEALS", link=True)) == "all_caps_link"
    assert boilerplate_kind(block("CLICK HERE FOR MORE DEALS", link=False)) is None  # caps alone
    assert boilerplate_kind(block("Read the full report here", link=True)) is None  # link alone
    assert boilerplate_kind(block("NASA", link=False)) is None


def test_long_blocks_never_removed():
    long = "© 2024 " + "word " * 40
    assert boilerplate_kind(block(long)) is None


def test_remove_boilerplate_counts_per_filter():
    kept, removed = remove_boilerplate([block("Real paragraph of text."), block("3 days ago"), block("[Ad]")])
    assert [b.text for b in kept] == ["Real paragraph of text."]
    assert removed == {"relative_time": 1, "bracket_annotation": 1}


def heading(text: str) -> Block:
    return Block("heading", text, len(text), 0, 0)


@pytest.mark.parametrize("text, kind", [
    ("Advertisement", "advertisement"), ("ADVERTISEMENT", "advertisement"), ("Anzeige", "advertisement"),
    ("Story continues below advertisement", "advertisement"), ("Advertisement - Scroll to continue", "advertisement"),
    ("Photo: Jane Doe/Reuters", "credit"), ("(Photo by John Roe/Getty Images)", "credit"),
    ("Foto: dpa", "credit"), ("Image credit: NASA/JPL", "credit"), ("Bild: Stadtarchiv", "credit"),
    ("By Jane Doe", "byline"), ("By JANE DOE and John Roe", "byline"), ("Von Anna Schmidt und Max Meier", "byline"),
    ("Par Jean Dupont | 12.03.2024", "byline"), ("By Maria de la Cruz, 14:05", "byline"),
    ("Share this article", "share_prompt"), ("Share on Facebook", "share_prompt"),
    ("Follow us on Instagram", "share_prompt"),
    ("Facebook Twitter LinkedIn Email", "share_prompt"), ("Artikel teilen", "share_prompt"),
    ("Sign up for our free newsletter and get the week's best stories.", "newsletter_prompt"),
    ("Newsletter abonnieren", "newsletter_prompt"),
])
def test_short_non_body_blocks_removed(text, kind):
    assert boilerplate_kind(block(text)) == kind


@pytest.mark.parametrize("text", [
    "By the time the ferry arrived, the harbour was already full of boats.",  # a sentence
    "By Land and Sea",  # as a paragraph: a lower-case word after 'By'? no, title-case; see heading test
    "Advertising revenue fell by a fifth last year, the company said.",
    "The photo shows the old pier before the storm of 1987 took its last section.",
    "Sharing is how the cooperative survives: every member lends tools to the others.",
    "Substack lets writers get paid for their newsletters, and many now earn more than in print.",
    "Facebook and Twitter were both fined last year.",
])
def test_prose_that_mentions_the_same_words_kept(text):
    if text == "By Land and Sea":
        assert boilerplate_kind(heading(text)) is None  # a title-case heading is not a byline
        return
    assert boilerplate_kind(block(text)) is None


def test_related_headlines_list_removed_with_its_heading_but_not_what_follows():
    blocks = [
        block("The council voted on Tuesday to reopen the footpath after repairs costing £40,000 were finished."),
        heading("Related articles"),
        block("Bridge closes for six weeks of repairs", link=True),
        block("Volunteers clear the towpath", link=True),
        block("The path will be open from dawn to dusk, the council said, with the lights switched on in winter."),
    ]
    kept, removed = remove_boilerplate(blocks)
    assert [b.text[:20] for b in kept] == ["The council voted on", "The path will be ope"]
    assert removed == {"related_links": 3}


def test_read_more_link_block_removed_only_when_it_is_a_link():
    link_text = "Read more: Bridge closes for six weeks of repairs"
    assert boilerplate_kind(Block("paragraph", link_text, len(link_text), len(link_text) - 11, 0)) == "related_links"
    assert boilerplate_kind(block(link_text)) is None  # plain text after "Read more:" is a sentence of the story


def test_body_blocks_drop_the_repeated_headline_only_at_the_start():
    headline = "Council reopens riverside footpath after repairs"
    body = [heading(headline), block("By Jane Doe"), block("The council voted on Tuesday. " * 10),
            heading(headline)]
    result = body_blocks(body, [f"{headline} | The Daily Herald", "The Daily Herald"])
    assert [b.text for b in result] == [b.text for b in body[1:]]  # the later repeat stays
    assert body_blocks(body, []) == body
    assert body_blocks([block("Council reopens riverside footpath after repairs, says mayor.")], [headline])[0].text


def test_body_blocks_match_headlines_despite_case_quotes_and_spacing():
    result = body_blocks([heading("“Storm Ciarán” hits  the coast"), block("Text " * 60)],
                         ['"Storm Ciarán" Hits the Coast'])
    assert len(result) == 1


@pytest.mark.parametrize("text", ["Related articles", "Read more:", "Editors’ Recommendations:", "Lesen Sie auch",
                                  "À lire aussi", "Most popular", "You might also like"])
def test_related_headings_in_several_forms(text):
    kept, removed = remove_boilerplate([heading(text), block("A headline of another story", link=True)])
    assert kept == [] and removed == {"related_links": 2}


def test_related_heading_followed_by_prose_keeps_the_prose():
    prose_block = block("The council said the path would reopen in spring, after the survey of the old bridge.")
    kept, _ = remove_boilerplate([heading("Read more"), prose_block])
    assert kept == [prose_block]


def kind_block(text: str, kind: str) -> Block:
    return Block(kind, text, len(text), 0, 0)


PARAGRAPH = ("The council voted on Tuesday to keep the harbour footbridge open through the winter, after "
             "residents collected more than two thousand signatures against the planned closure.")
QUOTE = "more than two thousand signatures against the planned closure"


def test_a_paragraph_printed_twice_keeps_its_first_copy():
    blocks = [kind_block(PARAGRAPH, "paragraph"), kind_block("Second paragraph " * 5, "paragraph"),
              kind_block("  " + PARAGRAPH.upper() + " ", "div")]
    kept, removed = remove_boilerplate(blocks)
    assert [b.text for b in kept] == [blocks[0].text, blocks[1].text]
    assert removed == {"repeated_block": 1}


def test_a_pull_quote_inside_a_longer_paragraph_goes_and_the_paragraph_stays():
    blocks = [kind_block(QUOTE, "quote"), kind_block(PARAGRAPH, "paragraph")]
    kept, removed = remove_boilerplate(blocks)
    assert [b.text for b in kept] == [PARAGRAPH]
    assert removed == {"repeated_block": 1}


@pytest.mark.parametrize("kind", ["list_item", "cell", "heading"])
def test_structure_that_a_paragraph_also_names_stays(kind):
    blocks = [kind_block(PARAGRAPH, "paragraph"), kind_block(QUOTE, kind)]
    assert remove_boilerplate(blocks) == (blocks, {})
    exact = [kind_block(QUOTE, kind), kind_block(QUOTE, kind)]
    assert remove_boilerplate(exact) == (exact[:1], {"repeated_block": 1})  # an exact copy still goes


TEASER_SIE = ("Wer bisher noch nichts von Marie Kondo gehört hat, ist entweder sehr ordentlich oder hat vor "
              "lauter Unordnung nichts mitbekommen. Die japanische Autorin coacht in ihrer Serie Menschen beim "
              "Ausmisten und Aufräumen. Welche ihrer Tricks Sie kennen müssen, erfahren Sie hier!")
TEASER_DU = TEASER_SIE.replace("Sie kennen müssen, erfahren Sie", "du kennen musst, erfährst du")


def test_a_near_copy_of_a_paragraph_goes():
    """The same teaser twice, once addressing "Sie" and once "du": 31 of its 37 word 5-grams repeat."""
    blocks = [kind_block(TEASER_SIE, "paragraph"), kind_block(TEASER_DU, "paragraph"),
              kind_block(PARAGRAPH, "paragraph")]
    kept, removed = remove_boilerplate(blocks)
    assert [b.text for b in kept] == [TEASER_SIE, PARAGRAPH] and removed == {"repeated_block": 1}


def test_a_paragraph_that_shares_one_sentence_with_another_stays():
    """A lead and the first paragraph often open with the same sentence; the rest differs."""
    first = PARAGRAPH + " The vote was close."
    second = PARAGRAPH + (" Work on the new lighting will start in March, paid for by the port authority and two"
                          " local firms, and the old railings will be replaced in the spring.")
    blocks = [kind_block(first, "paragraph"), kind_block(second, "paragraph")]
    assert remove_boilerplate(blocks) == (blocks, {})
    items = [kind_block(TEASER_SIE, "list_item"), kind_block(TEASER_DU, "list_item")]
    assert remove_boilerplate(items) == (items, {})  # list items only go as exact copies


def test_short_repeats_are_labels_and_stay():
    blocks = [kind_block("Summary of the findings", "paragraph"), kind_block(PARAGRAPH, "paragraph"),
              kind_block("Summary of the findings", "paragraph")]
    assert remove_boilerplate(blocks) == (blocks, {})


def test_a_block_that_repeats_itself_inside_is_not_a_copy():
    sentence = "We walked along the harbour wall until the rain began to fall. "
    blocks = [kind_block(sentence * 3, "paragraph"),
              kind_block("Another paragraph that stands alone here.", "paragraph")]
    assert remove_boilerplate(blocks) == (blocks, {})


def test_on_real_pages_a_removed_copy_always_leaves_its_text_behind(shared_corpora):
    """Over real pages of two corpora (2010s news and blogs in several languages, 2025 pages of seven
    types), every block removed as a repeat has its text (case-folded, whitespace collapsed) still in
    a block that stays: the filter drops copies, never the last copy of anything."""
    from filters.extract.boilerplate import repeated_blocks
    from filters.extract.cascade import trafilatura_body
    from filters.parse.html import parse_html_bytes
    from filters.text.blocks import blocks_from_element
    from pipeline.io.decode import decode_html
    from pipeline.io.readers import FileReport, read_file

    def key(block: Block) -> str:  # its words in order, case-folded (punctuation is not text a reader loses)
        return " ".join(re.findall(r"\w+", block.text.casefold()))

    def grams(block: Block) -> set[tuple[str, ...]]:
        found = re.findall(r"\w+", block.text.casefold())
        return {tuple(found[i:i + 5]) for i in range(len(found) - 4)}

    pages = removed_total = 0
    for corpus in ("trafilatura-eval.warc.gz", "wcxb-dev.warc.gz"):
        path = str(shared_corpora / corpus)
        for index, raw in enumerate(read_file(path, 5_000_000, FileReport(path))):
            if index % 8 or not raw.payload or b"<html" not in raw.payload[:5000].lower():
                continue  # every eighth record: about 290 pages
            decoded = decode_html(raw.payload, raw.http_content_type)
            tree = parse_html_bytes(decoded.data, decoded.encoding)
            body = trafilatura_body(tree, False, False) if tree is not None else None
            if body is None:
                continue
            blocks = blocks_from_element(body)
            removed: dict[str, int] = {}
            kept = repeated_blocks(blocks, removed)
            pages += 1
            removed_total += removed.get("repeated_block", 0)
            assert len(blocks) - len(kept) == removed.get("repeated_block", 0)
            kept_text = "\x00".join(key(block) for block in kept)
            kept_grams = set().union(*(grams(block) for block in kept))
            kept_ids = {id(block) for block in kept}
            for block in blocks:
                if id(block) not in kept_ids:  # its text, or 80 % of its word 5-grams (a near copy), stay
                    assert key(block) in kept_text or len(grams(block) & kept_grams) >= 0.8 * len(grams(block)), \
                        (raw.url, block.text[:80])
    assert pages > 200 and removed_total > 0  # real pages do repeat blocks
