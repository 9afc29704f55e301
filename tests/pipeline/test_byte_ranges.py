"""Byte-range tasks (pipeline/io/byte_ranges.py, pipeline/stages/extract_tasks.py): a gzipped WARC
read as many ranges gives the same rows and the same accounting as one whole-file read, on
clean files, on files whose members are all tiny, on files damaged the way real files are
(random flips, a lost block, a cut member, garbage) wherever the damage falls relative to the
cuts, on non-chunked gzip and on a file whose range end is not a member start."""

from __future__ import annotations

import gzip
import io
import json
import random
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from conftest import cli, shard_bytes, stats_without_timings
from damage import build_warc, cut_member, flip_bytes, garbage_between, lose_block
from pipeline.io.byte_ranges import plan_ranges, range_step
from pipeline.params import Params, params_from_dict
from pipeline.run.executors import LocalExecutor
from pipeline.stages.extract import ExtractTask
from pipeline.stages.extract_tasks import ExtractRun, run_extract
from pipeline.store.workdir import EXTRACT_DIR, PARTS_DIR, outputs_for, prepare_workdir

WHOLE = 1 << 40  # task_bytes larger than any test file: one task per file


def extract(path: Path, workdir: Path, task_bytes: int, workers: int = 1) -> tuple[list[dict], dict, ExtractRun]:
    """The rows and the accounting (without timings) of one file, and what the run did."""
    params = params_from_dict({"extract": {"task_bytes": task_bytes, "rows_per_row_group": 3}})
    prepare_workdir(str(workdir))
    template = ExtractTask("", str(workdir), params)
    with LocalExecutor(workers) as executor:
        run = run_extract([str(path)], template, executor)
    parquet_path, json_path = outputs_for(str(workdir), str(path))
    summary = json.loads(json_path.read_text())
    summary.pop("timings")
    return pq.read_table(parquet_path).to_pylist(), summary, run


def assert_same_as_whole(path: Path, tmp_path: Path, task_bytes: int, workers: int = 1) -> ExtractRun:
    rows, summary, run = extract(path, tmp_path / "ranges", task_bytes, workers)
    whole_rows, whole_summary, whole_run = extract(path, tmp_path / "whole", WHOLE)
    assert whole_run.ranges == 0
    assert summary == whole_summary
    assert [row["id"] for row in rows] == [row["id"] for row in whole_rows]
    assert rows == whole_rows
    # the parts' rows are re-cut into the row groups one task writes (`rows_per_row_group`)
    assert row_group_sizes(path, tmp_path / "ranges") == row_group_sizes(path, tmp_path / "whole")
    assert not (tmp_path / "ranges" / EXTRACT_DIR / PARTS_DIR).exists() or not any(
        (tmp_path / "ranges" / EXTRACT_DIR / PARTS_DIR).iterdir())
    return run


def row_group_sizes(path: Path, workdir: Path) -> list[int]:
    metadata = pq.read_metadata(outputs_for(str(workdir), str(path))[0])
    return [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]


