"""Segments in the pipeline (docs/segments.md): a page's posts become rows of `DIR/segments/`, each
with its own signals and reasons, in its page's split; the page dataset is the same with or
without them; `pipeline select` re-tunes them without re-extraction; `segment: null` turns them off."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest
import yaml

from conftest import article_html, cli, prose, shard_bytes, stats_without_timings, write_warc
from filters.corpus.dataset import SPLITS
from filters.rules.reasons import RULES_BY_CODE
from pipeline.explain import explain_row, find_record, print_explanation
from pipeline.params import Params, params_from_dict
from pipeline.stages.segments import SegmentCounts, flat_segments

THREAD = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} - Harbour forum</title></head>
<body><header><a href="/">Harbour forum</a><nav><a href="/latest">Latest</a> <a href="/login">Log in</a></nav></header>
<main><h1>{title}</h1>{posts}</main><footer><p>Harbour forum, for people who sail small boats.</p></footer>
</body></html>"""
POST = """<article class="message" itemscope itemtype="https://schema.org/DiscussionForumPosting">
<div class="message-user"><span itemprop="author">{author}</span></div>
<time itemprop="datePublished" datetime="2024-0{month}-1{day}T10:00:00Z">{day} days ago</time>
<div class="message-body" itemprop="text">{body}</div>
<div class="message-actions"><button>Reply</button> <a class="share" href="#">Share</a></div></article>"""


def post_body(seed: str, paragraphs: int) -> str:
    return "".join(f"<p>{text}</p>" for text in prose(seed, paragraphs))


def thread(title: str, posts: list[tuple[str, str]]) -> bytes:
    """A thread page: (author, body html) per post."""
    html = "".join(POST.format(author=author, body=body, month=1 + n % 9, day=n % 10)
                   for n, (author, body) in enumerate(posts))
    return THREAD.format(title=title, posts=html).encode()


# Two threads on one site (the second repeats a post of the first: a thread's page 2 shows the
# last post of page 1 again), a thread on another site, and an article without posts.
REPEATED = post_body("the anchor that held through the storm", 3)
PAGES = [
    ("https://harbour-forum.example.org/t/anchors.101", thread("Which anchor for a rocky bay", [
        ("marlin", post_body("a long question about anchors in rock", 3)),
        ("petrel", post_body("an answer about plough anchors", 2)),
        ("gannet", "<p>Thanks, that helps.</p>"),  # too short for a detector: length.tokens
        ("tern", REPEATED)])),
    ("https://harbour-forum.example.org/t/anchors.101?page=2", thread("Which anchor for a rocky bay, page 2", [
        ("tern", REPEATED),  # the same post again: dup.exact
        ("skua", post_body("a reply about chain length and scope", 3))])),
    ("https://lake-sailors.example.net/thread/9", thread("Reefing early on the lake", [
        ("heron", post_body("why reefing early saves the day", 3)),
        ("grebe", post_body("reefing lines and how to lead them aft", 2))])),
    ("https://news.example.com/2024/05/harbour-dredging", article_html("Harbour dredging begins in June", 10)),
]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """`on`: default params; `off`: `segment: null`; `retuned`: select of `on` with segment.min_tokens 3."""
    base = tmp_path_factory.mktemp("segments")
    write_warc(base / "forum.warc.gz", [(url, body, {}) for url, body in PAGES])
    assert cli("run", base / "forum.warc.gz", "--out", base / "on") == 0
    (base / "off.yaml").write_text("segment: null\n")
    assert cli("run", base / "forum.warc.gz", "--out", base / "off", "--params", base / "off.yaml") == 0
    (base / "retuned.yaml").write_text("segment:\n  min_tokens: 3\n")
    assert cli("select", base / "on" / "work", "--out", base / "retuned", "--params", base / "retuned.yaml") == 0
    return base


def segments_of(out: Path) -> pl.DataFrame:
    return pl.read_parquet(out / "segments" / "*" / "*.parquet").sort("page_id", "segment_index")


