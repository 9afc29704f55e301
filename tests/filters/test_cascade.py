"""The cascade: the seed's best-of-two rule exactly, the precision retry, JSON-LD, DOM, failures."""

from __future__ import annotations

import json

import lxml.html
import pytest

from filters.extract import cascade
from filters.extract.cascade import Candidate, Candidates, run_cascade, seed_policy
from filters.text.blocks import Block
from pages import html, page, paragraphs, words


class FakeCandidates(Candidates):
    """Candidates with fixed word counts, to test policies without running extractors."""

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__(page(html("")))
        for name, count in counts.items():
            self._done[name] = Candidate(name, [Block("paragraph", words(count), 1, 0, 0)] if count else [])


@pytest.mark.parametrize("r, t, winner", [
    (50, 30, "readability"),      # both succeed, t < 1.4 r
    (50, 70, "trafilatura"),      # t == 1.4 r exactly: trafilatura
    (50, 69, "readability"),      # just under 1.4 r
    (100, 139, "readability"),
    (100, 140, "trafilatura"),
    (49, 30, "trafilatura"),      # readability failed
    (50, 29, "readability"),      # trafilatura failed
    (49, 29, "dom"),              # both failed
    (0, 0, "dom"),
])
def test_seed_policy_is_the_seed_rule(r, t, winner):
    assert seed_policy(FakeCandidates({"readability": r, "trafilatura": t, "dom": 12}))[0] == winner


def test_jsonld_first_uses_article_body_when_long_enough():
    assert cascade.jsonld_first_policy(FakeCandidates({"jsonld": 50, "readability": 300, "trafilatura": 300}))[0] \
        == "jsonld"
    assert cascade.jsonld_first_policy(FakeCandidates({"jsonld": 49, "readability": 300, "trafilatura": 300}))[0] \
        == "readability"


class BlockCandidates(Candidates):
    """Candidates with given blocks, to test the agreement policy (readability asked at any short
    block unless `min_short_blocks` and `min_short_block_chars` say otherwise)."""

    def __init__(self, trafilatura: list[str], readability: list[str], min_short_blocks: int = 1,
                 min_short_block_chars: int = 0) -> None:
        super().__init__(page(html("")), agreement_min_short_blocks=min_short_blocks,
                         agreement_min_short_block_chars=min_short_block_chars)
        for name, texts in (("trafilatura", trafilatura), ("readability", readability)):
            self._done[name] = Candidate(name, [Block("paragraph", t, len(t), 0, 0) for t in texts])


LONG = [words(60) + f" number {i}." for i in range(4)]


def test_agreement_drops_short_blocks_readability_lacks():
    c = BlockCandidates(["Share on Twitter", *LONG, "By Jane Doe, 3 May"], [*LONG, "By Jane Doe, 3 May"])
    assert cascade.agreement_policy(c)[0] == "agreement"
    assert [b.text for b in c.derived["agreement"].blocks] == [*LONG, "By Jane Doe, 3 May"]


def test_agreement_keeps_long_blocks_even_if_readability_lacks_them():
    c = BlockCandidates([*LONG, words(70)], LONG)
    assert cascade.agreement_policy(c)[0] == "trafilatura"  # nothing short to drop
    c = BlockCandidates(["Share on Twitter", *LONG, words(70)], LONG)
    assert cascade.agreement_policy(c)[0] == "agreement"
    assert len(c.derived["agreement"].blocks) == 5  # the long block readability lacks stays


class NoReadability(BlockCandidates):
    """BlockCandidates that fail the test if the policy asks for readability."""

    def get(self, name: str) -> Candidate:
        assert name != "readability", "the policy ran readability where it cannot change the outcome"
        return super().get(name)


@pytest.mark.parametrize("readability", [[], LONG[:1], LONG, ["Other text entirely " * 5]])
def test_agreement_skips_readability_when_trafilatura_has_no_short_block(readability):
    # the same winner whatever readability would have said, and readability never asked for
    blocks = [*LONG, words(70)]
    with_readability = BlockCandidates(blocks, readability)
    assert cascade.agreement_policy(NoReadability(blocks, readability))[0] == "trafilatura"
    assert cascade.agreement_policy(with_readability)[0] == "trafilatura"


def test_agreement_asks_readability_when_a_short_block_or_too_few_words():
    with pytest.raises(AssertionError, match="ran readability"):
        cascade.agreement_policy(NoReadability(["Share on Twitter", *LONG], LONG))
    with pytest.raises(AssertionError, match="ran readability"):
        cascade.agreement_policy(NoReadability([words(20)], LONG))  # trafilatura failed: readability next


