"""Keep rates of the whole pipeline on the shared corpora, and which pages a change moved.

    python benchmarks/keep_rates.py [--corpus PATH]... [--out DIR] [--workers N] [--params FILE]
                                    [--baseline FILE_OR_DIR] [--examples N] [--json FILE]

For each corpus (default: every ``*.warc.gz`` directly under ``../shared/corpora/`` plus the
directory ``../shared/corpora/warcio-testdata/``; ``--corpus`` takes any input ``pipeline run``
accepts, repeatable) this runs ``pipeline run CORPUS --out OUT/<name>/run`` in a subprocess, then
prints the records read, the pages accepted, the fraction kept of all records and of the rows with
no ``record.*``/``input.*`` reason (HTML pages that could have been articles), and the
``first_reason`` and ``by_reason`` tables of ``stats.json``.

Each run leaves a snapshot ``OUT/<name>/pages.json`` (id, url, kept, reasons of every row, sorted by
id, under a header with the git commit, the params file's SHA-256 and the date); the snapshot it
replaces becomes ``OUT/<name>/pages.previous.json``. The run is compared with ``--baseline`` (a
``pages.json``, or an OUT directory whose ``<name>/pages.json`` is used) or else with that previous
snapshot: pages that moved between accepted and rejected, the groups of pages whose reasons changed
the same way (codes added, codes removed), and the per-reason counts that changed. ``--json`` writes
every figure. Ids of plain HTML files hash the path as given, so compare runs that name a corpus the
same way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
DEFAULT_OUT = ROOT / "out" / "keep_rates"
PIPELINE = Path(sys.executable).parent / "pipeline"
# Reasons given before a record is known to be an HTML page: such rows could never be articles.
NOT_A_PAGE_PREFIXES = ("record.", "input.")
# Compound suffixes first, so `x.warc.gz` is named `x`, not `x.warc`.
SUFFIXES = (".warc.gz", ".arc.gz", ".html.gz", ".htm.gz", ".warc", ".arc", ".html", ".htm", ".gz")

Page = dict[str, Any]
Snapshot = dict[str, Any]


# --- inputs and names -------------------------------------------------------------------------
def default_corpora() -> list[Path]:
    corpora = sorted(CORPORA.glob("*.warc.gz"))
    testdata = CORPORA / "warcio-testdata"
    return corpora + ([testdata] if testdata.is_dir() else [])


def corpus_name(path: Path) -> str:
    """`trafilatura-eval.warc.gz` -> `trafilatura-eval`; a directory keeps its name."""
    name = path.name
    if path.is_dir():
        return name
    for suffix in SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return path.stem or name


# --- running the pipeline -----------------------------------------------------------------------
def run_pipeline(corpus: Path, run_dir: Path, workers: int, params: Path | None) -> tuple[int, str]:
    """`pipeline run` as a user would call it; stderr (progress bars, errors) goes to the terminal."""
    command = [str(PIPELINE), "run", str(corpus), "--out", str(run_dir), "--workers", str(workers)]
    if params is not None:
        command += ["--params", str(params)]
    completed = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    return completed.returncode, completed.stdout


def read_rows(run_dir: Path) -> pl.DataFrame:
    """Every row, by id; rows sharing an id (the same WARC record in two files) by source position."""
    columns = ["id", "url", "kept", "reasons", "source_file", "source_offset"]
    frames = [pl.read_parquet(str(run_dir / part / "*.parquet"), columns=columns) for part in ("accepted", "rejected")]
    return pl.concat(frames).sort("id", "source_file", "source_offset")


def git_revision() -> str:
    """Short commit, with `+dirty` when the working tree has changes (untracked files included)."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if status.strip() else "")


def params_file_used(params: Path | None) -> Path | None:
    """The file `pipeline run` reads: --params, else ./params.yaml if present, else none (defaults)."""
    if params is not None:
        return params
    default = Path("params.yaml")
    return default if default.is_file() else None


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- figures ----------------------------------------------------------------------------------
def is_page(reasons: Sequence[str]) -> bool:
    """A row that reached HTML-page stage: none of its reasons is a record.* or input.* code."""
    return not any(code.startswith(NOT_A_PAGE_PREFIXES) for code in reasons)


