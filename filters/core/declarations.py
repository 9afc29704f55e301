"""What a filter declares: its signals (`Signal`), its rules (`Rule`), the allowed values of its
parameters (`Bounds`, and the `Share`, `Count` and `Positive` types built on it), and the vocabulary
they use (stages, the pipeline order of reason groups, the comparisons).

A filter module exports `SIGNALS` and `RULES` built from these; `filters.rules.signals` and
`filters.rules.reasons` only join the modules' declarations in pipeline order (docs/development.md, "Adding a
filter"). This module imports no filter, so every filter can import it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import polars as pl
import pyarrow as pa

Stage = Literal["extract", "select", "dedup", "dataset"]

# `error` (an exception inside one filter, or the page's time budget) is raised while
# extracting, so it sits with the extract-stage groups; every extract-stage group comes before
# every select-stage group, which lets the select stage append its reasons in order.
GROUP_ORDER: tuple[str, ...] = (
    "input", "record", "url", "article", "extract", "error", "page", "lang", "length",
    "block", "c4", "gopher", "quality", "dup", "dataset",
)

# Groups decided before extraction. A page they reject is "gated": not extracted, and it keeps
# only their reasons, also when --extract-all extracts it for analysis (`applicable`).
PRE_EXTRACTION_GROUPS: tuple[str, ...] = ("input", "record", "url", "article", "error")


@dataclass(frozen=True)
class Bounds:
    """The values a parameter may take, declared with it (`Annotated[float, Bounds(0, 1)]`) and
    checked where params are read (`pipeline.params`), so a share of 1.5 or a count of -5 is a
    one-line error instead of a rule that silently rejects everything. A list's items are checked
    one by one; null, where the type allows it, always passes (it switches the rule off)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False  # the low end itself is not allowed
    choices: tuple[str, ...] | None = None

    def fault(self, value: Any) -> str | None:
        """Why `value` is not allowed ("must be in [0, 1]"), or None."""
        if self.choices is not None:
            return None if value in self.choices else f"must be {self.describe()}"
        below = self.low is not None and (value <= self.low if self.low_open else value < self.low)
        above = self.high is not None and value > self.high
        return f"must be {self.describe()}" if below or above else None

    def describe(self) -> str:
        """The allowed values in words: "in [0, 1]", "at least 1", "one of rabin, fastcdc"."""
        if self.choices is not None:
            return f"one of {', '.join(self.choices)}"
        if self.low is None:
            return f"at most {self.high:g}" if self.high is not None else "any value"
        if self.high is None:
            return f"more than {self.low:g}" if self.low_open else f"at least {self.low:g}"
        return f"in {'(' if self.low_open else '['}{self.low:g}, {self.high:g}]"


def one_of(choices: Iterable[str]) -> Bounds:
    return Bounds(choices=tuple(choices))


# A share, fraction, ratio of parts or probability.
Share = Annotated[float, Bounds(0.0, 1.0)]
# Zero or more (words, tokens, characters, items).
Count = Annotated[int, Bounds(0)]
# One or more.
Positive = Annotated[int, Bounds(1)]
# A non-negative measure that is not a count (a median word length, seconds).
Amount = Annotated[float, Bounds(0.0)]


def _outside(value: Any, bounds: tuple[Any, Any]) -> Any:
    low, high = bounds
    below = value < low if low is not None else None
    above = value > high if high is not None else None
    if below is None or above is None:
        return above if below is None else below
    return below | above


def _not_in(value: Any, allowed: Any) -> Any:
    return ~value.is_in(list(allowed)) if isinstance(value, pl.Expr) else value not in allowed


def _in(value: Any, listed: Any) -> Any:
    return value.is_in(list(listed)) if isinstance(value, pl.Expr) else value in listed


# Each comparison written once, for a single value (extract stage, explain) and for a polars
# column (select stage) alike: the operators below mean the same on both.
_COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "is_true": lambda v, _t: operator.eq(v, True),
    "is_false": lambda v, _t: operator.eq(v, False),
    "outside": _outside,  # (low, high), either may be None (unbounded)
    "not_in": _not_in,
    "in": _in,  # a list in params; empty: the rule is off
}
LIST_OPS = ("not_in", "in")
FLAG_OPS = ("is_true", "is_false")


