"""`notebooks/filter_stats.ipynb` executes against the bundled sample's output.

The notebook is run with nbclient, as Jupyter would run it (kernel started in `notebooks/`), with
its parameters in the environment: RUN_DIR, COMPARE_DIR, FIGURES_DIR. It prints marker lines
(`RUN ACCEPTED=...`, `WHAT_IF ...`, `ONLY_IN_RUN=...`) that these tests hold against stats.json,
the shards, and real `pipeline select` runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
import yaml

from conftest import ROOT, cli
from filters.rules.reasons import RULES_BY_CODE

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

NOTEBOOK = ROOT / "notebooks" / "filter_stats.ipynb"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FIGURES = {"funnel.png", "reasons.png", "reason_cooccurrence.png", "signal_histograms.png", "hosts.png",
           "language_year.png", "segments.png"}
KEY = ["id", "source_file", "source_offset"]


def nested(dotted_key: str, value: object) -> dict:
    head, _, rest = dotted_key.partition(".")
    return {head: nested(rest, value) if rest else value}


def select_with(base: Path, name: str, dotted_key: str, value: object) -> Path:
    """`pipeline select` of the base run's work directory with one threshold changed."""
    params = base / f"{name}.yaml"
    params.write_text(yaml.safe_dump(nested(dotted_key, value)), encoding="utf-8")
    out = base / name
    assert cli("select", base / "a" / "work", "--out", out, "--params", params) == 0
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """`a`: the sample with default params; `b`: select.length.min_tokens 400; `none`: nothing accepted."""
    base = tmp_path_factory.mktemp("notebook")
    assert cli("run", ROOT / "data" / "sample", "--out", base / "a") == 0
    select_with(base, "b", "select.length.min_tokens", 400)
    select_with(base, "none", "select.length.min_tokens", 1_000_000)
    return base


def execute(env: dict[str, str]) -> nbformat.NotebookNode:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "notebooks")}})
    with pytest.MonkeyPatch.context() as patch:  # the kernel inherits this process's environment
        for name in ("RUN_DIR", "COMPARE_DIR", "FIGURES_DIR"):
            patch.delenv(name, raising=False)
        for name, value in env.items():
            patch.setenv(name, value)
        try:
            client.execute()
        except nbclient.exceptions.CellExecutionError as exc:
            pytest.fail(f"the notebook failed with {env}:\n{exc}")
    return notebook


def printed(notebook: nbformat.NotebookNode) -> str:
    return "".join(output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                   for output in cell.outputs if output.output_type == "stream")


def marker(text: str, pattern: str) -> tuple[int, ...]:
    found = [match.groups() for match in re.finditer(pattern, text)]
    assert len(found) == 1, f"expected one line matching {pattern!r} in the notebook's output:\n{text}"
    return tuple(int(n) for n in found[0])


def stats_of(run: Path) -> dict:
    return json.loads((run / "stats.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def compared(runs) -> str:
    """Output of the notebook on run `a`, compared with run `b`, figures in their own directory."""
    notebook = execute({"RUN_DIR": str(runs / "a"), "COMPARE_DIR": str(runs / "b"),
                        "FIGURES_DIR": str(runs / "figures")})
    return printed(notebook)


@pytest.fixture(scope="module")
def alone(runs) -> str:
    """Output of the notebook on the run with nothing accepted, no COMPARE_DIR, default FIGURES_DIR."""
    return printed(execute({"RUN_DIR": str(runs / "none")}))


def test_committed_notebook_is_valid_and_has_no_outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    for cell in code:
        assert cell.outputs == [], f"outputs committed in cell {cell.get('id')}"
        assert cell.execution_count is None, f"execution count committed in cell {cell.get('id')}"


def test_figures_are_written_as_png(runs, compared):
    figures = runs / "figures"
    assert {p.name for p in figures.iterdir()} == FIGURES | {"compare_reasons.png"}
    for path in figures.iterdir():
        assert path.read_bytes().startswith(PNG_MAGIC), path


def test_printed_counts_agree_with_stats(runs, compared):
    a, b = stats_of(runs / "a"), stats_of(runs / "b")
    assert marker(compared, r"RUN ACCEPTED=(\d+) REJECTED=(\d+)") == (a["accepted"], a["rejected"])
    assert marker(compared, r"COMPARE ACCEPTED=(\d+) REJECTED=(\d+)") == (b["accepted"], b["rejected"])
    segments = a["segments"]
    assert marker(compared, r"SEGMENTS IN=(\d+) ACCEPTED=(\d+)") == (segments["segments_in"], segments["accepted"])


def test_pages_accepted_in_only_one_run(runs, compared):
    def keys(run: str) -> set[tuple]:
        return set(pl.read_parquet(runs / run / "accepted" / "*.parquet").select(KEY).iter_rows())

    only_a, only_b = keys("a") - keys("b"), keys("b") - keys("a")
    assert only_a  # a stricter minimum length must drop some pages, or the comparison shows nothing
    assert marker(compared, r"ONLY_IN_RUN=(\d+) ONLY_IN_COMPARE=(\d+)") == (len(only_a), len(only_b))


def test_what_if_agrees_with_a_real_select(runs, compared):
    # On the bundled sample no duplicate pair straddles these thresholds, so the estimate from
    # signals alone (which does not re-run dedup) must equal a real `pipeline select`.
    scenarios = re.findall(r"WHAT_IF (\S+) (\S+) ACCEPTED=(\d+)", compared)
    assert {code for code, _, _ in scenarios} == {"length.tokens", "block.large_block_share"}
    for number, (code, threshold, predicted) in enumerate(scenarios):
        value = yaml.safe_load(threshold)
        real = select_with(runs, f"what-if-{number}", RULES_BY_CODE[code].params_key, value)
        assert int(predicted) == stats_of(real)["accepted"], f"{code} -> {threshold}"


def test_runs_without_compare_dir_and_nothing_accepted(runs, alone):
    stats = stats_of(runs / "none")
    assert marker(alone, r"RUN ACCEPTED=(\d+) REJECTED=(\d+)") == (0, stats["rejected"])
    assert "COMPARE_DIR is not set" in alone and "ONLY_IN_RUN" not in alone
    figures = runs / "none" / "notebook-figures"  # the default FIGURES_DIR
    assert {p.name for p in figures.iterdir()} == FIGURES
    for path in figures.iterdir():
        assert path.read_bytes().startswith(PNG_MAGIC), path
