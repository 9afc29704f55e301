"""One keeper for every duplicate group, whatever pass formed it (filters/corpus/keepers.py)."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from filters.corpus.keepers import GROUPS, closest_earlier, keep_first, near_clusters

KINDS = ("url", "exact", "near")


def frames(members: list[tuple[int, int, int, int]]) -> dict[str, pl.DataFrame]:
    """(kind index, node, date, group) -> one GROUPS frame per kind."""
    return {kind: pl.DataFrame([(node, date, group) for k, node, date, group in members if k == index],
                               schema=GROUPS, orient="row") for index, kind in enumerate(KINDS)}


def test_a_chain_of_groups_keeps_a_page_whose_only_match_was_not_kept():
    # B is first; A shares B's text (exact), C shares A's URL. A loses to B; C's URL match, A, is
    # not kept, so C is kept: its URL is represented by C alone.
    b, a, c = 1, 2, 3
    found = keep_first(frames([(1, b, 0, 7), (1, a, 1, 7), (0, a, 1, 9), (0, c, 2, 9)]), pl.Series([], dtype=pl.UInt64),
                       set(KINDS))
    assert found["exact"]["node"].to_list() == [a] and found["url"].is_empty()


def test_a_blocked_page_is_not_a_keeper():
    found = keep_first(frames([(0, 1, 0, 5), (0, 2, 1, 5), (0, 3, 2, 5)]), pl.Series([1], dtype=pl.UInt64),
                       set(KINDS))
    assert found["url"]["node"].to_list() == [3]  # page 1 is blocked, page 2 is the keeper


def test_a_pass_that_does_not_decide_still_names_its_duplicates():
    found = keep_first(frames([(0, 1, 0, 5), (0, 2, 1, 5), (1, 2, 1, 8), (1, 3, 2, 8)]),
                       pl.Series([], dtype=pl.UInt64), {"exact", "near"})
    # the URL rule is off: page 2 is kept, and page 3 loses to it by its text
    assert found["url"]["node"].to_list() == [2] and found["exact"]["node"].to_list() == [3]


members = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 30), st.integers(0, 3), st.integers(0, 6)),
                   max_size=60)


@settings(max_examples=200, deadline=None)
@given(members, st.sets(st.integers(0, 30), max_size=8), st.permutations(list(range(60))))
def test_every_duplicate_names_an_earlier_kept_page_and_every_free_page_is_kept(drawn, blocked, order):
    dates = {node: date for _, node, date, _ in drawn}  # one date per page
    members = list({(kind, node, dates[node], group) for kind, node, _, group in drawn})
    found = keep_first(frames(members), pl.Series(sorted(blocked), dtype=pl.UInt64), set(KINDS))
    lost = {kind: set(found[kind]["node"]) for kind in KINDS}
    pages = {node for _, node, _, _ in members}
    kept = {node for node in pages if node not in blocked and not any(node in lost[kind] for kind in KINDS)}
    place = {node: (dates[node], node) for node in pages}
    for index, kind in enumerate(KINDS):
        groups: dict[int, set[int]] = {}
        for k, node, _, group in members:
            if k == index:
                groups.setdefault(group, set()).add(node)
        for group_members in groups.values():
            assert len(group_members & kept) <= 1  # no group keeps two pages
        for node in lost[kind]:  # every duplicate names an earlier kept page of one of its groups
            assert any(node in g and any(place[o] < place[node] for o in g & kept) for g in groups.values())
    # the same decisions whatever order the members come in
    shuffled = [members[i] for i in order if i < len(members)]
    again = keep_first(frames(shuffled), pl.Series(sorted(blocked), dtype=pl.UInt64), set(KINDS))
    assert all(found[kind].equals(again[kind]) for kind in KINDS)


def test_clusters_join_pages_through_shared_neighbours_and_name_the_closest_earlier_one():
    edges = pl.DataFrame({"a": [1, 2, 7], "b": [2, 3, 8], "a_date": [0, 0, 5], "b_date": [0, 1, 5],
                          "similarity": [0.9, 0.8, 0.95], "distance": [None, None, None],
                          "a_in_b": [0.95, 0.7, 0.97], "b_in_a": [0.92, 0.9, 0.99]},
                         schema_overrides={"a": pl.UInt64, "b": pl.UInt64, "distance": pl.Int32})
    clusters = near_clusters(edges)
    assert dict(clusters.select("node", "group").iter_rows()) == {1: 1, 2: 1, 3: 1, 7: 7, 8: 7}
    assert dict(closest_earlier(edges).select("node", "near_duplicate_similarity").iter_rows()) == \
        {2: 0.9, 3: 0.8, 8: 0.95}
    # the containment of the shorter text in the longer: the larger direction
    assert dict(closest_earlier(edges).select("node", "near_duplicate_containment").iter_rows()) == \
        {2: 0.95, 3: 0.9, 8: 0.99}