SHARE = [f"Share on network {i}" for i in range(9)]


def test_by_default_readability_is_asked_from_ten_short_blocks():
    assert cascade.AGREEMENT_MIN_SHORT_BLOCKS == Candidates(page(html(""))).agreement_min_short_blocks == 10
    # nine short blocks: trafilatura's blocks as they are, readability never run
    nine = NoReadability([*SHARE, *LONG], LONG, min_short_blocks=10)
    name, reason = cascade.agreement_policy(nine)
    assert name == "trafilatura" and "readability not asked" in reason
    # ten: readability runs and the ten it does not have are dropped
    ten = BlockCandidates([*SHARE, "Print this page", *LONG], LONG, min_short_blocks=10)
    assert cascade.agreement_policy(ten)[0] == "agreement"
    assert [b.text for b in ten.derived["agreement"].blocks] == LONG
    with pytest.raises(AssertionError, match="ran readability"):  # a failed trafilatura still asks
        cascade.agreement_policy(NoReadability([words(20)], LONG, min_short_blocks=10))


def test_by_default_the_short_blocks_must_hold_500_characters():
    assert cascade.AGREEMENT_MIN_SHORT_BLOCK_CHARS == Candidates(page(html(""))).agreement_min_short_block_chars \
        == 500
    # ten short blocks of 18 characters (180 in all): short lines, not boilerplate; readability never run
    short = [*SHARE, "Print this page"]
    name, reason = cascade.agreement_policy(NoReadability([*short, *LONG], LONG, 10, 500))
    assert name == "trafilatura" and "readability not asked" in reason and "177 characters" in reason
    # ten of 55 characters (550): readability runs and drops those it does not have
    wordy = [f"Share this story on the social network number {i:02d} now!" for i in range(10)]
    assert all(len(text) < cascade.AGREEMENT_SHORT_BLOCK_CHARS for text in wordy)
    asked = BlockCandidates([*wordy, *LONG], LONG, 10, 500)
    assert cascade.agreement_policy(asked)[0] == "agreement"
    assert [b.text for b in asked.derived["agreement"].blocks] == LONG
    with pytest.raises(AssertionError, match="ran readability"):  # a failed trafilatura still asks
        cascade.agreement_policy(NoReadability([words(20)], LONG, 10, 500))


def test_the_trigger_is_a_param():
    from pipeline.params import ParamsError, params_from_dict
    assert params_from_dict({}).extract.cascade.agreement_min_short_blocks == 10
    assert params_from_dict({"extract": {"cascade": {"agreement_min_short_blocks": 1}}}) \
        .extract.cascade.agreement_min_short_blocks == 1
    with pytest.raises(ParamsError, match="agreement_min_short_blocks"):
        params_from_dict({"extract": {"cascade": {"agreement_min_short_blocks": 0}}})
    assert params_from_dict({}).extract.cascade.agreement_min_short_block_chars == 500
    assert params_from_dict({"extract": {"cascade": {"agreement_min_short_block_chars": 0}}}) \
        .extract.cascade.agreement_min_short_block_chars == 0
    with pytest.raises(ParamsError, match="agreement_min_short_block_chars"):
        params_from_dict({"extract": {"cascade": {"agreement_min_short_block_chars": -1}}})


def test_agreement_needs_a_credible_second_opinion():
    c = BlockCandidates(["Share on Twitter", *LONG], [LONG[0]])  # readability < half of trafilatura
    assert cascade.agreement_policy(c)[0] == "trafilatura" and "agreement" not in c.derived
    c = BlockCandidates(["Share", *LONG], [])
    assert cascade.agreement_policy(c)[0] == "trafilatura"


def test_agreement_never_drops_more_than_half():
    shorts = [f"tiny line {i} here" for i in range(80)]
    c = BlockCandidates([*shorts, LONG[0]], [LONG[0], *LONG[1:]])
    assert cascade.agreement_policy(c)[0] == "trafilatura"


def test_every_policy_returns_a_known_candidate():
    for policy in cascade.POLICIES.values():
        name, reason = policy(FakeCandidates({"jsonld": 0, "readability": 10, "trafilatura": 10, "dom": 5}))
        assert name in ("jsonld", "readability", "trafilatura", "dom") and reason


ARTICLE_PAGE = html(f"<nav><a href='/'>Home</a><a href='/about'>About</a></nav><article><h1>Cycling lanes</h1>"
                    f"{paragraphs(8, 45)}</article><footer><p>© 2024 Example Media</p></footer>")


