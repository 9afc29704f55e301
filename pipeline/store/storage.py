"""Where files live: a local path, or a URL of any fsspec file system (`s3://bucket/key`, `gs://…`).

The one module that knows about URLs. Inputs are opened with `open_input` (a local path with the builtin
`open`; a URL through fsspec), measured with `input_size` and identified for `--resume` with `input_identity`;
`walk_url` lists a URL "directory" (an object-store prefix). An output location is a `pathlib.Path` or an
`ObjectPath`, which has the few `Path` methods the work directory needs plus upload, move and download
(`pipeline/store/writers.py` publishes through them). A string is a URL when it starts with `SCHEME://` and
fsspec knows the scheme; anything else (`a:b`, `./x://y`) is a local path.

Credentials come only from the environment and the libraries' own configuration (`AWS_ACCESS_KEY_ID`,
`AWS_ENDPOINT_URL`, `~/.aws/config`, …): a `user:password@` in a URL is removed by `without_credentials` before
the pipeline uses the URL, so it is never stored or printed. fsspec and the file system's package (s3fs for
`s3://`, the `s3` extra) are imported only when a URL is used.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pyarrow.parquet as pq

if TYPE_CHECKING:
    import polars as pl

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+)://")
_USERINFO = re.compile(r"\b([A-Za-z][A-Za-z0-9+.-]+://)[^/@\s]*@")

# Readers seek and read 64 kB at a time; a URL input is fetched in blocks of this size ahead of
# the reads (fsspec's "readahead" cache). One block is about one byte-range task at the default
# `extract.task_bytes`, so a range costs one or two requests, and a whole 1 GB WARC ~500.
INPUT_BLOCK_BYTES = 2 << 20
DIGEST_BLOCK_BYTES = 1 << 20

# Object stores have no directories: nothing to create before writing a key, and creating the
# "directory" of a bucket path would create the bucket (s3fs does), hiding a misspelt name.
_OBJECT_STORES = frozenset({"s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "adl", "oss"})

# The variables that tell boto3 and fsspec where the store is and who we are. A task on another
# process or node needs them too; `forwarded_environment` hands the ones that are set to the
# Ray executor (never printed).
_ENVIRONMENT = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                "AWS_DEFAULT_REGION", "AWS_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3",
                "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CA_BUNDLE", "AWS_MAX_ATTEMPTS",
                "AWS_RETRY_MODE", "AWS_EC2_METADATA_DISABLED")
_FSSPEC_PREFIX = "FSSPEC_"  # fsspec's own configuration variables (FSSPEC_S3_ENDPOINT_URL, …)

# Modules whose exceptions are storage failures (connection, credentials, throttling) rather
# than bugs: the CLI reports them in one line (`describe_error`).
_STORAGE_MODULES = frozenset({"botocore", "aiobotocore", "boto3", "s3fs", "aiohttp", "fsspec", "gcsfs", "adlfs"})
_HINTS = {
    "NoCredentialsError": "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) in the environment",
    "PartialCredentialsError": "set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
    "EndpointConnectionError": "is AWS_ENDPOINT_URL right and the store reachable?",
    "ConnectTimeoutError": "is AWS_ENDPOINT_URL right and the store reachable?",
}


class StorageUnavailable(Exception):
    """A URL whose file system is not installed (pip install 'corpus-filter[s3]')."""


def is_url(path: str) -> bool:
    """Whether `path` is a URL of a file system fsspec knows (else it is a local path)."""
    match = _SCHEME.match(path)
    if match is None:
        return False
    try:
        import fsspec
    except ImportError:
        return True  # reported by `filesystem` as a missing extra, not as a missing local file
    return match.group(1).lower() in fsspec.available_protocols()


def without_credentials(path: str) -> str:
    """`path` with the `user:password@` of a URL removed (credentials come from the environment)."""
    return _USERINFO.sub(r"\1", path, count=1) if is_url(path) else path


def redact(text: str) -> str:
    """`text` with the `user:password@` of every URL in it removed (for messages)."""
    return _USERINFO.sub(r"\1", text)


def forwarded_environment() -> dict[str, str]:
    """The storage variables set here, for tasks started elsewhere (Ray workers)."""
    return {name: value for name, value in os.environ.items()
            if name in _ENVIRONMENT or name.startswith(_FSSPEC_PREFIX)}


def describe_error(exc: BaseException) -> str | None:
    """One line for a storage library's failure (no endpoint, no credentials), else None."""
    if type(exc).__module__.split(".")[0] not in _STORAGE_MODULES:
        return None
    message = " ".join(str(exc).split())
    hint = _HINTS.get(type(exc).__name__)
    return redact(f"object storage: {type(exc).__name__}: {message}" + (f"; {hint}" if hint else ""))


