"""Repeated units of a page (filters/segment/units.py): which siblings are a list of posts, what is left
out of a unit's text, and that the walk reads only."""

from __future__ import annotations

from lxml import html

from filters.segment.units import (
    DATED,
    MAX_MEMBER_SHARE,
    MIN_SHARE,
    is_quote,
    left_out,
    own_text,
    shape,
    shows_writer,
    units,
)


def body_of(markup: str):
    return html.fromstring(f"<html><body>{markup}</body></html>").find("body")


def element(markup: str):
    return html.fragment_fromstring(markup)


def words(n: int, word: str = "word") -> str:
    return " ".join(f"{word}{i}" for i in range(n))


def post(author: str, text: str, extra: str = "", kind: str = "entry") -> str:
    return (f'<div class="{kind} {kind}-{len(text)}"><div class="author">{author}</div>'
            f'<div class="body">{extra}<p>{text}</p></div></div>')


def test_repeated_posts_are_units_whatever_the_digits_in_their_class():
    page = body_of("<nav><a href='/'>Home</a></nav><div id='thread'>"
                   + post("ann", words(40, "alpha")) + post("bob", words(30, "beta")) + post("cy", words(20, "gamma"))
                   + "</div><footer>About us</footer>")
    first = page.xpath("//div[starts-with(@class, 'entry ')]")[0]
    assert first.get("class") == f"entry entry-{len(words(40, 'alpha'))}" and shape(first) == ("div", "entry entry-")
    found = units(page)
    assert [unit.source for unit in found] == ["repeated"] * 3
    marked = body_of("<div id='thread'>" + "".join(post(name, words(30, name), kind="post") for name in ("ann", "bob"))
                     + "</div>")
    assert [unit.source for unit in units(marked)] == ["marked"] * 2  # the class word `post` marks a post
    assert [own_text(unit.element)[0] for unit in found] == [f"ann\n{words(40, 'alpha')}", f"bob\n{words(30, 'beta')}",
                                                            f"cy\n{words(20, 'gamma')}"]


def test_siblings_that_do_not_show_a_writer_are_not_posts():
    section = "<div class='part'><h2>Part</h2><p>{}</p></div>"
    page = body_of("<div class='story'>" + "".join(section.format(words(50, f"s{i}x")) for i in range(4)) + "</div>")
    assert units(page) == []


def test_a_layout_whose_one_column_holds_most_of_the_text_is_not_a_list_of_posts():
    column = "<div class='col'><span class='date'>2024-01-0{}</span><p>{}</p></div>"
    dominant = words(int(100 * MAX_MEMBER_SHARE) + 10, "main")
    page = body_of(f"<div class='row'>{column.format(1, dominant)}{column.format(2, words(20, 'side'))}</div>")
    assert units(page) == []
    balanced = body_of(f"<div class='row'>{column.format(1, words(50, 'one'))}"
                       f"{column.format(2, words(40, 'two'))}</div>")
    assert len(units(balanced)) == 2


def test_siblings_holding_the_pages_headline_are_parts_of_the_article():
    card = "<div class='card'><span class='byline'>by kim</span>{}<p>{}</p></div>"
    page = body_of("<div class='cards'>" + card.format("<h1>The headline</h1>", words(40, "story"))
                   + card.format("", words(40, "teaser")) + "</div>")
    assert units(page) == []


def test_repeated_units_holding_less_than_min_share_of_the_page_are_not_units():
    comment = "<li class='entry'><span class='author'>ann</span><p>{}</p></li>"
    body = words(600, "story")
    small = int(600 * MIN_SHARE / 2 / (1 - MIN_SHARE)) - 5  # two comments well under MIN_SHARE of the page
    page = body_of(f"<article><p>{body}</p></article><ol class='comments'>"
                   + comment.format(words(small, "a")) + comment.format(words(small, "b")) + "</ol>")
    assert units(page) == []


def test_a_class_word_is_cut_at_its_first_digit_so_ids_do_not_make_each_post_a_shape_of_its_own():
    assert shape(element("<div class='thing id-t1_oq7x comment'>x</div>")) == ("div", "comment id-t thing")
    assert shape(element("<div class='thing id-t1_zz9 comment'>x</div>")) == ("div", "comment id-t thing")


