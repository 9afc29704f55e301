"""The select stage's duplicate passes over hash partitions: order, URL, exact, per-host CDC, and
near-duplicate clusters (MinHash LSH or simhash); the same output for any partition count."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import UTC, datetime, timedelta

import polars as pl
import pytest

from conftest import ROOT, article_html, cli, prose, write_warc
from filters.corpus.dedup import simhash64, to_int64
from filters.corpus.minhash import signature
from pipeline.params import Params, params_from_dict
from pipeline.run.executors import LocalExecutor
from pipeline.stages.dataset import split_expr
from pipeline.stages.dedup import Passes

T0 = datetime(2024, 1, 1, tzinfo=UTC)
# simhash compares no signatures: the cross-split rule, which does, is off with it
SIMHASH = {"select": {"dedup": {"near": {"method": "simhash"}}}, "dataset": {"cross_split_min_containment": None},
           "extract": {"simhash": True}}


def candidates(rows: list[dict]) -> pl.DataFrame:
    """One extract file's candidates as `compact_columns` gives them."""
    base = {"id": "x", "host": "a.example", "warc_date": None, "url": None, "normalized_url": None,
            "canonical_key": None, "content_hash": None, "simhash64": None, "minhash": None}
    frame = [{**base, "row": i, "id": f"id{i}", **row} for i, row in enumerate(rows)]
    return pl.DataFrame(frame, schema_overrides={"row": pl.UInt32, "warc_date": pl.Datetime("us", "UTC"),
                                                 "minhash": pl.Binary, "simhash64": pl.Int64})


def with_split(frame: pl.DataFrame, params: Params) -> pl.DataFrame:
    """Candidates with the split each is written to, as the engine's rules phase adds it for pages."""
    return frame.with_columns(split_expr(params, pl.col("content_hash")).alias("split"))


def decide(tmp_path, files: list[pl.DataFrame], texts: list[list[str]] | None = None, params: dict | None = None,
           executor=None, name: str = "parts", ids_per_file: bool = True) -> tuple[list[pl.DataFrame], int]:
    """The duplication signals of each file's candidates, and how many partition tasks ran.
    The files' ids are made distinct (`ids_per_file`) unless the test shares them on purpose."""
    paths = []
    for index, frame in enumerate(files):
        path = tmp_path / f"extract-{name}-{index}.parquet"
        words = texts[index] if texts else [f"text {i}" for i in range(frame.height)]
        pl.DataFrame({"text": words}).write_parquet(path)
        paths.append(str(path))
    settings = params_from_dict(params or {})
    passes = Passes(str(tmp_path / name), settings, {"files": paths})
    for index, frame in enumerate(files):
        if ids_per_file:
            frame = frame.with_columns(pl.format("f{}-{}", pl.lit(index), "id").alias("id"))
        frame = with_split(frame, settings)
        ids = frame.select("row", "id", "warc_date", pl.lit("response").alias("record_type"),
                           pl.lit(f"file{index}").alias("source_file"),
                           pl.col("row").cast(pl.Int64).alias("source_offset"))
        passes.add(index, frame, ids)
    ran = passes.run(paths, executor, None)
    found = passes.decide()
    return [found.for_file(index) for index in range(len(files))], ran


def losers(signals: pl.DataFrame, column: str) -> list[int]:
    return signals.filter(pl.col(column))["row"].to_list()


def test_order_is_capture_time_then_reading_order_with_unknown_times_last(tmp_path):
    rows = [{"warc_date": None}, {"warc_date": T0 + timedelta(seconds=1)}, {"warc_date": T0}, {"warc_date": T0}]
    (signals,), _ = decide(tmp_path, [candidates([{**row, "content_hash": "h"} for row in rows])])
    assert losers(signals, "exact_duplicate") == [0, 1, 3]  # row 2 is first: earliest, and read before row 3


def test_url_duplicates_by_normalised_or_canonical_url(tmp_path):
    (signals,), _ = decide(tmp_path, [candidates([
        {"normalized_url": "https://a.example/x"},
        {"normalized_url": "https://a.example/y", "canonical_key": "https://a.example/x"},
        {"normalized_url": "https://a.example/z"},
        {"normalized_url": "https://a.example/z"},
        {"normalized_url": "https://a.example/w", "canonical_key": "https://a.example/w"},
    ])])
    assert losers(signals, "url_duplicate") == [1, 3]