def test_real_article_through_the_cascade():
    result = run_cascade(page(ARTICLE_PAGE))
    assert result.extractor in ("trafilatura", "trafilatura+readability")
    assert result.word_count >= 300 and "\n\n" in result.text
    assert "Home" not in result.text.split("\n\n")[0]
    trace = result.trace
    assert trace["cascade_trafilatura_words"] > 0
    assert "cascade_readability_words" not in trace  # trafilatura passed its checks: not asked
    assert trace["cascade_policy"] == "cascade" and trace["cascade_reason"].startswith("trafilatura ")
    assert "cascade_dom_words" not in trace  # never needed, never run
    agreement = run_cascade(page(ARTICLE_PAGE), "agreement")
    assert "cascade_readability_words" not in agreement.trace  # fewer than ten short blocks: not asked
    assert "readability not asked" in agreement.trace["cascade_reason"]
    asked = run_cascade(page(ARTICLE_PAGE), "agreement", agreement_min_short_blocks=1,
                        agreement_min_short_block_chars=0)
    assert asked.trace["cascade_readability_words"] > 0
    seed = run_cascade(page(ARTICLE_PAGE), policy="seed")
    assert seed.trace["cascade_policy"] == "seed" and seed.extractor in ("readability", "trafilatura")


def test_precision_retry_when_links_dominate(monkeypatch):
    link_heavy = Candidate("trafilatura", [Block("paragraph", words(40), 200, 100, 0)])
    precise = Candidate("trafilatura_precision", [Block("paragraph", words(35), 180, 0, 0)])
    calls = []

    def fake_run(_page, favor_precision, _fast):
        calls.append(favor_precision)
        return precise if favor_precision else link_heavy

    monkeypatch.setattr(cascade, "_run_trafilatura", fake_run)
    candidates = Candidates(page(html("")))
    assert candidates.get("trafilatura").name == "trafilatura_precision"
    assert calls == [False, True]
    assert candidates.trace["cascade_trafilatura_link_code_fraction"] == 0.5


def test_no_precision_retry_at_or_below_threshold(monkeypatch):
    calls = []

    def fake_run(_page, favor_precision, _fast):
        calls.append(favor_precision)
        return Candidate("trafilatura", [Block("paragraph", words(40), 100, 20, 0)])

    monkeypatch.setattr(cascade, "_run_trafilatura", fake_run)
    Candidates(page(html(""))).get("trafilatura")
    assert calls == [False]


@pytest.mark.parametrize("schema_type", [
    "NewsArticle", "https://schema.org/NewsArticle", "http://schema.org/NewsArticle", "schema:NewsArticle",
    ["WebPage", "https://schema.org/NewsArticle"], "LiveBlogPosting", "OpinionNewsArticle",
])
def test_jsonld_article_body_candidate(schema_type):
    # The candidate reads @type as metadata does (filters.core.vocabulary): an IRI is still an article.
    body = " ".join(["A sentence of the article body."] * 20)
    data = {"@type": schema_type, "articleBody": body}
    head = f'<script type="application/ld+json">{json.dumps(data)}</script>'
    result = run_cascade(page(html("<div id='root'></div>", head=head)), policy="jsonld_first")
    assert result.extractor == "jsonld" and result.word_count == 120


@pytest.mark.parametrize("schema_type", ["WebPage", "Product", "https://schema.org/Organization", None,
                                         "DiscussionForumPosting", "SocialMediaPosting"])
def test_jsonld_article_body_of_a_non_article_is_ignored(schema_type):
    body = " ".join(["A sentence of the article body."] * 20)
    head = f'<script type="application/ld+json">{json.dumps({"@type": schema_type, "articleBody": body})}</script>'
    assert Candidates(page(html("<div id='root'></div>", head=head))).words("jsonld") == 0


def test_failing_extractor_falls_through_and_is_recorded(monkeypatch):
    def broken(_self):
        raise RuntimeError("readability exploded")

    monkeypatch.setattr(Candidates, "_readability", broken)
    # readability asked
    result = run_cascade(page(ARTICLE_PAGE), "agreement", agreement_min_short_blocks=1,
                         agreement_min_short_block_chars=0)
    assert result.extractor in ("trafilatura", "trafilatura_precision")
    assert "readability exploded" in result.trace["cascade_errors"]
    assert result.trace["cascade_readability_words"] == 0


def test_empty_page_falls_to_dom_and_yields_nothing():
    result = run_cascade(page(html("")))
    assert result.text is None and result.word_count == 0 and result.extractor is None
    assert "DOM" in result.trace["cascade_reason"]


def test_boilerplate_removed_from_winner():
    body = f"<article><h1>Title</h1>{paragraphs(6, 50)}<p>3 hours ago</p><p>[Advertisement]</p></article>"
    result = run_cascade(page(html(body)))
    assert "3 hours ago" not in result.text and "[Advertisement]" not in result.text
    assert result.trace["boilerplate_blocks_removed_count"] >= 1