def test_an_unmarked_opening_post_joins_the_microdata_replies_of_a_close_shape():
    def message(extra: str, itemtype: str, author: str, text: str) -> str:
        return (f"<article class='message message--post {extra}'{itemtype}><a href='/members/{author}.1/'>"
                f"{author}</a><div class='body'><p>{text}</p></div></article>")

    comment = " itemscope itemtype='https://schema.org/Comment'"
    page = body_of("<div class='first'>" + message("message--firstPost", "", "ann", words(40, "alpha"))
                   + "</div><div class='replies'>" + message("", comment, "bob", words(30, "beta"))
                   + message("", comment, "cy", words(20, "gamma")) + "</div><aside class='other'>"
                   + message("", "", "dee", words(20, "unrelated")).replace("/members/dee.1/", "/about") + "</aside>")
    found = units(page)
    assert [own_text(unit.element)[0].split("\n")[0] for unit in found] == ["ann", "bob", "cy"]
    assert [unit.source for unit in found] == ["repeated", "microdata", "microdata"]


def test_the_first_post_set_apart_from_the_replies_is_a_unit_of_the_same_shape():
    page = body_of("<div class='first'>" + post("ann", words(40, "alpha")) + "</div><div class='replies'>"
                   + post("bob", words(30, "beta")) + post("cy", words(25, "gamma")) + "</div>")
    assert [own_text(unit.element)[0].split("\n")[0] for unit in units(page)] == ["ann", "bob", "cy"]


def test_replies_nested_in_a_comment_are_units_of_their_own():
    def comment(kind: str, text: str, replies: str = "") -> str:
        return (f'<li class="comment {kind}"><span class="by">by <a href="/~x">x</a></span>'
                f'<div class="body"><p>{text}</p></div><ul>{replies}</ul></li>')

    thread = comment("full", words(30, "first"), comment("oneline", words(20, "reply")))
    page = body_of(f"<ul class='thread'>{thread}{comment('full', words(25, 'second'))}</ul>")
    found = units(page)
    inside = frozenset(unit.element for unit in found)
    texts = [own_text(unit.element, inside)[0] for unit in found]
    assert texts == [f"by x\n{words(30, 'first')}", f"by x\n{words(20, 'reply')}", f"by x\n{words(25, 'second')}"]


def test_microdata_units_need_no_repetition_but_must_show_a_writer():
    posting = ('<div itemscope itemtype="http://schema.org/DiscussionForumPosting">'
               '<span itemprop="author">ann</span><p>{}</p></div>')
    assert [unit.kind for unit in units(body_of(posting.format(words(30)) * 2))] == ["post", "post"]
    unsigned = '<div itemscope itemtype="https://schema.org/Comment"><p>{}</p></div>'
    assert units(body_of(unsigned.format(words(30)) * 3)) == []


def test_quotes_of_other_posts_are_told_from_a_posts_own_blockquote():
    assert is_quote(element('<blockquote class="ipsQuote" data-ipsquote=""><p>x</p></blockquote>'))
    assert is_quote(element('<blockquote class="bbCodeBlock bbCodeBlock--quote"><p>x</p></blockquote>'))
    assert is_quote(element('<div class="bbc_standard_quote"><p>x</p></div>'))
    assert is_quote(element('<blockquote><cite>ann wrote:</cite> x</blockquote>'))
    assert is_quote(element('<aside class="quote" data-username="ann"><p>x</p></aside>'))
    assert not is_quote(element('<blockquote class="messageText SelectQuoteContainer ugc">my own text</blockquote>'))
    assert not is_quote(element('<article class="message-body js-selectToQuote"><p>my own text</p></article>'))
    assert not is_quote(element('<blockquote><p>a source the post cites</p></blockquote>'))


def test_a_blockquote_after_an_attribution_line_is_a_quote_and_the_line_goes_with_it():
    unit = element("<div class='post'><p><a href='/user/ann'>@ann</a> said in <a href='/post/1'>Topic</a>:</p>"
                   "<blockquote><p>what ann wrote</p></blockquote><p>my own reply</p></div>")
    text, quoted = own_text(unit)
    assert text == "my own reply" and quoted >= 3 + 4  # the quote's words and the attribution's
    own = element("<div class='post'><p>As the manual puts it, see <a href='/doc'>this</a></p>"
                  "<blockquote><p>a plain quote</p></blockquote></div>")
    assert own_text(own)[0] == "As the manual puts it, see this\na plain quote"


def test_a_comment_before_a_blockquote_is_no_attribution_and_raises_nothing():
    # An HTML comment is the previous sibling the quote test reads; it has no text to iterate.
    unit = element("<div class='post'><p>x</p><!-- said: --><blockquote><p>q</p></blockquote><p>own</p></div>")
    assert own_text(unit)[0] == "x\nq\nown"