def write(tmp_path: Path, data: bytes, name: str = "crawl.warc.gz") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_ranges_start_at_members_and_cover_the_file(tmp_path):
    built = build_warc(seed=1, pages=30, mean_page_bytes=3000)
    path = write(tmp_path, built.data)
    file_format, ranges = plan_ranges(str(path), 4096)
    assert file_format == "warc" and len(ranges) > 5
    assert ranges[0][0] == 0 and ranges[-1][1] == len(built.data)
    member_starts = {m.offset for m in built.members}
    size = len(built.data)
    for (start, end), (following, _) in zip(ranges, [*ranges[1:], (size, None)], strict=True):
        assert start in member_starts and end == following
        if end < size:
            # task_bytes each, but in the file's last 2 * task_bytes, where they get shorter
            assert end - start >= (4096 if size - start >= 2 * 4096 else 4096 // 8)


def test_the_last_ranges_of_a_file_are_shorter():
    """So the last tasks of a run are short and the workers finish together; the cuts do not
    depend on the number of workers."""
    assert [range_step(remaining, 1000) for remaining in (5000, 2000, 1999, 1000, 500, 249)] == \
        [1000, 1000, 999, 500, 250, None]
    assert range_step(1, 1) is None and range_step(2, 1) == 1


def test_a_large_file_ends_in_shorter_ranges(tmp_path):
    built = build_warc(seed=1, pages=80, mean_page_bytes=100)  # members of a few hundred bytes
    path = write(tmp_path, built.data)
    ranges = plan_ranges(str(path), 4096)[1]
    lengths = [end - start for start, end in ranges]
    assert min(lengths[:-4]) >= 4096
    assert max(lengths[-3:]) < 4096 and lengths[-3] > lengths[-1]


@pytest.mark.parametrize("name, data", [
    ("plain.warc", build_warc(seed=3, pages=10, gzip=False, mean_page_bytes=3000).data),
    ("page.html", b"<!doctype html><html><body>" + b"<p>word</p>" * 2000 + b"</body></html>"),
])
def test_uncompressed_files_are_one_range(tmp_path, name, data):
    path = write(tmp_path, data, name)
    assert plan_ranges(str(path), 1024)[1] == [(0, len(data))]


def test_multi_member_file_in_ranges_gives_the_whole_file_rows(tmp_path):
    run = assert_same_as_whole(write(tmp_path, build_warc(seed=4, pages=30, mean_page_bytes=3000).data),
                               tmp_path, 4096)
    assert run.ranges > 5 and run.reread_files == 0


def test_every_member_its_own_range(tmp_path):
    built = build_warc(seed=5, pages=25, mean_page_bytes=100)  # members of a few hundred bytes
    path = write(tmp_path, built.data)
    assert len(plan_ranges(str(path), 1)[1]) == len(built.members)
    run = assert_same_as_whole(path, tmp_path, 1)
    assert run.ranges == len(built.members) and run.reread_files == 0


DAMAGE = {
    "flips": lambda built, seed: flip_bytes(built, seed, flips=6),
    "lost block": lose_block,
    "cut member": cut_member,
    "garbage": garbage_between,
}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("damage", DAMAGE)
def test_damaged_file_in_ranges_gives_the_whole_file_rows(tmp_path, damage, seed):
    damaged = DAMAGE[damage](build_warc(seed=10 + seed, pages=20, mean_page_bytes=2000), seed)
    run = assert_same_as_whole(write(tmp_path, damaged.data), tmp_path, 2048)
    assert run.ranges > 3


@pytest.mark.parametrize("where", ["first member of a range", "last member before a range"])
def test_damage_at_a_range_boundary(tmp_path, where):
    """A flipped byte in the member a range starts with (the cut then moves to the next
    member, the damage is read by the range before) or in the member just before the cut."""
    built = build_warc(seed=20, pages=20, mean_page_bytes=2000)
    clean = write(tmp_path, built.data, "clean.warc.gz")
    _, ranges = plan_ranges(str(clean), 4096)
    starts = [m.offset for m in built.members]
    data = bytearray(built.data)
    for start, _ in ranges[1:]:
        index = starts.index(start) - (where != "first member of a range")
        data[starts[index] + 12] ^= 0x55  # inside the deflate data: the member fails its CRC
    path = write(tmp_path, bytes(data))
    rows, _, run = extract(path, tmp_path / "check", 4096)
    assert sum(row["record_type"] == "corrupt" for row in rows) == len(ranges) - 1
    assert run.ranges > 2
    assert_same_as_whole(path, tmp_path, 4096)


def test_ranges_on_two_workers(tmp_path):
    damaged = flip_bytes(build_warc(seed=30, pages=30, mean_page_bytes=3000), 7, flips=5)
    run = assert_same_as_whole(write(tmp_path, damaged.data), tmp_path, 4096, workers=2)
    assert run.ranges > 5


def test_non_chunked_gzip_members_are_read_again_as_one_stream(tmp_path):
    """Several records per gzip member: offsets cannot be cut, the file is read once more whole."""
    built = build_warc(seed=40, pages=30, gzip=False, mean_page_bytes=2000)
    middle = built.members[len(built.members) // 2].offset
    path = write(tmp_path, gzip.compress(built.data[:middle]) + gzip.compress(built.data[middle:]))
    assert len(plan_ranges(str(path), 1024)[1]) == 2
    run = assert_same_as_whole(path, tmp_path, 1024)
    assert run.reread_files == 1


def test_a_range_end_inside_a_member_makes_the_file_read_whole(tmp_path):
    """A crawled .warc.gz: the response's payload holds gzip members that inflate to WARC headers,
    and deflate stores already-compressed bytes as they are, so a cut can land on one of them."""
    rng = random.Random(50)
    inner_out = io.BytesIO()
    inner_writer = WARCWriter(inner_out, gzip=True)
    for index in range(8):  # photographs: incompressible payloads
        photo = rng.randbytes(8000)
        inner_writer.write_record(inner_writer.create_warc_record(
            f"http://photos.example/{index}.jpg", "resource", payload=io.BytesIO(photo),
            warc_content_type="image/jpeg"))
    inner = inner_out.getvalue()
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    http = StatusAndHeaders("200 OK", [("Content-Type", "application/gzip")], protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record("http://archive.example/crawl.warc.gz", "response",
                                                  payload=io.BytesIO(inner), http_headers=http))
    outer_end = out.tell()
    for index in range(3):
        page = b"<html><body><p>" + b"A walk along the river. " * 40 + b"</p></body></html>"
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(f"http://site.example/{index}", "response",
                                                      payload=io.BytesIO(page), http_headers=http))
    path = write(tmp_path, out.getvalue())
    _, ranges = plan_ranges(str(path), 1024)
    assert any(0 < start < outer_end for start, _ in ranges)  # a false boundary inside the first member
    run = assert_same_as_whole(path, tmp_path, 1024)
    assert run.reread_files == 1


def test_params_task_bytes_is_checked_and_does_not_change_the_fingerprint():
    from pipeline.params import ParamsError
    from pipeline.store.workdir import fingerprint

    with pytest.raises(ParamsError, match="task_bytes"):
        params_from_dict({"extract": {"task_bytes": 0}})
    small = params_from_dict({"extract": {"task_bytes": 1}})
    assert fingerprint(small, False) == fingerprint(Params(), False)
    assert fingerprint(params_from_dict({"extract": {"rows_per_row_group": 7}}), False) != fingerprint(Params(), False)


def test_cli_run_in_ranges_on_two_workers_is_byte_identical(tmp_path, no_report):
    inputs = tmp_path / "in"
    inputs.mkdir()
    for seed in (60, 61):
        damaged = flip_bytes(build_warc(seed=seed, pages=15, mean_page_bytes=2500), seed, flips=3)
        (inputs / f"crawl-{seed}.warc.gz").write_bytes(damaged.data)
    outs = {}
    for name, task_bytes, workers in (("whole", WHOLE, 1), ("ranges", 4096, 2)):
        params = tmp_path / f"{name}.yaml"
        params.write_text(f"extract:\n  task_bytes: {task_bytes}\n")
        outs[name] = tmp_path / name
        assert cli("run", inputs, "--out", outs[name], "--params", params, "--workers", workers) == 0
    assert shard_bytes(outs["whole"]) == shard_bytes(outs["ranges"])
    whole, ranges = stats_without_timings(outs["whole"]), stats_without_timings(outs["ranges"])
    assert whole["params"]["extract"].pop("task_bytes") != ranges["params"]["extract"].pop("task_bytes")
    assert whole == ranges