def filesystem(url: str) -> tuple[Any, str]:
    """The fsspec file system of `url` and the path within it, with no listing cached.

    fsspec keeps one file system object per process and caches directory listings in it; other
    processes (extract tasks) write into the same directories, so a cached listing could hide
    their files: every call starts without one.
    """
    try:
        import fsspec
    except ImportError as exc:
        raise StorageUnavailable(f"{_scheme(url)}:// URLs need the s3 extra: "
                                 f"pip install 'corpus-filter[s3]'") from exc
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except ImportError as exc:  # fsspec knows the scheme, its package is missing (s3fs for s3://)
        raise StorageUnavailable(f"{_scheme(url)}:// URLs need {' '.join(str(exc).split())}") from exc
    fs.invalidate_cache()
    return fs, path


def _scheme(url: str) -> str:
    match = _SCHEME.match(url)
    return match.group(1) if match else url


# ---------------------------------------------------------------- inputs

def open_input(path: str, read_ahead: int = INPUT_BLOCK_BYTES) -> IO[bytes]:
    """A binary, seekable file object for an input file; at a URL each request fetches
    `read_ahead` bytes beyond what was asked for."""
    if not is_url(path):
        return open(path, "rb")  # noqa: SIM115  (the caller closes it)
    fs, inner = filesystem(path)
    return fs.open(inner, "rb", block_size=read_ahead, cache_type="readahead")


def input_size(path: str) -> int:
    if not is_url(path):
        return os.path.getsize(path)
    fs, inner = filesystem(path)
    return int(fs.size(inner))


def input_identity(path: str) -> dict[str, Any] | None:
    """What tells a changed input file from the one an output was made from (`--resume`):
    size and mtime for a local file, size and ETag (or modification time) for a URL."""
    if not is_url(path):
        try:
            st = os.stat(path)
        except OSError:
            return None
        return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}
    try:
        fs, inner = filesystem(path)
        info = fs.info(inner)
    except OSError:
        return None
    keys = ("ETag", "etag", "mtime", "LastModified", "last_modified", "created")
    version = next((info[key] for key in keys if info.get(key) is not None), None)
    return {"size": int(info["size"]), "version": None if version is None else str(version)}


def input_digest(path: str) -> dict[str, Any]:
    """Size and SHA-256 of an input file (for the dataset card); nulls when it cannot be read."""
    digest = hashlib.sha256()
    size = 0
    try:
        with open_input(path) as handle:
            while block := handle.read(DIGEST_BLOCK_BYTES):
                digest.update(block)
                size += len(block)
    except OSError:
        return {"path": path, "bytes": None, "sha256": None}
    return {"path": path, "bytes": size, "sha256": digest.hexdigest()}


def input_url(path: str) -> str:
    """A URL for an input file (the fallback URL of an HTML file that names none)."""
    return path if is_url(path) else Path(path).resolve().as_uri()


def walk_url(url: str) -> list[str] | None:
    """The files under a URL "directory" (an object-store prefix) in sorted order, or None when
    `url` is one file. A URL that is neither raises FileNotFoundError."""
    fs, inner = filesystem(url)
    try:
        kind = fs.info(inner)["type"]
    except FileNotFoundError as exc:  # s3fs says why (no such bucket) or names the key
        reason = " ".join(str(exc).split())
        raise FileNotFoundError(url if reason in ("", inner) else f"{url} ({reason})") from None
    if kind != "directory":
        return None
    base = url.rstrip("/")
    inner = inner.rstrip("/")
    files = [base + found[len(inner):] for found in fs.find(inner)]
    return sorted(files, key=lambda name: name.split("/"))  # as pathlib sorts a local walk: by component


# ---------------------------------------------------------------- output locations

