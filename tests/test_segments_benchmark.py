"""The scorer of benchmarks/segments.py: recovered, merged, split and missed posts, unmatched segments, Q&A
comments counted apart, and what holds article-body text."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from segments import body_runs, dropped_in_select, holds_body_text, score_page, score_posts, tokens  # noqa: E402

from filters.segment.segments import Segment  # noqa: E402


def post(first: str, last: str, words: int = 40) -> dict:
    return {"first_words": first, "last_words": last, "words": words}


def test_each_outcome_is_counted():
    posts = [post("one two three", "four five"), post("six seven", "eight nine"), post("ten eleven", "twelve"),
             post("thirteen", "fourteen"), post("short", "post", words=10)]
    filler = " ".join(["filler"] * 40)
    units = ["One two, three! x four five.",            # the first post, alone: recovered
             "six seven ... ten eleven ... eight nine",  # the second and third's first words: merged
             "twelve",                                   # the third's end apart from its start: split
             filler]                                     # no post: unmatched (the fourth is missed)
    outcome, unmatched = score_page(units, posts)
    assert outcome == {"recovered": 1, "merged": 1, "split": 1, "missed": 1}
    assert unmatched == 1


def test_comments_on_a_qa_page_are_counted_apart_from_unmatched_segments():
    filler = " ".join(["filler"] * 40)
    found = [Segment("one two three four five", "question", None, None, 0, "microdata"),
             Segment(filler, "comment", None, None, 0, "microdata"),
             Segment(filler, "answer", None, None, 0, "microdata")]
    outcome = score_posts(found, {"kind": "qa", "posts": [post("one two", "four five")]})
    assert outcome["recovered"] == 1 and outcome["qa comments"] == 1 and outcome["unmatched"] == 1
    assert outcome["segments"] == 2  # segments of >= 30 words


def test_a_segment_holds_article_body_text_when_half_its_words_are_shared_runs_of_the_body():
    paragraph = " ".join(f"body{i}" for i in range(20))
    body = f"Title\n\n{paragraph}\n\nAnother paragraph of the story."
    runs, prepared = body_runs(body), tokens(body)
    assert holds_body_text(f"{paragraph}\nnice", prepared, runs)
    # a comment quoting one sentence of the article (a run of 12 words) among its own 30 words does not
    quoting = " ".join(f"body{i}" for i in range(12)) + "\n" + " ".join(f"mine{i}" for i in range(30))
    assert not holds_body_text(quoting, prepared, runs)
    assert not holds_body_text("Another paragraph of the story.", prepared, runs)  # shorter than BODY_LINE_WORDS


def test_chinese_and_japanese_snippets_are_compared_as_characters():
    first, last = "露營兼賞楓，好棒的生活我也想去", "看起來好豐盛喔"
    page = {"kind": "forum-thread", "language": "zh", "posts": [post(first, last, words=40)]}
    text = "露營兼賞楓， 好棒的生活\n我也想去 看起來好豐盛喔" + "字" * 30  # spaces and lines between the characters
    assert score_posts([Segment(text, "post", None, None, 0, "repeated")], page)["recovered"] == 1
    # as `\\w+` runs, the same snippets are not found: the line breaks cut the runs
    assert score_posts([Segment(text, "post", None, None, 0, "repeated")], {**page, "language": "en"})["missed"] == 1
    # a segment of 30 characters counts as a segment of >= 30 words in such a language
    assert score_posts([Segment("字" * 30, "post", None, None, 0, "repeated")], page)["segments"] == 1


def test_select_drops_body_parts_on_one_writers_pages_and_unsigned_parts_on_all_but_forums():
    part = Segment("text", "post", None, None, 0, "repeated", body_part=True, unsigned_part=False)
    unsigned = Segment("text", "post", None, None, 0, "repeated", body_part=False, unsigned_part=True)
    assert dropped_in_select(part, "article") and not dropped_in_select(part, "forum")
    assert not dropped_in_select(part, "listing")  # a list of items: its text is many writers'
    assert dropped_in_select(unsigned, "listing") and not dropped_in_select(unsigned, "forum")


def test_a_few_characters_of_another_post_inside_an_answer_do_not_make_it_merged():
    answer = post("先来严肃回答问题说谢谢有错吗", "那要看你说的谢谢是什么", words=40)
    short = post("要说。", "要说。", words=3)
    page = {"kind": "qa", "language": "zh", "posts": [answer, short]}
    text = "先来严肃回答问题——说谢谢有错吗？我觉得要说。" + "字" * 30 + "那要看你说的谢谢是什么"
    assert score_posts([Segment(text, "answer", None, None, 0, "microdata")], page)["recovered"] == 1
    longer = post("先来严肃回答问题说谢谢有", "那要看你说的谢谢是什么", words=40)  # eight characters and more: a post
    page = {"kind": "qa", "language": "zh", "posts": [answer, longer]}
    assert score_posts([Segment(text, "answer", None, None, 0, "microdata")], page)["merged"] == 2
