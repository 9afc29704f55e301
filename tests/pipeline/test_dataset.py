"""Detector-dataset assembly (docs/dataset.md): host-disjoint splits, era labels, per-site balance,
the Hugging Face layout and the dataset card."""

from __future__ import annotations

import hashlib
import json
import random
import re
import uuid
from datetime import UTC, date, datetime
from pathlib import Path

import polars as pl
import pytest
import yaml

from conftest import article_html, cli, write_warc
from filters.corpus.dataset import SPLITS, date_source, era_columns, page_written, shown_age, site_of, split_of
from filters.page.domains import registered_domain
from pipeline.params import ParamsError, params_from_dict

CUTOFF = date(2022, 11, 30)


# ---------------------------------------------------------------- pure parts


def test_a_site_keeps_its_split_and_the_shares_follow_the_ratios():
    rng = random.Random(15)
    sites = [f"{''.join(rng.choices('abcdefghijklmnopqrstuvwxyz', k=8))}.example" for _ in range(20_000)]
    splits = [split_of(site, (0.8, 0.1, 0.1), 0) for site in sites]
    assert splits == [split_of(site, (0.8, 0.1, 0.1), 0) for site in sites]  # stable
    shares = {name: splits.count(name) / len(splits) for name in SPLITS}
    assert abs(shares["train"] - 0.8) < 0.015 and abs(shares["validation"] - 0.1) < 0.01
    assert {split_of(site, (0.0, 0.5, 0.5), 0) for site in sites[:500]} == {"validation", "test"}
    assert {split_of(site, (0.0, 0.0, 1.0), 0) for site in sites[:100]} == {"test"}
    other_seed = [split_of(site, (0.8, 0.1, 0.1), 1) for site in sites]
    assert other_seed != splits  # the seed reshuffles sites among splits


def test_subdomains_are_one_site_by_registered_domain_and_separate_by_host():
    hosts = ["news.example.co.uk", "www.example.co.uk", "EXAMPLE.co.uk", "blog.example.co.uk."]
    assert {site_of(host, "registered_domain") for host in hosts} == {"example.co.uk"}
    assert len({site_of(host, "host") for host in hosts[:2]}) == 2
    assert site_of("alice.github.io", "registered_domain") == "alice.github.io"  # a private suffix
    assert site_of(None, "registered_domain") is None


JAN_2024 = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("published, published_source, captured, era, source", [
    (datetime(2021, 3, 1, tzinfo=UTC), "json-ld", JAN_2024, "pre_cutoff", "published"),
    (datetime(2022, 11, 30, 23, 59, tzinfo=UTC), "og", None, "pre_cutoff", "published"),  # the cut-off day
    (datetime(2022, 12, 1, tzinfo=UTC), "meta", datetime(2023, 1, 1, tzinfo=UTC), "post_cutoff", "published"),
    (datetime(2015, 6, 1, tzinfo=UTC), "htmldate", JAN_2024, "pre_cutoff", "inferred"),
    (datetime(2023, 6, 1, tzinfo=UTC), "time", JAN_2024, "post_cutoff", "inferred"),
    (None, None, datetime(2020, 1, 1, tzinfo=UTC), "pre_cutoff", "captured"),
    # A capture after the cut-off proves nothing about when the text was written.
    (None, None, datetime(2024, 5, 1, tzinfo=UTC), "unknown", None),
    (None, None, None, "unknown", None),
])
def test_era_is_pre_cutoff_by_any_early_date_and_post_cutoff_only_by_a_late_publication_date(
        published, published_source, captured, era, source):
    frame = pl.DataFrame({"published": [published], "warc_date": [captured],
                          "signals": [{"published_source": published_source}]},
                         schema={"published": pl.Datetime("us", "UTC"), "warc_date": pl.Datetime("us", "UTC"),
                                 "signals": pl.Struct({"published_source": pl.String})})
    row = frame.select(era_columns(CUTOFF)).row(0, named=True)
    assert (row["era"], row["era_date_source"]) == (era, source)
    assert row["era_date"] == {"published": published, "inferred": published, "captured": captured}.get(source)


