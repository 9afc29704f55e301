"""One keeper for every duplicate group (docs/filters.md, "De-duplication").

The de-duplication passes find groups: pages that share a normalised URL, a content hash, or a
near-duplicate cluster. Here the groups of every pass are decided together, in one global order,
so that a duplicate rule always names a page that is kept. Pure functions over polars frames of
(node, date, group); `pipeline/stages/dedup/` runs them over a whole run.
"""

from __future__ import annotations

import polars as pl

from filters.corpus.near import containment

NODES = {"node": pl.UInt64}
# one member of a duplicate group: the page (node), its place in the global order (date, then
# node) and the group it belongs to
GROUPS = {"node": pl.UInt64, "date": pl.Int64, "group": pl.UInt64}


def near_clusters(edges: pl.DataFrame) -> pl.DataFrame:
    """The near-duplicate clusters (union-find over the edges) as groups: (node, date, group),
    a cluster named by its root."""
    if edges.is_empty():
        return pl.DataFrame(schema=GROUPS)
    parent: dict[int, int] = {}

    def root(item: int) -> int:
        while parent.setdefault(item, item) != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    dates: dict[int, int] = {}
    for a, b, a_date, b_date in edges.select("a", "b", "a_date", "b_date").iter_rows():
        dates[a], dates[b] = a_date, b_date
        first, second = root(a), root(b)
        if first != second:
            parent[max(first, second)] = min(first, second)
    return pl.DataFrame({"node": list(dates), "date": list(dates.values()), "group": [root(n) for n in dates]},
                        schema=GROUPS).sort("node")


def closest_earlier(edges: pl.DataFrame) -> pl.DataFrame:
    """(node, near_duplicate_distance, near_duplicate_similarity, near_duplicate_containment):
    each page's closest earlier neighbour (an edge runs from the earlier page, a, to the later, b):
    the smallest distance, the largest similarity and containment (of the shorter text in the
    longer) over its edges."""
    return edges.group_by("b").agg(pl.col("distance").min().alias("near_duplicate_distance"),
                                   pl.col("similarity").max().alias("near_duplicate_similarity"),
                                   containment().max().alias("near_duplicate_containment")) \
        .rename({"b": "node"})


def keep_first(groups: dict[str, pl.DataFrame], blocked: pl.Series, deciding: set[str]) -> dict[str, pl.DataFrame]:
    """One keeper for every duplicate group, whatever pass formed it.

    `groups` holds each pass's (node, date, group) members; `blocked` the candidates another rule
    rejects (CDC over its limit). In the global order (date, node), a page is kept unless it is
    blocked or shares a group of a `deciding` pass with an earlier kept page; for each pass, the
    pages that share one of its groups with an earlier kept page are returned (node), whether the
    pass decides or not (the signals say so even with the rule off). Only pages in some group
    are visited: the others cannot lose here.
    """
    kinds = list(groups)
    members = pl.concat([frame.select("node", "date", "group", pl.lit(index, dtype=pl.UInt8).alias("kind"))
                         for index, frame in enumerate(groups.values())])
    pages = members.group_by("node", "date").agg("kind", "group").sort("date", "node")
    pages = pages.with_columns(pl.col("node").is_in(blocked.implode()).alias("blocked"))
    deciding_kinds = {kinds.index(kind) for kind in deciding}
    kept: set[tuple[int, int]] = set()
    hits: list[list[int]] = [[] for _ in kinds]
    for page, page_kinds, page_groups, page_blocked in pages.select("node", "kind", "group", "blocked").iter_rows():
        keys = list(zip(page_kinds, page_groups, strict=True))
        lost = {kind for kind, group in keys if (kind, group) in kept}
        for kind in lost:
            hits[kind].append(page)
        if not page_blocked and not lost & deciding_kinds:
            kept.update(keys)
    return {kind: pl.DataFrame({"node": sorted(set(hits[index]))}, schema=NODES) for index, kind in enumerate(kinds)}
