"""Pages of several posts are listings (docs/filters.md, "Pages of several posts"): a blog archive
month that prints its posts in full is rejected with `page.several_posts`, while one post with
teasers of related posts and a comment thread counts one post and is kept."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from conftest import cli, prose, write_warc
from filters.page.page_structure import FULL_POST_WORDS, post_count
from filters.parse.html import parse_html

SHELL = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>
<body><header><a href="/">Notes from the coast</a><nav><a href="/archive/">Archive</a></nav></header>
<main>{main}</main><footer><p>Notes from the coast, a blog by one walker.</p></footer></body></html>"""


def full_post(title: str, day: int, paragraphs: int = 6) -> str:
    body = "".join(f"<p>{text}</p>" for text in prose(title, paragraphs))
    return (f'<article class="post hentry"><h2><a href="/2024/05/{day:02d}/{day}/" rel="bookmark">{title}</a></h2>'
            f'<time datetime="2024-05-{day:02d}">May {day}, 2024</time>{body}</article>')


def archive_month(paragraphs: int = 6) -> bytes:
    posts = "".join(full_post(f"Walk number {day} along the harbour", day, paragraphs) for day in (3, 11, 24))
    return SHELL.format(title="May 2024 - Notes from the coast", main=f"<h1>Archive: May 2024</h1>{posts}").encode()


def single_post() -> bytes:
    teasers = "".join(f'<article class="related"><h3><a href="/2024/04/{n}/">Earlier walk {n}</a></h3>'
                      f'<time datetime="2024-04-{n:02d}">April {n}</time><p>A short look back at the cliff path.</p>'
                      f"</article>" for n in (2, 9, 16))
    comments = "".join(f'<article class="comment" id="comment-{n}"><time>May 4</time><p>{text}</p></article>'
                       for n, text in enumerate(prose("comments on the walk", 3, 10)))
    main = full_post("The long walk to the lighthouse", 3, paragraphs=9)
    return SHELL.format(title="The long walk to the lighthouse - Notes from the coast",
                        main=f"{main}<section><h2>Related walks</h2>{teasers}</section>"
                             f"<section id=\"comments\">{comments}</section>").encode()



def test_a_wrapper_of_whole_posts_is_not_a_post_of_its_own():
    # an hentry wrapper, dated and long enough, around three whole posts, beside a fourth post at the
    # wrapper's level: the posts count, the wrapper does not, and neither does a wrapper's wrapper
    posts = "".join(full_post(f"Walk number {day} along the harbour", day) for day in (3, 11, 24))
    wrapper = f'<div class="hentry"><time datetime="2024-05-31">May 31</time>{posts}</div>'
    twice = f'<article class="outer">{wrapper}</article>{full_post("A walk in June", 2)}'
    assert post_count(parse_html(SHELL.format(title="May", main=wrapper))) == 3
    assert post_count(parse_html(SHELL.format(title="May and June", main=twice))) == 4

def test_posts_are_counted_whole_and_teasers_and_comments_are_not():
    assert post_count(parse_html(archive_month().decode())) == 3
    assert post_count(parse_html(single_post().decode())) == 1
    # a post needs its words: the archive with one-paragraph excerpts is a teaser list, no whole post
    assert all(len(text.split()) < FULL_POST_WORDS for text in prose("Walk number 3 along the harbour", 1))
    assert post_count(parse_html(archive_month(paragraphs=1).decode())) == 0


def test_archive_month_is_a_listing_and_the_single_post_is_kept(tmp_path: Path):
    warc = tmp_path / "blog.warc.gz"
    write_warc(warc, [("https://coast-notes.example/2024/05/", archive_month(), {}),
                      ("https://coast-notes.example/2024/05/03/the-long-walk-to-the-lighthouse/", single_post(), {})])
    out = tmp_path / "out"
    assert cli("run", warc, "--out", out, "--workers", "1") in (0, 1)
    rows = pl.concat([pl.read_parquet(path) for path in sorted(out.glob("*ed/*.parquet"))], how="diagonal_relaxed")
    by_url = {row["url"]: row for row in rows.to_dicts()}
    archive = by_url["https://coast-notes.example/2024/05/"]
    assert "page.several_posts" in archive["reasons"] and archive["signals"]["structure_post_count"] == 3
    post = by_url["https://coast-notes.example/2024/05/03/the-long-walk-to-the-lighthouse/"]
    assert post["signals"]["structure_post_count"] == 1
    assert "page.several_posts" not in post["reasons"]
    assert post["kept"], post["reasons"]
