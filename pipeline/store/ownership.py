"""Which directory a command may write into (docs/cli.md, "Where outputs go"), checked before anything is written.

* **Outputs never become inputs.** `--out` of `run` and `extract` must not be, contain or lie inside an INPUT
  (a run would read its own report and work files as pages the next time: docs/decisions.md). `select` may
  write around its work directories (`pipeline run` keeps its own in `DIR/work/`), never into one; `report
  --out` never into the run directory or a directory the pipeline replaces there.
* **A command deletes or overwrites only what it wrote.** A run replaces `accepted/` and `rejected/` wholesale
  and writes `README.md`, `stats.json`, `report/` and `work/`, so its `--out` must be new, empty, or an earlier
  output of this pipeline: one holding `MARKER`, written into every output directory before anything else, or,
  from versions before the marker, `stats.json` (a finished run or select) or `manifest.json` (an extract).

Paths are compared after resolving symlinks and by file identity (`os.path.samefile`), so a bind mount or a
case-insensitive file system does not hide an overlap. URLs are compared as normalised prefixes (scheme and
bucket lower-cased, `s3a` as `s3`, empty path segments dropped); a local path and a URL never overlap.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from pipeline.store.storage import ObjectPath, is_url, join, location

MARKER = ".corpus-filter-output"
MARKER_TEXT = '{"written_by": "corpus-filter"}\n'
# Outputs of versions before MARKER: a finished run or select, a finished extract.
EARLIER_MARKERS = ("stats.json", "manifest.json")
# What `run` and `select` replace or remove wholesale in their output directory.
REPLACED = ("accepted", "rejected", "report", "work", ".select-partitions")
REPLACED_HERE = tuple(name for name in REPLACED if name != "work")  # a run's own work/ is reused, not replaced
# Two files every report writes: a directory holding both is an earlier report.
REPORT_FILES = ("index.html", "funnel.csv")


class OutputRefused(ValueError):
    """`--out` would read its own outputs or overwrite what this pipeline did not write."""


def refuse_overlap(out: str, inputs: Sequence[str]) -> None:
    """`run`, `extract`: `out` apart from every input, file or directory."""
    for source in inputs:
        relation = overlap(out, source)
        if relation == "contains":
            raise OutputRefused(f"--out {out} contains the input {source}: a run replaces what it writes there "
                                f"and could delete it; keep the inputs outside --out")
        if relation is not None:
            raise OutputRefused(f"--out {out} {relation} the input {source}: the next run would read this run's "
                                f"outputs as input; write to a directory outside the inputs")


def refuse_select_overlap(out: str, workdirs: Sequence[str]) -> None:
    """`select`: `out` is not a work directory nor inside one; a work directory inside `out` (the
    layout of `pipeline run`, DIR/work) only where select replaces nothing."""
    for workdir in workdirs:
        relation = overlap(out, workdir)
        if relation in ("is", "lies inside"):
            raise OutputRefused(f"--out {out} {relation} the work directory {workdir}: select's outputs would "
                                f"mix with the extract output; write to another directory")
        if relation == "contains" and _under_replaced(workdir, out, exclude=("work",)):
            raise OutputRefused(f"--out {out} would replace the work directory {workdir} (select replaces "
                                f"{', '.join(REPLACED_HERE)} in --out)")


def refuse_report_overlap(out: str, run_dir: str) -> None:
    """`report --out`: not the run directory, nor inside what a run replaces there (its own
    `report/` is where the report goes by default)."""
    relation = overlap(out, run_dir)
    if relation == "is":
        raise OutputRefused(f"--out {out} is the run directory: the report goes to {run_dir}/report or to "
                            f"a directory of its own")
    if relation == "lies inside" and _under_replaced(out, run_dir, exclude=("report",)):
        raise OutputRefused(f"--out {out} lies inside a directory the next run of {run_dir} replaces; "
                            f"write the report elsewhere")


def claim_output(out: str) -> None:
    """Refuse `out` when it is a non-empty directory this pipeline did not write, else create it
    and mark it as an output (`MARKER`). An output of ours inside it does not count (`pipeline
    extract --out DIR/work` then `pipeline select DIR/work --out DIR`, the layout of `run`),
    unless it is where a run writes what it replaces (`DIR/accepted`)."""
    directory = location(out)
    if directory.exists() and not directory.is_dir():
        raise OutputRefused(f"output path exists and is not a directory: {out}")
    if _foreign_entries(directory) and not _is_earlier_output(directory):
        raise OutputRefused(f"--out {out} is a non-empty directory this pipeline did not write (no {MARKER}): a "
                            f"run replaces accepted/, rejected/, report/ and work/ there and overwrites README.md; "
                            f"give a new or empty directory")
    mark_output(out)


def claim_report_output(out: str) -> None:
    """As `claim_output`, for `report --out`: an earlier report (`MARKER`, or index.html beside
    funnel.csv) may be overwritten, another non-empty directory is refused."""
    directory = location(out)
    if directory.exists() and not directory.is_dir():
        raise OutputRefused(f"output path exists and is not a directory: {out}")
    earlier = (directory / MARKER).exists() or all((directory / name).exists() for name in REPORT_FILES)
    if _foreign_entries(directory) and not earlier:
        raise OutputRefused(f"--out {out} is a non-empty directory that holds no earlier report: the report "
                            f"would overwrite index.html and its figures there; give a new or empty directory")
    mark_output(out)


def overlap(out: str, source: str) -> str | None:
    """How `out` stands to `source`: "is", "lies inside", "contains", or None when apart."""
    if is_url(out) != is_url(source):
        return None
    if is_url(out):
        return _relation(_url_parts(out), _url_parts(source))
    out_path, source_path = Path(out).resolve(), Path(source).resolve()
    found = _relation(out_path.parts, source_path.parts)
    return found if found is not None else _same_file_relation(out_path, source_path)


def _relation(out: Sequence[str], source: Sequence[str]) -> str | None:
    if tuple(out) == tuple(source):
        return "is"
    if tuple(out[:len(source)]) == tuple(source):
        return "lies inside"
    if tuple(source[:len(out)]) == tuple(out):
        return "contains"
    return None


def _same_file_relation(out: Path, source: Path) -> str | None:
    """The relation by file identity: the same directory under two names (a bind mount, a
    case-insensitive file system) has two resolved paths."""
    for ancestor in (out, *out.parents):
        if _same(ancestor, source):
            return "is" if ancestor == out else "lies inside"
    for ancestor in source.parents:
        if _same(ancestor, out):
            return "contains"
    return None


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def _url_parts(url: str) -> tuple[str, ...]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return ("s3" if scheme == "s3a" else scheme, parts.netloc.lower(),
            *(segment for segment in parts.path.split("/") if segment))


def _under_replaced(inner: str, outer: str, exclude: tuple[str, ...]) -> bool:
    """Whether `inner` lies in (or is) one of the directories a run replaces in `outer`."""
    return any(overlap(inner, join(outer, name)) in ("is", "lies inside")
               for name in REPLACED if name not in exclude)


def _foreign_entries(directory: Path | ObjectPath) -> list[str]:
    """The entries of `directory` (none when it does not exist) other than the marker and outputs
    of ours where a run replaces nothing."""
    if not directory.exists():
        return []
    entries = directory.iterdir() if isinstance(directory, ObjectPath) else sorted(directory.iterdir())
    return [str(entry) for entry in entries
            if entry.name != MARKER and (entry.name in REPLACED_HERE or not _is_earlier_output(entry))]


def _is_earlier_output(directory: Path | ObjectPath) -> bool:
    return any((directory / name).exists() for name in (MARKER, *EARLIER_MARKERS))


def mark_output(out: str) -> None:
    """Create `out` and write its marker, if not there yet."""
    directory = location(out)
    directory.mkdir(parents=True, exist_ok=True)
    marker = directory / MARKER
    if not marker.exists():
        marker.write_bytes(MARKER_TEXT.encode())