@dataclass(frozen=True, order=True)
class ObjectPath:
    """A file or directory at a URL, with the `pathlib.Path` methods the work directory uses, and
    upload, move and download. A "directory" on an object store is a key prefix."""

    url: str

    def __str__(self) -> str:
        return self.url

    def __truediv__(self, name: str) -> ObjectPath:
        return ObjectPath(f"{self.url}/{name}")

    @property
    def name(self) -> str:
        return self.url.rsplit("/", 1)[1]

    @property
    def parent(self) -> ObjectPath:
        return ObjectPath(self.url.rsplit("/", 1)[0])

    def with_name(self, name: str) -> ObjectPath:
        return self.parent / name

    def _fs(self) -> tuple[Any, str]:
        return filesystem(self.url)

    def exists(self) -> bool:
        fs, path = self._fs()
        return bool(fs.exists(path))

    def is_file(self) -> bool:
        return self._kind() == "file"

    def is_dir(self) -> bool:
        return self._kind() == "directory"

    def _kind(self) -> str | None:
        """fsspec's type of the object ("file", "directory"), None when there is none."""
        fs, path = self._fs()
        try:
            return fs.info(path)["type"]
        except FileNotFoundError:
            return None

    def read_bytes(self) -> bytes:
        fs, path = self._fs()
        return bytes(fs.cat_file(path))

    def read_text(self, encoding: str = "utf-8") -> str:
        return self.read_bytes().decode(encoding)

    def open(self, mode: str = "rb") -> IO[bytes]:
        fs, path = self._fs()
        return fs.open(path, mode)

    def write_bytes(self, data: bytes) -> None:
        fs, path = self._fs()
        fs.pipe_file(path, data)

    def unlink(self, missing_ok: bool = False) -> None:
        fs, path = self._fs()
        try:
            fs.rm_file(path)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def mkdir(self, parents: bool = False, exist_ok: bool = False) -> None:
        """Create the directory where directories exist (not on object stores: see _OBJECT_STORES)."""
        if _scheme(self.url).lower() not in _OBJECT_STORES:
            fs, path = self._fs()
            fs.makedirs(path, exist_ok=exist_ok)

    def iterdir(self) -> list[ObjectPath]:
        """The entries right under this directory, sorted; none when it does not exist."""
        fs, path = self._fs()
        try:
            found = fs.ls(path, detail=False)
        except FileNotFoundError:
            return []
        return sorted(self / name.rstrip("/").rsplit("/", 1)[-1] for name in found
                      if name.rstrip("/") != path.rstrip("/"))

    def files(self) -> list[ObjectPath]:
        """Every file under this directory, at any depth."""
        fs, path = self._fs()
        base = path.rstrip("/")
        return [ObjectPath(self.url + found[len(base):]) for found in sorted(fs.find(base))]

    def remove_tree(self) -> None:
        """Remove this directory and everything under it (nothing when it does not exist)."""
        fs, path = self._fs()
        if _scheme(self.url).lower() not in _OBJECT_STORES:
            if fs.exists(path):
                fs.rm(path, recursive=True)
            return
        # On an object store the keys under the prefix, one bulk delete (rm(recursive=True) of a
        # bucket's root would remove the bucket).
        keys = fs.find(path.rstrip("/"))
        if keys:
            fs.rm(keys)

    def upload(self, local: Path) -> None:
        self.parent.mkdir(parents=True, exist_ok=True)
        fs, path = self._fs()
        fs.put_file(str(local), path)

    def download(self, local: Path) -> None:
        local.parent.mkdir(parents=True, exist_ok=True)
        fs, path = self._fs()
        fs.get_file(path, str(local))

    def download_tree(self, local: Path) -> None:
        """Every file under this directory into `local`, at the same relative paths."""
        for file in self.files():
            file.download(local / file.relative_to(self))

    def relative_to(self, directory: ObjectPath) -> str:
        """This file's path under `directory` (`a/b.parquet`)."""
        return self.url[len(directory.url) + 1:]

    def move(self, target: ObjectPath) -> None:
        """Move this file to `target` on the same store (on S3 a server-side copy, then a delete)."""
        target.parent.mkdir(parents=True, exist_ok=True)
        fs, path = self._fs()
        # One file: cp_file and rm_file, not mv, which first lists both sides to expand paths.
        fs.cp_file(path, filesystem(target.url)[1])
        fs.rm_file(path)


def location(path: str) -> Path | ObjectPath:
    """A local path as a `Path`, a URL as an `ObjectPath` (trailing slashes dropped)."""
    return ObjectPath(path.rstrip("/")) if is_url(path) else Path(path)


