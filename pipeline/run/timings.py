"""Seconds and calls per processing step, for stats.json["timings"]."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any


class Timings:
    """Seconds and calls per step; summed into stats.json["timings"], never into shards."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def add(self, name: str, started: float) -> None:
        self.add_seconds(name, time.perf_counter() - started)

    def add_seconds(self, name: str, seconds: float) -> None:
        self.seconds[name] += seconds
        self.calls[name] += 1

    def to_dict(self) -> dict[str, dict[str, float | int]]:
        return {k: {"seconds": round(self.seconds[k], 6), "calls": self.calls[k]} for k in sorted(self.seconds)}


def since(started: float) -> dict[str, float | int]:
    """One timed phase that began at `started` (`time.perf_counter()`), as stats.json writes it."""
    return {"seconds": round(time.perf_counter() - started, 6), "calls": 1}


def merge_timings(sources: Iterable[dict[str, Any]]) -> dict[str, dict[str, float | int]]:
    """Several `Timings.to_dict()` results summed step by step (sorted by step)."""
    merged: dict[str, dict[str, Any]] = {}
    for source in sources:
        for name, value in source.items():
            entry = merged.setdefault(name, {"seconds": 0.0, "calls": 0})
            entry["seconds"] = round(entry["seconds"] + value["seconds"], 6)
            entry["calls"] += value["calls"]
    return dict(sorted(merged.items()))
