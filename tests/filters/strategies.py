"""Hypothesis strategies the filters' property tests share: texts made of pieces that matter to the
code under test (currency signs, separators, the words of a cart URL), in any order. Shrinking gives a
failing case at its shortest."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st


def cases(count: int) -> settings:
    """`count` cases, derandomized: the same ones on every run and machine (a test's result never
    depends on a seed); no deadline: a loaded CI machine is slow, not wrong."""
    return settings(max_examples=count, derandomize=True, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def texts_of(pieces: Sequence[str], max_pieces: int = 40) -> st.SearchStrategy[str]:
    """Strings of up to `max_pieces` of `pieces`, joined."""
    return st.lists(st.sampled_from(list(pieces)), max_size=max_pieces).map("".join)