def test_extractors_leave_the_page_tree_as_it_was():
    # trafilatura copies its input; readability drops hidden elements from what it is given, so a
    # readability-first policy hands it a copy: the tree trafilatura then reads is the page's own
    hidden = "<div hidden><p>A hidden paragraph that no extractor may remove from the page.</p></div>"
    tree = page(html(hidden + f"<article>{paragraphs(6, 50)}</article>"))
    before = lxml.html.tostring(tree.tree)
    Candidates(tree).get("readability")
    assert lxml.html.tostring(tree.tree) == before
    Candidates(tree).get("trafilatura")
    assert lxml.html.tostring(tree.tree) == before


def test_readability_reads_a_copy_without_nav_and_footer():
    nav = "<nav><p>" + words(80) + " navigation</p></nav>"
    footer = "<footer><p>" + words(80) + " footer</p></footer>"
    # inside the content's own container, where readability would otherwise keep them
    tree = page(html(f"<div class='content'>{nav}{paragraphs(6, 50)}{footer}</div>")).tree
    before = lxml.html.tostring(tree)
    element = cascade.readability_element(tree)
    assert lxml.html.tostring(tree) == before  # the page's tree is untouched
    text = element.text_content()
    assert "navigation" not in text and "footer" not in text and len(text.split()) >= 250


def test_trafilatura_body_keeps_block_structure():
    body = cascade.trafilatura_body(page(ARTICLE_PAGE).tree, favor_precision=False, fast=False)
    assert body is not None and body.find(".//p") is not None
    assert cascade.trafilatura_body(page(html("")).tree, favor_precision=False, fast=False) is None


def test_readability_element_is_html_or_none():
    element = cascade.readability_element(page(ARTICLE_PAGE).tree)
    assert element is not None and len(element.text_content().split()) > 100


ONE_BLOCK = " ".join(LONG * 2)  # 500 words in one block: trafilatura's last resort, no paragraphs


def test_a_long_text_in_one_block_takes_readabilitys_paragraphs_when_they_agree():
    c = BlockCandidates([ONE_BLOCK], LONG, min_short_blocks=10)  # readability: 250 words in 4 blocks
    name, reason = cascade.agreement_policy(c)
    assert name == "readability" and "one block" in reason


@pytest.mark.parametrize("readability", [
    [" ".join(LONG)],          # one block too: no paragraphs to gain
    LONG[:1],                  # 62 words: under half of trafilatura's 500
    LONG * 5,                  # 1,250 words: more than twice, another part of the page (a facet list)
    [],                        # failed
])
def test_a_one_block_text_stays_when_readability_does_not_agree(readability):
    assert cascade.agreement_policy(BlockCandidates([ONE_BLOCK], readability, min_short_blocks=10))[0] \
        == "trafilatura"


def test_a_short_one_block_text_does_not_ask_readability():
    short = words(cascade.STRUCTURELESS_MIN_WORDS - 1)
    assert cascade.agreement_policy(NoReadability([short], LONG, min_short_blocks=10))[0] == "trafilatura"


def test_the_cascade_asks_readability_only_where_trafilatura_fails_its_checks():
    """The default policy (#69): trafilatura's text however many short blocks it has, readability
    never asked then; asked where trafilatura has too few words or one long block without paragraphs."""
    short_blocks = [*SHARE, "Share on Twitter", *LONG]  # what the agreement policy asked readability about
    assert cascade.cascade_policy(NoReadability(short_blocks, LONG))[0] == "trafilatura"
    assert cascade.cascade_policy(BlockCandidates([words(20)], LONG))[0] == "readability"  # trafilatura failed
    one_block = [" ".join(LONG)]  # trafilatura's structureless last resort: paragraphs from readability
    assert cascade.cascade_policy(BlockCandidates(one_block, LONG))[0] == "readability"
    with pytest.raises(AssertionError, match="ran readability"):
        cascade.cascade_policy(NoReadability([words(20)], LONG))


def test_the_cascade_falls_to_the_json_ld_body_then_the_dom():
    assert cascade.cascade_policy(FakeCandidates({"trafilatura": 10, "readability": 20, "jsonld": 80}))[0] == "jsonld"
    assert cascade.cascade_policy(FakeCandidates({"trafilatura": 10, "readability": 20, "jsonld": 10}))[0] == "dom"
    assert cascade.cascade_policy(FakeCandidates({"trafilatura": 40, "readability": 20, "jsonld": 80}))[0] \
        == "trafilatura"
