"""Stage 2, select: extract output -> accepted/ and rejected/ shards and stats.json.

Applies the select-stage rules to the stored signals (re-tuning a threshold re-runs only this
stage), appends their reasons after the extract-stage ones, and writes every row to exactly one
of accepted/ (no reasons) or rejected/.

Rows go one unit at a time, units in sorted path order and rows in reading order, `SLICE_ROWS`
at a time: memory does not grow with an input file, and the output depends neither on the order
of the inputs nor on the workers. A unit is one extract file, or consecutive small ones read as
one (`units`), so thousands of one-page HTML files cost what one file of their pages costs.
A work directory at a URL is read through fsspec, its extract files downloaded once
(`storage.local_copies`); `out` is local (`writers.output_directory` handles a URL `--out`).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq

from filters.rules import reasons
from filters.rules.signals import signals_struct_type
from pipeline import __version__
from pipeline.params import (
    Params,
    ParamsError,
    Stage,
    era_cutoff,
    extract_stage,
    flatten,
    leaf_hints,
    stage_of,
    with_values,
)
from pipeline.report.dataset_card import CARD, dataset_card
from pipeline.run.executors import Executor, LocalExecutor
from pipeline.run.timings import merge_timings, since
from pipeline.stages import page_types
from pipeline.stages.dataset import DatasetCounts, SplitWriters, with_dataset_columns
from pipeline.stages.decide import Engine, Tally, UnitKind, decide
from pipeline.stages.segments import SEGMENTS_DIR, SegmentCounts, SegmentRows, decide_segments
from pipeline.store.schema import OUTPUT_SCHEMA
from pipeline.store.storage import local_copies, location
from pipeline.store.workdir import EXTRACT_DIR, FORMAT_VERSION, MANIFEST, fingerprint, outputs_for
from pipeline.store.writers import publish_directories, remove_stale_temps, write_whole

STATS = "stats.json"
# What `dvc metrics show` reads: counts and rates only (the params are DVC's params, the timings
# vary from run to run); stats.json keeps everything.
METRICS = "metrics.json"
PARTITIONS_DIR = ".select-partitions"
# Rows the write pass holds at once (with their texts): bounds its memory on a large input file.
SLICE_ROWS = 1000


class SelectError(Exception):
    """The work directory is missing or incomplete (a usage error for the CLI)."""


def select(workdirs: str | list[str], out: str, params: Params, extract_timings: dict[str, Any] | None = None,
           executor: Executor | None = None, resume: bool = False,
           asked: frozenset[str] | None = None) -> dict[str, Any]:
    """Decide every row of one or several work directories together, write shards and
    stats.json; returns the stats.

    The params in force are `params` with the extract group of the work directory (`params_in_force`):
    an extract key in `asked` (the keys the user's params file sets; None: all) that differs from it
    is refused with `SelectError`.

    Shards are written into hidden staging directories and swapped in only when all are
    complete, stats.json last (see `publish_directories`): a failure or a kill before that
    leaves the previous output whole. A failure removes the staging directories; the
    leftovers of a kill are removed by the next run. The de-duplication partitions are kept
    after a failure or a kill, for `resume`, and removed after success.
    """
    # What this process holds now (modules, models; in `pipeline run`, after the extract map's
    # collection) stays: the collections after each map of select need not walk it again.
    gc.freeze()
    try:
        return _select([workdirs] if isinstance(workdirs, str) else list(workdirs), out, params, extract_timings,
                       executor, resume, asked)
    except BaseException:
        remove_stale_temps(Path(out))
        raise


def _select(workdirs: list[str], out: str, params: Params, extract_timings: dict[str, Any] | None,
            executor: Executor | None, resume: bool, asked: frozenset[str] | None) -> dict[str, Any]:
    """Decide every row, write shards and stats.json; returns the stats.

    Two passes over the extract output: the first applies the threshold rules and writes the
    candidates' keys into the de-duplication partitions; the second re-reads each file,
    attaches the duplication signals and writes the shards. The extract files of all work
    directories are taken in one order (input path, then work directory), whatever the order
    the directories were named in.
    """
    started = time.perf_counter()
    loaded = [(_load_workdir(workdir), workdir) for workdir in workdirs]
    params = params_in_force([(found, workdir) for (found, _), workdir in loaded], params, asked)
    for (found, _), workdir in loaded:
        # Not fatal: the stored rows are consistent with themselves. Say it in stats.
        if (why := _written_by_other(found, workdir, params)) is not None:
            found.setdefault("warnings", []).append(why)
    # Derived once and passed down: the page-type model's null thresholds read from its model file, the
    # numbers that decide (a retrained model's thresholds are other params), as stats.json and the card
    # record them.
    params = params.effective()
    entries = sorted(((summary, workdir) for (_, summaries), workdir in loaded for summary in summaries),
                     key=lambda entry: (entry[0]["path"], entry[1]))
    manifest = merge_manifests([found for (found, _), _ in loaded])
    summaries = [summary for summary, _ in entries]
    sources = [str(outputs_for(workdir, summary["path"])[0]) for summary, workdir in entries]
    with local_copies(sources) as files, partition_root(out, resume) as root:
        for file, (_, workdir) in zip(files, entries, strict=True):
            _check_signals(file, workdir)
        return _decide(files, sources, out, params, summaries, manifest, extract_timings, executor, started, root)


def merge_manifests(manifests: list[dict[str, Any]]) -> dict[str, Any]:
    """One manifest for work directories selected together: their inputs, input files, skipped
    files and warnings side by side."""
    if len(manifests) == 1:
        return manifests[0]
    merged: dict[str, Any] = {key: [item for found in manifests for item in found.get(key, [])]
                              for key in ("inputs", "input_files", "skipped", "warnings")}
    merged["skipped_reasons"] = {path: why for found in manifests
                                 for path, why in found.get("skipped_reasons", {}).items()}
    merged["fingerprint"] = manifests[0].get("fingerprint")
    merged["extract_all"] = any(found.get("extract_all", False) for found in manifests)
    return merged


def _decide(files: list[str], sources: list[str], out: str, params: Params, summaries: list[dict[str, Any]],
            manifest: dict[str, Any], extract_timings: dict[str, Any] | None, executor: Executor | None,
            started: float, root: str) -> dict[str, Any]:
    """The two passes over the extract files (local copies of `sources`), then the shards; the
    de-duplication partitions in `root`. Phases: page types, rules (and the keys of the
    de-duplication passes), de-duplication, shards."""
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(out_dir)
    staging = {name: out_dir / f".{name}.new" for name in ("accepted", "rejected")}
    writers = SplitWriters(staging["accepted"], staging["rejected"], OUTPUT_SCHEMA, params)
    timings: dict[str, Any] = {}
    step = time.perf_counter()
    # The candidates depend on every select param and on the extract output, the per-site balance
    # on the dataset params: partitions written for other params or files are rebuilt. The
    # partitions are prepared first: preparing them empties `root`, where the predictions are kept.
    chosen = params.to_dict()
    grouped = units(files)
    types = _PageTypes()
    kind = UnitKind("pages", OUTPUT_SCHEMA, params, SLICE_ROWS, before=types,
                    after=lambda frame: with_dataset_columns(frame, params))
    engine = Engine(kind, grouped, root, {"files": [_identity(summary, path) for summary, path in
                                                     zip(summaries, files, strict=True)],
                                          "select": chosen["select"], "dataset": chosen["dataset"]})
    # The local workers see the driver's copies of the extract files; a cluster's may not.
    local = executor if isinstance(executor, LocalExecutor) else None
    types.predicted = [_predictions(root, index, unit, params, local) for index, unit in enumerate(grouped)]
    timings["select.page_types"] = since(step)
    segment_rows = None if params.segment is None else \
        SegmentRows(Path(root) / "segment-rows", era_cutoff(params), params.segment.shop_page_types)
    counts = _Counts(params)
    source_of = dict(zip(files, sources, strict=True))
    warnings = decide(engine, executor, [tuple(source_of[path] for path in unit) for unit in grouped], writers,
                      counts, on_frame=_segments_out(segment_rows))
    timings.update({f"select.{phase}": spent for phase, spent in engine.timings.items()})
    manifest = {**manifest, "warnings": [*manifest.get("warnings", []), *warnings]}
    segments = _segments(segment_rows, root, out_dir, staging, params, executor, timings)
    timings = {**_merge_timings(summaries, extract_timings), **timings}
    timings["select"] = since(started)
    stats = counts.to_stats(summaries, manifest, params, timings)
    stats["segments"] = segments.to_stats(params.segment is not None)
    publish_directories(out_dir, staging, STATS, json.dumps(stats, indent=1, sort_keys=False) + "\n",
                        {CARD: dataset_card(stats, manifest, params),
                         METRICS: json.dumps(metrics_of(stats), indent=1, sort_keys=True) + "\n"})
    if params.segment is None:  # an earlier run's segments would not describe this one
        shutil.rmtree(out_dir / SEGMENTS_DIR, ignore_errors=True)
    return stats


def _segments(rows: SegmentRows | None, root: str, out_dir: Path, staging: dict[str, Path], params: Params,
              executor: Executor | None, timings: dict[str, Any]) -> SegmentCounts:
    """Judge the segments the write pass laid out, into a staged `segments/` (added to `staging`)."""
    if rows is None:
        return SegmentCounts()
    step = time.perf_counter()
    staging[SEGMENTS_DIR] = out_dir / f".{SEGMENTS_DIR}.new"
    counts = decide_segments(rows, Path(root) / "segment-passes", staging[SEGMENTS_DIR], params, executor)
    timings["select.segments"] = since(step)
    return counts


class _PageTypes:
    """The page-type model's columns of a unit's rows (`page_types.attach`), from the predictions
    written for each unit (`predicted`; the last unit's read once for all its slices)."""

    def __init__(self) -> None:
        self.predicted: list[Path] = []
        self._index = -1
        self._types = pl.DataFrame()

    def __call__(self, index: int, frame: pl.LazyFrame) -> pl.LazyFrame:
        if index != self._index:
            self._index, self._types = index, pl.read_parquet(self.predicted[index])
        return page_types.attach(frame, self._types)


def _segments_out(segment_rows: SegmentRows | None) -> Callable[[int, pl.DataFrame], pl.DataFrame]:
    """What the write pass does with each decided slice of pages before it is written: their
    segments laid out in `segment_rows`, and the `segments` column dropped."""

    def hand_over(index: int, frame: pl.DataFrame) -> pl.DataFrame:
        if segment_rows is not None:
            segment_rows.add(index, frame)
        return frame.drop("segments", strict=False)

    return hand_over


def units(files: list[str]) -> list[tuple[str, ...]]:
    """The extract files in order, cut into units: a file of `SLICE_ROWS` rows or more alone, and
    runs of consecutive smaller files together up to `SLICE_ROWS` rows. Each pass reads a unit as
    one file (its rows numbered through), so a run over many one-page HTML files pays each
    pass's fixed cost per thousand rows, not per file; a large file is its own unit, read as before."""
    grouped: list[tuple[str, ...]] = []
    current: list[str] = []
    rows = 0
    for path in files:
        count = pq.read_metadata(path).num_rows
        if current and rows + count > SLICE_ROWS:
            grouped.append(tuple(current))
            current, rows = [], 0
        current.append(path)
        rows += count
    if current:
        grouped.append(tuple(current))
    return grouped


class _Counts:
    """Running totals for stats.json, updated one input file at a time."""

    def __init__(self, params: Params) -> None:
        self.dataset = DatasetCounts(params)
        self.tally = Tally()
        self.rows_per_file: Counter[str] = Counter()
        self.language_pages: Counter[str] = Counter()  # extracted pages per detected text language
        self.language_kept: Counter[str] = Counter()

    def add(self, frame: pl.DataFrame) -> None:
        self.tally.add(frame)
        self.rows_per_file.update(frame["source_file"].to_list())
        self.dataset.add(frame.filter(pl.col("kept")))
        self.dataset.add_cross_split(frame)
        if "signals" in frame.columns:
            detected = (frame.select(pl.col("signals").struct.field("text_language").alias("language"), "kept")
                        .drop_nulls("language"))
            self.language_pages.update(detected["language"].to_list())
            self.language_kept.update(detected.filter(pl.col("kept"))["language"].to_list())

    def by_text_language(self) -> dict[str, dict[str, Any]]:
        """Per detected text language, most pages first: pages, pages kept and the share kept."""
        ordered = sorted(self.language_pages.items(), key=lambda item: (-item[1], item[0]))
        return {language: {"pages": pages, "kept": self.language_kept[language],
                           "keep_rate": round(self.language_kept[language] / pages, 4)}
                for language, pages in ordered}

    def funnel(self) -> list[dict[str, Any]]:
        """Records remaining after each group of rules, in pipeline order."""
        rejected_by_group = Counter(code.split(".", 1)[0] for code in self.tally.first_reason.elements())
        remaining = self.tally.rows_in
        funnel = [{"stage": "records_in", "remaining": remaining}]
        for group in reasons.GROUP_ORDER:
            remaining -= rejected_by_group.get(group, 0)
            funnel.append({"stage": group, "remaining": remaining})
        return funnel

    def to_stats(self, summaries: list[dict[str, Any]], manifest: dict[str, Any], params: Params,
                 timings: dict[str, Any]) -> dict[str, Any]:
        record_types: Counter[str] = Counter()
        files = []
        for summary in summaries:
            record_types.update(summary["record_types"])
            files.append({"path": summary["path"], "format": summary["format"],
                          "records": self.rows_per_file.get(summary["path"], 0),
                          "record_types": summary["record_types"], "errors": summary["errors"]})
        return {
            "records_in": self.tally.rows_in,
            "accepted": self.tally.accepted,
            "rejected": self.tally.rows_in - self.tally.accepted,
            **self.tally.reasons(),
            "by_text_language": self.by_text_language(),
            "funnel": self.funnel(),
            "record_types": dict(sorted(record_types.items())),
            "files": files,
            "skipped_files": manifest.get("skipped", []),
            "skipped_reasons": manifest.get("skipped_reasons", {}),
            # tasks that failed every attempt of the executor; their records are error.task rows
            "failed_tasks": [failure for summary in summaries for failure in summary.get("failed_tasks", [])],
            # what the run says about itself, then one line per input region not read whole
            "warnings": [*manifest.get("warnings", []), *input_warnings(files)],
            "dataset": self.dataset.to_stats(),
            "timings": timings,
            "params": params.to_dict(),  # the model's thresholds as they decided (`Params.effective`)
        }


def _load_workdir(workdir: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    manifest_path = location(workdir) / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SelectError(f"{workdir} has no {MANIFEST}: extraction has not finished there; "
                          f"run `pipeline extract` (--resume keeps finished files)") from exc
    summaries = []
    for path in manifest["inputs"]:
        parquet_path, json_path = outputs_for(workdir, path)
        try:
            summary = json.loads(json_path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise SelectError(f"extract output for {path} is missing under {workdir}/{EXTRACT_DIR}; "
                              f"re-run `pipeline extract`") from exc
        if not parquet_path.is_file():
            raise SelectError(f"extract output {parquet_path} is missing; re-run `pipeline extract`")
        summaries.append(summary)
    return manifest, summaries


RETUNE_HINT = ("To tune the page-type model's threshold without extracting again, extract once with "
               "`extract.gate.use_page_model: false` (every page is extracted) and set "
               "`select.page.min_kept_type_probability` in select.")


def params_in_force(manifests: list[tuple[dict[str, Any], str]], params: Params,
                    asked: frozenset[str] | None) -> Params:
    """The params select decides by and records: `params`, with the extract-stage values (declared
    so in `pipeline/params.py`, `Stage`) the work directories were extracted with, since that is what
    their rows hold: the extract group and `segment.max_per_page`, and whether segments were found.

    An extract-stage key the user asked for (in `asked`, or under or above a key in it; None: every
    key) whose value differs from the work directory's is refused with a `SelectError` naming each key
    and both values: select cannot apply it. So are work directories extracted with different values.
    Keys the user left alone are taken from the work directory."""
    recorded = [(stored, workdir) for found, workdir in manifests if (stored := _recorded(found)) is not None]
    if not recorded:
        return params  # a work directory from before manifests recorded their params
    stored, workdir = recorded[0]
    for other, other_dir in recorded[1:]:
        if differing := _differences(stored, other):
            raise SelectError("the work directories were extracted with different extract-stage params: " + "; ".join(
                f"{key} ({_shown(stored, key)} in {workdir}, {_shown(other, key)} in {other_dir})" for key in differing)
                + ". Select them apart, or re-run `pipeline extract` on one with the other's params")
    given = extract_stage(params)
    refused = [f"{key} (extracted with {_shown(stored, key)}, asked {_shown(given, key)}, in {workdir})"
               for key in _differences(stored, given) if _asked(key, asked)]
    if refused:
        raise SelectError("select cannot apply extract-stage params, which decide what extraction wrote: "
                          + "; ".join(refused) + ". Re-run `pipeline extract` (or `pipeline run`) with them, or "
                          "leave them out of the params file: select then takes the work directory's. " + RETUNE_HINT)
    try:
        return with_values(params, stored)
    except ParamsError as exc:
        if set(stored) - set(leaf_hints()) - {key for key, value in stored.items() if value is None}:
            raise SelectError(f"{workdir} was extracted by another version of corpus-filter ({exc}); re-run "
                              "`pipeline extract` on its inputs") from exc
        raise SelectError(f"the params asked of select do not go with {workdir}'s extract-stage params ({exc})") \
            from exc


def _recorded(manifest: dict[str, Any]) -> dict[str, Any] | None:
    """The extract-stage values a work directory's manifest records (`extract_stage`); from a manifest
    of before that, its extract group (its segment keys unknown); None from an older one still."""
    if isinstance(manifest.get("extract_stage"), dict):
        return manifest["extract_stage"]
    if isinstance(manifest.get("params"), dict):
        known = leaf_hints()
        return {key: value for key, value in flatten(manifest["params"], "extract.").items()
                if key not in known or stage_of(key) is Stage.EXTRACT}
    return None


def _differences(one: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """The dotted keys whose values differ, a switched-off group (`segment: None`) as one key."""
    off = {key for key, value in {**one, **other}.items() if value is None and _is_group(key)}
    return sorted(key for key in one.keys() | other.keys()
                  if one.get(key, _ABSENT) != other.get(key, _ABSENT)
                  and not any(key.startswith(f"{group}.") for group in off))


def _is_group(key: str) -> bool:
    return key not in leaf_hints()


def _asked(key: str, asked: frozenset[str] | None) -> bool:
    """Whether the user's params file sets `key`, a key under it, or a group above it."""
    return asked is None or any(key == given or given.startswith(f"{key}.") or key.startswith(f"{given}.")
                                for given in asked)


_ABSENT = object()


def _shown(values: dict[str, Any], key: str) -> str:
    if key in values:
        return json.dumps(values[key])
    if any(other.startswith(f"{key}.") for other in values):
        return "it on"
    return "nothing (another version)"


def _written_by_other(found: dict[str, Any], workdir: str, params: Params) -> str | None:
    """Why a work directory's fingerprint is not this run's, said as one of its three causes: another row
    format, another corpus-filter version, other extract-stage params; None if it is this run's."""
    if found.get("fingerprint") == fingerprint(params, found.get("extract_all", False)):
        return None
    if "format" not in found:
        return (f"{workdir} was extracted by an older corpus-filter (its manifest names neither its version nor "
                "its row format); its rows are read as they are")
    if found["format"] != FORMAT_VERSION:
        return (f"{workdir} holds rows of format {found['format']}, where this corpus-filter writes format "
                f"{FORMAT_VERSION}; its rows are read as they are")
    if found.get("version") != __version__:
        return f"{workdir} was extracted by corpus-filter {found.get('version')}, and this is {__version__}"
    return f"{workdir} was extracted with other extract-stage params than the ones recorded here"


def metrics_of(stats: dict[str, Any]) -> dict[str, Any]:
    """The run's counts and rates (DIR/metrics.json): records, accepted and their share, warnings,
    rejections per reason, accepted pages per split and era, and segments."""
    records, accepted = stats["records_in"], stats["accepted"]
    splits = stats.get("dataset", {}).get("splits", {})
    segments = stats.get("segments") or {}
    return {
        "records_in": records, "accepted": accepted, "rejected": stats["rejected"],
        "accepted_share": round(accepted / records, 6) if records else None,
        "warnings": len(stats.get("warnings") or []),
        "by_reason": stats.get("by_reason", {}),
        "split_pages": {name: split["pages"] for name, split in splits.items()},
        "split_era": {f"{name}/{era}": count for name, split in splits.items()
                      for era, count in split.get("era", {}).items()},
        "segments_in": segments.get("segments_in"), "segments_accepted": segments.get("accepted"),
    }


def input_warnings(files: list[dict[str, Any]]) -> list[str]:
    """One warning per damage an input file's reading reported (`FileReport.errors`: a corrupt
    region with its offset and size, an unreadable or empty file), prefixed with the file."""
    return [f"{file['path']}: {error}" for file in files for error in file.get("errors", [])]


def _check_signals(parquet_path: str, workdir: str) -> None:
    """Refuse an extract file whose stored signals lack some this version's rules or columns read
    (a work directory extracted by an older corpus-filter), naming them."""
    stored = pq.read_schema(parquet_path).field("signals").type
    missing = sorted({field.name for field in signals_struct_type()} - {field.name for field in stored})
    if missing:
        raise SelectError(f"{workdir} was extracted by an older corpus-filter: its rows lack the signals "
                          f"{', '.join(missing)}; re-run `pipeline extract` on its inputs (or `pipeline run`)")


def _predictions(root: str, index: int, unit: tuple[str, ...], params: Params, executor: Executor | None) -> Path:
    """The page-type model's predictions for one unit, kept on disk for the write pass
    (computed once; a resumed select reuses them)."""
    target = Path(root) / "page-types" / f"f{index:05d}.parquet"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        write_whole(page_types.predictions(unit, params, executor), target)
    return target


def _identity(summary: dict[str, Any], path: str) -> dict[str, Any]:
    """What names one extract file's rows for the partitions: its input, the extract summary, and
    the file's size and modification time (a resumed extract rewrites the file)."""
    status = os.stat(path)
    return {"path": summary.get("path"), "input": summary.get("input"), "fingerprint": summary.get("fingerprint"),
            "bytes": status.st_size, "mtime_ns": status.st_mtime_ns}


@contextlib.contextmanager
def partition_root(out: str, resume: bool) -> Iterator[str]:
    """Where the de-duplication partitions go: `.select-partitions/` in the output directory.
    Without `resume` it starts empty; with it, partitions a killed or failed run finished for the
    same extract output and params are reused. Removed when select succeeds."""
    root = Path(out) / PARTITIONS_DIR
    if not resume:
        shutil.rmtree(root, ignore_errors=True)
    yield str(root)
    shutil.rmtree(root, ignore_errors=True)


def _merge_timings(summaries: list[dict[str, Any]], extra: dict[str, Any] | None) -> dict[str, Any]:
    return merge_timings([*(s.get("timings", {}) for s in summaries), extra or {}])
