"""The options every RE2 pattern of the filters is compiled with (`re2.compile(pattern, RE2_OPTIONS)`).

RE2 (google-re2) reads a text once whatever the number of alternatives, where Python's `re` tries
each alternative at each position: the filters use it to screen long texts and joined attribute
values for many phrases or markers at once (URL rules, product screens, consent markers).
"""

from __future__ import annotations

from typing import Any

import re2


def _quiet_options() -> Any:
    options = re2.Options()
    # RE2 also logs a rejected pattern to stderr; the caller's ValueError is the one report.
    options.log_errors = False
    return options


RE2_OPTIONS = _quiet_options()