def test_every_post_is_a_segment_with_its_author_date_and_own_text(runs):
    segments = segments_of(runs / "on")
    pages = pl.read_parquet(runs / "on" / "*ed" / "*.parquet").select("id", "url")
    first = segments.join(pages, left_on="page_id", right_on="id").filter(
        pl.col("url_right") == PAGES[0][0]).sort("segment_index")
    assert first["author"].to_list() == ["marlin", "petrel", "gannet", "tern"]
    assert first["published"].dt.month().to_list() == [1, 2, 3, 4]
    assert first["text"][2] == "Thanks, that helps."  # the Reply and Share controls are not its text
    assert first["id"].to_list() == [f"{first['page_id'][0]}#{index}" for index in range(4)]
    assert set(segments["segment_kind"]) == {"post"}
    assert segments.filter(pl.col("url").str.contains("news.example.com")).is_empty()  # an article: no posts


def test_segments_are_judged_by_the_rules_and_deduplicated(runs):
    segments = segments_of(runs / "on")
    short = segments.filter(pl.col("text") == "Thanks, that helps.")
    assert "length.tokens" in short["reasons"][0]
    repeated = segments.filter(pl.col("author") == "tern").sort("url")
    assert repeated["reasons"].to_list()[0] == [] and "dup.exact" in repeated["reasons"].to_list()[1]
    kept = segments.filter(pl.col("kept"))
    assert kept.height == 6 and kept["reasons"].list.len().max() == 0
    assert (segments["kept"] == (segments["reasons"].list.len() == 0)).all()
    assert segments["id"].n_unique() == segments.height


def test_each_segment_is_in_its_pages_split_and_the_shards_by_split(runs):
    out = runs / "on"
    segments = segments_of(out)
    pages = pl.read_parquet(out / "*ed" / "*.parquet").select(pl.col("id").alias("page_id"), "split")
    joined = segments.join(pages, on="page_id", suffix="_page")
    assert joined.height == segments.height and (joined["split"] == joined["split_page"]).all()
    for shard in (out / "segments" / "accepted").iterdir():
        split = shard.name.split("-")[0]
        assert split in SPLITS and set(pl.read_parquet(shard)["split"]) <= {split}


def test_stats_account_for_every_segment(runs):
    stats = json.loads((runs / "on" / "stats.json").read_text())["segments"]
    segments = segments_of(runs / "on")
    assert stats["segments_in"] == segments.height == stats["accepted"] + stats["rejected"]
    assert stats["accepted"] == segments["kept"].sum() and stats["pages_with_segments"] == 3
    assert stats["by_kind"] == {"post": {"segments": segments.height, "accepted": stats["accepted"]}}
    assert stats["by_reason"]["dup.exact"] == 1 and stats["first_reason"]["length.tokens"] >= 1
    assert sum(row["segments"] for row in stats["word_count"].values()) == segments.height
    assert sum(stats["accepted_by_split"].values()) == stats["accepted"]


def test_the_page_dataset_is_the_same_without_segments(runs):
    on, off = runs / "on", runs / "off"
    assert shard_bytes(on) == shard_bytes(off)
    assert not (off / "segments").exists()
    on_stats, off_stats = stats_without_timings(on), stats_without_timings(off)
    assert off_stats["segments"] == {**off_stats["segments"], "enabled": False, "segments_in": 0}
    for key in ("records_in", "accepted", "by_reason", "funnel", "dataset"):
        assert on_stats[key] == off_stats[key], key


def test_select_retunes_segments_without_extracting_again(runs):
    before, after = segments_of(runs / "on"), segments_of(runs / "retuned")
    assert after.select("id", "text").equals(before.select("id", "text"))
    thanks = after.filter(pl.col("text") == "Thanks, that helps.")
    assert "length.tokens" not in thanks["reasons"][0]  # 3 tokens, no longer under the minimum
    assert after["kept"].sum() >= before["kept"].sum()
    assert shard_bytes(runs / "retuned") == shard_bytes(runs / "on")  # pages unchanged