@pytest.mark.parametrize("page_type, published, source, era", [
    ("article", datetime(2015, 3, 1, tzinfo=UTC), "htmldate", "pre_cutoff"),
    # On a thread, htmldate's oldest date is often a member's join date: it cannot make it pre_cutoff ...
    ("forum", datetime(2015, 3, 1, tzinfo=UTC), "htmldate", "unknown"),
    ("forum", datetime(2015, 3, 1, tzinfo=UTC), "json-ld", "pre_cutoff"),  # ... a declared date can
    ("forum", datetime(2023, 3, 1, tzinfo=UTC), "htmldate", "post_cutoff"),  # the oldest date is after it
])
def test_an_inferred_date_does_not_make_a_forum_page_pre_cutoff(page_type, published, source, era):
    frame = pl.DataFrame({"published": [published], "warc_date": [JAN_2024], "page_type": [page_type],
                          "signals": [{"published_source": source}]},
                         schema={"published": pl.Datetime("us", "UTC"), "warc_date": pl.Datetime("us", "UTC"),
                                 "page_type": pl.String, "signals": pl.Struct({"published_source": pl.String})})
    columns = era_columns(CUTOFF, page_written(), floor=(pl.col("published"), date_source()))
    assert frame.select(columns)["era"].item() == era


def test_an_update_after_the_cut_off_keeps_a_page_out_of_pre_cutoff_only_when_asked():
    frame = pl.DataFrame({"published": [datetime(2015, 3, 1, tzinfo=UTC)] * 3, "warc_date": [JAN_2024] * 2 + [None],
                          "updated": [datetime(2023, 5, 1, tzinfo=UTC), datetime(2021, 5, 1, tzinfo=UTC), None],
                          "signals": [{"published_source": "json-ld"}] * 3},
                         schema={"published": pl.Datetime("us", "UTC"), "warc_date": pl.Datetime("us", "UTC"),
                                 "updated": pl.Datetime("us", "UTC"),
                                 "signals": pl.Struct({"published_source": pl.String})})
    assert frame.select(era_columns(CUTOFF))["era"].to_list() == ["pre_cutoff"] * 3
    strict = frame.select(era_columns(CUTOFF, modified=pl.col("updated")))
    assert strict["era"].to_list() == ["unknown", "pre_cutoff", "pre_cutoff"]


def test_a_segment_after_a_late_page_is_post_cutoff_and_its_own_date_decides_first():
    late_page, early_page = datetime(2023, 3, 1, tzinfo=UTC), datetime(2014, 1, 1, tzinfo=UTC)
    frame = pl.DataFrame({
        "published": [datetime(2015, 5, 1, tzinfo=UTC), None, None, None],  # the segment's own date
        "page_published": [late_page, late_page, early_page, None],
        "page_date_source": ["published", "inferred", "published", None],
        "warc_date": [JAN_2024] * 4,
    }, schema={"published": pl.Datetime("us", "UTC"), "page_published": pl.Datetime("us", "UTC"),
               "page_date_source": pl.String, "warc_date": pl.Datetime("us", "UTC")})
    source = pl.when(pl.col("published").is_not_null()).then(pl.lit("inferred"))
    floor = (pl.col("page_published"), pl.col("page_date_source"))
    rows = frame.select(era_columns(CUTOFF, source=source, floor=floor))
    assert rows.rows() == [
        ("pre_cutoff", datetime(2015, 5, 1, tzinfo=UTC), "inferred"),  # a post of 2015 in a thread of 2023
        ("post_cutoff", late_page, "inferred"),  # written after its page, which is after the cut-off
        ("unknown", None, None),  # a comment under a 2014 article may be of any year
        ("unknown", None, None),
    ]


@pytest.mark.parametrize("data, message", [
    ({"split_by": "domain"}, "split_by"),
    ({"split": {"train": 0.8, "validation": 0.1, "test": 0.2}}, "add up to 1"),
    ({"split": {"train": 1.1, "validation": -0.1, "test": 0.0}}, r"must be in \[0, 1\]"),
    ({"era_cutoff": "30/11/2022"}, "YYYY-MM-DD"),
    ({"host_min": 0}, "host_min"),
])
def test_bad_dataset_params_are_refused(data, message):
    with pytest.raises(ParamsError, match=message):
        params_from_dict({"dataset": data})


def test_an_unquoted_yaml_date_is_a_cut_off():
    params = params_from_dict(yaml.safe_load("dataset:\n  era_cutoff: 2023-03-14\n"))
    assert params.dataset.era_cutoff == "2023-03-14"