def keep_figures(stats: dict[str, Any], pages: list[Page]) -> dict[str, Any]:
    records_in = stats["records_in"]
    candidates = [page for page in pages if is_page(page["reasons"])]
    candidates_kept = sum(page["kept"] for page in candidates)
    return {
        "records_in": records_in,
        "accepted": stats["accepted"],
        "rejected": stats["rejected"],
        "kept_fraction": stats["accepted"] / records_in if records_in else None,
        "html_pages": len(candidates),
        "html_pages_accepted": candidates_kept,
        "html_pages_kept_fraction": candidates_kept / len(candidates) if candidates else None,
        "first_reason": sorted_counts(stats["first_reason"]),
        "by_reason": sorted_counts(stats["by_reason"]),
    }


def sorted_counts(counts: dict[str, int]) -> dict[str, int]:
    """By count descending, then code: the order the tables print in (JSON keeps it)."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def consistency_problems(stats: dict[str, Any], pages: list[Page]) -> list[str]:
    """Shards against stats.json: one row per record, and the same reason counts."""
    problems = []
    if len(pages) != stats["records_in"]:
        problems.append(f"shards hold {len(pages)} rows but stats.json says records_in={stats['records_in']}")
    repeated = {page_id: n for page_id, n in Counter(page["id"] for page in pages).items() if n > 1}
    if repeated:
        example, times = next(iter(repeated.items()))
        problems.append(f"ids are not unique over accepted/ and rejected/: {len(repeated)} id(s) on "
                        f"{sum(repeated.values())} rows (e.g. {example} x{times}); the comparison matches "
                        f"such rows by id and order of source position")
    first = Counter(page["reasons"][0] for page in pages if page["reasons"])
    if dict(first) != stats["first_reason"]:
        problems.append("first_reason of stats.json differs from the shards' first reasons")
    every = Counter(code for page in pages for code in page["reasons"])
    if dict(every) != stats["by_reason"]:
        problems.append("by_reason of stats.json differs from the shards' reasons")
    return problems


# --- snapshots and their comparison ---------------------------------------------------------------
def run_header(name: str, corpus: Path, params: Path | None) -> dict[str, Any]:
    """What a run is made of, taken before it starts (the code and params may change while it runs)."""
    return {
        "corpus": name,
        "input": str(corpus),
        "commit": git_revision(),
        "params_file": str(params) if params is not None else None,
        "params_sha256": sha256_of(params.read_bytes()) if params is not None else "defaults",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def make_snapshot(header: dict[str, Any], rows: pl.DataFrame, stats: dict[str, Any]) -> Snapshot:
    effective = json.dumps(stats.get("params", {}), sort_keys=True).encode("utf-8")
    return {
        **header,
        # The configuration the run actually used (from stats.json), in case the file changed meanwhile.
        "effective_params_sha256": sha256_of(effective),
        "pages": rows.select("id", "url", "kept", "reasons").to_dicts(),
    }


def load_snapshot(path: Path) -> Snapshot:
    snapshot = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(snapshot, dict) or not isinstance(snapshot.get("pages"), list):
        raise ValueError(f"{path} is not a keep_rates snapshot (no 'pages' list)")
    return snapshot


def save_snapshot(snapshot: Snapshot, directory: Path) -> Path | None:
    """Write `pages.json`, first moving the one it replaces to `pages.previous.json` (returned)."""
    current, previous = directory / "pages.json", directory / "pages.previous.json"
    moved = None
    if current.is_file():
        current.replace(previous)
        moved = previous
    current.write_text(json.dumps(snapshot, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return moved


def _label(page: Page) -> str:
    return page.get("url") or page["id"]


def _moved(before: Page, after: Page) -> dict[str, Any]:
    return {"id": after["id"], "url": after.get("url"), "reasons_before": list(before["reasons"]),
            "reasons_after": list(after["reasons"])}


def _by_key(pages: Iterable[Page]) -> dict[tuple[str, int], Page]:
    """Pages by (id, n): n counts earlier pages with the same id, so a repeated id loses no page."""
    seen: Counter[str] = Counter()
    keyed = {}
    for page in pages:
        keyed[(page["id"], seen[page["id"]])] = page
        seen[page["id"]] += 1
    return keyed


def diff_snapshots(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """What changed from `before` to `after`, matching pages by id (and rank, for a repeated id).

    `reason_changes` groups every common page whose reason list changed (kept or not) by the codes
    it gained and lost, largest group first; `reason_counts` holds the codes whose count over all
    pages of each snapshot changed (pages in only one snapshot count too).
    """
    old, new = _by_key(before["pages"]), _by_key(after["pages"])
    common = sorted(old.keys() & new.keys())
    groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[Page]] = defaultdict(list)
    for key in common:
        was, now = old[key], new[key]
        if list(was["reasons"]) != list(now["reasons"]):
            added = tuple(sorted(set(now["reasons"]) - set(was["reasons"])))
            removed = tuple(sorted(set(was["reasons"]) - set(now["reasons"])))
            groups[(added, removed)].append(now)
    return {
        "pages_before": len(old),
        "pages_after": len(new),
        "accepted_before": sum(page["kept"] for page in old.values()),
        "accepted_after": sum(page["kept"] for page in new.values()),
        "added": [_label(new[key]) for key in sorted(new.keys() - old.keys())],
        "missing": [_label(old[key]) for key in sorted(old.keys() - new.keys())],
        "to_rejected": [_moved(old[i], new[i]) for i in common if old[i]["kept"] and not new[i]["kept"]],
        "to_accepted": [_moved(old[i], new[i]) for i in common if not old[i]["kept"] and new[i]["kept"]],
        "reason_changes": [
            {"added": list(added), "removed": list(removed), "count": len(pages),
             "urls": [_label(page) for page in pages]}
            for (added, removed), pages in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))
        ],
        "reason_counts": reason_count_deltas(old.values(), new.values()),
    }


def reason_count_deltas(before: Iterable[Page], after: Iterable[Page]) -> dict[str, dict[str, int]]:
    old = Counter(code for page in before for code in page["reasons"])
    new = Counter(code for page in after for code in page["reasons"])
    changed = sorted((code for code in old.keys() | new.keys() if old[code] != new[code]),
                     key=lambda code: (-abs(new[code] - old[code]), code))
    return {code: {"before": old[code], "after": new[code], "delta": new[code] - old[code]} for code in changed}


# --- printing ---------------------------------------------------------------------------------
def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """Aligned text table: the first column left-aligned, the others right-aligned."""
    cells = [[str(cell) for cell in headers]] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
             for row in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join("  " + line.rstrip() for line in lines)


def _fraction(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _reasons(codes: Sequence[str]) -> str:
    return ", ".join(codes) if codes else "(none)"


def print_figures(figures: dict[str, Any]) -> None:
    records_in = figures["records_in"]
    print(f"  records_in: {records_in}   accepted: {figures['accepted']}   rejected: {figures['rejected']}")
    print(f"  kept of all records: {figures['accepted']}/{records_in} = {_fraction(figures['kept_fraction'])}")
    print(f"  kept of HTML pages (no record.*/input.* reason): {figures['html_pages_accepted']}/"
          f"{figures['html_pages']} = {_fraction(figures['html_pages_kept_fraction'])}")
    for key, title in (("first_reason", "first_reason (one per rejected row)"),
                       ("by_reason", "by_reason (a row can fail several rules)")):
        counts = figures[key]
        print(f"\n  {title}:")
        if not counts:
            print("  (none)")
            continue
        print(table(["reason", "rows", "of records"],
                    [(code, count, _fraction(count / records_in)) for code, count in counts.items()]))


def print_diff(diff: dict[str, Any], baseline: str, examples: int) -> None:
    print(f"\n  compared with {baseline}")
    print(f"  pages: {diff['pages_before']} -> {diff['pages_after']} ({len(diff['added'])} added, "
          f"{len(diff['missing'])} missing); accepted: {diff['accepted_before']} -> {diff['accepted_after']}")
    for key, title in (("to_rejected", "accepted -> rejected"), ("to_accepted", "rejected -> accepted")):
        print(f"\n  {title}: {len(diff[key])}")
        for page in diff[key]:
            print(f"    {page['url'] or page['id']}\n      "
                  f"{_reasons(page['reasons_before'])} -> {_reasons(page['reasons_after'])}")
    print(f"\n  which rule changes moved which pages: {len(diff['reason_changes'])} group(s)")
    for group in diff["reason_changes"]:
        change = " ".join([f"+{code}" for code in group["added"]] + [f"-{code}" for code in group["removed"]])
        print(f"    {group['count']:5d}  {change or '(same codes, new order)'}")
        for url in group["urls"][:examples]:
            print(f"           {url}")
    if diff["reason_counts"]:
        print("\n  reason counts that changed:")
        print(table(["reason", "before", "after", "delta"],
                    [(code, c["before"], c["after"], f"{c['delta']:+d}") for code, c in diff["reason_counts"].items()]))
    else:
        print("\n  reason counts: unchanged")


# --- one corpus -------------------------------------------------------------------------------
def find_baseline(option: Path | None, name: str, single: bool) -> Path | None:
    """--baseline as given: a snapshot file (for a single corpus, or the corpus it names), or an OUT dir."""
    if option is None:
        return None
    if option.is_dir():
        candidate = option / name / "pages.json"
        return candidate if candidate.is_file() else None
    if single or load_snapshot(option).get("corpus") == name:
        return option
    return None


def measure(corpus: Path, name: str, args: argparse.Namespace, single: bool) -> dict[str, Any] | None:
    directory = args.out / name
    run_dir = directory / "run"
    print(f"\n=== {name}  ({corpus})")
    # Read the baseline before anything is overwritten: --baseline may be this very OUT directory.
    baseline_path = find_baseline(args.baseline, name, single)
    baseline = load_snapshot(baseline_path) if baseline_path else None
    if args.baseline is not None and baseline is None:
        print(f"  no baseline for {name} in {args.baseline}")
    header = run_header(name, corpus, params_file_used(args.params))
    started = time.perf_counter()
    code, stdout = run_pipeline(corpus, run_dir, args.workers, args.params)
    seconds = time.perf_counter() - started
    commit_after = git_revision()
    if code != 0:
        print(f"  pipeline run failed (exit {code}); its output:\n{stdout}", end="")
        return None
    stats = json.loads((run_dir / "stats.json").read_text(encoding="utf-8"))
    rows = read_rows(run_dir)
    snapshot = make_snapshot(header, rows, stats)
    figures = keep_figures(stats, snapshot["pages"])
    print(f"  pipeline run: {seconds:.1f} s, {args.workers} worker(s); commit {snapshot['commit']}, "
          f"params {snapshot['params_file'] or 'defaults'} ({snapshot['params_sha256'][:12]})")
    print_figures(figures)
    problems = consistency_problems(stats, snapshot["pages"])
    if commit_after != header["commit"]:
        problems.append(f"the code changed during the run: commit {header['commit']} at the start, "
                        f"{commit_after} at the end")
    for problem in problems:
        print(f"  PROBLEM: {problem}")
    previous = save_snapshot(snapshot, directory)
    if baseline is None and previous is not None:
        baseline_path, baseline = previous, load_snapshot(previous)
    diff = diff_snapshots(baseline, snapshot) if baseline is not None else None
    if diff is None:
        print("\n  no baseline to compare with (first run into this OUT directory)")
    else:
        print_diff(diff, f"{baseline_path} (commit {baseline.get('commit')}, {baseline.get('date')})", args.examples)
    header = {key: value for key, value in snapshot.items() if key != "pages"}
    return {**header, "seconds": round(seconds, 2), "snapshot": str(directory / "pages.json"), **figures,
            "problems": problems, "baseline": str(baseline_path) if diff is not None else None, "diff": diff}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, action="append", metavar="PATH",
                        help="an input of `pipeline run` (repeatable; default: the ../shared corpora)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="default: out/keep_rates")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--params", type=Path, metavar="FILE")
    parser.add_argument("--baseline", type=Path, metavar="FILE_OR_DIR",
                        help="a pages.json, or an OUT directory (default: the previous snapshot)")
    parser.add_argument("--examples", type=int, default=5, help="example urls per group of changed pages")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every figure as JSON")
    args = parser.parse_args(argv)

    if args.corpus is None and not CORPORA.is_dir():
        print(f"skipped: {CORPORA} is not present (the ../shared corpora are not in a fresh clone)")
        return 0
    corpora = args.corpus or default_corpora()
    for path in [*corpora, *([args.params] if args.params else []), *([args.baseline] if args.baseline else [])]:
        if not path.exists():
            parser.error(f"no such file or directory: {path}")
    names = [corpus_name(path) for path in corpora]
    if len(set(names)) != len(names):
        parser.error(f"two corpora have the same name: {names}")
    if not PIPELINE.is_file():
        parser.error(f"no `pipeline` script next to {sys.executable}: install the project in this environment")

    results = {name: measure(path, name, args, len(corpora) == 1) for path, name in zip(corpora, names, strict=True)}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"\nfigures: {args.json}")
    return 1 if any(result is None for result in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
