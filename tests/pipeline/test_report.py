"""`pipeline report`: every figure and CSV is written, index.html links only what exists, and the
counts agree with stats.json and the shards; a run with nothing accepted still gets every figure."""

from __future__ import annotations

import csv
import html
import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest

from conftest import ROOT, cli
from filters.page.domains import registered_domain
from pipeline.report.figures import plain_label
from pipeline.report.html import render_index
from pipeline.report.index import (
    SIGNAL_PLOTS,
    histogram_table,
    reasons_table,
    rule_facts,
    threshold_for,
    write_report,
)
from pipeline.run.executors import LocalExecutor

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FIGURES = {"funnel", "reasons", "cooccurrence", "page_types", "segments", "language_keep_rates", "hosts", "languages",
           "years", "split_era",
           *(f"signal_{plot.name}" for plot in SIGNAL_PLOTS)}
EXPECTED = {*(f"{name}.png" for name in FIGURES), *(f"{name}.csv" for name in FIGURES), "host_pages.csv",
            "index.html"}


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory) -> Path:
    run = tmp_path_factory.mktemp("report") / "run"
    assert cli("run", ROOT / "data" / "sample", "--out", run) == 0
    return run


@pytest.fixture(scope="module")
def report(sample_run) -> tuple[Path, list[Path]]:
    out = sample_run / "report"
    return out, write_report(sample_run, out)


@pytest.fixture(scope="module")
def nothing_accepted(sample_run, tmp_path_factory) -> tuple[Path, list[Path]]:
    base = tmp_path_factory.mktemp("nothing-accepted")
    params = base / "params.yaml"
    params.write_text("select:\n  length:\n    min_tokens: 1000000\n", encoding="utf-8")
    run = base / "run"
    assert cli("select", sample_run / "work", "--out", run, "--params", params) == 0
    return run, write_report(run, run / "report")


def stats_of(run: Path) -> dict:
    return json.loads((run / "stats.json").read_text(encoding="utf-8"))


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


