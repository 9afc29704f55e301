"""A process's one-time loads that a page may set off: a model, a library and its data.

Such a load is the process's cost, paid once, not the page's. `one_time_load()` marks one: while
it runs, a per-record time budget (`pipeline.run.budget`, a SIGALRM interval timer) is paused and
resumes with the time it had left, so that a page whose first date needs dateparser, or which
waits for the language model, does not time out under a short budget for what the next page does
not pay. Outside the main thread (where no budget runs), or with no timer armed, it does nothing.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def one_time_load() -> Iterator[None]:
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    remaining, interval = signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        yield
    finally:
        if remaining > 0:
            signal.setitimer(signal.ITIMER_REAL, remaining, interval)
