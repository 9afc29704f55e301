"""A page's segments (filters/segment/segments.py): hand-written pages shaped like a forum thread, a Q&A
page, an article with comments, a link page and plain articles; exact texts, kinds, authors, dates and
quoted words, and the tree left as it was."""

from __future__ import annotations

import dataclasses

from lxml import etree, html

from filters.segment.segments import KINDS, Segment, page_segments


def body_of(markup: str):
    return html.fromstring(f"<html><body>{markup}</body></html>").find("body")


def words(n: int, word: str = "word") -> str:
    return " ".join(f"{word}{i}" for i in range(n))


def xenforo_post(number: int, author: str, when: str, text: str, quote: str = "") -> str:
    return (f'<article class="message message--post" id="post-{number}" data-author="{author}">'
            f'<div class="message-cell message-cell--user"><h4 class="message-name">'
            f'<a href="/members/{author}.{number}/" class="username">{author}</a></h4></div>'
            f'<div class="message-main"><header class="message-attribution">'
            f'<time class="u-dt" datetime="{when}">{when[:10]}</time></header>'
            f'<article class="message-body js-selectToQuote">{quote}<div class="bbWrapper">{text}</div></article>'
            f'<aside class="message-signature"><div class="bbWrapper">my rig: words here</div></aside>'
            f'<div class="reactionsBar">ann and 2 others like this</div></div></article>')


def forum_thread() -> str:
    quote = ('<blockquote class="bbCodeBlock bbCodeBlock--quote" data-quote="ann">'
             '<div class="bbCodeBlock-content">alpha quoted words here</div></blockquote>')
    return ("<header><nav><ul><li><a href='/'>Forums</a></li><li><a href='/new'>New posts</a></li></ul></nav></header>"
            "<h1 class='p-title'>A thread title</h1>"
            "<div class='block-container lbContainer'>"
            + xenforo_post(1, "ann", "2024-05-01T10:00:00+0000", words(40, "alpha"))
            + "</div><div class='block-container'><div class='block-body'>"
            + xenforo_post(2, "bob", "2024-05-02T11:00:00+0000", words(30, "beta"), quote)
            + xenforo_post(3, "cy", "2024-05-03T12:00:00+0000", words(20, "gamma"))
            + "</div></div><footer><p>About us. Terms and rules. Privacy policy.</p></footer>")


def test_a_forum_threads_posts_are_segments_with_their_author_date_and_own_text():
    found = page_segments(body_of(forum_thread()))
    assert [segment.text for segment in found] == [words(40, "alpha"), words(30, "beta"), words(20, "gamma")]
    assert [segment.author for segment in found] == ["ann", "bob", "cy"]
    assert [segment.published for segment in found] == ["2024-05-01T10:00:00+0000", "2024-05-02T11:00:00+0000",
                                                        "2024-05-03T12:00:00+0000"]
    assert [segment.kind for segment in found] == ["post"] * 3
    assert [segment.source for segment in found] == ["marked"] * 3  # their ids (post-N) mark them as posts


def test_a_quote_of_another_post_is_left_out_and_its_words_counted():
    found = page_segments(body_of(forum_thread()))
    assert [segment.quoted_words for segment in found] == [0, 4, 0]
    assert all("quoted" not in segment.text and "rig" not in segment.text and "others" not in segment.text
               for segment in found)


def test_a_text_that_holds_no_post_leaves_a_threads_segments_as_they_are_marked_as_no_body_part():
    body = body_of(forum_thread())
    with_text = page_segments(body, "Alpha words.\n\nBeta words.")
    assert [segment.body_part for segment in with_text] == [False, False, False]
    assert [segment.body_part for segment in page_segments(body)] == [None, None, None]  # not extracted
    assert [segment.unsigned_part for segment in with_text] == [False, False, False]  # signed, marked posts
    assert [dataclasses.replace(segment, body_part=None, unsigned_part=None) for segment in with_text] \
        == page_segments(body)


def test_the_tree_is_left_as_it_was():
    body = body_of(forum_thread())
    before = etree.tostring(body)
    page_segments(body)
    assert etree.tostring(body) == before


