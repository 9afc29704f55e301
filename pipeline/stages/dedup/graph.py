"""The de-duplication pass graph: the passes in the order they run, a round at a time, each
declared in its own module (`spec.Pass`: its feed, task, reads and writes). A round's partition
tasks run together (one executor map); the file named after a round is written by the driver,
from the results so far, before the next round starts (`driver.Passes.run`). `diagram` draws
the graph for docs/scale.md (`python -m pipeline.reference` writes it there)."""

from __future__ import annotations

from pipeline.stages.dedup import cdc, groups, ids, near
from pipeline.stages.dedup.partitions import LOSERS, REPEATS
from pipeline.stages.dedup.spec import Between, Fragments, Pass, Results, Texts

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


class GraphError(ValueError):
    """A pass graph in which a pass reads what no earlier step writes."""


def check(rounds: tuple[Round, ...]) -> None:
    """Raise `GraphError` unless every pass reads only what is there when its round runs: the
    fragments of a pass with a feed (written before any round) or that a pass of an earlier round
    writes, the results of a pass of an earlier round, a file the driver writes after an earlier
    round, or texts of the extract files; unless every pass name is one pass's; and unless every
    pass with a part in the decision (`spec.Part`) runs before `LOSERS`, which ends it, is written."""
    names = [one.name for one in passes_of(rounds)]
    if len(set(names)) != len(names):
        raise GraphError(f"two passes of one name: {sorted(name for name in names if names.count(name) > 1)}")
    fed = {one.name for one in passes_of(rounds) if one.feed is not None}
    written: set[str] = set()  # fragments written by earlier rounds' tasks
    decided: set[str] = set()  # passes whose results earlier rounds wrote
    files: set[str] = set()  # files the driver wrote after earlier rounds
    for number, (passes, then) in enumerate(rounds, start=1):
        for one in passes:
            for read in one.reads:
                there = (isinstance(read, Texts)
                         or (isinstance(read, Fragments) and read.of in fed | written)
                         or (isinstance(read, Results) and read.of in decided)
                         or (isinstance(read, Between) and read.name in files))
                if not there:
                    raise GraphError(f"pass {one.name} (round {number}) reads {read}, which no earlier round or "
                                     "feed writes")
            unknown = [str(out) for out in one.writes if out.of not in names]
            if unknown:
                raise GraphError(f"pass {one.name} writes {', '.join(unknown)}: no such pass")
            if one.part is not None and LOSERS in files:
                raise GraphError(f"pass {one.name} (round {number}) has a part in the decision, but runs after "
                                 f"{LOSERS}, the decision's end, is written")
        written |= {out.of for one in passes for out in one.writes}
        decided |= {one.name for one in passes if one.task is not None}
        if then is not None:
            files.add(then)


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
                lines.append(f"     - reads: {', '.join(map(str, one.reads))}")
            if one.result:
                lines.append(f"     - result: {', '.join(one.result)}")
            if one.writes:
                lines.append(f"     - writes: {', '.join(map(str, one.writes))}")
        if then is not None:
            lines.append(f"   - then the driver writes `{then}`: {BETWEEN[then]}")
    return "\n".join(lines) + "\n"
