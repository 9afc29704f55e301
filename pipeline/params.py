"""One typed configuration object, read from `params.yaml` (the DVC convention).

Groups follow the stages: `extract:` holds everything that changes what the extract stage
writes, `select:` everything the select stage decides. A DVC stage depends only on its own
group, so re-tuning a `select` threshold never re-runs extraction.

Unknown keys and wrongly typed values are rejected with `ParamsError`, whose message names
the offending key: a typo in a threshold must not silently fall back to a default.
A threshold set to `null` switches its rule off.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import functools
import types
import typing
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import yaml

from filters.core.declarations import Bounds, Count, Positive, Share, one_of
from filters.corpus.cdc import CdcParams
from filters.corpus.dataset import SITE_UNITS
from filters.corpus.dedup import NearParams
from filters.corpus.minhash import MinhashParams
from filters.extract.cascade import CascadeParams
from filters.metadata.fields import MetadataParams
from filters.page.page_signals import PageParams
from filters.page.url_rules import UrlParams, compile_patterns
from filters.page_model.decision import GateParams, SelectPageParams, gate_threshold, select_threshold
from filters.page_model.features import PAGE_TYPES
from filters.segment.segments import KINDS as SEGMENT_KINDS
from filters.text.blocks import BlockParams
from filters.text.c4 import C4Params, C4ReadingParams
from filters.text.gopher import GopherParams
from filters.text.language_id import LangParams
from filters.text.length import LengthParams
from filters.text.quality import QualityParams


class ParamsError(ValueError):
    """Invalid parameters: unknown key, wrong type or unreadable file."""


class Stage(enum.Enum):
    """Where a key takes effect, declared once beside the key (or beside a group, for every key in it)
    as `Annotated` metadata. A key without one is select's: re-tunable on a work directory.
    `extract_stage` and select's check (`pipeline/stages/select.py`, `params_in_force`) read it."""

    # Decides what extraction writes: select takes the work directory's value and refuses another.
    EXTRACT = "extract"
    # On a group that null switches off: whether it is on decides what extraction writes (its keys
    # declare their own stage).
    EXTRACT_SWITCH = "extract switch"
    # Read by extraction but never changes the rows it writes (how a file is cut into tasks).
    EXTRACT_TASKS = "extract tasks"


@dataclass(frozen=True)
class ReadParams:
    # Payloads above this are not decoded or parsed (record.too_large). 5 MB: Common Crawl
    # truncates at 1 MiB anyway, and an "article" of several MB is almost never prose.
    max_payload_bytes: Positive | None = 5_000_000
    # Share of U+FFFD and control characters after decoding above which a payload is binary
    # garbage rather than text (record.undecodable).
    max_undecodable_char_fraction: Share | None = 0.05


@dataclass(frozen=True)
class ExtractParams:
    read: ReadParams = field(default_factory=ReadParams)
    url: UrlParams = field(default_factory=UrlParams)
    gate: GateParams = field(default_factory=GateParams)
    page: PageParams = field(default_factory=PageParams)
    cascade: CascadeParams = field(default_factory=CascadeParams)
    minhash: MinhashParams = field(default_factory=MinhashParams)
    c4: C4ReadingParams = field(default_factory=C4ReadingParams)
    metadata: MetadataParams = field(default_factory=MetadataParams)
    # The simhash64 signal (filters/corpus/dedup.py), which only `select.dedup.near.method: simhash`
    # compares: computed at extraction only when true (0.4 ms a page), and that method requires it.
    simhash: bool = False
    # Wall-clock budget for one record (decode, parse, score, extract): error.timeout past it.
    page_time_budget_seconds: Annotated[float, Bounds(0.0, low_open=True)] | None = 10.0
    # Rows buffered before a row group is written; bounds the extract stage's memory per file.
    rows_per_row_group: Positive = 1000
    # A gzipped WARC/ARC larger than this is read as byte-range tasks cut at gzip member starts
    # (pipeline/io/byte_ranges.py): several workers on one file, and --resume inside it. Never
    # changes the rows. 2 MiB: ~1 s of work per task, so workers finish together.
    task_bytes: Annotated[Positive, Stage.EXTRACT_TASKS] = 2 * 1024 * 1024


@dataclass(frozen=True)
class OutputParams:
    # Shards roll over at whichever limit comes first.
    shard_max_rows: Positive = 50_000
    shard_max_bytes: Positive = 256 * 1024 * 1024