def qa_page() -> str:
    def user(name: str, when: str) -> str:
        return (f'<div class="user-info"><time itemprop="dateCreated" datetime="{when}">{when[:10]}</time>'
                f'<div itemprop="author" itemscope itemtype="https://schema.org/Person">'
                f'<a href="/users/1/{name}"><span itemprop="name">{name}</span></a></div></div>')

    def comment(name: str, text: str) -> str:
        return (f'<li class="comment" itemscope itemtype="https://schema.org/Comment">'
                f'<span class="comment-copy">{text}</span> – <a href="/users/2/{name}" class="comment-user">{name}</a>'
                f' <span class="comment-date">2024-01-03 09:00</span></li>')

    return ('<div itemscope itemtype="https://schema.org/QAPage"><h1>How do I do this?</h1>'
            '<div class="question" itemprop="mainEntity" itemscope itemtype="https://schema.org/Question">'
            f'<div class="js-vote-count vote-count">12</div><div itemprop="text"><p>{words(30, "asking")}</p></div>'
            + user("ann", "2024-01-01T08:00:00")
            + f'<ul class="comments">{comment("dan", words(9, "remark"))}</ul></div>'
            '<div id="answers"><div class="answer" itemprop="suggestedAnswer" itemscope '
            'itemtype="https://schema.org/Answer">'
            f'<div class="vote-count">7</div><div itemprop="text"><p>{words(50, "answer")}</p>'
            '<pre><code>print("hello")</code></pre></div>'
            + user("bob", "2024-01-02T09:30:00") + f'<ul class="comments">{comment("eve", words(7, "note"))}</ul></div>'
            '</div></div>')


def test_a_qa_pages_question_answers_and_comments_come_from_microdata():
    found = page_segments(body_of(qa_page()))
    assert [segment.kind for segment in found] == ["question", "comment", "answer", "comment"]
    assert [segment.source for segment in found] == ["microdata"] * 4
    assert [segment.author for segment in found] == ["ann", "dan", "bob", "eve"]
    assert found[0].published == "2024-01-01T08:00:00" and found[2].published == "2024-01-02T09:30:00"
    assert found[0].text == words(30, "asking")  # its comments, votes, author and date are not its text
    assert found[2].text == words(50, "answer") + '\nprint("hello")'
    # a date in plain text in an element of class word `date` (no `<time>`, no date property) is read as
    # the comment's, unparsed, and is not the writer's text
    assert found[1].text == words(9, "remark") + " –" and found[1].published == "2024-01-03 09:00"


def test_an_faqs_questions_and_answers_written_by_the_page_are_not_segments():
    entry = ('<div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><h3 itemprop="name">{q}</h3>'
             '<div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer">'
             '<div itemprop="text"><p>{a}</p></div></div></div>')
    faq = "".join(entry.format(q=words(8, f"q{i}x"), a=words(40, f"a{i}x")) for i in range(4))
    assert page_segments(body_of(f'<div itemscope itemtype="https://schema.org/FAQPage">{faq}</div>')) == []


ARTICLE = ("<article class='post'><h1>The headline of the story</h1>"
           "<p class='byline'>By <a rel='author' href='/authors/kim'>Kim</a>, "
           "<time datetime='2024-02-01'>1 Feb</time></p>"
           + "".join(f"<section class='chapter'><h2>Part {i}</h2><p>{words(60, f'story{i}x')}</p>"
                     f"<p>{words(45, f'more{i}x')}</p></section>" for i in range(5))
           + "</article>")


def test_a_plain_article_has_no_segments():
    assert page_segments(body_of(f"<main>{ARTICLE}</main>")) == []
    assert page_segments(body_of(f"<main>{ARTICLE}</main>"), "the extracted story") == []


def test_an_articles_comments_are_segments_and_its_body_is_never_split():
    def comment(i: int, name: str) -> str:
        return (f"<li class='comment depth-1' id='comment-{i}'><div class='comment-meta'>"
                f"<span class='comment-author vcard'><b class='fn'>{name}</b></span>"
                f"<a href='#comment-{i}'>March {i}, 2024 at 10:0{i} am</a></div>"
                f"<div class='comment-content'><p>{words(60, f'said{i}x')}</p></div>"
                f"<div class='reply'><a class='comment-reply-link' href='#'>Reply</a></div></li>")

    # the comments hold 300 of the page's 825 words: more than MIN_SHARE of its text
    page = body_of(f"<main>{ARTICLE}<section id='comments'><h2>4 comments</h2><ol class='comment-list'>"
                   + "".join(comment(i, name) for i, name in enumerate(("Ann", "Bob", "Cy", "Di", "Ed"), 1))
                   + "</ol></section></main>")
    found = page_segments(page)
    assert [segment.kind for segment in found] == ["comment"] * 5
    assert [segment.author for segment in found] == ["Ann", "Bob", "Cy", "Di", "Ed"]
    # the reply link is a control; the date line every comment shows in the same place is the software's
    assert found[0].text == words(60, "said1x")
    assert not any("story" in segment.text or "more" in segment.text for segment in found)