def test_bootstrap_buttons_are_left_out():
    unit = element("<div class='post'><p>my text</p><a class='btn btn-ghost'>Show the parent post</a></div>")
    assert own_text(unit)[0] == "my text"


def test_signatures_votes_and_short_controls_are_left_out_but_a_reply_text_is_not():
    for markup in ('<div class="signature">sig</div>', '<div class="js-vote-count">12</div>',
                   '<div class="reactionsBar">ann likes this</div>', '<a class="comment-reply-link">Reply</a>',
                   '<ul class="share-buttons"><li>Share</li></ul>'):
        assert left_out(element(markup)), markup
    assert not left_out(element(f'<div class="reply-content"><p>{words(12)}</p></div>'))
    assert not left_out(element('<div class="message-userContent"><p>text</p></div>'))


def test_a_units_own_text_counts_the_quoted_words_it_leaves_out():
    unit = element("<div class='post'><blockquote class='quote'><p>three quoted words</p></blockquote>"
                   "<p>my answer</p><p>second line<br>third line</p><div class='signature'>sig</div></div>")
    assert own_text(unit) == ("my answer\nsecond line\nthird line", 3)


def test_dates_and_times_are_told_from_other_numbers():
    for shown in ("on Friday @01:23PM", "Sat 04-Jan-25 12:01:52", "2024-05-22", "12.01.2024"):
        assert DATED.search(shown), shown
    for other in ("version 1.2.3", "3.14 is pi", "call 555-1234", "ratio 2:1", "12,094 posts"):
        assert not DATED.search(other), other


def test_a_writer_is_shown_by_markup_or_a_date():
    assert shows_writer(element("<div><a href='/members/ann.12/'>ann</a><p>text</p></div>"))
    assert shows_writer(element("<div><time datetime='2024-01-01'>Jan 1</time><p>text</p></div>"))
    assert shows_writer(element("<div><span class='postAuthor'>ann</span><p>text</p></div>"))
    assert shows_writer(element("<div><span>ann, 2024-01-01</span><p>text</p></div>"))
    assert not shows_writer(element(f"<div><h2>A part</h2><p>{words(40)}</p></div>"))


def wordpress_comment(number: int, author: str, text: str, replies: str = "") -> str:
    children = f"<ul class='children'>{replies}</ul>" if replies else ""
    return (f"<li id='comment-{number}' class='comment depth-1'>"
            f"<article id='div-comment-{number}' class='comment-body'>"
            f"<footer><b class='fn'>{author}</b> <a href='#comment-{number}'>12. Juni 2019 um 10:{number % 60:02d}</a>"
            f"</footer><div class='comment-content'><p>{text}</p></div>"
            f"<a class='comment-reply-link' data-commentid='{number}' data-postid='7'>Reply</a></article>"
            f"{children}</li>")


def test_comments_marked_by_their_ids_are_units_however_small_a_share_of_the_page():
    replies = wordpress_comment(12, "cy", words(15, "reply"))
    page = body_of(f"<article id='post-7'><h1>Title</h1><p>{words(1500, 'story')}</p></article>"
                   "<div id='comments'><ol class='comment-list'>"
                   + wordpress_comment(10, "ann", words(20, "first"), replies)
                   + wordpress_comment(11, "bob", words(25, "second")) + "</ol></div>")
    found = units(page)
    # the two comments and the reply (lifted to the list holding it alone); never the reply link
    assert [unit.element.get("id") or unit.element.get("class") for unit in found] == \
        ["comment-10", "children", "comment-11"]
    first = own_text(found[0].element, frozenset(unit.element for unit in found))[0]
    assert "first0" in first and "reply0" not in first


def test_comments_marked_by_class_alone_are_units():
    comment = "<li class='forum-fil comment'><div class='comment-meta'>Par {} le 3/12/2019</div><p>{}</p></li>"
    page = body_of(f"<div class='texte'><p>{words(2000, 'story')}</p></div><ul class='forum'>"
                   + comment.format("ann", words(20, "a")) + comment.format("bob", words(20, "b")) + "</ul>")
    assert len(units(page)) == 2


def test_a_post_wrapped_in_layout_elements_is_lifted_to_its_outermost_wrapper():
    comment = ("<div><div><div class='x9 Comment t1_{0}'><div><span>level 1 · {1} years ago</span></div>"
               "<div><p>{2}</p></div></div></div></div>")
    page = body_of(f"<div class='post'><p>{words(800, 'op')}</p></div><div class='list'>"
                   + comment.format("a1", 6, words(30, "a")) + comment.format("b2", 5, words(30, "b")) + "</div>")
    found = units(page)
    assert len(found) == 2
    assert all(unit.element.getparent().get("class") == "list" for unit in found)


