"""Seconds and calls per processing step, for stats.json["timings"]."""

from __future__ import annotations

import time
from collections import defaultdict


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