def test_a_layouts_columns_are_not_segments():
    teaser = "<div class='teaser'><a href='/x'>{}</a> <span class='date'>2024-03-0{}</span></div>"
    sidebar = "".join(teaser.format(words(6, f"other{i}x"), i) for i in range(1, 4))
    page = body_of(f"<div class='row'><div class='col main-col'>{ARTICLE}</div>"
                   f"<div class='col side-col'><h3>Related</h3>{sidebar}</div></div>")
    assert not any("story0x0" in segment.text for segment in page_segments(page))


def test_a_link_pages_entries_are_items():
    entry = ("<div class='entry'><h3><a href='/p/{i}'>{title}</a></h3>"
             "<p class='meta'>posted 2024-04-0{i} by <a href='/user/u{i}'>u{i}</a></p></div>")
    page = body_of("<h1>Links</h1><div class='entries'>"
                   + "".join(entry.format(i=i, title=words(12, f"title{i}x")) for i in range(1, 6)) + "</div>")
    found = page_segments(page)
    assert [segment.kind for segment in found] == ["item"] * 5
    assert found[0].author == "u1"  # the link to the user's page, taken out of the text
    assert found[0].text == words(12, "title1x")  # "posted … by", in every entry's same place, is furniture


def test_kinds_are_the_declared_ones():
    assert set(KINDS) == {"post", "question", "answer", "comment", "review", "item"}  # the contract's
    assert Segment("a", "post", None, None, 0, "repeated").kind in KINDS


def test_a_unit_holding_the_extracted_body_is_marked_a_body_part_and_comments_are_not():
    part = "<div class='part'><span class='date'>2024-01-0{}</span><p>{}</p></div>"
    story = [words(40, f"story{i}x") for i in range(3)]
    comment = "<li class='comment'><a href='/user/{0}'>{0}</a><p>{1}</p></li>"
    page = body_of("<div class='parts'>" + "".join(part.format(i, text) for i, text in enumerate(story, 1))
                   + "</div><ol class='comments'>" + comment.format("ann", words(40, "said")) + "</ol>")
    assert len(page_segments(page)) == 3  # without the text, the dated parts look like posts
    extracted = "\n\n".join(story)
    # the parts show no author and no `<time>`: with the extracted text each is marked an unsigned part of one
    # text, the page's other segments too; select drops them by the page's type (page.unsigned_part)
    assert [(segment.body_part, segment.unsigned_part) for segment in page_segments(page, extracted)] == \
        [(True, True), (True, True), (True, True)]
    assert {segment.unsigned_part for segment in page_segments(page, words(40, "other"))} == {False}
    replies = "".join(comment.format(name, words(40, f"{name}x")) for name in ("ann", "bob", "cy"))
    page = body_of(f"<article><h1>Title</h1><p>{words(200, 'story')}</p></article><ol class='comments'>{replies}</ol>")
    found = page_segments(page, words(200, "story"))
    assert [(segment.author, segment.body_part, segment.unsigned_part) for segment in found] == \
        [("ann", False, False), ("bob", False, False), ("cy", False, False)]
    # dated, signed parts inside the extracted text are kept and marked: select drops them on an article
    signed = "<div class='part'><a href='/user/{0}'>{0}</a><time datetime='2024-01-0{1}'>day</time><p>{2}</p></div>"
    page = body_of("<div class='parts'>" + "".join(signed.format(name, i, text) for i, (name, text) in
                                                   enumerate(zip(("ann", "bob", "cy"), story, strict=True), 1))
                   + "</div>")
    assert [segment.body_part for segment in page_segments(page, extracted)] == [True, True, True]
    assert [segment.body_part for segment in page_segments(page, words(40, "other"))] == [False, False, False]


