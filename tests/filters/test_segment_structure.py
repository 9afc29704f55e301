"""Units found by structure that names no software (filters/segment/units.py, segments.py): numbered ids
of any prefix, class words naming a contribution, rows that alternate classes, a post laid out as a run of
table rows, a reply signed inside a comment, a date line in plain text; hand-written pages."""

from __future__ import annotations

from lxml import etree, html

from filters.segment.segments import page_segments
from filters.segment.units import alternating, content_root, numbered_id, post_key, units


def body_of(markup: str):
    return html.fromstring(f"<html><body>{markup}</body></html>").find("body")


def words(n: int, word: str = "word") -> str:
    return " ".join(f"{word}{i}" for i in range(n))


def test_an_id_numbering_a_row_of_any_prefix_marks_a_post_and_short_numbers_do_not():
    assert numbered_id("m", "217308") and numbered_id("post-resp-", "142058978")
    assert not numbered_id("section-", "2") and not numbered_id("c", "18")  # a page's sections, a CMS's blocks
    assert not numbered_id("", "12345") and not numbered_id("x", "123abc") and not numbered_id("a.b", "1234")
    assert post_key(html.fragment_fromstring("<div id='reply-block-48213'></div>")) == "#reply-block-"


def test_a_class_word_whose_last_part_names_a_contribution_marks_a_post():
    for classes, key in (("top-level-comment", ".comment"), ("sub-comment x", ".comment"), ("reply", ".reply"),
                         ("forum-reply x", ".reply"), ("post bg2", ".post")):
        assert post_key(html.fragment_fromstring(f"<div class='{classes}'></div>")) == key, classes
    for classes in ("comment-body", "post-text", "comments", "blog-post", "replies"):
        assert post_key(html.fragment_fromstring(f"<div class='{classes}'></div>")) is None, classes


def test_nested_replies_marked_by_numbered_ids_are_units_of_their_own():
    def reply(number: int, name: str, text: str, nested: str = "") -> str:
        return (f"<div class='entry' id='resp-{number}'><div class='head'><a href='/user/{name}'>{name}</a>"
                f"<time datetime='2019-11-1{number % 10}'>day</time></div><div class='text'><p>{text}</p></div>"
                f"{nested}</div>")
    inner = reply(1003, "cy", words(30, "third"))
    page = body_of("<h1>Topic</h1><div class='list'>" + reply(1001, "ann", words(30, "first"), inner)
                   + reply(1002, "bob", words(30, "second")) + "</div>")
    found = page_segments(page)
    assert [(segment.author, segment.text) for segment in found] == [
        ("ann", words(30, "first")), ("cy", words(30, "third")), ("bob", words(30, "second"))]


def test_rows_that_alternate_classes_are_one_group():
    assert alternating("rowodd") and alternating("roweven") and alternating("post-alt") and alternating("even")
    assert not alternating("seven") and not alternating("oddity")
    row = ("<div class='blockpost {0}'><h2>#{1} 2024-08-03 10:5{1}</h2><div class='postleft'><strong>{2}</strong>"
           "</div><div class='postright'><p>{3}</p></div></div>")
    page = body_of("<div id='brdmain'>" + "".join(row.format("rowodd" if n % 2 else "roweven", n, name,
                                                              words(40, f"said{n}x"))
                                                   for n, name in enumerate(("ann", "bob", "cy", "dee"), 1)) + "</div>")
    assert len(units(page)) == 4


def test_a_post_laid_out_as_a_run_of_table_rows_is_one_unit():
    """A header row with the writer, the date and the post's number in its id, then the body's row and a
    row of controls: each run of rows is a unit; the page's tree is left as it was."""
    post = ("<tr id='m{0}'><td rowspan='3'><p><a href='index.php?user_profile={0}'>{1}</a></p>"
            "<p>19.11.2019, 16:3{2}</p></td><td><strong>Subject of the thread</strong></td></tr>"
            "<tr><td class='message'>{3}</td></tr>"
            "<tr><td><a href='index.php?refer={0}'>Antworten</a></td></tr>")
    texts = [words(40, f"text{n}x") for n in range(3)]
    page = body_of("<table id='thread'>" + "".join(post.format(217300 + n, name, n, text)
                                                   for n, (name, text) in enumerate(zip(("ann", "bob", "cy"), texts,
                                                                                          strict=True))) + "</table>")
    before = etree.tostring(page)
    found = page_segments(page)
    assert [segment.author for segment in found] == ["ann", "bob", "cy"]
    assert [segment.published for segment in found] == ["19.11.2019, 16:30", "19.11.2019, 16:31", "19.11.2019, 16:32"]
    assert all(text in segment.text and "16:3" not in segment.text for text, segment in zip(texts, found, strict=True))
    assert etree.tostring(page) == before


def test_a_reply_signed_inside_a_comment_is_a_unit_of_its_own_with_its_writer():
    comment = ("<ul class='single'><li class='info'><span class='user-name'><a href='http://{0}.example.net/'>{0}</a>"
               "</span> <span class='time'>on 2013/12/28 10:2{1}</span></li><li class='text'>{2}</li>"
               "<li class='answer-text'>{3}<p><a href='http://owner.example.net/'>owner</a> on 2014/01/01 20:3{1} "
               "replied</p></li></ul>")
    page = body_of("<h1>A trip</h1><p>A short story.</p><div id='comments'>"
                   + comment.format("ann", 1, words(20, "nice"), "Thanks for coming")
                   + comment.format("bob", 2, words(20, "lovely"), "Glad you liked it")
                   + comment.format("cy", 3, words(20, "great"), "Thank you, cy") + "</div>")
    found = page_segments(page)
    assert [(segment.author, segment.text) for segment in found] == [
        ("ann", words(20, "nice")), ("owner", "Thanks for coming"), ("bob", words(20, "lovely")),
        ("owner", "Glad you liked it"), ("cy", words(20, "great")), ("owner", "Thank you, cy")]
    assert found[1].published == "owner on 2014/01/01 20:31 replied" and found[1].source == "nested"


