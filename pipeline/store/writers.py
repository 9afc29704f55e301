"""Parquet shard writers: bounded size, zstd, atomic rename, deterministic bytes.

A shard is written under a hidden temporary name and renamed when complete, so no partial file is ever visible
under its final name; a directory of shards is built beside its final place and swapped in at the end, so a
re-run never mixes old and new shards. A file's data is fsync'ed before its rename and the directory after it,
so the rename never outlives the data. Temporary names start with a dot and end in `.tmp`, `.tmp-<pid>`,
`.tmp-<pid>-<random>`, `.new` or `.old`; a process killed mid-write leaves them, and `remove_stale_temps` clears
them at the start of the next run (one run per output or work directory at a time).

On a URL (`pipeline/store/storage.py`) a file is written to a local temporary file, uploaded under a temporary
key beside its final one and moved there (on S3 a server-side copy, then a delete): S3 shows an object whole or
not at all. An output directory at a URL is written locally first and published by `publish_tree`, its marker
(stats.json) last: every object is whole or absent, and a marker present describes the objects beside it. A
kill can leave temporary keys (removed by the next run) and incomplete multipart uploads, which S3 never shows
and a bucket lifecycle rule removes.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.faults import crash_point
from pipeline.store.storage import ObjectPath, location

# Only names this module makes: a user's own dotfiles (.gitignore, .dvc) never match.
_TEMP_NAME = re.compile(r"^\..+\.(tmp|tmp-\d+|tmp-\d+-[0-9a-f]+|new|old)$")


class ShardWriter:
    """Append tables; a new `PREFIX-NNNNN.parquet` starts when rows or bytes would exceed the bound.

    `of_total`: at close the shards are renamed `PREFIX-NNNNN-of-MMMMM.parquet` (the Hugging Face
    layout of a split), inside the staging directory, before anything is published.
    """

    def __init__(self, directory: Path, schema: pa.Schema, max_rows: int, max_bytes: int, prefix: str = "part",
                 of_total: bool = False) -> None:
        self.directory = directory
        self.prefix = prefix
        self.of_total = of_total
        self.schema = schema
        self.max_rows = max(1, max_rows)
        self.max_bytes = max(1, max_bytes)
        self.shards: list[Path] = []
        self._writer: pq.ParquetWriter | None = None
        self._tmp: Path | None = None
        self._rows = 0
        self._bytes = 0
        directory.mkdir(parents=True, exist_ok=True)

    def write(self, table: pa.Table) -> None:
        try:
            self._write(table)
        except BaseException:
            self._discard()
            raise

    def close(self) -> list[Path]:
        """Finish the last shard; a writer that got no rows still leaves one empty shard."""
        try:
            if self._writer is None and not self.shards:
                self._open()
            self._close()
        except BaseException:
            self._discard()
            raise
        if self.of_total:
            total = len(self.shards)
            renamed = [shard.with_name(f"{self.prefix}-{index:05d}-of-{total:05d}.parquet")
                       for index, shard in enumerate(self.shards)]
            for shard, name in zip(self.shards, renamed, strict=True):
                os.replace(shard, name)
            self.shards = renamed
        fsync_directory(self.directory)
        return self.shards

    def _write(self, table: pa.Table) -> None:
        offset = 0
        while offset < table.num_rows:
            if self._writer is None:
                self._open()
            room = self.max_rows - self._rows
            piece = table.slice(offset, room)
            # Shrink the piece until it fits the byte bound; a single huge row still goes alone.
            while piece.num_rows > 1 and self._bytes + piece.nbytes > self.max_bytes:
                piece = piece.slice(0, piece.num_rows // 2)
            if self._rows > 0 and self._bytes + piece.nbytes > self.max_bytes:
                self._close()
                continue
            self._writer.write_table(piece)  # type: ignore[union-attr]
            crash_point("select.shard")
            self._rows += piece.num_rows
            self._bytes += piece.nbytes
            offset += piece.num_rows
            if self._rows >= self.max_rows or self._bytes >= self.max_bytes:
                self._close()

    def _discard(self) -> None:
        """After a failure (a full disk): drop the shard being written."""
        if self._writer is not None:
            close_quietly(self._writer)
            self._writer = None
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
            self._tmp = None

    def _open(self) -> None:
        name = f"{self.prefix}-{len(self.shards):05d}.parquet"
        self._tmp = self.directory / f".{name}.tmp"
        self._writer = pq.ParquetWriter(self._tmp, self.schema, compression="zstd")
        self._rows = 0
        self._bytes = 0

    def _close(self) -> None:
        if self._writer is None or self._tmp is None:
            return
        self._writer.close()
        self._writer = None
        final = self._tmp.with_name(self._tmp.name[1:].removesuffix(".tmp"))
        publish_file(self._tmp, final, sync_directory=False)  # close() syncs the directory once
        self.shards.append(final)
        self._tmp = None


@contextlib.contextmanager
def parquet_writer(path: Path, schema: pa.Schema, compression: str = "zstd") -> Iterator[pq.ParquetWriter]:
    """A `pq.ParquetWriter` (zstd unless told) for a `with` block; on a failure inside it, closed quietly."""
    writer = pq.ParquetWriter(path, schema, compression=compression)
    try:
        yield writer
    except BaseException:
        close_quietly(writer)
        raise
    writer.close()


def close_quietly(writer: pq.ParquetWriter) -> None:
    """Close a writer after a failure, ignoring a second error (its footer on a full disk).

    pyarrow keeps a writer whose close() failed marked open, and its __del__ retries at exit,
    printing a traceback after the CLI's one-line error: mark it closed.
    """
    with contextlib.suppress(Exception):
        writer.close()
    writer.is_open = False


def publish_file(tmp: Path, final: Path, sync_directory: bool = True) -> None:
    """Rename a complete temporary file to its final name, data on disk before the name."""
    fsync_path(tmp)
    os.replace(tmp, final)
    if sync_directory:
        fsync_directory(final.parent)


def swap_directory(staging: Path, final: Path) -> None:
    """Replace `final` by `staging` (both on the same file system)."""
    old = final.with_name(f".{final.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if final.exists():
        os.replace(final, old)
    os.replace(staging, final)
    fsync_directory(final.parent)
    if old.exists():
        shutil.rmtree(old)


def publish_directories(out_dir: Path, staged: dict[str, Path], marker: str, marker_text: str,
                        beside: dict[str, str] | None = None) -> None:
    """Swap each staged directory into `out_dir/<name>`, write the files of `beside` (name ->
    text: the dataset card), then write `marker` (stats.json).

    The old marker is removed before the first swap and the new one renamed in after the last,
    so a marker present always describes the directories beside it: a crash half-way through
    leaves no marker, never an old one next to new shards. The marker's bytes are written
    before anything is replaced, so a full disk fails while the old output is still whole.
    """
    marker_path = out_dir / marker
    marker_tmp = out_dir / f".{marker}.tmp-{os.getpid()}"
    try:
        marker_tmp.write_text(marker_text, encoding="utf-8")
        fsync_path(marker_tmp)
    except BaseException:
        marker_tmp.unlink(missing_ok=True)
        raise
    crash_point("select.publish")
    marker_path.unlink(missing_ok=True)
    fsync_directory(out_dir)
    for name, staging in staged.items():
        swap_directory(staging, out_dir / name)
        crash_point("select.publish")
    for name, text in (beside or {}).items():
        atomic_write_text(out_dir / name, text)
    publish_file(marker_tmp, marker_path)


def atomic_write_text(path: Path | ObjectPath, text: str) -> None:
    with staged_file(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


# Rows per row group of a frame written whole (`write_whole`): the de-duplication results are sorted by
# node, so the write pass, which reads one extract file's nodes at a time, skips every row group outside
# that file by its statistics; small groups keep that read proportional to the file.
WHOLE_ROW_GROUP_ROWS = 16_384


def write_whole(frame: Any, path: Path) -> None:
    """Write a polars `frame` to `path` through a temporary file of this process (`staged_file`): a
    file that exists under its name is whole, and two attempts of one task never share a temporary."""
    with staged_file(path) as temporary:
        frame.write_parquet(temporary, compression="zstd", statistics=True, row_group_size=WHOLE_ROW_GROUP_ROWS)


@contextlib.contextmanager
def staged_file(final: Path | ObjectPath) -> Iterator[Path]:
    """A local file to write `final`'s bytes into: when the block ends without an error it is
    published under `final` whole (`publish_file`, or `publish_object` for a URL); either way the
    temporary file is gone afterwards."""
    if isinstance(final, ObjectPath):
        handle, name = tempfile.mkstemp(prefix="pipeline-", suffix=f"-{final.name}")
        os.close(handle)
        tmp = Path(name)
    else:
        tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}")
    try:
        yield tmp
        if isinstance(final, ObjectPath):
            publish_object(tmp, final)
        else:
            publish_file(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)


def publish_object(local: Path, final: ObjectPath) -> None:
    """Upload a complete local file under a temporary key beside `final`, then move it there.

    The random part keeps two attempts of one task (a retry on another node whose first attempt
    is still running) from sharing a temporary key.
    """
    tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        tmp.upload(local)
        tmp.move(final)
    except BaseException:
        with contextlib.suppress(Exception):
            tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def output_directory(out: str, marker: str) -> Iterator[Path]:
    """The local directory to write an output directory into: `out` itself, or for a URL a
    local temporary directory published to `out` by `publish_tree` when the block ends without
    an error. The temporary keys a killed run left at the URL are removed first."""
    target = location(out)
    if not isinstance(target, ObjectPath):
        yield target
        return
    remove_stale_temps(target)
    with tempfile.TemporaryDirectory(prefix="pipeline-out-") as scratch:
        yield Path(scratch)
        publish_tree(Path(scratch), target, marker)


def publish_tree(local: Path, out: ObjectPath, marker: str | None) -> None:
    """Publish the local output directory `local` (its subdirectories, its other files such as
    the dataset card, and the file `marker`, if any) to `out`.

    As `publish_directories` does locally: every subdirectory is uploaded to a staged prefix
    (`.accepted.new/`, …) and the marker to a temporary key before anything is replaced; then the
    old marker is deleted, each old subdirectory replaced by its staged one (copies, then
    deletes), the other files uploaded, and the marker moved into place last. A marker present always describes the
    objects beside it; a kill half-way leaves none, and the staged keys for the next run to remove.
    """
    names = sorted(entry.name for entry in local.iterdir() if entry.is_dir())
    files = sorted(entry.name for entry in local.iterdir() if entry.is_file() and entry.name != marker
                   and not entry.name.startswith("."))
    staged = {name: out / f".{name}.new" for name in names}
    marker_tmp: ObjectPath | None = None
    try:
        for name, prefix in staged.items():
            prefix.remove_tree()
            _upload_tree(local / name, prefix)
        if marker is not None:
            marker_tmp = out / f".{marker}.tmp-{os.getpid()}-{secrets.token_hex(4)}"
            marker_tmp.upload(local / marker)
        crash_point("select.upload")
        if marker is not None:
            (out / marker).unlink(missing_ok=True)
        for name, prefix in staged.items():
            (out / name).remove_tree()
            for source in prefix.files():
                source.move(out / name / source.relative_to(prefix))
            prefix.remove_tree()  # where directories exist, the emptied one
            crash_point("select.upload")
        for name in files:
            (out / name).upload(local / name)
        if marker is not None and marker_tmp is not None:
            marker_tmp.move(out / marker)
    except BaseException:
        with contextlib.suppress(Exception):  # the store may be what failed: keep its error
            for prefix in staged.values():
                prefix.remove_tree()
            if marker_tmp is not None:
                marker_tmp.unlink(missing_ok=True)
        raise


def _upload_tree(local: Path, prefix: ObjectPath) -> None:
    for path in sorted(local.rglob("*")):
        if path.is_file():
            (prefix / path.relative_to(local).as_posix()).upload(path)


def remove_stale_temps(directory: Path | ObjectPath) -> list[Path] | list[ObjectPath]:
    """Delete the temporary files and directories an interrupted run left in `directory`."""
    if isinstance(directory, ObjectPath):
        stale = [entry for entry in directory.iterdir() if _TEMP_NAME.match(entry.name)]
        for entry in stale:
            entry.remove_tree()
            entry.unlink(missing_ok=True)
        return stale
    removed = []
    with contextlib.suppress(FileNotFoundError):
        for path in sorted(directory.iterdir()):
            if not _TEMP_NAME.match(path.name):
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_directory(path: Path) -> None:
    """Make renames inside `path` durable; a no-op where directories cannot be opened."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some file systems refuse fsync on a directory
            os.fsync(fd)
    finally:
        os.close(fd)
