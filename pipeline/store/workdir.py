"""The extract stage's work directory: where each input file's outputs go, and whether they can be
reused by `--resume`.

Layout: `WORKDIR/extract/<key>.parquet` (the file's rows) and `<key>.json` (its accounting,
written last, so its presence marks a finished file), and `WORKDIR/manifest.json`, written once
every input file is finished; `select` reads only a work directory that has it. A file read in
byte ranges (`pipeline/io/byte_ranges.py`) first gets one such pair per range under
`extract/parts/<key>/<start>-<end>.*`, the unit of `--resume` while the file is unfinished; the
parts are merged into the file's pair and then removed.

The work directory may be a URL (`pipeline/store/storage.py`): its paths are then `ObjectPath`s, written
through `pipeline/store/writers.py` like local ones (a temporary name, then the final one) and read back
through fsspec. Every extract task writes its own outputs, so on a cluster the work directory must
be somewhere every node can write: a shared file system or an object store.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.params import Params, extract_stage
from pipeline.store.storage import ObjectPath, input_digest, input_identity, location, parquet_file, remove_tree
from pipeline.store.writers import atomic_write_text, remove_stale_temps

EXTRACT_DIR = "extract"
PARTS_DIR = "parts"
MANIFEST = "manifest.json"
# Bump when rows written by the extract stage change meaning; invalidates --resume outputs.
FORMAT_VERSION = 14


def file_key(path: str) -> str:
    """Stable, filesystem-safe name for an input file's outputs."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(path))[:80]
    digest = hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{stem}-{digest}"


@functools.lru_cache(maxsize=16)  # once per params, not once per input file (Params is frozen)
def fingerprint(params: Params, extract_all: bool) -> str:
    """What makes an extract output reusable: code format, library version, and the params declared
    extract-stage (`pipeline.params.extract_stage`: the extract group less how a file is cut into
    tasks, whether segments are found and how many a page keeps)."""
    payload = json.dumps({"format": FORMAT_VERSION, "version": __version__, "extract_all": extract_all,
                          "params": extract_stage(params)}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


Location = Path | ObjectPath


def outputs_for(workdir: str, path: str) -> tuple[Location, Location]:
    """The Parquet file and the JSON summary of one input file."""
    directory = location(workdir) / EXTRACT_DIR
    key = file_key(path)
    return directory / f"{key}.parquet", directory / f"{key}.json"


def part_outputs_for(workdir: str, path: str, start: int, end: int) -> tuple[Location, Location]:
    """The Parquet file and the JSON summary of one byte range of an input file."""
    directory = parts_directory(workdir, path)
    name = f"{start:015d}-{end:015d}"
    return directory / f"{name}.parquet", directory / f"{name}.json"


def parts_directory(workdir: str, path: str) -> Location:
    return location(workdir) / EXTRACT_DIR / PARTS_DIR / file_key(path)


def remove_parts(workdir: str, path: str | None = None) -> None:
    """Remove the byte-range outputs of `path` (None: of every file)."""
    directory = parts_directory(workdir, path) if path is not None else location(workdir) / EXTRACT_DIR / PARTS_DIR
    remove_tree(directory)


def finished_summary(path: str, params: Params, extract_all: bool, parquet_path: Location,
                     json_path: Location) -> dict[str, Any] | None:
    """The stored summary if this input file's (or byte range's) outputs are complete and
    current, else None. Output holding a failed task's `error.task` rows is not finished:
    `--resume` tries that task again."""
    try:
        summary = json.loads(json_path.read_text(encoding="utf-8"))
        rows = parquet_file(parquet_path).metadata.num_rows
    except (OSError, ValueError):
        return None
    if (summary.get("fingerprint") != fingerprint(params, extract_all)
            or summary.get("input") != input_identity(path) or summary.get("rows") != rows
            or summary.get("failed_tasks")):
        return None
    return summary


def write_summary(json_path: Location, summary: dict[str, Any], path: str, params: Params, extract_all: bool) -> None:
    """Stamp `summary` with what `finished_summary` checks, and write it: the file is finished."""
    summary["fingerprint"] = fingerprint(params, extract_all)
    summary["input"] = input_identity(path)
    atomic_write_text(json_path, json.dumps(summary, indent=1, sort_keys=True) + "\n")


def prepare_workdir(workdir: str) -> None:
    """Create the work directory, clear the temporary files a killed run left in it, and remove
    the manifest, which `write_manifest` puts back once every file is finished: `select` never
    reads a half-extracted work directory.

    Called once per run, before any file is extracted: a work directory serves one run at a time.
    """
    directory = location(workdir) / EXTRACT_DIR
    directory.mkdir(parents=True, exist_ok=True)
    (location(workdir) / MANIFEST).unlink(missing_ok=True)
    remove_stale_temps(location(workdir))
    remove_stale_temps(directory)
    parts = directory / PARTS_DIR
    for part in parts.iterdir() if isinstance(parts, ObjectPath) else sorted(parts.glob("*")):
        remove_stale_temps(part)


def write_manifest(workdir: str, inputs: list[str], skipped: dict[str, str], params: Params,
                   extract_all: bool) -> None:
    """The work directory is complete. `input_files`: each input's size and SHA-256, for the
    dataset card (reading every input once more: about a second per GB). `skipped`: the paths not
    read, `skipped_reasons` why. `extract_stage`: the extract-stage params (dotted keys), which select
    applies; `version` and `format`: the code that wrote the rows."""
    manifest = {"inputs": inputs, "skipped": list(skipped), "skipped_reasons": skipped, "extract_all": extract_all,
                "fingerprint": fingerprint(params, extract_all), "extract_stage": extract_stage(params),
                "version": __version__, "format": FORMAT_VERSION,
                "input_files": [input_digest(path) for path in inputs]}
    location(workdir).mkdir(parents=True, exist_ok=True)
    atomic_write_text(location(workdir) / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