def test_exact_duplicates_first_occurrence_wins_across_files(tmp_path):
    first = candidates([{"content_hash": "h", "warc_date": T0}, {"content_hash": "g"}, {"content_hash": None}])
    second = candidates([{"content_hash": "h", "warc_date": T0 - timedelta(days=1)}, {"content_hash": None}])
    (one, two), _ = decide(tmp_path, [first, second])
    assert losers(one, "exact_duplicate") == [0] and losers(two, "exact_duplicate") == []


def story(seed: int, words: int = 400) -> str:
    return " ".join(" ".join(prose(f"story {seed}", paragraphs=12)).split()[:words])


def syndicated(text: str, seed: int) -> str:
    """The story as another site runs it: its own first sentence, a few words changed, a footer."""
    rng = random.Random(seed)
    words = text.split()
    for _ in range(len(words) // 50):
        words[rng.randrange(len(words))] = rng.choice(["reportedly", "officials", "Tuesday", "residents"])
    return f"Published by partner site {seed}. " + " ".join(words) + f" Copyright partner {seed}, all rights reserved."


def test_minhash_clusters_syndicated_copies_and_keeps_the_first(tmp_path):
    original = story(1)
    copies = [syndicated(original, seed) for seed in (2, 3)]
    texts = [copies[0], original, copies[1], story(2)]
    dates = [T0 + timedelta(days=2), T0, T0 + timedelta(days=1), T0]
    frame = candidates([{"warc_date": d, "host": f"site{i}.example", "minhash": signature(t)}
                        for i, (d, t) in enumerate(zip(dates, texts, strict=True))])
    (signals,), _ = decide(tmp_path, [frame], [texts])
    assert losers(signals, "near_duplicate") == [0, 2]  # the original (row 1) is first; row 3 is another story
    assert signals.filter(pl.col("near_duplicate"))["near_duplicate_similarity"].min() > 0.68


def test_the_cluster_keeps_its_first_page_no_other_rule_rejected(tmp_path):
    text = story(4)
    frame = candidates([{"warc_date": T0 + timedelta(days=i), "minhash": signature(text), "content_hash": h}
                        for i, h in enumerate(["same", "same", None])])
    (signals,), _ = decide(tmp_path, [frame], [[text] * 3])
    # row 1 is an exact duplicate of row 0, so row 0 is kept and rows 1 and 2 are its near duplicates
    assert losers(signals, "exact_duplicate") == [1] and losers(signals, "near_duplicate") == [1, 2]
    rows = [{"warc_date": T0 + timedelta(days=i), "minhash": signature(text), "normalized_url": u}
            for i, u in enumerate([None, "u", "u"])]
    (signals,), _ = decide(tmp_path, [candidates(rows)], [[text] * 3], name="second")
    # row 2 shares its URL with row 1 only, which is not kept: a duplicate rule names a kept page
    assert losers(signals, "url_duplicate") == [] and losers(signals, "near_duplicate") == [1, 2]


def test_simhash_method_clusters_within_the_distance(tmp_path):
    text = story(5)
    value = to_int64(simhash64(text))
    frame = candidates([{"warc_date": T0 + timedelta(days=i), "simhash64": v}
                        for i, v in enumerate([value, value ^ 0b111, value ^ 0b1111_0000, None])])
    (signals,), _ = decide(tmp_path, [frame], params=SIMHASH)
    assert losers(signals, "near_duplicate") == [1]  # 3 bits from row 0; row 2 is 4 bits from it, 7 from row 1
    assert signals.filter(pl.col("near_duplicate"))["near_duplicate_distance"].to_list() == [3]


def test_near_duplicates_off(tmp_path):
    text = story(6)
    frame = candidates([{"minhash": signature(text)}, {"minhash": signature(text)}])
    (signals,), _ = decide(tmp_path, [frame], params={"select": {"dedup": {"near": {"method": None}}}})
    assert losers(signals, "near_duplicate") == []


def mixed_files(count: int = 3, rows: int = 60) -> tuple[list[pl.DataFrame], list[list[str]]]:
    """Files of pages with repeated URLs, hashes, hosts, record ids and near-duplicate stories."""
    rng = random.Random(7)
    stories = [story(100 + i, 200) for i in range(8)]
    files, texts = [], []
    for file in range(count):
        frame, words = [], []
        for row in range(rows):
            text = syndicated(rng.choice(stories), rng.randrange(1000)) if rng.random() < 0.6 else \
                story(rng.randrange(10_000), 200)
            frame.append({"id": f"r{rng.randrange(40)}" if rng.random() < 0.15 else f"f{file}-{row}",
                          "warc_date": T0 + timedelta(hours=rng.randrange(40)) if rng.random() < 0.9 else None,
                          "host": f"h{rng.randrange(6)}.example", "normalized_url": f"u{rng.randrange(120)}",
                          "canonical_key": f"u{rng.randrange(120)}" if rng.random() < 0.2 else None,
                          "content_hash": f"c{rng.randrange(90)}", "minhash": signature(text),
                          "simhash64": to_int64(simhash64(text))})
            words.append(text)
        files.append(candidates(frame))
        texts.append(words)
    return files, texts


@pytest.mark.parametrize("method", ["minhash", "simhash"])
def test_the_same_duplicates_for_any_partition_count_and_executor(tmp_path, method):
    files, texts = mixed_files()
    settings = {"near": {"method": method}}
    dataset = SIMHASH["dataset"] if method == "simhash" else {}
    extract = SIMHASH["extract"] if method == "simhash" else {}
    one, _ = decide(tmp_path, files, texts, {"select": {"dedup": {**settings, "partitions": 1}}, "dataset": dataset,
                                             "extract": extract}, name="one", ids_per_file=False)
    assert sum(frame["near_duplicate"].sum() for frame in one) > 5  # the passes have something to find
    assert all(frame["exact_duplicate"].any() and frame["url_duplicate"].any() for frame in one)
    assert sum(frame["record_duplicate"].sum() for frame in one) > 5
    many, _ = decide(tmp_path, files, texts, {"select": {"dedup": {**settings, "partitions": 16}}, "dataset": dataset,
                                              "extract": extract}, name="many", ids_per_file=False)
    with LocalExecutor(2, apart=True) as executor:
        pooled, _ = decide(tmp_path, files, texts, {"select": {"dedup": {**settings, "partitions": 5}},
                                                    "dataset": dataset, "extract": extract},
                           executor=executor, name="pooled", ids_per_file=False)
    for a, b, c in zip(one, many, pooled, strict=True):
        assert a.equals(b) and a.equals(c)


@pytest.mark.parametrize("method", ["minhash", "simhash"])
def test_buckets_paired_a_few_rows_at_a_time_give_the_same_duplicates(tmp_path, monkeypatch, method):
    """The bucket task pairs whole buckets a chunk at a time (its memory bounded however many
    copies a story has) and sums a pair's shared buckets over the chunks: chunks of 7 rows find
    what one chunk finds."""
    from pipeline.stages.dedup import near

    files, texts = mixed_files()
    near_params = {"method": method, "min_shared_bands": 3} if method == "minhash" else {"method": method}
    params = {"select": {"dedup": {"near": near_params, "partitions": 2}},
              "dataset": SIMHASH["dataset"] if method == "simhash" else {},
              "extract": SIMHASH["extract"] if method == "simhash" else {}}
    whole, _ = decide(tmp_path, files, texts, params, name="whole", ids_per_file=False)
    chunks = list(near.bucket_chunks(pl.DataFrame({"bucket": [1, 1, 1, 2, 3, 3]}, schema={"bucket": pl.UInt64}), 2))
    assert [chunk["bucket"].to_list() for chunk in chunks] == [[1, 1, 1], [2, 3, 3]]  # a bucket is never cut
    monkeypatch.setattr(near, "BUCKET_ROWS", 7)
    pieces, _ = decide(tmp_path, files, texts, params, name="pieces", ids_per_file=False)
    assert sum(frame["near_duplicate"].sum() for frame in whole) > 5
    for a, b in zip(whole, pieces, strict=True):
        assert a.equals(b)


def test_a_rerun_skips_finished_partitions(tmp_path):
    files, texts = mixed_files(count=2, rows=20)
    params = {"select": {"dedup": {"partitions": 4}}}
    first, ran = decide(tmp_path, files, texts, params)
    assert ran > 0
    again, ran_again = decide(tmp_path, files, texts, params)
    assert ran_again == 0 and all(a.equals(b) for a, b in zip(first, again, strict=True))
    (tmp_path / "parts" / "exact" / "p00001.parquet").unlink()  # as if killed before that partition finished
    resumed, ran_resumed = decide(tmp_path, files, texts, params)
    assert ran_resumed == 1 and all(a.equals(b) for a, b in zip(first, resumed, strict=True))
    other, ran_other = decide(tmp_path, files, texts, {"select": {"dedup": {"partitions": 3}}})
    assert ran_other > 0 and all(a.equals(b) for a, b in zip(first, other, strict=True))


def run(tmp_path, records, params: dict | None = None, name="out"):
    path = tmp_path / f"{name}.warc.gz"
    write_warc(path, records)
    args = ["run", path, "--out", tmp_path / name]
    if params:
        (tmp_path / f"{name}.yaml").write_text(json.dumps(params))
        args += ["--params", tmp_path / f"{name}.yaml"]
    assert cli(*args) == 0
    rows = pl.concat([pl.read_parquet(tmp_path / name / "accepted"), pl.read_parquet(tmp_path / name / "rejected")])
    return {r["url"]: r for r in rows.iter_rows(named=True)}


SHARED = "".join(f"<p>{p}</p>" for p in prose("site-wide disclaimer", paragraphs=6))


def template(title: str) -> bytes:
    return article_html(title, paragraphs=2).replace(b"</article>", SHARED.encode() + b"</article>")


def test_cdc_is_per_host(tmp_path):
    rows = run(tmp_path, [
        ("http://a.example/post/1", template("One"), {}),
        ("http://a.example/post/2", template("Two"), {}),
        ("http://b.example/post/3", template("Three"), {}),
    ])
    assert rows["http://a.example/post/1"]["signals"]["cdc_duplicated_fraction"] == 0.0
    second = rows["http://a.example/post/2"]
    assert second["signals"]["cdc_duplicated_fraction"] > 0.5 and "dup.cdc" in second["reasons"]
    other_host = rows["http://b.example/post/3"]
    assert other_host["signals"]["cdc_duplicated_fraction"] == 0.0 and "dup.cdc" not in other_host["reasons"]


def test_cdc_threshold_and_algorithm_are_select_params(tmp_path):
    records = [("http://a.example/post/1", template("One"), {}), ("http://a.example/post/2", template("Two"), {})]
    loose = run(tmp_path, records, {"select": {"dedup": {"cdc": {"max_duplicated_fraction": 0.99}}}}, "loose")
    assert "dup.cdc" not in loose["http://a.example/post/2"]["reasons"]
    fast = run(tmp_path, records, {"select": {"dedup": {"cdc": {"algorithm": "fastcdc"}, "partitions": 3}}}, "fast")
    assert fast["http://a.example/post/2"]["signals"]["cdc_duplicated_fraction"] > 0.5


def test_duplicates_across_hosts(tmp_path):
    body = article_html("Original story", paragraphs=10)
    rows = run(tmp_path, [
        ("http://a.example/post/original", body, {}),
        ("http://b.example/post/copy", body, {}),
        ("http://a.example/post/original?utm_source=x", article_html("Other text", paragraphs=10), {}),
    ])
    assert rows["http://a.example/post/original"]["reasons"] == []
    assert {"dup.exact", "dup.near"} <= set(rows["http://b.example/post/copy"]["reasons"])
    assert rows["http://a.example/post/original?utm_source=x"]["reasons"] == ["dup.url"]


def test_sample_dup_fates(tmp_path):
    assert cli("run", ROOT / "data" / "sample", "--out", tmp_path / "s") == 0
    rows = pl.concat([pl.read_parquet(tmp_path / "s" / "accepted"), pl.read_parquet(tmp_path / "s" / "rejected")])
    manifest = json.loads((ROOT / "data" / "sample.manifest.json").read_text())
    for kind, code in (("near_duplicate", "dup.near"), ("exact_duplicate", "dup.exact"), ("url_duplicate", "dup.url")):
        entry = next(e for e in manifest if e["kind"] == kind)
        row = rows.filter(pl.col("source_offset") == entry["offset"]).row(0, named=True)
        assert code in row["reasons"], (kind, row["reasons"])
    templates = [e for e in manifest if e["kind"] == "template_page"]
    fates = [rows.filter(pl.col("source_offset") == e["offset"]).row(0, named=True)["reasons"] for e in templates]
    assert fates[0] == [] and all("dup.cdc" in f for f in fates[1:])


def test_params_reject_unknown_cdc_algorithm():
    import pytest

    from pipeline.params import ParamsError

    with pytest.raises(ParamsError, match="one of rabin, fastcdc"):
        params_from_dict({"select": {"dedup": {"cdc": {"algorithm": "gear"}}}})
    assert Params().select.dedup.near.max_hamming_distance == 3


def test_slices_of_rows_give_the_same_output_as_whole_files(tmp_path, monkeypatch):
    """The write pass and the CDC pass read a file a few rows at a time (memory flat over large
    inputs): any slice size gives the same rows, reasons and stats."""
    from pipeline.stages import select
    from pipeline.stages.dedup import partitions

    assert cli("extract", ROOT / "data" / "sample", "--out", tmp_path / "work") == 0

    def outcome(name: str) -> tuple[pl.DataFrame, dict]:
        assert cli("select", tmp_path / "work", "--out", tmp_path / name) == 0
        rows = pl.concat([pl.read_parquet(tmp_path / name / part) for part in ("accepted", "rejected")])
        stats = json.loads((tmp_path / name / "stats.json").read_text())
        stats.pop("timings")
        return rows.sort("id"), stats

    whole_rows, whole_stats = outcome("whole")
    assert whole_stats["by_reason"].get("dup.cdc", 0) > 0
    for rows_at_once in (1, 3):
        monkeypatch.setattr(select, "SLICE_ROWS", rows_at_once)
        monkeypatch.setattr(partitions, "TEXT_BATCH_ROWS", rows_at_once)
        rows, stats = outcome(f"slices{rows_at_once}")
        assert stats == whole_stats
        assert rows.equals(whole_rows)


def _shards(out) -> dict[str, bytes]:
    return {str(path.relative_to(out)): path.read_bytes() for path in sorted(out.rglob("*.parquet"))}


def test_select_de_duplicates_several_work_directories_together(tmp_path):
    body = article_html("One story on two segments", paragraphs=10)
    write_warc(tmp_path / "a.warc.gz", [("http://a.example/post/story", body, {"warc_date": "2024-01-02T00:00:00Z"})])
    write_warc(tmp_path / "b.warc.gz", [("http://b.example/post/story", body, {"warc_date": "2024-01-01T00:00:00Z"}),
                                        ("http://b.example/post/other", article_html("Other", 10), {})])
    for name in ("a", "b"):
        assert cli("extract", tmp_path / f"{name}.warc.gz", "--out", tmp_path / f"work-{name}") == 0
    assert cli("select", tmp_path / "work-a", tmp_path / "work-b", "--out", tmp_path / "ab") == 0
    rows = {r["url"]: r for r in pl.concat([pl.read_parquet(tmp_path / "ab" / p) for p in ("accepted", "rejected")])
            .iter_rows(named=True)}
    assert rows["http://b.example/post/story"]["kept"]  # captured first
    assert {"dup.exact", "dup.near"} <= set(rows["http://a.example/post/story"]["reasons"])
    assert rows["http://b.example/post/other"]["kept"]
    # the order the directories are named in changes nothing; alone, each keeps its copy
    assert cli("select", tmp_path / "work-b", tmp_path / "work-a", "--out", tmp_path / "ba", "--workers", "2") == 0
    assert _shards(tmp_path / "ab") == _shards(tmp_path / "ba")
    assert cli("select", tmp_path / "work-a", "--out", tmp_path / "a-alone") == 0
    assert pl.read_parquet(tmp_path / "a-alone" / "accepted")["url"].to_list() == ["http://a.example/post/story"]
    stats = json.loads((tmp_path / "ab" / "stats.json").read_text())
    assert stats["warnings"] == []  # the documented way to select two crawls together warns of nothing


def test_select_resume_goes_on_from_the_partitions_a_failed_run_finished(tmp_path, monkeypatch):
    from pipeline.stages import dedup
    from pipeline.stages.select import PARTITIONS_DIR

    assert cli("extract", ROOT / "data" / "sample", "--out", tmp_path / "work") == 0
    assert cli("select", tmp_path / "work", "--out", tmp_path / "fresh") == 0
    assert not (tmp_path / "fresh" / PARTITIONS_DIR).exists()  # removed after success
    ran = []
    original = dedup.groups.groups_task

    def counting(task):
        if "segment-passes" not in task.directory.path.parts:  # the sample's posts: de-duplicated after the pages
            ran.append(task.directory.name)
        return original(task)

    def failing(task):
        raise RuntimeError("killed")

    def tasks(**replaced):
        """The passes' rounds with some tasks replaced (by the task's function name)."""
        return tuple((tuple(dataclasses.replace(one, task=replaced.get(getattr(one.task, "__name__", ""), one.task))
                            for one in passes),
                      then) for passes, then in dedup.ROUNDS)

    counted, broken = tasks(groups_task=counting), tasks(groups_task=counting, near_pair_task=failing)
    monkeypatch.setattr(dedup, "ROUNDS", broken)
    dedup_params = tmp_path / "p.yaml"
    dedup_params.write_text(json.dumps({"select": {"dedup": {"partitions": 3}}}))
    assert cli("select", tmp_path / "work", "--out", tmp_path / "out", "--params", dedup_params) != 0
    assert (tmp_path / "out" / PARTITIONS_DIR / "url").is_dir() and ran
    monkeypatch.setattr(dedup, "ROUNDS", counted)
    ran.clear()
    assert cli("select", tmp_path / "work", "--out", tmp_path / "out", "--params", dedup_params, "--resume") == 0
    assert ran == []  # URL and exact partitions were finished: not run again
    assert not (tmp_path / "out" / PARTITIONS_DIR).exists()
    fresh_three = tmp_path / "fresh3"
    assert cli("select", tmp_path / "work", "--out", fresh_three, "--params", dedup_params) == 0
    assert _shards(tmp_path / "out") == _shards(fresh_three) == _shards(tmp_path / "fresh")
    # partitions of a failed run are not reused for other dataset params (the per-site balance reads them)
    monkeypatch.setattr(dedup, "ROUNDS", broken)
    assert cli("select", tmp_path / "work", "--out", tmp_path / "other", "--params", dedup_params) != 0
    monkeypatch.setattr(dedup, "ROUNDS", counted)
    other_seed = tmp_path / "seed.yaml"
    other_seed.write_text(json.dumps({"select": {"dedup": {"partitions": 3}}, "dataset": {"seed": 7}}))
    ran.clear()
    assert cli("select", tmp_path / "work", "--out", tmp_path / "other", "--params", other_seed, "--resume") == 0
    assert ran  # rebuilt


def test_candidates_without_a_signature_are_named_in_the_warnings(tmp_path):
    frame = candidates([{"content_hash": "a", "minhash": signature(story(9))}, {"content_hash": "b"},
                        {"content_hash": None}])
    ids = frame.select("row", "id", "warc_date", pl.lit("response").alias("record_type"),
                       pl.lit("f").alias("source_file"), pl.col("row").cast(pl.Int64).alias("source_offset"))
    passes = Passes(str(tmp_path / "w"), params_from_dict({}), {"files": []})
    frame = with_split(frame, Params())
    passes.add(0, frame, ids)
    assert passes.warnings() and passes.warnings()[0].startswith("1 candidates with a text have no MinHash")
    simhash = Passes(str(tmp_path / "s"), params_from_dict(SIMHASH),
                     {"files": []})
    simhash.add(0, frame, ids)
    assert simhash.warnings() == []


@pytest.mark.parametrize("where", ["local", "url"])
def test_texts_of_finds_each_page_across_files_and_row_groups(tmp_path, where):
    """The CDC and near passes read a unit of several extract files as one, rows numbered through:
    files of 7 and 5 rows, in row groups of 3 (local) or frames of 3 (at a URL), where each file's
    last group is short."""
    import fsspec

    from pipeline.stages.dedup import partitions

    sizes = (7, 5)
    paths = []
    for index, size in enumerate(sizes):
        frame = pl.DataFrame({"text": [f"file {index} row {row}" for row in range(size)]})
        if where == "local":
            path = str(tmp_path / f"f{index}.parquet")
            frame.write_parquet(path, row_group_size=3)
        else:
            path = f"memory://texts-{tmp_path.name}/f{index}.parquet"
            with fsspec.open(path, "wb") as stream:
                frame.write_parquet(stream, row_group_size=3)
        paths.append(path)
    rows = [0, 6, 7, 8, 11]  # the unit's rows: file 0's first and last, file 1's first, second and last
    found = dict(partitions.texts_of(pl.Series(rows, dtype=pl.UInt64), [tuple(paths)]))
    assert found == {0: "file 0 row 0", 6: "file 0 row 6", 7: "file 1 row 0", 8: "file 1 row 1",
                     11: "file 1 row 4"}
