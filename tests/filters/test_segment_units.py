"""Repeated units of a page (filters/segment/units.py): posts, answers with their comments, quotes
left out, an article's paragraphs never split."""

from __future__ import annotations

from lxml import html

from filters.segment.units import units


def body_of(markup: str):
    return html.fromstring(f"<html><body>{markup}</body></html>").find("body")


def words(n: int, word: str = "word") -> str:
    return " ".join(f"{word}{i}" for i in range(n))


def post(author: str, text: str, extra: str = "") -> str:
    return (f'<div class="post post-{len(text)}"><div class="author">{author}</div>'
            f'<div class="body">{extra}<p>{text}</p></div></div>')


def test_repeated_posts_are_units_with_their_own_text():
    page = body_of("<nav><a href='/'>Home</a></nav><div id='thread'>"
                   + post("ann", words(40, "alpha")) + post("bob", words(30, "beta")) + post("cy", words(20, "gamma"))
                   + "</div><footer>About us</footer>")
    found = units(page)
    assert len(found) == 3 and [unit.source for unit in found] == ["repeated"] * 3
    assert "alpha0" in found[0].text and "beta0" not in found[0].text and "gamma19" in found[2].text
    assert "About us" not in " ".join(unit.text for unit in found)


def test_a_quote_of_another_post_is_left_out_of_a_post():
    quoted = "<blockquote><cite>ann wrote:</cite>alpha quoted words here</blockquote>"
    page = body_of("<div>" + post("ann", words(40, "alpha")) + post("bob", words(30, "beta"), quoted) + "</div>")
    second = units(page)[1].text
    assert "beta0" in second and "quoted" not in second and "wrote" not in second


def test_an_answer_and_the_comments_under_it_are_units_of_their_own():
    comment = '<li itemscope itemtype="https://schema.org/Comment">{}</li>'
    page = body_of(
        f'<div itemscope itemtype="https://schema.org/Question"><p>{words(30, "question")}</p></div>'
        f'<div itemscope itemtype="https://schema.org/Answer"><p>{words(50, "answer")}</p>'
        f'<ul>{comment.format(words(8, "remark"))}{comment.format(words(6, "note"))}</ul></div>')
    found = units(page)
    assert [unit.source for unit in found] == ["microdata"] * 4
    answer = found[1].text
    assert "answer0" in answer and "remark0" not in answer and "note0" not in answer
    assert "remark0" in found[2].text


def test_an_articles_paragraphs_are_not_units():
    article = "".join(f"<p>{words(40, f'para{i}x')}</p>" for i in range(8))
    assert units(body_of(f"<article><h1>Title</h1>{article}</article>")) == []


def test_a_page_without_repeated_units_has_none():
    assert units(body_of(f"<div><p>{words(300)}</p></div><div><p>short</p></div>")) == []


def test_replies_nested_in_a_comment_are_units_of_their_own():
    def comment(kind: str, text: str, replies: str = "") -> str:
        return f'<li class="comment {kind}"><div class="body"><p>{text}</p></div><ul>{replies}</ul></li>'

    thread = comment("full", words(30, "first"), comment("oneline", words(20, "reply")))
    page = body_of(f"<ul class='thread'>{thread}{comment('full', words(25, 'second'))}</ul>")
    texts = [unit.text for unit in units(page)]
    assert len(texts) == 3
    assert "first0" in texts[0] and "reply0" not in texts[0] and "reply0" in texts[1] and "second0" in texts[2]