@dataclass(frozen=True)
class DedupParams:
    cdc: CdcParams = field(default_factory=CdcParams)
    near: NearParams = field(default_factory=NearParams)
    exact: bool = True   # exact duplicates: same content hash (docs/filters.md)
    url: bool = True     # same normalised URL or canonical URL (docs/filters.md)
    # dup.record: a document whose WARC-Record-ID an earlier row already had. Whether on or off,
    # every repeat gets an id of its own (docs/output.md, "Row ids").
    record: bool = True
    # Every pass (URL, exact, CDC by host, near by LSH bucket) runs over this many hash
    # partitions, one task each: a task's memory is bounded by its partition, not the corpus,
    # and the output does not depend on the count (docs/scale.md).
    partitions: Positive = 1


@dataclass(frozen=True)
class SelectParams:
    page: SelectPageParams = field(default_factory=SelectPageParams)
    lang: LangParams = field(default_factory=LangParams)
    length: LengthParams = field(default_factory=LengthParams)
    block: BlockParams = field(default_factory=BlockParams)
    c4: C4Params = field(default_factory=C4Params)
    gopher: GopherParams = field(default_factory=GopherParams)
    quality: QualityParams = field(default_factory=QualityParams)
    dedup: DedupParams = field(default_factory=DedupParams)
    output: OutputParams = field(default_factory=OutputParams)


@dataclass(frozen=True)
class SplitRatios:
    # Shares of sites (not pages) per split; they must add up to 1.
    train: Share = 0.8
    validation: Share = 0.1
    test: Share = 0.1


@dataclass(frozen=True)
class DatasetParams:
    # Detector-dataset assembly (docs/dataset.md), applied at the end of select. The site unit of the
    # splits and of the per-site balance: registered_domain (public suffix list) or host; null:
    # no splits (accepted/part-NNNNN.parquet, null `split`) and the balance counts per host.
    split_by: Annotated[str, one_of(SITE_UNITS)] | None = "registered_domain"
    split: SplitRatios = field(default_factory=SplitRatios)
    # `era`: pre_cutoff for pages published (else captured) on or before this day, post_cutoff for pages
    # published after it (filters/corpus/dataset.py:era_columns).
    era_cutoff: str = "2022-11-30"
    # true: a page whose declared `updated` date is after the cut-off is not pre_cutoff by its publication
    # date (its text may have been rewritten since): unknown, unless its capture is on or before the cut-off.
    era_unmodified_since_cutoff: bool = False
    host_min: Positive | None = None  # dataset.host_min: sites with fewer accepted pages lose them all
    host_cap: Positive | None = None  # dataset.host_cap: at most this many accepted pages per site
    # dataset.cross_split: a validation or test page with this share of its word 5-grams in a kept
    # train page is rejected (containment of MinHash LSH candidates; docs/dataset.md). null: off.
    cross_split_min_containment: Annotated[float, Bounds(0.0, 1.0, low_open=True)] | None = 0.5
    seed: int = 0  # salts the split hash and the per-site sample


@dataclass(frozen=True)
class SegmentParams:
    # Segments (docs/segments.md): a page's posts, answers, comments and items, found after
    # extraction and judged as units of their own. `segment: null` switches segmentation off.
    # Extract: a page gives at most this many segments (the first ones, in page order).
    max_per_page: Annotated[Positive, Stage.EXTRACT] = 500
    # Select: length.tokens for a segment below this many tokens. 100: detectors need about 100
    # tokens to say anything (docs/segments.md); the article filter's 200 would drop most posts.
    min_tokens: Count | None = 100
    # Select: on a page the page-type model calls one of these types, only segments of these kinds
    # are kept (rule page.shop_segment): a shop's customer reviews are one writer's text, its Q&A
    # widget and policies are not. An empty list of kinds switches the rule off.
    shop_page_types: Annotated[tuple[str, ...], one_of(PAGE_TYPES)] = ("product", "collection", "service")
    kinds_on_shop_pages: Annotated[tuple[str, ...], one_of(SEGMENT_KINDS)] = ("review",)
    # Select: on a page the page-type model calls one of these types, a segment that is a part of the
    # extracted text (signal body_part) is dropped (rule page.body_part): the page row holds that text,
    # one writer's (an article, a manual, an organisation's own page). Its comments stay. On the other
    # types the extracted text can be many writers' (a thread, a shop's reviews, a list of items).
    # Extraction keeps every unit, so this is re-tunable without re-extracting.
    body_part_page_types: Annotated[tuple[str, ...], one_of(PAGE_TYPES)] = ("article", "documentation", "service")
    # Select: on a page of one of these types whose units show no writer and hold part of the
    # extracted text (signal unsigned_part), its segments are dropped (rule page.unsigned_part):
    # the dated sections of one text. A forum page's posts stay, though its software shows no writer.
    unsigned_part_page_types: Annotated[tuple[str, ...], one_of(PAGE_TYPES)] = (
        "article", "service", "product", "collection", "listing", "documentation")


