"""The per-record time budget: a SIGALRM timer that interrupts a record taking too long.

A process's one-time loads that a record sets off (dateparser, the language model) pause it
(`filters.core.loads.one_time_load`): they are the process's cost, not the record's."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

REFIRE_SECONDS = 0.1  # after the budget, until the record ends


class PageTimeout(BaseException):
    """The record's time budget ran out. A BaseException, so that the `except Exception` which
    isolates one failing filter or extractor does not swallow it."""


# Whether the running record's timer has fired: set by the handler before it raises, so that a
# raise lost where Python cannot raise (a finalizer) is still known. Budgets run on the main thread
# only (`budget_available`), one at a time; the one-time loads pause the timer, and so this too.
_spent = False


def _on_alarm(_signum: int, _frame: object) -> None:
    global _spent
    _spent = True
    raise PageTimeout


def check_budget() -> None:
    """Raise `PageTimeout` when the running record's budget is spent: called between steps, so a
    timeout that landed where Python cannot raise (a finalizer, a `__del__`) still ends the record
    at the next step, even before the timer fires again."""
    if _spent:
        raise PageTimeout


def budget_available() -> bool:
    """SIGALRM exists (POSIX) and can be handled here: only the main thread receives signals."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Raise `PageTimeout` inside the block once `seconds` have passed; no budget when `seconds`
    is 0 or None, or where SIGALRM is unavailable (`budget_available`).

    A signal also stops a pathological page inside an extractor (between Python bytecodes; a
    single long C call finishes first). Once the budget is spent the timer fires again every
    `REFIRE_SECONDS`: a `PageTimeout` raised inside a finalizer or a `__del__` is printed as
    "Exception ignored" and lost, and the next one still ends the record; so does the check before
    each step (`check_budget`). The timer is disarmed and the previous handler restored on the way out.
    """
    global _spent
    if not seconds or not budget_available():
        yield
        return
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    _spent = False
    signal.setitimer(signal.ITIMER_REAL, seconds, REFIRE_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        _spent = False
