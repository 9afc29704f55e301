"""The de-duplication pass graph: the passes in the order they run, a round at a time, each
declared in its own module (`spec.Pass`: its feed, task, reads and writes). A round's partition
tasks run together (one executor map); the file named after a round is written by the driver,
from the results so far, before the next round starts (`driver.Passes.run`). `diagram` draws
the graph for docs/scale.md (`python -m pipeline.reference` writes it there)."""

from __future__ import annotations

from pipeline.stages.dedup import cdc, groups, ids, near
from pipeline.stages.dedup.partitions import LOSERS, REPEATS
from pipeline.stages.dedup.spec import Pass

Round = tuple[tuple[Pass, ...], str | None]  # the passes run together, and the file written after them

ROUNDS: tuple[Round, ...] = (
    ((ids.PASS,), REPEATS),
    ((groups.URL, groups.EXACT, cdc.PASS, near.BUCKETS, near.SKETCHED), None),
    ((near.PAIRS,), None),
    ((near.VERIFY,), LOSERS),
)


# What the driver decides between rounds, before it writes the round's file (`driver.Passes`).
BETWEEN = {
    REPEATS: "the candidates that are re-read records (`dup.record` on), which no later pass sees",
    LOSERS: "the near clusters (union-find), one keeper a key or cluster (`filters.corpus.keepers.keep_first`), the "
            "cross-split overlap (`cross_split`); then every candidate an enabled dup.* rule rejects",
}


def passes_of(rounds: tuple[Round, ...]) -> list[Pass]:
    """Every pass of `rounds`, in order."""
    return [one for passes, _ in rounds for one in passes]


def diagram(rounds: tuple[Round, ...]) -> str:
    """The rounds as a Markdown list: each pass with its module, what the driver feeds it (and by
    which column it is partitioned), what its task reads besides, and what it writes."""
    lines = []
    for number, (passes, then) in enumerate(rounds, start=1):
        lines.append(f"{number}. Round {number}:")
        for one in passes:
            module = one.task.__module__ if one.task is not None else one.feed.rows.__module__ if one.feed else "?"
            lines.append(f"   - **{one.name}** (`{module}`"
                         + (f", `{one.task.__name__}`" if one.task is not None else ", fragments only") + ")")
            if one.feed is not None:
                lines.append(f"     - fed: {', '.join(one.feed.columns)}; partitioned by `{one.feed.by}`")
            if one.reads:
                lines.append(f"     - reads: {', '.join(one.reads)}")
            if one.result:
                lines.append(f"     - result: {', '.join(one.result)}")
            if one.writes:
                lines.append(f"     - writes: {', '.join(one.writes)}")
        if then is not None:
            lines.append(f"   - then the driver writes `{then}`: {BETWEEN[then]}")
    return "\n".join(lines) + "\n"