@dataclass(frozen=True)
class ExecutorParams:
    # --executor ray: attempts after the first for a task that raises or whose worker dies; a task
    # that fails them all becomes `error.task` rows and the run exits 1.
    max_retries: Count = 2


@dataclass(frozen=True)
class Params:
    extract: Annotated[ExtractParams, Stage.EXTRACT] = field(default_factory=ExtractParams)
    select: SelectParams = field(default_factory=SelectParams)
    dataset: DatasetParams = field(default_factory=DatasetParams)
    segment: Annotated[SegmentParams | None, Stage.EXTRACT_SWITCH] = field(default_factory=SegmentParams)
    executor: ExecutorParams = field(default_factory=ExecutorParams)

    def get(self, dotted_key: str) -> Any:
        """Value at a dotted key such as `extract.read.max_payload_bytes`; None under a group that is
        null (`segment: null`: its keys read as unset, so its rules are off)."""
        node: Any = self
        for part in dotted_key.split("."):
            if node is None:
                return None
            node = getattr(node, part)
        return node

    def to_dict(self) -> dict[str, Any]:
        return _plain(dataclasses.asdict(self))

    def effective(self) -> Params:
        """These params with the page-type model's null thresholds read from its model file: the
        numbers that decide, as stats.json and the dataset card record them."""
        gate, page = self.extract.gate, self.select.page
        if gate.use_page_model:
            gate = dataclasses.replace(gate, min_page_article_probability=gate_threshold(gate))
        if page.use_page_model:
            page = dataclasses.replace(page, min_kept_type_probability=select_threshold(page))
        return dataclasses.replace(self, extract=dataclasses.replace(self.extract, gate=gate),
                                   select=dataclasses.replace(self.select, page=page))


# Keys renamed for what they compare: the old name is still read, with a warning (`RenamedKeyWarning`).
RENAMED_KEYS = {"select.page.min_article_probability": "select.page.min_kept_type_probability"}


class RenamedKeyWarning(UserWarning):
    """A params file uses a key's old name (`RENAMED_KEYS`); the CLI prints it as `pipeline: warning:`."""