# ---------------------------------------------------------------- runs

def _page(title: str, published: str | None = None) -> bytes:
    body = article_html(title, paragraphs=10)
    if published is not None:
        body = body.replace(b"<head>", f'<head><meta property="article:published_time" content="{published}">'
                            .encode())
    return body


def _site_pages(seed: int, sites: int, per_site: tuple[int, int]) -> list[tuple]:
    """Articles on `sites` registered domains, several hosts each, with publication dates on
    both sides of the cut-off, some missing (capture dates on both sides too)."""
    rng = random.Random(seed)
    records = []
    for number in range(sites):
        domain = f"site{number}-{rng.randrange(10**6)}." + rng.choice(["com", "co.uk", "de", "org", "com.au"])
        for page in range(rng.randint(*per_site)):
            host = rng.choice(["www.", "news.", "blog.", ""]) + domain
            year = rng.choice([2019, 2021, 2022, 2023, 2024])
            published = None if rng.random() < 0.3 else f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            captured = rng.choice(["2020-06-01T00:00:00Z", "2025-02-01T00:00:00Z"])
            title = f"Report {number} {page} from the valley {rng.random()}"
            # Half the undated pages carry their day in the URL, which htmldate reads (`inferred`).
            path = f"{year}/06/15" if published is None and page % 2 == 0 else f"{year}"
            records.append((f"https://{host}/{path}/story-{number}-{page}", _page(title, published),
                            {"warc_date": captured}))
    rng.shuffle(records)
    return records