def test_a_line_repeating_an_earlier_posts_words_is_a_quote_left_out_and_counted():
    from filters.segment.segments import QUOTE_SPAN

    first_line = words(QUOTE_SPAN + 4, "alpha")
    short = "thanks a lot"  # under QUOTE_SPAN words: a coincidence, kept
    thread = (xenforo_post(1, "ann", "2024-05-01T10:00:00+0000", f"<p>{first_line}</p><p>{short}</p>")
              + xenforo_post(2, "bob", "2024-05-02T11:00:00+0000",
                             f"<p><em>{first_line}</em></p><p>{words(30, 'beta')}</p><p>{short}</p>")
              + xenforo_post(3, "cy", "2024-05-03T12:00:00+0000", words(20, "gamma")))
    found = page_segments(body_of(f"<div class='thread'><div class='posts'>{thread}</div></div>"))
    assert [segment.author for segment in found] == ["ann", "bob", "cy"]
    assert found[0].text.split("\n") == [first_line, short]
    assert found[1].text.split("\n") == [words(30, "beta"), short]
    assert found[1].quoted_words == QUOTE_SPAN + 4


# --- the software's furniture out of the writer's text (filters/segment/segments.py: `furniture`) ------


def vbulletin_post(number: int, author: str, joined: str, posts: int, text: str) -> str:
    """A post with a profile block and a row of controls, in the shape of a vBulletin 4 thread."""
    return (f'<li class="postbitlegacy postcontainer" id="post_{number}">'
            f'<div class="posthead"><span class="date">Feb {number}, 2024</span>'
            f'<a class="postcounter">#{number}</a></div>'
            f'<div class="postdetails"><div class="userinfo"><a class="username" href="/member.php?u={number}">'
            f'{author}</a><span class="usertitle">Senior Member</span><dl class="userinfo_extra">'
            f'<dt>Join Date</dt><dd>{joined}</dd><dt>Location</dt><dd>Lisbon</dd><dt>Posts</dt><dd>{posts}</dd>'
            f'</dl></div><div class="postbody"><div class="content"><blockquote class="postcontent restore">{text}'
            f'</blockquote></div></div></div><div class="postfoot"><span class="postcontrols">'
            f'<a href="/newreply.php?p={number}">Reply</a> <a href="/report.php?p={number}">Report</a>'
            f' <a href="/post_thanks.php?p={number}">Thanks</a></span></div></li>')


def test_a_profile_block_and_controls_every_post_holds_are_left_out_of_its_text():
    texts = [words(60, "alpha"), words(35, "beta"), words(80, "gamma")]
    thread = "<ol id='posts'>" + "".join(vbulletin_post(n, name, f"Jul 201{n}", 100 * n, text) for n, (name, text)
                                         in enumerate(zip(("ann", "bob", "cy"), texts, strict=True), 1)) + "</ol>"
    found = page_segments(body_of(thread))
    assert [segment.text for segment in found] == texts
    assert [segment.author for segment in found] == ["ann", "bob", "cy"]  # read before the profile is left out


def test_one_line_replies_under_large_profile_blocks_keep_their_text():
    texts = ["Thanks, that worked for me too.", "Same here.", "Confirmed on the new firmware as well, thanks."]
    thread = "<ol id='posts'>" + "".join(vbulletin_post(n, name, "Jul 2013", 12345, text) for n, (name, text)
                                         in enumerate(zip(("ann", "bob", "cy"), texts, strict=True), 1)) + "</ol>"
    assert [segment.text for segment in page_segments(body_of(thread))] == texts


def test_a_form_to_write_in_is_not_the_writer_s_text():
    form = ('<form class="answer-form"><h2>Your Answer</h2><textarea name="body"></textarea>'
            '<p>Sign up or log in</p><input type="email" name="email"></form>')
    posts = "".join(f'<div class="answer"><div class="prose">{words(50, name)}</div>'
                    f'<a class="user" href="/users/{name}">{name}</a>{form if n == 1 else ""}</div>'
                    for n, name in enumerate(("alpha", "beta", "gamma")))
    found = page_segments(body_of(f"<div id='answers'>{posts}</div>"))
    assert len(found) == 3 and all("Sign up" not in segment.text for segment in found)
    assert found[1].text == words(50, "beta")