def test_a_one_off_signed_paragraph_is_not_a_reply():
    comment = ("<div class='comment'><a href='/user/{0}'>{0}</a> <time datetime='2020-01-0{1}'>then</time>"
               "<p>{2}</p>{3}</div>")
    signed = "<p>See you at 10:30, <a href='/user/cy'>cy</a> and all.</p>"
    page = body_of("<div>" + comment.format("ann", 1, words(30, "first"), signed)
                   + comment.format("bob", 2, words(30, "second"), "") + "</div>")
    assert [segment.author for segment in page_segments(page)] == ["ann", "bob"]


def test_scripts_indented_by_spaces_do_not_make_a_noscript_the_pages_content():
    scripts = "".join(f"<script>{' ' * 5000}var a{n} = 1;</script>" for n in range(10))
    page = body_of(f"{scripts}<div id='main'><p>{words(300, 'shown')}</p></div><noscript><p>{words(40, 'fallback')}"
                   "</p></noscript>")
    assert content_root(page)[0] is page


def test_a_microdata_units_declared_text_is_its_text_without_the_controls_around_it():
    question = ("<div itemscope itemtype='https://schema.org/Question'><h1 itemprop='name'>Title</h1>"
                "<div itemprop='text'><p>{0}</p></div><div class='tags'>python</div><a>Improve this question</a>"
                "<div>4 Answers Sorted by: Reset to default</div>{1}</div>")
    answer = ("<div itemscope itemtype='https://schema.org/Answer' itemprop='suggestedAnswer'>"
              "<span itemprop='author'>{0}</span><time itemprop='dateCreated' datetime='2020-01-0{1}'>then</time>"
              "<div itemprop='text'><p>{2}</p></div><a>Add a comment</a></div>")
    answers = answer.format("bob", 1, words(30, "one")) + answer.format("cy", 2, words(30, "two"))
    found = page_segments(body_of(question.format(words(30, "asked"), answers)))
    assert [segment.text for segment in found] == [words(30, "asked"), words(30, "one"), words(30, "two")]
    meta = ("<div itemscope itemtype='https://schema.org/Comment'><span itemprop='author'>{0}</span>"
            "<meta itemprop='text' content='{1}\n\n{2}'><p>{1} {2} Reply</p></div>")
    found = page_segments(body_of(meta.format("ann", words(10, "a"), words(10, "b"))
                                  + meta.format("bob", words(10, "c"), words(10, "d"))))
    assert [segment.text for segment in found] == [f"{words(10, 'a')}\n{words(10, 'b')}",
                                                   f"{words(10, 'c')}\n{words(10, 'd')}"]


def test_edit_notices_and_a_signature_under_a_rule_are_left_out_and_a_writers_own_divider_stays():
    from filters.segment.segments import without_edit_notices, without_signature

    text = f"{words(20, 'said')}\nLast edited by ann on Tue Aug 27, 2019 10:03 pm, edited 1 time in total."
    assert without_edit_notices(text) == words(20, "said")
    # a line of the writer's shaped like a notice goes too: a cost the rule accepts
    assert without_edit_notices("I edited the photo on 12.03.2020 and it looks fine now.\n" + words(5)) == words(5)
    assert without_edit_notices(f"I edited the photo\n{words(5)}") == f"I edited the photo\n{words(5)}"  # no date
    assert without_edit_notices(f"{words(5)}\nLast edited by a moderator Oct 6, 2020") == words(5)
    signed = f"{words(30, 'text')}\n_________________\nGeorge Newton\nFreeman MK1 22"
    assert without_signature(signed) == words(30, "text")
    assert without_signature(f"{words(30, 'text')}\n--\nann") == words(30, "text")
    divided = f"{words(30, 'text')}\n------\n{words(20, 'more')}"
    assert without_signature(divided) == divided
    assert without_signature(f"{words(30, 'text')}\n_____\n{words(60, 'long')}") == \
        f"{words(30, 'text')}\n_____\n{words(60, 'long')}"  # too long for a signature


def test_what_a_unit_leaves_out_as_the_softwares_is_counted_apart_from_its_quotes():
    def post(number: int, name: str, text: str, extra: str = "") -> str:
        return (f"<div class='post' id='p{number}'><div class='poster'><a href='/u/{name}'>{name}</a>"
                f"<span>Posts: {number}</span><span>Location: Leeds</span></div>"
                f"<time datetime='2019-11-1{number % 10}'>Nov 1{number % 10}</time><div class='body'><p>{text}</p>"
                f"{extra}</div></div>")
    notice = "<p>Last edited by ann on Tue Aug 27, 2019 10:03 pm, edited 1 time in total.</p>"
    quote = f"<blockquote class='quote'><p>{words(12, 'quoted')}</p></blockquote>"
    page = body_of("<h1>Topic</h1><div class='thread'>" + post(101, "ann", words(30, "first"), notice)
                   + post(102, "bob", words(30, "second"), quote) + post(103, "cy", words(30, "third")) + "</div>")
    found = page_segments(page)
    assert [segment.text for segment in found] == [words(30, "first"), words(30, "second"), words(30, "third")]
    # each poster column and date: the name, "Posts: N", "Location: Leeds", "Nov 1N" (7 words); ann's notice (16)
    assert [segment.left_out_words for segment in found] == [7 + 16, 7, 7]
    assert [segment.quoted_words for segment in found] == [0, 12, 0]
