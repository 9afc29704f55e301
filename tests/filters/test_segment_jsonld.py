"""Contributions a page's JSON-LD states (filters/segment/jsonld.py) and their place in page_segments."""

from __future__ import annotations

import json

from lxml import html

from filters.parse.parsed import Page
from filters.segment.jsonld import MAX_DEPTH, jsonld_units
from filters.segment.segments import page_segments


def words(n: int, word: str) -> str:
    return " ".join(f"{word}{i}" for i in range(n))


def page_with(objects: object, body: str = "<p>Loading</p>") -> Page:
    script = f"<script type='application/ld+json'>{json.dumps(objects)}</script>"
    return Page(html.fromstring(f"<html><head>{script}</head><body>{body}</body></html>"), "https://forum.example/t/1")


def test_a_forum_posting_and_its_comments_are_units_with_author_and_date():
    thread = {"@context": "https://schema.org", "@type": "DiscussionForumPosting", "headline": "Help",
              "text": words(20, "opening"), "author": {"@type": "Person", "name": "ann"},
              "datePublished": "2024-01-02T10:00:00+01:00",
              "comment": [{"@type": "Comment", "text": f"<p>{words(12, 'reply')}</p><p>second line</p>",
                           "author": {"name": "bob"}, "dateCreated": "2024-01-03"},
                          {"@type": "Comment", "text": "too short", "author": "cy"}]}
    found = jsonld_units(page_with(thread).json_ld)
    assert [(unit.kind, unit.author, unit.published) for unit in found] == \
        [("post", "ann", "2024-01-02T10:00:00+01:00"), ("comment", "bob", "2024-01-03")]
    assert found[1].text == words(12, "reply") + "\nsecond line"  # HTML in the text: blocks on lines


def test_a_qa_pages_question_and_answers_and_a_products_reviews_with_their_rating():
    qa = {"@type": "QAPage", "mainEntity": {"@type": "Question", "text": words(15, "ask"), "author": "ann",
                                            "acceptedAnswer": {"@type": "Answer", "text": words(15, "yes"),
                                                               "author": {"name": "bob"}},
                                            "suggestedAnswer": [{"@type": "Answer", "text": words(15, "no"),
                                                                 "author": "cy"}]}}
    product = {"@type": "Product", "name": "Kettle", "description": words(30, "ad"),
               "review": [{"@type": "Review", "reviewBody": words(20, "good"), "author": {"name": "dee"},
                           "reviewRating": {"@type": "Rating", "ratingValue": "4.5"}}]}
    found = jsonld_units(page_with([qa, product]).json_ld)
    assert [unit.kind for unit in found] == ["question", "answer", "answer", "review"]
    assert found[-1].rating == 4.5 and found[-1].author == "dee"
    assert all(unit.rating is None for unit in found[:-1])


def test_an_faq_and_a_critics_review_are_the_pages_own_text_not_contributions():
    faq = {"@type": "FAQPage", "mainEntity": [{"@type": "Question", "text": words(15, "ask"),
                                               "acceptedAnswer": {"@type": "Answer", "text": words(15, "yes")}}]}
    critic = {"@type": "Review", "reviewBody": words(300, "verdict"), "author": {"name": "A Critic"},
              "itemReviewed": {"@type": "VideoGame", "name": "Game"}, "reviewRating": {"ratingValue": 8}}
    assert jsonld_units(page_with([faq, critic]).json_ld) == []


def test_a_page_whose_markup_gives_no_unit_gives_its_json_ld_posts_a_single_post_too():
    posting = {"@type": "SocialMediaPosting", "articleBody": words(40, "only"), "author": "eve"}
    page = page_with(posting)
    found = page_segments(page.tree.find("body"), None, page.json_ld)
    assert [(segment.kind, segment.source, segment.author) for segment in found] == [("post", "jsonld", "eve")]
    assert page_segments(page.tree.find("body"), None, None) == []


def test_a_graph_nested_deeper_than_max_depth_is_not_followed():
    node: dict = {"@type": "Comment", "text": words(10, "deep")}
    for _ in range(MAX_DEPTH + 5):
        node = {"@type": "Comment", "text": words(10, "x") + str(id(node)), "comment": node}
    assert len(jsonld_units([node])) <= MAX_DEPTH + 2