def test_comments_marked_as_posts_survive_the_extracted_text_that_holds_them():
    comment = ("<li id='comment-{0}' class='comment'><span>12.06.2019 10:1{0}</span>"
               "<div class='comment-content'><p>{1}</p></div></li>")
    first, second = words(40, "first"), words(40, "second")
    body = html.fromstring(f"<html><body><ol class='comment-list'>{comment.format(1, first)}"
                           f"{comment.format(2, second)}</ol></body></html>").find("body")
    # the extraction took the comments (no article around them): they show no writer the segment reads
    # (a date in plain text), yet are marked as posts
    found = page_segments(body, f"{first}\n{second}")
    assert [segment.source for segment in found] == ["marked", "marked"]


def test_customer_reviews_are_reviews_with_their_rating_and_date_read_out_of_their_text():
    review = ("<div class='review' id='R{0}'><a class='profile' href='/profile/{1}'>{1}</a>"
              "<i class='review-rating'><span>{2} out of 5 stars</span></i>"
              "<span class='review-date'>Reviewed in the United States on May {0}, 2018</span>"
              "<span class='badge'>Verified Purchase</span><div class='review-text'><p>{3}</p></div></div>")
    page = body_of("<div class='reviews'>" + review.format(25, "kim", "5.0", words(30, "loved"))
                   + review.format(26, "lee", "2,0", words(30, "broke")) + "</div>")
    found = page_segments(page)
    assert [(segment.kind, segment.rating, segment.author) for segment in found] == \
        [("review", 5.0, "kim"), ("review", 2.0, "lee")]
    assert found[0].published == "Reviewed in the United States on May 25, 2018"
    assert "stars" not in found[0].text and "Reviewed" not in found[0].text
    assert found[0].text.endswith(words(30, "loved"))


def test_a_reviews_rating_is_its_own_not_the_reviewed_products_aggregate():
    review = ("<li itemprop='review' itemscope itemtype='https://schema.org/Review'>"
              "<div itemprop='itemReviewed' itemscope itemtype='https://schema.org/Product'>"
              "<div itemprop='aggregateRating' itemscope><meta itemprop='ratingValue' content='4.65'></div></div>"
              "<div itemprop='reviewRating' itemscope><meta itemprop='ratingValue' content='{0}'></div>"
              "<span itemprop='author'>{1}</span><time datetime='2020-0{0}-01'>then</time><p>{2}</p></li>")
    page = body_of("<ul>" + review.format(1, "kim", words(30, "bad")) + review.format(4, "lee", words(30, "ok"))
                   + "</ul>")
    assert [(segment.kind, segment.rating) for segment in page_segments(page)] == [("review", 1.0), ("review", 4.0)]


def test_a_threads_one_post_is_a_segment_marked_a_body_part_where_the_extraction_took_it():
    post = ("<div id='p7' class='post'><a href='./memberlist.php?mode=viewprofile&u=2'>ann</a>"
            f"<div class='content'><p>{words(60, 'essay')}</p></div></div>")
    page = body_of(f"<h2>Topic</h2>{post}")
    assert [(segment.author, segment.source) for segment in page_segments(page)] == [("ann", "marked")]
    # the page row holds that text already: select drops it if the page is finally an article
    assert [segment.body_part for segment in page_segments(page, words(60, "essay"))] == [True]


def test_a_date_written_for_scripts_in_a_data_attribute_is_the_segments():
    review = ("<li class='review'><a href='/profile/{0}'>{0}</a><span class='meta' data-date='2020-11-2{1}T19:39:48'>"
              "- November 2{1}, 2020</span><p>{2}</p></li>")
    reviews = review.format("kim", 6, words(30, "a")) + review.format("lee", 7, words(30, "b"))
    page = body_of(f"<ul class='reviews'>{reviews}</ul>")
    assert [segment.published for segment in page_segments(page)] == ["2020-11-26T19:39:48", "2020-11-27T19:39:48"]


def test_the_poster_block_of_a_threads_one_post_is_not_its_text():
    post = ("<article id='js-post-9' class='message'><div class='message-cell message-cell--user'>"
            "<a class='username' href='/members/ann.4/'>ann</a><span>Elite member</span><dl><dt>Joined</dt>"
            "<dd>Nov 4, 2011</dd><dt>Messages</dt><dd>65,334</dd></dl></div>"
            f"<div class='message-body'><p>{words(60, 'essay')}</p></div></article>")
    found = page_segments(body_of(f"<h1>Topic</h1>{post}"))
    assert [(segment.author, segment.text) for segment in found] == [("ann", words(60, "essay"))]
