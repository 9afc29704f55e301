"""A one-time load (`filters.core.loads`) is not counted against a record's time budget; the
record's own work still is."""

from __future__ import annotations

import threading
import time

import pytest

from filters.core.loads import one_time_load
from pipeline.run.budget import PageTimeout, time_budget


def test_a_load_longer_than_the_budget_does_not_time_the_record_out():
    with time_budget(0.2):
        with one_time_load():
            time.sleep(0.4)
        time.sleep(0.05)  # the budget resumed with what it had left (about 0.2 s)


def test_the_records_own_work_still_times_out_after_a_load():
    with pytest.raises(PageTimeout), time_budget(0.2):
        with one_time_load():
            time.sleep(0.3)
        time.sleep(1.0)


def test_nested_loads_resume_the_budget_once():
    started = time.perf_counter()
    with pytest.raises(PageTimeout), time_budget(0.2):
        with one_time_load(), one_time_load():
            time.sleep(0.3)
        time.sleep(10.0)
    assert time.perf_counter() - started < 5  # 0.3 s of load, then the 0.2 s budget: not the 10 s


def test_outside_the_main_thread_it_only_runs_the_block():
    ran = []

    def load() -> None:
        with one_time_load():
            ran.append(True)

    worker = threading.Thread(target=load)
    worker.start()
    worker.join()
    assert ran == [True]