@pytest.fixture(scope="module")
def site_run(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("dataset")
    write_warc(base / "a.warc.gz", _site_pages(1, 24, (1, 4)))
    write_warc(base / "b.warc.gz", _site_pages(2, 24, (1, 4)))
    assert cli("run", base / "a.warc.gz", base / "b.warc.gz", "--out", base / "out", "--workers", "1") == 0
    return base


def _accepted(out: Path) -> pl.DataFrame:
    return pl.read_parquet(out / "accepted" / "*.parquet")


def test_no_registered_domain_is_in_two_splits(site_run):
    accepted = _accepted(site_run / "out")
    assert accepted.height > 60
    sites = accepted.select(pl.col("host").map_elements(registered_domain, return_dtype=pl.String).alias("site"),
                            "split")
    assert sites.group_by("site").agg(pl.col("split").n_unique().alias("n"))["n"].max() == 1
    assert set(accepted["split"]) == set(SPLITS)


def test_accepted_shards_are_named_by_split_and_read_with_one_glob(site_run):
    out = site_run / "out"
    names = sorted(path.name for path in (out / "accepted").iterdir())
    assert all(re.fullmatch(r"(train|validation|test)-\d{5}-of-\d{5}\.parquet", name) for name in names), names
    accepted = _accepted(out)
    for name in SPLITS:
        shards = sorted((out / "accepted").glob(f"{name}-*.parquet"))
        assert shards and all(shard.name.endswith(f"-of-{len(shards):05d}.parquet") for shard in shards)
        in_split = pl.read_parquet(shards)
        assert set(in_split["split"]) <= {name} and in_split.height == accepted.filter(pl.col("split") == name).height
    rejected = pl.read_parquet(out / "rejected" / "*.parquet")
    assert rejected.columns == accepted.columns and not (set(accepted["id"]) & set(rejected["id"]))
    duckdb = pytest.importorskip("duckdb")
    assert duckdb.sql(f"select count(*) from '{out}/accepted/*.parquet'").fetchone()[0] == accepted.height


def test_era_columns_follow_dates_on_both_sides_of_the_cut_off(site_run):
    accepted = _accepted(site_run / "out")
    assert set(accepted["era"]) == {"pre_cutoff", "post_cutoff", "unknown"}
    assert set(accepted["era_date_source"].drop_nulls()) == {"published", "inferred", "captured"}
    end = datetime(2022, 12, 1, tzinfo=UTC)
    captured = accepted.filter(pl.col("era_date_source") == "captured")
    assert captured.filter(pl.col("published").is_not_null() & (pl.col("published") >= end)).is_empty()
    assert (captured["era_date"] == captured["warc_date"]).all() and (captured["warc_date"] < end).all()
    dated = accepted.filter(pl.col("era_date_source").is_in(["published", "inferred"]))
    assert (dated["era_date"] == dated["published"]).all()
    # Undated pages here carry their year in the URL, which htmldate reads: inferred, never declared.
    inferred = accepted.filter(pl.col("era_date_source") == "inferred")
    assert (inferred["signals"].struct.field("published_source") == "htmldate").all()
    assert ((accepted["era"] == "pre_cutoff") == (accepted["era_date"] < end).fill_null(False)).all()
    post = accepted.filter(pl.col("era") == "post_cutoff")
    assert (post["era_date_source"] != "captured").all() and (post["published"] >= end).all()
    unknown = accepted.filter(pl.col("era") == "unknown")
    assert unknown["era_date"].is_null().all() and (unknown["warc_date"] >= end).all()


def test_card_counts_equal_stats(site_run):
    out = site_run / "out"
    stats = json.loads((out / "stats.json").read_text())
    card = (out / "README.md").read_text()
    header = yaml.safe_load(card.split("---\n")[1])
    data_files = header["configs"][0]["data_files"]
    assert [entry["split"] for entry in data_files] == list(SPLITS)
    assert header["language"] == ["en"] and header["size_categories"] == ["n<1K"]
    table = {}
    for split, era, language, pages in re.findall(r"^\| (train|validation|test) \| (\w+) \| (\w+) \| (\d+) \|$",
                                                  card, re.M):
        table[split, era, language] = int(pages)
    accepted = _accepted(out)
    language = pl.coalesce("language", pl.col("signals").struct.field("text_language")).fill_null("unknown")
    expected = accepted.group_by("split", "era", language.alias("language")).len().iter_rows()
    assert table == {(split, era, language): count for split, era, language, count in expected}
    assert sum(table.values()) == stats["accepted"]
    for name, split in stats["dataset"]["splits"].items():
        assert f"| {name} | {split['pages']} | {split['sites']} |" in card
    sources = stats["dataset"]["era_date_source"]
    assert sources["captured"] == accepted.filter(pl.col("era_date_source") == "captured").height
    by_source = accepted.group_by("era", pl.col("era_date_source").fill_null("none"), "split").len()
    for era, source, split, count in by_source.iter_rows():
        assert stats["dataset"]["splits"][split]["era_date_source"][f"{era}/{source}"] == count
    for era, source in {(era, source) for era, source, _, _ in by_source.iter_rows()}:
        counts = " | ".join(str(by_source.filter((pl.col("era") == era) & (pl.col("era_date_source") == source)
                                                 & (pl.col("split") == name))["len"].sum()) for name in SPLITS)
        assert f"| {era} | {source} | {counts} |" in card
    for step in stats["funnel"]:
        assert f"| {step['stage']} | {step['remaining']} |" in card
    for path in ("a.warc.gz", "b.warc.gz"):
        import hashlib
        data = (site_run / path).read_bytes()
        assert f"| {len(data)} | {hashlib.sha256(data).hexdigest()} |" in card


def test_load_dataset_gives_the_splits(site_run, tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets", reason="the Hugging Face check needs the datasets library")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = site_run / "out"
    loaded = datasets.load_dataset("parquet", data_dir=str(out / "accepted"), cache_dir=str(tmp_path / "cache"))
    counts = dict(_accepted(out).group_by("split").len().iter_rows())
    assert {name: loaded[name].num_rows for name in loaded} == counts
    assert set(loaded) == set(SPLITS)


def test_split_and_era_do_not_depend_on_workers_or_input_order(site_run, tmp_path):
    base = site_run
    assert cli("run", base / "b.warc.gz", base / "a.warc.gz", "--out", tmp_path / "two", "--workers", "2") == 0
    columns = ["id", "split", "era", "era_date", "era_date_source"]
    first = _accepted(base / "out").select(columns).sort("id")
    second = _accepted(tmp_path / "two").select(columns).sort("id")
    assert first.equals(second)
    names = sorted(path.name for path in (base / "out" / "accepted").iterdir())
    assert names == sorted(path.name for path in (tmp_path / "two" / "accepted").iterdir())


# ---------------------------------------------------------------- per-site balance

def _balance_run(tmp_path: Path, params: str, name: str) -> pl.DataFrame:
    """Five articles on one site (three hosts), two on another, one on a third; each record's id
    fixed (the sample is drawn by the ids' hashes: random ids would make it another on every run)."""
    source = tmp_path / "sites.warc.gz"
    if not source.exists():
        pages = [(f"https://{host}.five.example.org/2024/05/page-{n}", _page(f"Five {n} harbour"))
                 for n, host in enumerate(["www", "news", "blog", "www", "news"])]
        pages += [(f"https://two.example.net/2024/05/page-{n}", _page(f"Two {n} meadow")) for n in range(2)]
        pages += [("https://one.example.com/2024/05/page", _page("One orchard"))]
        write_warc(source, [(url, body, {"record_id": f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, url)}>"})
                            for url, body in pages])
    # hand-written pages are too thin for a model of real pages: the balance rules are tested alone
    model_off = "extract:\n  gate:\n    use_page_model: false\n" \
                "select:\n  page:\n    use_page_model: false\n"
    (tmp_path / f"{name}.yaml").write_text(params + model_off)
    out = tmp_path / name
    assert cli("run", source, "--out", out, "--params", tmp_path / f"{name}.yaml") == 0
    accepted = pl.read_parquet(out / "accepted" / "*.parquet")
    rejected = pl.read_parquet(out / "rejected" / "*.parquet")
    return pl.concat([accepted, rejected]).with_columns(
        pl.col("host").map_elements(registered_domain, return_dtype=pl.String).alias("site"))


def _kept_per_site(rows: pl.DataFrame) -> dict[str, int]:
    return {site: int(kept) for site, kept in rows.group_by("site").agg(pl.col("kept").sum()).iter_rows()}


def test_host_min_at_both_sides_of_its_threshold(tmp_path):
    rows = _balance_run(tmp_path, "dataset:\n  host_min: 2\n", "min2")
    assert _kept_per_site(rows) == {"example.org": 5, "example.net": 2, "example.com": 0}
    assert rows.filter(pl.col("site") == "example.com")["reasons"].to_list() == [["dataset.host_min"]]
    rows = _balance_run(tmp_path, "dataset:\n  host_min: 3\n", "min3")
    assert _kept_per_site(rows) == {"example.org": 5, "example.net": 0, "example.com": 0}
    assert rows.filter(~pl.col("kept"))["reasons"].to_list() == [["dataset.host_min"]] * 3
    counts = rows.filter(pl.col("site") == "example.net")["signals"].struct.field("site_accepted_pages")
    assert counts.to_list() == [2, 2]


def test_host_cap_at_both_sides_of_its_threshold_with_a_deterministic_sample(tmp_path):
    assert _kept_per_site(_balance_run(tmp_path, "dataset:\n  host_cap: 5\n", "cap5")) == {
        "example.org": 5, "example.net": 2, "example.com": 1}
    rows = _balance_run(tmp_path, "dataset:\n  host_cap: 4\n", "cap4")
    assert _kept_per_site(rows) == {"example.org": 4, "example.net": 2, "example.com": 1}
    dropped = rows.filter(~pl.col("kept"))
    assert dropped["reasons"].to_list() == [["dataset.host_cap"]]
    rank = dropped["signals"].struct.field("site_sample_rank").item()
    assert rank == 4
    again = _balance_run(tmp_path, "dataset:\n  host_cap: 4\n  seed: 0\n", "cap4-again")
    assert again.filter(~pl.col("kept"))["id"].to_list() == dropped["id"].to_list()
    samples = set()
    for seed in range(4):
        site = _balance_run(tmp_path, f"dataset:\n  host_cap: 2\n  seed: {seed}\n", f"cap2-{seed}") \
            .filter(pl.col("site") == "example.org")
        lowest = sorted(site["id"].to_list(), key=lambda page: hashlib.sha256(f"{seed}\x00{page}".encode()).digest())
        kept = sorted(site.filter(pl.col("kept"))["id"].to_list())
        assert kept == sorted(lowest[:2])  # the two pages of the lowest hash of seed and id
        samples.add(tuple(kept))
    assert len(samples) > 1  # the seed draws another sample (with these fixed ids: three samples of four)


def test_no_splits_keeps_part_shards_and_a_null_split(tmp_path):
    rows = _balance_run(tmp_path, "dataset:\n  split_by: null\n", "nosplit")
    assert rows["split"].null_count() == rows.height
    names = sorted(path.name for path in (tmp_path / "nosplit" / "accepted").iterdir())
    assert names == ["part-00000.parquet"]
    card = (tmp_path / "nosplit" / "README.md").read_text()
    assert "accepted/part-*.parquet" in card


# ---------------------------------------------------------------- syndicated stories


def _syndicated_copy(paragraphs: list[str], site: int) -> bytes:
    """The story as site `site` runs it: its own lede, a word changed every 40 or so, a footer."""
    rng = random.Random(site)
    words = " ".join(paragraphs).split()
    for index in range(site, len(words), 40):
        words[index] = rng.choice(["reportedly", "officials", "Tuesday", "residents", "nearby"])
    body = " ".join(words)
    lede = f"<p>Partner desk {site}: this report first appeared elsewhere and is shared with permission today.</p>"
    footer = f"<p>Distributed by the partner network to member site number {site}. All rights reserved.</p>"
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Valley flood story</title></head><body>"
            f"<article><h1>Valley flood story</h1>{lede}<p>{body}</p>{footer}</article></body></html>").encode()


def _hosts_in_three_splits() -> list[str]:
    """Hosts whose sites fall in train, validation and test under the default split params."""
    wanted, found = set(SPLITS), {}
    for number in range(10_000):
        host = f"www.paper{number}.example"
        split = split_of(site_of(host, "registered_domain"), (0.8, 0.1, 0.1), 0)
        if split in wanted and split not in found:
            found[split] = host
        if len(found) == len(wanted):
            return [found[name] for name in SPLITS]
    raise AssertionError("no hosts for all three splits")


@pytest.mark.parametrize("method", ["minhash", "simhash", None])
def test_a_story_syndicated_on_three_sites_is_never_in_two_splits(tmp_path, method):
    from conftest import prose

    paragraphs = prose("syndicated valley flood story", paragraphs=10)
    hosts = _hosts_in_three_splits()
    records = [(f"https://{host}/news/valley-flood", _syndicated_copy(paragraphs, site),
                {"warc_date": f"2024-03-0{site + 1}T08:00:00Z"}) for site, host in enumerate(hosts)]
    records += [(f"https://{hosts[0]}/news/other-{n}", article_html(f"Other story {n}", paragraphs=10),
                 {"warc_date": "2024-03-05T08:00:00Z"}) for n in range(2)]
    write_warc(tmp_path / "s.warc.gz", records)
    off = {"cross_split_min_containment": None} if method == "simhash" else {}
    extract = {"simhash": True} if method == "simhash" else {}
    (tmp_path / "p.yaml").write_text(json.dumps({"select": {"dedup": {"near": {"method": method}}}, "dataset": off,
                                                 "extract": extract}))
    assert cli("run", tmp_path / "s.warc.gz", "--out", tmp_path / "out", "--params", tmp_path / "p.yaml") == 0
    rows = pl.concat([pl.read_parquet(tmp_path / "out" / part) for part in ("accepted", "rejected")])
    story = rows.filter(pl.col("url").str.ends_with("/valley-flood"))
    kept = story.filter(pl.col("kept"))
    assert rows.filter(pl.col("url").str.contains("/other-"))["kept"].all()
    if method == "minhash":
        # the first site to run it keeps it; the copies are near duplicates, whatever their split
        assert kept["url"].to_list() == [f"https://{hosts[0]}/news/valley-flood"]
        assert all("dup.near" in reasons for reasons in story.filter(~pl.col("kept"))["reasons"])
        assert story.filter(~pl.col("kept"))["signals"].struct.field("near_duplicate_containment").min() >= 0.7
    elif method is None:
        # no dup.near: the train copy is kept, the validation and test copies share its story
        assert kept["split"].to_list() == ["train"]
        rejected = story.filter(~pl.col("kept"))
        assert rejected["reasons"].to_list() == [["dataset.cross_split"]] * 2
        assert set(rejected["split"]) == {"validation", "test"}
        assert set(rejected["signals"].struct.field("cross_split_train_id")) == {kept["id"].item()}
        stats = json.loads((tmp_path / "out" / "stats.json").read_text())
        assert stats["dataset"]["cross_split"]["rejected"] == {"train": 0, "validation": 1, "test": 1}
        card = (tmp_path / "out" / "README.md").read_text()
        assert "Removed: 1 validation and 1 test pages" in card and "at least 0.5 of its word 5-grams" in card
        assert "Nothing is removed from it afterwards" in card
    else:
        # simhash at distance 3 misses edited copies, and the cross-split rule is off with it: the story
        # leaks into several splits
        assert kept.height == 3 and kept["split"].n_unique() == 3


def test_select_refuses_a_work_directory_without_the_signals_it_reads(site_run, tmp_path, capsys):
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    work = tmp_path / "work"
    shutil.copytree(site_run / "out" / "work", work)
    for path in (work / "extract").glob("*.parquet"):
        table = pq.read_table(path)
        signals = table.column("signals").combine_chunks()
        kept = [field for field in signals.type if field.name != "published_source"]
        older = pa.StructArray.from_arrays([signals.field(field.name) for field in kept], fields=kept,
                                           mask=signals.is_null())
        pq.write_table(table.set_column(table.schema.get_field_index("signals"), "signals", older), path)
    capsys.readouterr()
    assert cli("select", work, "--out", tmp_path / "out") != 0
    error = capsys.readouterr().err
    assert "older corpus-filter" in error and "published_source" in error and "pipeline extract" in error
    assert not (tmp_path / "out" / "stats.json").exists()


def test_the_card_s_method_is_what_the_params_in_force_ran():
    from pipeline.report.dataset_card import _how_text

    stats = {"records_in": 3, "accepted": 2, "rejected": 1}
    default = _how_text(stats, params_from_dict({}).effective())
    assert "MinHash" in default and "simhash" not in default and "no per-site balance" in default
    assert "page-type model" in default and "best of two" not in default
    changed = _how_text(stats, params_from_dict({
        "select": {"dedup": {"near": {"method": "simhash"}, "exact": False}},
        "dataset": {"host_cap": 40, "cross_split_min_containment": None},
        "extract": {"cascade": {"selection": "seed"}, "gate": {"use_page_model": False, "article_score_min": 35},
                    "simhash": True}}).effective())
    assert "simhash within 3 bits" in changed and "MinHash" not in changed and "same text" not in changed
    assert "at most 40 pages per site" in changed and "best of two" in changed
    assert "article score (below 35)" in changed and "page-type model (article" not in changed


@pytest.mark.parametrize("least, most, era, source, era_date", [
    (900, 1300, "pre_cutoff", "relative", datetime(2021, 7, 15, tzinfo=UTC)),  # "3 years ago": all before the cut-off
    (200, 300, "post_cutoff", "relative", datetime(2023, 3, 7, tzinfo=UTC)),  # "8 months ago": all after it
    (300, 600, "unknown", None, None),  # "a year ago", read in January 2024: the interval holds the cut-off
    (None, None, "unknown", None, None),  # no age shown
])
def test_an_age_decides_an_era_only_where_its_whole_interval_lies_on_one_side(least, most, era, source, era_date):
    frame = pl.DataFrame({"published": [None], "warc_date": [JAN_2024],
                          "signals": [{"published_source": None, "age_min_days": least, "age_max_days": most}]},
                         schema={"published": pl.Datetime("us", "UTC"), "warc_date": pl.Datetime("us", "UTC"),
                                 "signals": pl.Struct({"published_source": pl.String, "age_min_days": pl.Int32,
                                                       "age_max_days": pl.Int32})})
    row = frame.select(era_columns(CUTOFF, age=shown_age())).row(0, named=True)
    assert (row["era"], row["era_date_source"], row["era_date"]) == (era, source, era_date)


def test_a_date_or_an_early_capture_decides_before_an_age():
    frame = pl.DataFrame({"published": [datetime(2015, 1, 1, tzinfo=UTC), None],
                          "warc_date": [JAN_2024, datetime(2020, 1, 1, tzinfo=UTC)],
                          "signals": [{"published_source": "json-ld", "age_min_days": 10, "age_max_days": 20}] * 2},
                         schema={"published": pl.Datetime("us", "UTC"), "warc_date": pl.Datetime("us", "UTC"),
                                 "signals": pl.Struct({"published_source": pl.String, "age_min_days": pl.Int32,
                                                       "age_max_days": pl.Int32})})
    rows = frame.select(era_columns(CUTOFF, age=shown_age()))
    assert rows["era_date_source"].to_list() == ["published", "captured"]
