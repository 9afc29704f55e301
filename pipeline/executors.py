"""Executors run a function over tasks, in processes or in this process.

An executor knows nothing about stages or filters: it maps `fn` over `tasks` and returns the
results in task order, so the output never depends on which worker finished first.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def run_local(fn: Callable[[T], Any], tasks: Sequence[T], workers: int, label: str = "files",
              weights: Sequence[int] | None = None) -> list[Any]:
    """Map `fn` over `tasks` with `workers` processes (1: in this process).

    Progress (tqdm) is shown only on a terminal; `weights` (e.g. file sizes) make the bar
    advance by bytes rather than by task.
    """
    total = sum(weights) if weights is not None else len(tasks)
    bar = tqdm(total=total, desc=label, unit="B" if weights is not None else "file", unit_scale=True,
               disable=not sys.stderr.isatty(), leave=False)
    results: list[Any] = [None] * len(tasks)
    try:
        if workers <= 1 or len(tasks) <= 1:
            for index, task in enumerate(tasks):
                results[index] = fn(task)
                bar.update(weights[index] if weights is not None else 1)
            return results
        # spawn, not fork: polars and lxml hold threads and locks that fork does not copy safely.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker) as pool:
            futures = {pool.submit(fn, task): index for index, task in enumerate(tasks)}
            for future in as_completed(futures):
                index = futures[future]
                results[index] = future.result()
                bar.update(weights[index] if weights is not None else 1)
        return results
    finally:
        bar.close()


def _init_worker() -> None:
    # tqdm's default lock is a multiprocessing semaphore. A worker killed while it exists (the
    # OOM killer) leaves it to the resource tracker, whose multi-line warning at exit would follow
    # the CLI's one-line error. Workers draw no shared bars, so a thread lock is enough.
    tqdm.set_lock(threading.RLock())