class IndexParser(HTMLParser):
    """Collects every href/src and the text of every cell marked with data-key (per reason row)."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.cells: dict[tuple[str | None, str], str] = {}
        self._reason: str | None = None
        self._key: str | None = None
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        self.tags.add(tag)
        self.links += [value for name, value in attrs if name in ("href", "src") and value is not None]
        if tag == "tr":
            self._reason = values.get("data-reason")
        if tag == "td" and values.get("data-key"):
            self._key = values["data-key"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._key = None

    def handle_data(self, data: str) -> None:
        if self._key is not None:
            self.cells[(self._reason, self._key)] = data


def parse_index(out: Path) -> IndexParser:
    parser = IndexParser()
    parser.feed((out / "index.html").read_text(encoding="utf-8"))
    return parser


def number(text: str) -> int:
    return int(text.replace(",", ""))


def assert_complete(out: Path, written: list[Path]) -> None:
    assert {p.name for p in written} == EXPECTED
    assert all(p.parent == out for p in written)
    for path in written:
        assert path.is_file() and path.stat().st_size > 0, path
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == PNG_MAGIC, path
        if path.suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as fh:
                header = next(csv.reader(fh))
            assert header and all(header), path


# ---------------------------------------------------------------- the bundled sample

def test_every_figure_and_csv_is_written(report):
    out, written = report
    assert_complete(out, written)


def test_index_links_only_existing_files_and_every_figure(report):
    out, written = report
    parser = parse_index(out)
    assert parser.links
    for link in parser.links:
        assert "://" not in link and not link.startswith("/"), f"not a relative link: {link}"
        assert (out / link).is_file(), f"index.html links a missing file: {link}"
    assert {p.name for p in written if p.suffix in (".png", ".csv")} <= set(parser.links)
    assert not parser.tags & {"script", "link", "iframe"}, "the page must be static and self-contained"


def test_index_counts_agree_with_stats(sample_run, report):
    out, _ = report
    stats = stats_of(sample_run)
    cells = parse_index(out).cells
    for key in ("records_in", "accepted", "rejected"):
        assert number(cells[(None, key)]) == stats[key], key
    reasons = {reason for reason, _ in cells if reason is not None}
    assert reasons == set(stats["by_reason"]) | set(stats["first_reason"])
    for reason in reasons:
        assert number(cells[(reason, "by_reason")]) == stats["by_reason"].get(reason, 0), reason
        assert number(cells[(reason, "first_reason")]) == stats["first_reason"].get(reason, 0), reason


def test_funnel_csv_agrees_with_stats(sample_run, report):
    out, _ = report
    stats = stats_of(sample_run)
    rows = read_csv(out / "funnel.csv")
    assert [(r["stage"], int(r["remaining"])) for r in rows] == [(s["stage"], s["remaining"]) for s in stats["funnel"]]
    assert int(rows[0]["remaining"]) == stats["records_in"]
    assert int(rows[-1]["remaining"]) == stats["accepted"]
    assert sum(int(r["removed"]) for r in rows) == stats["rejected"]


def test_reasons_csv_agrees_with_stats_sorted_by_count(sample_run, report):
    out, _ = report
    stats = stats_of(sample_run)
    rows = read_csv(out / "reasons.csv")
    assert {r["reason"]: int(r["all_reasons"]) for r in rows if int(r["all_reasons"])} == stats["by_reason"]
    assert {r["reason"]: int(r["first_reason"]) for r in rows if int(r["first_reason"])} == stats["first_reason"]
    assert sum(int(r["first_reason"]) for r in rows) == stats["rejected"]
    totals = [int(r["all_reasons"]) for r in rows]
    assert totals == sorted(totals, reverse=True)


def test_cooccurrence_diagonal_is_each_reasons_total(sample_run, report):
    out, _ = report
    by_reason = stats_of(sample_run)["by_reason"]
    pairs = read_csv(out / "cooccurrence.csv")
    diagonal = {r["reason_a"]: int(r["pages"]) for r in pairs if r["reason_a"] == r["reason_b"]}
    assert 0 < len(diagonal) <= 20
    assert all(by_reason[code] == count for code, count in diagonal.items())
    # the most frequent reasons are the ones shown
    assert min(diagonal.values()) >= sorted(by_reason.values(), reverse=True)[len(diagonal) - 1]
    symmetric = {(r["reason_a"], r["reason_b"]): r["pages"] for r in pairs}
    assert all(symmetric[(b, a)] == count for (a, b), count in symmetric.items())
    assert all(int(count) <= min(diagonal[a], diagonal[b]) for (a, b), count in symmetric.items())


def test_accepted_page_breakdowns_agree_with_the_shards(sample_run, report):
    out, _ = report
    shard = pl.read_parquet(sample_run / "accepted")
    accepted = stats_of(sample_run)["accepted"]
    assert shard.height == accepted
    per_host = shard.drop_nulls("host").group_by("host").len()
    hosts = {int(r["min_accepted_pages"]): int(r["hosts"]) for r in read_csv(out / "hosts.csv")}
    assert hosts == {n: int((per_host["len"] >= n).sum()) for n in (1, 5, 15)}
    assert hosts[1] > 0
    cells = parse_index(out).cells
    assert {n: number(cells[(None, f"hosts_min_{n}")]) for n in (1, 5, 15)} == hosts
    assert sum(int(r["accepted_pages"]) for r in read_csv(out / "host_pages.csv")) == per_host["len"].sum()
    languages = {r["language"]: int(r["accepted_pages"]) for r in read_csv(out / "languages.csv")}
    assert sum(languages.values()) == accepted and languages.get("en", 0) > 0
    years = read_csv(out / "years.csv")
    assert sum(int(r["accepted_pages"]) for r in years) == accepted
    assert [r["year"] for r in years if r["year"] != "unknown"] == sorted(r["year"] for r in years
                                                                         if r["year"] != "unknown")


def test_page_type_keep_rates_agree_with_the_shards(sample_run, report):
    out, _ = report
    rows = pl.concat([pl.read_parquet(sample_run / "accepted"), pl.read_parquet(sample_run / "rejected")],
                     how="diagonal_relaxed").drop_nulls("page_type")
    assert rows.height > 0  # the defaults run the model
    table = {r["page_type"]: r for r in read_csv(out / "page_types.csv")}
    expected = {kind: (group.height, int(group["kept"].sum())) for (kind,), group in rows.group_by("page_type")}
    assert {kind: (int(r["pages"]), int(r["kept"])) for kind, r in table.items()} == expected
    for r in table.values():
        assert float(r["keep_rate"]) == round(int(r["kept"]) / int(r["pages"]), 4)


def test_language_keep_rates_agree_with_the_shards(sample_run, report):
    out, _ = report
    rows = pl.concat([pl.read_parquet(sample_run / "accepted"), pl.read_parquet(sample_run / "rejected")],
                     how="diagonal_relaxed")
    languages = rows["signals"].struct.field("text_language")
    rows = rows.with_columns(languages.alias("detected")).drop_nulls("detected")
    assert rows.height > 0
    table = {r["text_language"]: r for r in read_csv(out / "language_keep_rates.csv")}
    expected = {language: (group.height, int(group["kept"].sum())) for (language,), group in rows.group_by("detected")}
    assert {language: (int(r["pages"]), int(r["kept"])) for language, r in table.items()} == expected
    for r in table.values():
        assert float(r["keep_rate"]) == round(int(r["kept"]) / int(r["pages"]), 4)
    stats = json.loads((sample_run / "stats.json").read_text())
    assert {language: (r["pages"], r["kept"]) for language, r in stats["by_text_language"].items()} == expected
    card = (sample_run / "README.md").read_text()
    for language, (pages, kept) in expected.items():
        assert f"| {language} | {pages} | {kept} | {kept / pages:.3f} |" in card


def test_histograms_count_every_non_null_signal(sample_run, report):
    out, _ = report
    rows = pl.concat([pl.read_parquet(sample_run / "accepted"), pl.read_parquet(sample_run / "rejected")])
    for plot in SIGNAL_PLOTS:
        values = rows[plot.name] if plot.name in rows.columns else rows["signals"].struct.field(plot.name)
        bins = read_csv(out / f"signal_{plot.name}.csv")
        assert sum(int(b["accepted"]) + int(b["rejected"]) for b in bins) == values.drop_nulls().len(), plot.name
        kept = rows.filter(values.is_not_null())["kept"].sum()
        assert sum(int(b["accepted"]) for b in bins) == kept, plot.name


def test_thresholds_come_from_the_run_params(sample_run):
    stats = stats_of(sample_run)
    by_name = {plot.name: rule_facts(plot) for plot in SIGNAL_PLOTS}
    assert threshold_for(by_name["article_score"], stats) == stats["params"]["extract"]["gate"]["article_score_min"]
    assert threshold_for(by_name["gopher_alpha_word_fraction"], stats) == \
        stats["params"]["select"]["gopher"]["min_alpha_word_fraction"]
    stats["params"]["select"]["dedup"]["cdc"]["max_duplicated_fraction"] = None  # rule off: no line
    assert threshold_for(by_name["cdc_duplicated_fraction"], stats) is None


@pytest.mark.parametrize("workers, here_too", [(1, False), (2, False), (1, True)])
def test_figures_are_byte_for_byte_reproducible(sample_run, report, tmp_path, workers, here_too):
    """Drawn again, in this process, by two worker processes, or by a process apart and this one
    together (a one-worker run's report): the same bytes."""
    out, written = report
    with LocalExecutor(workers, apart=here_too) as executor:
        again = write_report(sample_run, tmp_path / "again", executor, here_too=here_too)
    assert [p.name for p in again] == [p.name for p in written]
    for first, second in zip(written, again, strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name


# ---------------------------------------------------------------- edge cases

def test_run_with_nothing_accepted_still_gets_every_figure(nothing_accepted):
    run, written = nothing_accepted
    stats = stats_of(run)
    assert stats["accepted"] == 0 and stats["rejected"] == stats["records_in"] > 0
    out = run / "report"
    assert_complete(out, written)
    assert all((out / link).is_file() for link in parse_index(out).links)
    assert {int(r["hosts"]) for r in read_csv(out / "hosts.csv")} == {0}
    assert read_csv(out / "languages.csv") == [] and read_csv(out / "years.csv") == []
    cells = parse_index(out).cells
    assert number(cells[(None, "accepted")]) == 0
    assert number(cells[("length.tokens", "by_reason")]) == stats["by_reason"]["length.tokens"]


def test_run_without_shards_still_gets_every_figure(sample_run, tmp_path):
    (tmp_path / "stats.json").write_bytes((sample_run / "stats.json").read_bytes())
    written = write_report(tmp_path, tmp_path / "report")
    assert_complete(tmp_path / "report", written)
    assert read_csv(tmp_path / "report" / "signal_article_score.csv") == []


def test_histogram_keeps_outliers_in_the_end_bins():
    plot = next(p for p in SIGNAL_PLOTS if p.name == "word_count")
    words = [*range(100), 10**6, None]
    rows = pl.LazyFrame({"word_count": words, "kept": [n is not None and n % 2 == 0 for n in words]})
    table = histogram_table(rows, plot, threshold=110.0)
    assert table["accepted"].sum() + table["rejected"].sum() == 101
    assert table["accepted"].sum() == 51
    assert table["bin_end"][-1] < 10**6  # the far outlier does not stretch the axis
    assert table["bin_end"][-1] >= 110  # a threshold near the data is on the axis
    assert histogram_table(rows, plot, threshold=10.0**7)["bin_end"][-1] < 10**6  # a far one is not


def test_missing_stats_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="stats.json"):
        write_report(tmp_path, tmp_path / "report")
    assert not (tmp_path / "report").exists()


def test_text_from_the_data_is_escaped():
    stats = {"records_in": 1, "accepted": 0, "rejected": 1, "by_reason": {"error.<script>x": 1},
             "first_reason": {"error.<script>x": 1}}
    page = render_index(stats, reasons_table(stats), pl.DataFrame({"min_accepted_pages": [1], "hosts": [0]}), [])
    assert "<script>" not in page
    assert "error.&lt;script&gt;x" in page


def test_labels_from_pages_are_one_line_and_cut_to_fit():
    assert plain_label("a\n  b") == "a b"
    label = plain_label("h" * 100)
    assert len(label) == 60 and label.endswith("…")


def test_split_era_figure_and_split_tables_agree_with_the_shards(sample_run, report):
    out, _ = report
    shard = pl.read_parquet(sample_run / "accepted")
    by_source = shard.group_by("split", "era", pl.col("era_date_source").fill_null("none")).len()
    expected = {(split, era, source): count for split, era, source, count in by_source.iter_rows()}
    assert {(r["split"], r["era"], r["era_date_source"]): int(r["accepted_pages"])
            for r in read_csv(out / "split_era.csv")} == expected
    cells = parse_index(out).cells
    for split, pages in shard.group_by("split").len().iter_rows():
        assert number(cells[(None, f"{split}_pages")]) == pages
        hosts = shard.filter(pl.col("split") == split)["host"].drop_nulls().n_unique()
        assert number(cells[(None, f"{split}_hosts")]) == hosts
        sites = shard.filter(pl.col("split") == split)["host"].map_elements(registered_domain, return_dtype=pl.String)
        assert number(cells[(None, f"{split}_sites")]) == sites.drop_nulls().n_unique()
        assert number(cells[(None, f"{split}_sites")]) == stats_of(sample_run)["dataset"]["splits"][split]["sites"]
    language = pl.coalesce("language", pl.col("signals").struct.field("text_language")).fill_null("unknown")
    for split, lang, pages in shard.group_by("split", language.alias("language")).len().iter_rows():
        assert number(cells[(None, f"{split}_{lang}")]) == pages


def test_index_shows_the_first_rejected_pages_of_each_reason(sample_run, report):
    out, _ = report
    page = (out / "index.html").read_text(encoding="utf-8")
    rejected = pl.read_parquet(sample_run / "rejected")
    stats = stats_of(sample_run)
    for code in stats["by_reason"]:
        with_code = rejected.filter(pl.col("reasons").list.contains(code))
        assert f'<h3 data-reason="{code}">' in page
        section = page.split(f'<h3 data-reason="{code}">', 1)[1].split("</table>", 1)[0]
        shown = with_code.head(3)
        assert section.count("<tr>") == 1 + shown.height  # header + examples
        for url in shown["url"]:
            assert html.escape(url or "") in section


def test_the_segments_table_counts_each_kind_and_page_type():
    from pipeline.report.index import segments_table

    stats = {"segments": {"by_kind": {"post": {"segments": 4, "accepted": 1}},
                          "by_page_type": {"forum": {"segments": 4, "accepted": 1}}}}
    table = segments_table(stats)
    assert table.rows() == [("kind post", 4, 1, 0.25), ("page type forum", 4, 1, 0.25)]
    assert segments_table({}).height == 0  # a run of an older version, or segmentation off


def test_a_worker_draws_the_report_without_importing_the_filters():
    # the figures' workers import the report's modules (REPORT_PRELOAD); the rules they show come
    # from the driver (`RuleFacts`), so no worker imports every filter to draw a histogram
    code = ("import sys; from pipeline.report.figures import REPORT_PRELOAD; import importlib; "
            "[importlib.import_module(name) for name in REPORT_PRELOAD]; "
            "print(sorted(name for name in ('filters.rules.reasons', 'filters.extract.cascade', 'ftfy') "
            "if name in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"