def _renamed(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of `data` with each old key of `RENAMED_KEYS` moved to its new name (a warning each);
    both given is an error."""
    renamed = copy.deepcopy(data)
    for old, new in RENAMED_KEYS.items():
        *path, name = old.split(".")
        node: Any = renamed
        for part in path:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict) or name not in node:
            continue
        new_name = new.rsplit(".", 1)[1]
        if new_name in node:
            raise ParamsError(f"'{old}' is the old name of '{new}': give one of them")
        warnings.warn(f"params: '{old}' is now '{new}' (it compares the kept types' probability); "
                      f"the old name still works", RenamedKeyWarning, stacklevel=3)
        node[new_name] = node.pop(name)
    return renamed


def params_from_dict(data: dict[str, Any] | None) -> Params:
    """Build `Params` from a nested mapping, rejecting unknown keys, wrong types and bad regexes, and
    reading the old names of renamed keys (`RENAMED_KEYS`)."""
    params = _build(Params, _renamed(data or {}), "")
    try:
        compile_patterns(params.extract.url.exclude_regex)
    except ValueError as exc:
        raise ParamsError(f"'extract.url.exclude_regex': {exc}") from exc
    _check_dataset(params.dataset)
    near = params.select.dedup.near
    if near.method == "minhash" and near.min_shared_bands > near.bands:
        raise ParamsError(f"'select.dedup.near.min_shared_bands' must be 1..bands ({near.bands}), "
                          f"got {near.min_shared_bands}")
    if near.method == "simhash" and not params.extract.simhash:
        raise ParamsError("'select.dedup.near.method: simhash' compares the simhash64 signal, which extraction "
                          "computes only with 'extract.simhash: true': set both (and extract again)")
    if params.dataset.cross_split_min_containment is not None and near.method == "simhash":
        raise ParamsError("'dataset.cross_split_min_containment' compares MinHash signatures: set "
                          "'select.dedup.near.method' to minhash or null, or the threshold to null")
    return params


def era_cutoff(params: Params) -> date:
    return date.fromisoformat(params.dataset.era_cutoff)


def _check_dataset(dataset: DatasetParams) -> None:
    """What one parameter's bounds cannot say: the ratios add up to 1, the cut-off is a date."""
    ratios = dataclasses.astuple(dataset.split)
    if abs(sum(ratios) - 1) > 1e-9:
        given = ", ".join(f"{name} {value:g}" for name, value in dataclasses.asdict(dataset.split).items())
        raise ParamsError(f"'dataset.split' ratios must add up to 1, got {given}")
    try:
        date.fromisoformat(dataset.era_cutoff)
    except ValueError as exc:
        raise ParamsError(f"'dataset.era_cutoff' must be a date as YYYY-MM-DD, got {dataset.era_cutoff!r}") from exc


def load_params(path: Path | None) -> Params:
    """Read `path`; with no path, `params.yaml` in the working directory if present, else defaults."""
    found, data = _read(path)
    try:
        return params_from_dict(data)
    except ParamsError as exc:
        if found is None:
            raise
        raise ParamsError(f"{found}: {exc}") from exc


def given_keys(path: Path | None) -> frozenset[str]:
    """The dotted keys (`extract.gate.model`) a params file sets, as `load_params` would read it:
    what a user asked for, as against the defaults they left alone."""
    _, data = _read(path)
    return frozenset(RENAMED_KEYS.get(key, key) for key in flatten(data or {}))


def extract_stage(params: Params) -> dict[str, Any]:
    """Dotted key -> value of every key that decides what extraction writes (`Stage.EXTRACT`), and
    `GROUP: None` for a group switched off whose switch is extraction's (`segment: null`): what a work
    directory records, select compares and the fingerprint hashes."""
    return {key: value for key, (stage, value) in _staged(Params, params, "", None).items()
            if stage in (Stage.EXTRACT, Stage.EXTRACT_SWITCH)}


def stage_of(key: str) -> Stage | None:
    """The stage a dotted key declares (its own, else its group's); None: select's."""
    return _declared_stages()[key]


@functools.lru_cache(maxsize=1)  # the declarations never change while the process runs
def _declared_stages() -> dict[str, Stage | None]:
    return {key: stage for key, (stage, _) in _staged(Params, Params(), "", None).items()}


def _staged(cls: type, value: Any, prefix: str, inherited: Stage | None) -> dict[str, tuple[Stage | None, Any]]:
    """Every leaf key under `value` (a `cls`) with its declared stage and value; a null group as one
    key whose stage is its switch's."""
    found: dict[str, tuple[Stage | None, Any]] = {}
    hints = typing.get_type_hints(cls, include_extras=True)
    for field_ in dataclasses.fields(cls):
        hint, item, key = hints[field_.name], getattr(value, field_.name), f"{prefix}{field_.name}"
        declared = next((meta for meta in getattr(hint, "__metadata__", ()) if isinstance(meta, Stage)), None)
        group = next((kind for kind in allowed_types(hint) if dataclasses.is_dataclass(kind)), None)
        if group is None:
            found[key] = (declared or inherited, _plain(item))
        elif item is None:
            found[key] = (declared or inherited, None)
        else:
            inner = inherited if declared is Stage.EXTRACT_SWITCH else declared or inherited
            found.update(_staged(group, item, f"{key}.", inner))
    return found


def with_values(params: Params, values: dict[str, Any]) -> Params:
    """`params` with each dotted key of `values` set (`GROUP: None` switches a group off; a key under
    a group that is off switches it on with its defaults), checked as a params file is."""
    data = params.to_dict()
    for key, value in values.items():
        *path, name = key.split(".")
        node = data
        for part in path:
            if not isinstance(node.get(part), dict):
                node[part] = {}
            node = node[part]
        node[name] = value
    return params_from_dict(data)


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested mapping as dotted keys to leaf values (a list is a leaf)."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def _read(path: Path | None) -> tuple[Path | None, dict[str, Any] | None]:
    """The params file that applies (`path`, else ./params.yaml if present) and its mapping."""
    if path is None:
        default = Path("params.yaml")
        if not default.is_file():
            return None, None
        path = default
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ParamsError(f"cannot read params file {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ParamsError(f"params file {path} is not valid YAML: {exc}") from exc
    if data is not None and not isinstance(data, dict):
        raise ParamsError(f"params file {path} must hold a mapping at the top level")
    return path, data


def _plain(value: Any) -> Any:
    """Tuples (how lists are stored, to keep Params hashable) back to lists for JSON/YAML."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def _build(cls: type, data: Any, prefix: str) -> Any:
    if not isinstance(data, dict):
        raise ParamsError(f"'{prefix or 'params'}' must be a mapping, got {type(data).__name__}")
    hints = typing.get_type_hints(cls, include_extras=True)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        where = f"{prefix}." if prefix else ""
        raise ParamsError(
            f"unknown key '{where}{unknown[0]}' (known keys here: {', '.join(sorted(known))})"
        )
    values = {}
    for name, raw in data.items():
        key = f"{prefix}.{name}" if prefix else name
        values[name] = _convert(hints[name], raw, key)
        _check_bounds(hints[name], values[name], key)
    return cls(**values)


def _check_bounds(hint: Any, value: Any, key: str) -> None:
    """The `Bounds` declared with the parameter (filters.core.declarations), on its value or on each
    item of a list; null passes (where the type allows it, it switches the rule off)."""
    if value is None or dataclasses.is_dataclass(value):
        return
    for bounds in declared_bounds(hint):
        for item in value if isinstance(value, tuple) else (value,):
            fault = bounds.fault(item)
            if fault is not None:
                raise ParamsError(f"'{key}' {fault}, got {item!r}")


@functools.lru_cache(maxsize=1)  # read by select's checks once per key, and by the reference pages
def leaf_hints() -> Mapping[str, Any]:
    """Dotted key -> the type (with its declared bounds) of every parameter that is not a group."""
    return types.MappingProxyType(_leaf_hints(Params, ""))


def _leaf_hints(cls: type, prefix: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    hints = typing.get_type_hints(cls, include_extras=True)
    for field_ in dataclasses.fields(cls):
        hint = hints[field_.name]
        group = next((kind for kind in allowed_types(hint) if dataclasses.is_dataclass(kind)), None)
        if group is not None:
            found.update(_leaf_hints(group, f"{prefix}{field_.name}."))
        else:
            found[f"{prefix}{field_.name}"] = hint
    return found


def declared_bounds(hint: Any) -> list[Bounds]:
    """The `Bounds` a parameter's type declares (inside `Annotated`, a union with null, a list)."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return [meta for meta in hint.__metadata__ if isinstance(meta, Bounds)] + declared_bounds(
            typing.get_args(hint)[0])
    if origin in (types.UnionType, typing.Union, tuple, list):
        return [bounds for arg in typing.get_args(hint) for bounds in declared_bounds(arg)]
    return []


def _convert(hint: Any, raw: Any, key: str) -> Any:
    if dataclasses.is_dataclass(hint):
        return _build(hint, raw, key)  # type: ignore[arg-type]  # a dataclass type here: hints are types
    allowed = allowed_types(hint)
    section = next((kind for kind in allowed if dataclasses.is_dataclass(kind)), None)
    if section is not None:  # a group that null switches off (`segment: null`)
        return None if raw is None and type(None) in allowed else _build(section, raw, key)
    if raw is None:
        if type(None) in allowed:
            return None
        raise ParamsError(f"'{key}' must not be null")
    if isinstance(raw, bool):
        if bool in allowed:
            return raw
        raise ParamsError(f"'{key}' must be {_describe(allowed)}, got a boolean")
    if isinstance(raw, int) and int in allowed:
        return raw
    if isinstance(raw, int | float) and float in allowed:
        return float(raw)
    if isinstance(raw, str) and str in allowed:
        return raw
    if isinstance(raw, date) and str in allowed:  # YAML reads an unquoted 2022-11-30 as a date
        return raw.isoformat()
    if isinstance(raw, list) and list in allowed:
        if not all(isinstance(item, str) for item in raw):
            raise ParamsError(f"'{key}' must be a list of strings")
        return tuple(raw)
    raise ParamsError(f"'{key}' must be {_describe(allowed)}, got {raw!r}")


def allowed_types(hint: Any) -> set[type]:
    """The plain types a parameter takes (`Annotated` unwrapped, unions opened; a list is `list`)."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return allowed_types(typing.get_args(hint)[0])
    if origin in (types.UnionType, typing.Union):
        allowed: set[type] = set()
        for arg in typing.get_args(hint):
            allowed |= allowed_types(arg)
        return allowed
    if origin in (list, tuple):
        return {list}
    return {hint}


def _describe(allowed: set[type]) -> str:
    names = sorted(t.__name__ for t in allowed if t is not type(None))
    suffix = " or null" if type(None) in allowed else ""
    return " or ".join(names) + suffix
