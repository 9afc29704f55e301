"""Parquet shard writers: bounded size, zstd, atomic rename, deterministic bytes.

A shard is written under a hidden temporary name and renamed when complete, so no partial
file is ever visible under its final name. A directory of shards is built beside its final
place and swapped in at the end, so a re-run never mixes old and new shards.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


class ShardWriter:
    """Append tables; a new `part-NNNNN.parquet` starts when rows or bytes would exceed the bound."""

    def __init__(self, directory: Path, schema: pa.Schema, max_rows: int, max_bytes: int) -> None:
        self.directory = directory
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
            self._rows += piece.num_rows
            self._bytes += piece.nbytes
            offset += piece.num_rows
            if self._rows >= self.max_rows or self._bytes >= self.max_bytes:
                self._close()

    def close(self) -> list[Path]:
        """Finish the last shard; a writer that got no rows still leaves one empty shard."""
        if self._writer is None and not self.shards:
            self._open()
        self._close()
        return self.shards

    def _open(self) -> None:
        name = f"part-{len(self.shards):05d}.parquet"
        self._tmp = self.directory / f".{name}.tmp"
        self._writer = pq.ParquetWriter(self._tmp, self.schema, compression="zstd")
        self._rows = 0
        self._bytes = 0

    def _close(self) -> None:
        if self._writer is None or self._tmp is None:
            return
        self._writer.close()
        final = self._tmp.with_name(self._tmp.name[1:].removesuffix(".tmp"))
        os.replace(self._tmp, final)
        self.shards.append(final)
        self._writer = None
        self._tmp = None


def swap_directory(staging: Path, final: Path) -> None:
    """Replace `final` by `staging` (both on the same file system)."""
    old = final.with_name(f".{final.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if final.exists():
        os.replace(final, old)
    os.replace(staging, final)
    if old.exists():
        shutil.rmtree(old)


def atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