def test_content_blocks_numbered_with_one_letter_are_not_posts():
    block = "<div id='c{0}' class='csc-element'><h2>Section {0}</h2><p>12.01.2022 {1}</p></div>"
    page = body_of(f"<main><h1>News</h1>{block.format(181, words(40, 'a'))}{block.format(182, words(40, 'b'))}"
                   f"{block.format(183, words(40, 'c'))}</main><footer><p>{words(900, 'footer')}</p></footer>")
    assert units(page) == []


def test_an_age_near_its_start_shows_when_a_unit_was_written():
    assert shows_writer(element(f"<div><span>39 points · 6 years ago</span><p>{words(20)}</p></div>"))
    assert shows_writer(element(f"<div><span>vor 3 Tagen</span><p>{words(20)}</p></div>"))
    assert not shows_writer(element(f"<div><p>{words(20)} in the years ago</p></div>"))


def test_a_widget_numbered_with_a_plural_is_a_list_not_a_post():
    widget = "<div id='{0}-posts-{1}' class='widget'><h3>Top</h3><p>{2} 12.01.2022</p></div>"
    page = body_of(f"<div class='main'><h1>T</h1><p>{words(300, 'story')}</p>{widget.format('top', 2, words(30, 'a'))}"
                   f"</div><div class='side'>{widget.format('recent', 3, words(30, 'b'))}</div>")
    assert units(page) == []


def test_a_post_is_not_lifted_into_a_column_that_holds_more_than_its_wrapper_would():
    comment = "<div id='comment-{0}'><span class='author'>ann</span><div><p>{1}</p></div></div>"
    page = body_of(f"<div class='left'>{comment.format(1, words(30, 'a'))}<p>{words(200, 'column')}</p></div>"
                   f"<div class='right'>{comment.format(2, words(30, 'b'))}<p>{words(200, 'other')}</p></div>")
    assert units(page) == []


def test_the_posts_of_a_page_built_by_scripts_are_read_from_its_noscript_fallback():
    post = "<article><div class='PostUser'><h3 class='PostUser-name'>{0}</h3></div><div><p>{1}</p></div></article>"
    fallback = "".join(post.format(name, words(40, name)) for name in ("ann", "bob", "cy"))
    page = body_of(f"<div id='app'>Loading...</div><noscript>enable scripts</noscript>"
                   f"<noscript id='content'><div><h1>Thread</h1><div>{fallback}</div></div></noscript>")
    assert len(units(page)) == 3
    # a noscript holding less than the page shows is not read (a tracking pixel's, a notice)
    shown = body_of(f"<div class='thread'>{fallback}</div><noscript><div><p>{words(20, 'notice')}</p></div></noscript>")
    assert all(unit.element.getparent().get("class") == "thread" for unit in units(shown))


def test_posts_nested_each_in_the_one_before_by_broken_markup_are_units_each():
    post = ("<article class='message' id='js-post-{0}'><a class='username' href='/members/{1}.{0}/'>{1}</a>"
            "<div class='message-body'><p>{2}</p></div>")  # never closed: the next post opens inside it
    posts = post.format(1, "ann", words(30, "a")) + post.format(2, "bob", words(30, "b")) \
        + post.format(3, "cy", words(30, "c"))
    page = body_of(f"<div class='thread'>{posts}</article></article></article></div>")
    found = units(page)
    assert [unit.element.get("id") for unit in found] == ["js-post-1", "js-post-2", "js-post-3"]
    inside = frozenset(unit.element for unit in found)
    assert own_text(found[0].element, inside)[0] == "ann\n" + words(30, "a")


def test_a_threads_one_post_linking_its_writers_member_page_is_a_unit():
    post = ("<div id='p{0}' class='post'><a href='./memberlist.php?mode=viewprofile&u=2'>ann</a>"
            "<div class='content'><p>{1}</p></div></div>")
    page = body_of(f"<h2>Topic</h2>{post.format(7, words(60, 'essay'))}<div class='side'><p>{words(50, 'x')}</p></div>")
    assert [unit.element.get("id") for unit in units(page)] == ["p7"]
    # an article's body links its author's page, which is no member page: not a post
    article = body_of(f"<article id='post-7' class='post'><a href='/author/ann/'>ann</a><p>{words(300, 'a')}</p>"
                      "</article>")
    assert units(article) == []