@dataclass(frozen=True)
class Rule:
    code: str
    meaning: str
    signal: str
    op: str
    stage: Stage
    params_key: str | tuple[str, str] | None = None  # a pair for "outside": (low key, high key)
    constant: Any = None
    enabled_key: str | None = None  # a boolean switch in params: the rule is off while it is false
    # Where the params leave the threshold null: the threshold this gives from the params (a
    # model's own, stored with it) instead of switching the rule off.
    default_threshold: Callable[[Any], Any] | None = None

    @property
    def group(self) -> str:
        return self.code.split(".", 1)[0]

    def enabled(self, params: Any) -> bool:
        if self.enabled_key is not None and not params.get(self.enabled_key):
            return False
        if self.op in FLAG_OPS:
            return True
        threshold = self.threshold(params)
        if self.op == "outside":
            return threshold is not None and any(bound is not None for bound in threshold)
        if self.op in LIST_OPS:
            return bool(threshold)
        return threshold is not None

    def threshold(self, params: Any) -> Any:
        """The value the signal is compared with; None means the rule is switched off."""
        if isinstance(self.params_key, tuple):
            return tuple(params.get(key) for key in self.params_key)
        if self.params_key is not None:
            value = params.get(self.params_key)
            return self.default_threshold(params) if value is None and self.default_threshold else value
        return self.constant

    @property
    def applies_to_gated(self) -> bool:
        """Whether the rule gives reasons to a page the pre-extraction rules rejected."""
        return self.group in PRE_EXTRACTION_GROUPS

    def fires(self, value: Any, params: Any) -> bool:
        """The rule on one value (a null signal never fires)."""
        if value is None or not self.enabled(params):
            return False
        return bool(_COMPARISONS[self.op](value, self.threshold(params)))

    def expr(self, params: Any, columns: Iterable[str] = ()) -> pl.Expr:
        """The same rule on a frame of rows: the signal is a column when named in `columns`, else
        a field of the `signals` struct; null never fires."""
        if not self.enabled(params):
            return pl.lit(False)
        value = pl.col(self.signal) if self.signal in set(columns) else pl.col("signals").struct.field(self.signal)
        return (value.is_not_null() & _COMPARISONS[self.op](value, self.threshold(params))).fill_null(False)

    def in_force(self, params: Any) -> str:
        """The comparison with the values `params` give it, e.g. `token_count < 400`; `off` where they
        switch the rule off."""
        if not self.enabled(params):
            return "off"
        threshold = self.threshold(params)
        if self.op in FLAG_OPS:
            return f"{self.signal} {'is true' if self.op == 'is_true' else 'is false'}"
        if self.op == "outside":
            low, high = threshold
            return f"{self.signal} outside [{'-inf' if low is None else low}, {'inf' if high is None else high}]"
        if self.op in LIST_OPS:
            return f"{self.signal} {'not in' if self.op == 'not_in' else 'in'} {', '.join(map(str, threshold))}"
        return f"{self.signal} {self.op} {threshold:g}" if isinstance(threshold, float) else \
            f"{self.signal} {self.op} {threshold!r}"

    def describe(self) -> str:
        """Human-readable comparison, e.g. `payload_bytes > extract.read.max_payload_bytes`."""
        if self.op in FLAG_OPS:
            text = f"{self.signal} {'is true' if self.op == 'is_true' else 'is false'}"
            return text if self.enabled_key is None else f"{text} (when {self.enabled_key})"
        if self.op == "outside":
            low, high = self.params_key if isinstance(self.params_key, tuple) else self.constant
            return f"{self.signal} outside [{low}, {high}]"
        if self.op == "not_in":
            return f"{self.signal} not in {self.params_key} (empty: all allowed)"
        if self.op == "in":
            return f"{self.signal} in {self.params_key} (empty: off)"
        target = self.params_key if self.params_key is not None else repr(self.constant)
        if self.default_threshold is not None:
            target = f"{target} (null: the model's own; when {self.enabled_key})"
        return f"{self.signal} {self.op} {target}"




@dataclass(frozen=True)
class Signal:
    name: str
    type: pa.DataType
    meaning: str