def test_the_card_offers_the_segments_config(runs):
    card = (runs / "on" / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    configs = {config["config_name"]: config["data_files"] for config in header["configs"]}
    stats = json.loads((runs / "on" / "stats.json").read_text())["segments"]
    assert configs["segments"] == [{"split": name, "path": f"segments/accepted/{name}-*.parquet"} for name in SPLITS
                                   if stats["accepted_by_split"].get(name)]  # datasets refuses an empty split
    assert f"| post | {stats['segments_in']} | {stats['accepted']} |" in card
    off = yaml.safe_load((runs / "off" / "README.md").read_text().split("---\n")[1])
    assert [config["config_name"] for config in off["configs"]] == ["default", "rejected"]  # no segments config


def test_hugging_face_datasets_loads_the_segments_by_split(runs, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets", reason="the Hugging Face check needs the datasets library")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = runs / "on"
    loaded = datasets.load_dataset(str(out), "segments", cache_dir=str(tmp_path / "cache"))
    kept = segments_of(out).filter(pl.col("kept"))
    assert {name: loaded[name].num_rows for name in loaded} == dict(kept.group_by("split").len().iter_rows())
    assert set(loaded) and set(loaded) <= set(SPLITS)


def test_explain_lists_the_pages_segments_with_their_reasons(runs):
    params = params_from_dict({})
    raw = find_record([str(runs / "forum.warc.gz")], PAGES[0][0], params)
    row, timings = explain_row(raw, params)
    assert [segment["author"] for segment in row["segments"]] == ["marlin", "petrel", "gannet", "tern"]
    assert [segment["kept"] for segment in row["segments"]] == [True, True, False, True]
    printed = io.StringIO()
    print_explanation(row, timings, printed)
    text = printed.getvalue()
    assert "segments:     4 (3 kept, as select judged them in the run)" in text
    assert "#2 post" in text and "REJECTED length.tokens" in text


def test_segment_params_are_checked():
    assert Params().segment is not None and Params().segment.min_tokens == 100
    assert params_from_dict({"segment": None}).segment is None
    with pytest.raises(ValueError, match="segment.max_per_page"):
        params_from_dict({"segment": {"max_per_page": 0}})
    with pytest.raises(ValueError, match="unknown key 'segment.min_words'"):
        params_from_dict({"segment": {"min_words": 3}})


def test_max_per_page_keeps_the_first_segments(tmp_path):
    write_warc(tmp_path / "one.warc.gz", [PAGES[0][:2] + ({},)])
    (tmp_path / "two.yaml").write_text("segment:\n  max_per_page: 2\n")
    assert cli("run", tmp_path / "one.warc.gz", "--out", tmp_path / "out", "--params", tmp_path / "two.yaml") == 0
    assert segments_of(tmp_path / "out")["author"].to_list() == ["marlin", "petrel"]


def test_segment_shards_do_not_depend_on_workers(runs, tmp_path):
    assert cli("run", runs / "forum.warc.gz", "--out", tmp_path / "two", "--workers", "2") == 0
    pattern = "segments/*/*.parquet"
    assert shard_bytes(tmp_path / "two", pattern) == shard_bytes(runs / "on", pattern)
    assert shard_bytes(tmp_path / "two", pattern)  # the pattern found the shards


def test_a_failing_segmenter_leaves_the_pages_as_they_are(runs, tmp_path, monkeypatch):
    # the segments step adds data beside the page: its exception is written in the page's `error`
    # and counted, never a reason, so the page dataset is the one `segment: null` gives
    def broken(*args, **kwargs):
        raise RuntimeError("a segmenter bug")

    monkeypatch.setattr("pipeline.stages.steps.page_segments", broken)
    assert cli("run", runs / "forum.warc.gz", "--out", tmp_path / "broken") == 0
    columns = ["id", "kept", "reasons", "split"]
    broken_pages = pl.read_parquet(tmp_path / "broken" / "*ed" / "*.parquet").sort("id")
    off_pages = pl.read_parquet(runs / "off" / "*ed" / "*.parquet").sort("id")
    assert broken_pages.select(columns).equals(off_pages.select(columns))
    assert not any("error.segments" in code for codes in broken_pages["reasons"] for code in codes)
    assert broken_pages["error"].str.starts_with("error.segments: RuntimeError: a segmenter bug").all()
    stats = json.loads((tmp_path / "broken" / "stats.json").read_text())
    assert stats["segments"]["pages_failed"] == len(PAGES) and stats["segments"]["segments_in"] == 0
    assert "error.segments" not in stats["by_reason"]
    assert json.loads((runs / "on" / "stats.json").read_text())["segments"]["pages_failed"] == 0


def segment_frame(page_ids: list[str]) -> pl.DataFrame:
    """Rows as `decide_segments` counts them: one a segment, a page's segments consecutive."""
    count = len(page_ids)
    return pl.DataFrame({"page_id": page_ids, "kept": [True] * count, "reasons": [[]] * count,
                         "segment_kind": ["post"] * count, "page_type": ["forum"] * count,
                         "split": ["train"] * count, "word_count": [120] * count, "language": ["en"] * count},
                        schema={"page_id": pl.String, "kept": pl.Boolean, "reasons": pl.List(pl.String),
                                "segment_kind": pl.String, "page_type": pl.String, "split": pl.String,
                                "word_count": pl.Int64, "language": pl.String})


def test_pages_with_segments_count_a_page_split_across_slices_once():
    counts = SegmentCounts()
    counts.add(segment_frame(["a", "a", "b"]))
    counts.add(segment_frame(["b", "b", "c"]))  # page b's segments go on in the next slice
    counts.add(segment_frame([]))
    counts.add(segment_frame(["d"]))
    stats = counts.to_stats(enabled=True)
    assert stats["pages_with_segments"] == 4
    assert stats["segments_in"] == 7
    assert stats["by_kind_and_language"] == {"post": {"en": {"segments": 7, "accepted": 7}}}


def test_on_a_shop_page_only_reviews_are_kept(runs):
    """page.shop_segment: select sets `shop_page_segment_kind` from the page's type; the rule keeps the
    kinds of segment.kinds_on_shop_pages there, and never fires on another page's segments."""
    pages = pl.read_parquet(runs / "on" / "work" / "extract" / "*.parquet")
    pages = pages.with_columns(pl.lit("train").alias("split"),
                               pl.when(pl.col("url").str.contains("harbour-forum")).then(pl.lit("product"))
                               .otherwise(pl.lit("forum")).alias("page_type"))
    flat = pl.from_arrow(flat_segments(pages, date(2024, 6, 1), ("product", "collection", "service")))
    assert isinstance(flat, pl.DataFrame)
    kinds = flat.select(pl.col("signals").struct.field("shop_page_segment_kind"), "url")
    assert kinds.filter(pl.col("url").str.contains("harbour-forum"))["shop_page_segment_kind"].to_list() == \
        ["post"] * 6
    assert kinds.filter(~pl.col("url").str.contains("harbour-forum"))["shop_page_segment_kind"].null_count() == 2
    rule = RULES_BY_CODE["page.shop_segment"]
    fired = flat.select(rule.expr(Params(), flat.columns))[:, 0].to_list()
    assert fired == flat["url"].str.contains("harbour-forum").to_list()  # posts on a shop page; none elsewhere
    reviews = flat.with_columns(pl.col("signals").struct.with_fields(pl.lit("review").alias("shop_page_segment_kind")))
    assert not any(reviews.select(rule.expr(Params(), flat.columns))[:, 0].to_list())
    off = params_from_dict({"segment": {"kinds_on_shop_pages": []}})
    assert not any(flat.select(rule.expr(off, flat.columns))[:, 0].to_list())


def flat_typed(pages: pl.DataFrame, lake_type: str, other_type: str, signal: str | None) -> pl.DataFrame:
    """`flat_segments` of the extracted pages with the lake-sailors page typed `lake_type`, the others
    `other_type`, and `signal` set true on every segment (None: as extracted)."""
    typed = pages.with_columns(
        pl.lit("train").alias("split"),
        pl.when(pl.col("url").str.contains("lake-sailors")).then(pl.lit(lake_type)).otherwise(pl.lit(other_type))
        .alias("page_type"))
    if signal is not None:
        typed = typed.with_columns(pl.col("segments").list.eval(pl.element().struct.with_fields(
            pl.element().struct.field("signals").struct.with_fields(pl.lit(True).alias(signal)))))
    flat = pl.from_arrow(flat_segments(typed, date(2024, 6, 1)))
    assert isinstance(flat, pl.DataFrame)
    return flat


def fired(flat: pl.DataFrame, code: str, params: Params | None = None) -> list[bool]:
    return flat.select(RULES_BY_CODE[code].expr(params or Params(), flat.columns))[:, 0].to_list()


def test_an_articles_parts_are_dropped_in_select_by_the_pages_final_type(runs):
    """page.body_part: extraction marks a segment that is a part of the extracted text (`body_part`)
    and decides nothing; select sets `body_part_page_type` from the page's final type, and the rule
    drops such parts on the types of segment.body_part_page_types only (a forum's posts stay)."""
    pages = pl.read_parquet(runs / "on" / "work" / "extract" / "*.parquet")
    stored = pages.filter(pl.col("segments").list.len() > 0).select(
        pl.col("segments").list.eval(pl.element().struct.field("signals").struct.field("body_part"))).to_series()
    # the gate turned the threads away: not extracted, so no segment is a part of a text
    assert stored.list.len().sum() == 8 and all(part is None for parts in stored.to_list() for part in parts)
    flat = flat_typed(pages, "article", "forum", "body_part")
    types = flat.select(pl.col("signals").struct.field("body_part_page_type"))[:, 0].to_list()
    assert types == ["article" if "lake-sailors" in url else "forum" for url in flat["url"]]
    # parts of an article; a forum's posts stay
    assert fired(flat, "page.body_part") == flat["url"].str.contains("lake-sailors").to_list()
    assert not any(fired(flat, "page.body_part", params_from_dict({"segment": {"body_part_page_types": []}})))
    assert not any(fired(flat_typed(pages, "article", "article", None), "page.body_part"))  # comments stay


def test_the_unsigned_parts_of_one_text_are_dropped_in_select_except_on_a_forum(runs):
    """page.unsigned_part: a page whose units show no writer and hold part of the extracted text
    (`unsigned_part`) loses them on the types of segment.unsigned_part_page_types, by default every
    type but forum: a thread whose software prints the poster and date as plain text keeps its posts."""
    pages = pl.read_parquet(runs / "on" / "work" / "extract" / "*.parquet")
    flat = flat_typed(pages, "listing", "forum", "unsigned_part")
    types = flat.select(pl.col("signals").struct.field("unsigned_part_page_type"))[:, 0].to_list()
    assert types == ["listing" if "lake-sailors" in url else "forum" for url in flat["url"]]
    assert fired(flat, "page.unsigned_part") == flat["url"].str.contains("lake-sailors").to_list()
    everywhere = params_from_dict({"segment": {"unsigned_part_page_types": ["forum", "listing"]}})
    assert all(fired(flat, "page.unsigned_part", everywhere))


# Ten threads as HTML files without a web address (no host: a page's split is by its content). Each
# holds a variant of one long post: the same three paragraphs and two of its own, so that any two
# variants share about 0.6 of their word 5-grams: under dup.near's 0.7, over dataset.cross_split's 0.5.
SHARED_POST = post_body("a guide to reefing that the whole club copies", 3)


def test_cross_split_compares_a_segment_by_its_pages_split_where_pages_have_no_host(tmp_path):
    pages = tmp_path / "pages"
    pages.mkdir()
    for number in range(10):
        variant = SHARED_POST + post_body(f"what club member {number} adds to it", 2)
        posts = [("ann", variant), ("bob", post_body(f"an unrelated reply {number}", 2)),
                 ("cy", post_body(f"another unrelated reply {number}", 2))]
        (pages / f"thread-{number}.html").write_bytes(thread(f"Reefing, thread {number}", posts))
    # the page type of a thread read without its address, and the host's repeated chunks (dup.cdc: every
    # page without a host is of one), are not what this test is about
    (tmp_path / "all.yaml").write_text("segment:\n  body_part_page_types: []\n  unsigned_part_page_types: []\n"
                                       "select:\n  dedup:\n    cdc:\n      max_duplicated_fraction: 0.9\n")
    assert cli("run", pages, "--out", tmp_path / "out", "--params", tmp_path / "all.yaml") == 0
    segments = segments_of(tmp_path / "out")
    variants = segments.filter(pl.col("author") == "ann")
    assert variants.height == 10 and variants["host"].is_null().all()
    kept_train = variants.filter(pl.col("split") == "train", ~pl.col("reasons").list.contains("dataset.cross_split"))
    others = variants.filter(pl.col("split") != "train")
    assert kept_train.height and others.height  # both sides are there: the rule has something to compare
    # every variant written outside train is contained in a kept train variant, and only those lose
    assert others["reasons"].list.contains("dataset.cross_split").all()
    assert set(others["signals"].struct.field("cross_split_train_id")) <= set(kept_train["id"])
    assert not variants.filter(pl.col("split") == "train")["reasons"].list.contains("dataset.cross_split").any()
