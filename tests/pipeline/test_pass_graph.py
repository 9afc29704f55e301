"""The de-duplication pass graph as data (`pipeline.stages.dedup.graph`): what each pass reads and
writes is declared (`spec.Fragments`, `Results`, `Between`, `Texts`) and checked by the driver
before anything runs; a new pass is one module and one line of the pass order."""

from __future__ import annotations

import polars as pl
import pytest

from pipeline.params import Params
from pipeline.stages import balance
from pipeline.stages.dataset import split_expr
from pipeline.stages.dedup import Passes
from pipeline.stages.dedup.graph import ROUNDS, GraphError, check, diagram
from pipeline.stages.dedup.partitions import REPEATS, PartitionTask, read_candidates
from pipeline.stages.dedup.spec import Between, Feed, Fragments, KeyBatch, Part, Pass, Results

# A toy pass, declared as a pass module declares one: its feed (a candidate's host), its task (how
# many candidates each host has, by node) and what it reads.
TOY_COUNTS = {"node": pl.UInt64, "host_candidates": pl.UInt32}


def toy_rows(batch: KeyBatch) -> pl.DataFrame | None:
    return None if batch.compact.is_empty() else batch.keyed.select(pl.col("host").fill_null(""), "date", "node")


def toy_task(task: PartitionTask) -> None:
    members = read_candidates(task, {"host": pl.String, "date": pl.Int64, "node": pl.UInt64})
    task.directory.write_result(task.partition, members.select(
        "node", pl.len().over("host").cast(pl.UInt32).alias("host_candidates")).sort("node"))


TOY = Pass("toy", toy_task, Feed(toy_rows, "host", ("host", "date", "node")), reads=(Between(REPEATS),),
           result=tuple(TOY_COUNTS),
           # its part in the decision: a signal of every candidate it counted (it rejects nothing)
           part=Part(None, ("host_candidates",), after=lambda view, _losers: view.results("toy", TOY_COUNTS),
                     types={"host_candidates": pl.UInt32}))


def test_the_declared_graphs_pass_their_check():
    check(ROUNDS)
    check((*ROUNDS, balance.ROUND))


def test_a_pass_reading_what_a_later_round_writes_is_refused():
    reads_later = Pass("early", toy_task, reads=(Results("toy"),))
    with pytest.raises(GraphError, match=r"pass early \(round 1\) reads toy results"):
        check((((reads_later,), None), ((TOY,), None)))
    with pytest.raises(GraphError, match="reads nowhere fragments"):
        check((((Pass("orphan", toy_task, reads=(Fragments("nowhere"),)),), None),))
    with pytest.raises(GraphError, match="reads repeats.parquet"):  # the file is written after round 1, not before
        check((((TOY,), REPEATS),))
    with pytest.raises(GraphError, match="runs after losers.parquet"):  # the decision has ended there
        check((*ROUNDS, ((TOY,), None)))
    with pytest.raises(GraphError, match="two passes of one name"):
        check((((TOY,), None), ((TOY,), None)))


def test_a_new_pass_is_one_module_and_one_line_of_the_pass_order(tmp_path):
    (first, (second, then), *rest) = ROUNDS
    rounds = (first, ((*second, TOY), then), *rest)  # the one line: the toy runs beside the second round's
    paths = []
    for index in range(2):
        path = tmp_path / f"extract-{index}.parquet"
        pl.DataFrame({"text": ["one text", "two texts"]}).write_parquet(path)
        paths.append(str(path))
    passes = Passes(str(tmp_path / "parts"), Params(), {"files": paths}, rounds)
    for index in range(2):
        compact = pl.DataFrame({
            "row": [0, 1], "id": [f"a{index}", f"b{index}"],
            "host": ["a.example", "b.example" if index else "a.example"],
            "warc_date": [None, None], "url": [None, None], "normalized_url": [None, None],
            "canonical_key": [None, None], "content_hash": [f"x{index}", f"y{index}"],
            "simhash64": [None, None], "minhash": [None, None]},
            schema_overrides={"row": pl.UInt32, "warc_date": pl.Datetime("us", "UTC"), "minhash": pl.Binary,
                              "simhash64": pl.Int64, "url": pl.String, "normalized_url": pl.String,
                              "canonical_key": pl.String})
        compact = compact.with_columns(split_expr(Params(), pl.col("content_hash")).alias("split"))
        ids = compact.select("row", "id", "warc_date", pl.lit("response").alias("record_type"),
                             pl.lit(f"f{index}").alias("source_file"),
                             pl.col("row").cast(pl.Int64).alias("source_offset"))
        passes.add(index, compact, ids)
    passes.run(paths, None, None)
    # decided: a.example holds both rows of file 0 and the first of file 1; b.example the second of file 1
    found = passes.decide()
    signals = [found.for_file(index) for index in range(2)]
    assert [frame["host_candidates"].to_list() for frame in signals] == [[3, 3], [3, 1]]
    assert signals[0]["exact_duplicate"].to_list() == [False, False]  # the other passes decided beside it
    assert f"**toy** (`{toy_task.__module__}`, `toy_task`)" in diagram(rounds)  # docs/scale.md draws it too


def test_the_balance_runs_where_the_unit_kind_declares_it(tmp_path):
    from pipeline.stages.decide import Engine, UnitKind
    from pipeline.stages.dedup.graph import passes_of
    from pipeline.store.schema import OUTPUT_SCHEMA

    declared = Engine(UnitKind("pages", OUTPUT_SCHEMA, Params(), 10), [], str(tmp_path / "a"), {})
    assert balance.NAME in [one.name for one in passes_of(declared.passes.rounds)]
    without = Engine(UnitKind("pages", OUTPUT_SCHEMA, Params(), 10, dataset_steps=()), [], str(tmp_path / "b"), {})
    assert balance.NAME not in [one.name for one in passes_of(without.passes.rounds)]
