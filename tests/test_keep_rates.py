"""benchmarks/keep_rates.py: the snapshot comparison, and two runs on the bundled sample."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load_script() -> ModuleType:
    # benchmarks/ is not a package: load the script from its path.
    spec = importlib.util.spec_from_file_location("keep_rates", ROOT / "benchmarks" / "keep_rates.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


keep_rates = _load_script()


def _page(page_id: str, reasons: list[str]) -> dict:
    return {"id": page_id, "url": f"https://example.org/{page_id}", "kept": not reasons, "reasons": reasons}


BEFORE = {"pages": [
    _page("a", []),                                          # becomes too short
    _page("b", ["gopher.word_count", "dup.near"]),           # becomes accepted
    _page("c", ["length.tokens", "block.no_long_block"]),    # loses one reason, stays rejected
    _page("d", ["length.tokens"]),                           # unchanged
    _page("e", ["record.not_html"]),                         # only before
    _page("g", []),                                          # becomes too short, like a
]}
AFTER = {"pages": [
    _page("a", ["length.tokens"]),
    _page("b", []),
    _page("c", ["length.tokens"]),
    _page("d", ["length.tokens"]),
    _page("f", []),                                          # only after
    _page("g", ["length.tokens"]),
]}


def test_diff_reports_moved_pages_each_way_with_their_reasons() -> None:
    diff = keep_rates.diff_snapshots(BEFORE, AFTER)
    assert diff["to_rejected"] == [
        {"id": "a", "url": "https://example.org/a", "reasons_before": [], "reasons_after": ["length.tokens"]},
        {"id": "g", "url": "https://example.org/g", "reasons_before": [], "reasons_after": ["length.tokens"]},
    ]
    assert diff["to_accepted"] == [
        {"id": "b", "url": "https://example.org/b", "reasons_before": ["gopher.word_count", "dup.near"],
         "reasons_after": []},
    ]
    assert (diff["accepted_before"], diff["accepted_after"]) == (2, 2)


def test_diff_groups_reason_changes_by_codes_added_and_removed() -> None:
    diff = keep_rates.diff_snapshots(BEFORE, AFTER)
    assert diff["reason_changes"] == [
        {"added": ["length.tokens"], "removed": [], "count": 2,
         "urls": ["https://example.org/a", "https://example.org/g"]},
        {"added": [], "removed": ["block.no_long_block"], "count": 1, "urls": ["https://example.org/c"]},
        {"added": [], "removed": ["dup.near", "gopher.word_count"], "count": 1, "urls": ["https://example.org/b"]},
    ]


def test_diff_counts_pages_in_one_snapshot_only_and_reason_deltas() -> None:
    diff = keep_rates.diff_snapshots(BEFORE, AFTER)
    assert diff["added"] == ["https://example.org/f"]
    assert diff["missing"] == ["https://example.org/e"]
    assert diff["reason_counts"] == {
        "length.tokens": {"before": 2, "after": 4, "delta": 2},
        "block.no_long_block": {"before": 1, "after": 0, "delta": -1},
        "dup.near": {"before": 1, "after": 0, "delta": -1},
        "gopher.word_count": {"before": 1, "after": 0, "delta": -1},
        "record.not_html": {"before": 1, "after": 0, "delta": -1},
    }


def test_diff_of_a_snapshot_with_itself_is_empty() -> None:
    diff = keep_rates.diff_snapshots(AFTER, AFTER)
    assert diff["to_rejected"] == diff["to_accepted"] == diff["reason_changes"] == []
    assert diff["added"] == diff["missing"] == []
    assert diff["reason_counts"] == {}


def test_diff_keeps_every_row_of_a_repeated_id() -> None:
    # The same WARC record in two input files gives two rows with one id (warcio's test data does).
    before = {"pages": [_page("x", ["article.score"]), _page("x", ["article.score"])]}
    after = {"pages": [_page("x", ["article.score"]), _page("x", ["article.score", "url.extension"])]}
    diff = keep_rates.diff_snapshots(before, after)
    assert (diff["pages_before"], diff["pages_after"]) == (2, 2)
    assert diff["reason_changes"] == [
        {"added": ["url.extension"], "removed": [], "count": 1, "urls": ["https://example.org/x"]},
    ]
    assert diff["added"] == diff["missing"] == []


def test_two_runs_on_the_sample_snapshot_every_row_and_move_nothing(tmp_path: Path) -> None:
    sample = ROOT / "data" / "sample"
    figures = tmp_path / "figures.json"
    argv = ["--corpus", str(sample), "--out", str(tmp_path), "--workers", "2", "--json", str(figures)]
    assert keep_rates.main(argv) == 0
    first = json.loads(figures.read_text(encoding="utf-8"))["sample"]
    assert first["diff"] is None
    assert keep_rates.main(argv) == 0
    second = json.loads(figures.read_text(encoding="utf-8"))["sample"]

    stats = json.loads((tmp_path / "sample" / "run" / "stats.json").read_text(encoding="utf-8"))
    snapshot = keep_rates.load_snapshot(tmp_path / "sample" / "pages.json")
    assert len(snapshot["pages"]) == stats["records_in"] == second["records_in"]
    assert [page["id"] for page in snapshot["pages"]] == sorted(page["id"] for page in snapshot["pages"])
    assert second["problems"] == []
    assert second["baseline"] == str(tmp_path / "sample" / "pages.previous.json")
    diff = second["diff"]
    assert diff["to_rejected"] == diff["to_accepted"] == diff["reason_changes"] == []
    assert diff["added"] == diff["missing"] == []
    assert diff["pages_before"] == diff["pages_after"] == stats["records_in"]
    assert second["accepted"] == stats["accepted"]
    assert second["first_reason"] == dict(sorted(stats["first_reason"].items(), key=lambda kv: (-kv[1], kv[0])))