def join(path: str, *names: str) -> str:
    """`path/name/…` for a local path or a URL."""
    return "/".join([path.rstrip("/"), *names]) if is_url(path) else str(Path(path).joinpath(*names))


def remove_tree(directory: Path | ObjectPath) -> None:
    """Remove a directory and everything in it; nothing when it does not exist."""
    if isinstance(directory, ObjectPath):
        directory.remove_tree()
        return
    shutil.rmtree(directory, ignore_errors=True)


def parquet_file(path: Path | ObjectPath) -> pq.ParquetFile:
    """A Parquet file opened for its metadata or row groups, local or at a URL."""
    if isinstance(path, ObjectPath):
        return pq.ParquetFile(path.open("rb"))
    return pq.ParquetFile(path)


@contextlib.contextmanager
def local_copies(paths: Sequence[str]) -> Iterator[list[str]]:
    """`paths` as local files: local paths as they are; URLs downloaded (concurrently, by fsspec)
    into a temporary directory, removed when the block ends."""
    remote = [index for index, path in enumerate(paths) if is_url(path)]
    if not remote:
        yield list(paths)
        return
    copies = list(paths)
    with tempfile.TemporaryDirectory(prefix="pipeline-") as scratch:
        for index in remote:
            copies[index] = str(Path(scratch) / f"{index:06d}-{paths[index].rsplit('/', 1)[-1]}")
        fs, _ = filesystem(paths[remote[0]])  # the callers' paths are in one work directory
        fs.get([filesystem(paths[index])[1] for index in remote], [copies[index] for index in remote])
        yield copies


def readable_copy(local: str, source: str) -> str:
    """`local` when this process sees it (the driver's downloaded copy), else `source` (its URL:
    a task on another node)."""
    return local if os.path.exists(local) else source


def row_groups_with(paths: str | Sequence[str], columns: Sequence[str], rows: int,
                    wanted: Sequence[int]) -> Iterator[tuple[int, pl.DataFrame]]:
    """(first row, frame): `columns` of the parts of a Parquet file, or of several read as one
    (`paths` in order, rows numbered through), that hold one of the `wanted` rows (sorted), in
    order. Local files are read a row group at a time, and only the row groups that hold a wanted
    row (the extract stage writes groups of `extract.rows_per_row_group` rows); a file at a URL is
    read through in frames of `rows` rows, and the frames without a wanted row are skipped."""
    import polars as pl

    paths = [paths] if isinstance(paths, str) else list(paths)
    if any(is_url(path) for path in paths):
        start = 0  # a file's last frame may be short: count the rows, not the frames
        for frame in column_batches(paths, columns, rows):
            if _any_between(wanted, start, start + frame.height):
                yield start, frame
            start += frame.height
        return
    offset = 0
    for path in paths:
        parquet = pq.ParquetFile(path)
        for group in range(parquet.num_row_groups):
            size = parquet.metadata.row_group(group).num_rows
            if _any_between(wanted, offset, offset + size):
                yield offset, pl.from_arrow(parquet.read_row_group(group, columns=list(columns)))  # type: ignore[misc]
            offset += size


def _any_between(sorted_values: Sequence[int], low: int, high: int) -> bool:
    """Whether a value of `sorted_values` is in [low, high)."""
    index = bisect.bisect_left(sorted_values, low)
    return index < len(sorted_values) and sorted_values[index] < high


def column_batches(paths: str | Sequence[str], columns: Sequence[str], rows: int) -> Iterator[pl.DataFrame]:
    """`columns` of a Parquet file, or of several read as one (`paths` in order), local or at a
    URL, in frames of up to `rows` rows, in order.

    Local files are sliced by polars, whose memory stays flat over a large file (pyarrow's
    `iter_batches` grew with every batch of texts: docs/decisions.md); a URL is read through
    fsspec one batch at a time.
    """
    import polars as pl

    paths = [paths] if isinstance(paths, str) else list(paths)
    if not any(is_url(path) for path in paths):
        total = pl.scan_parquet(paths).select(pl.len()).collect().item()
        for start in range(0, total, rows):
            yield pl.scan_parquet(paths).select(columns).slice(start, rows).collect()
        return
    for path in paths:
        if not is_url(path):
            yield from column_batches(path, columns, rows)
            continue
        with open_input(path) as fh:
            for batch in pq.ParquetFile(fh).iter_batches(batch_size=rows, columns=list(columns)):
                yield pl.from_arrow(batch)  # type: ignore[misc]
