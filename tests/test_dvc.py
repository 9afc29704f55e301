"""`dvc repro` on a fresh copy of the repository builds the bundled sample end to end; a select
threshold change re-runs only select and report."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytest.importorskip("dvc", reason="the dvc extra is not installed (make test installs it)")

IGNORED = {".git", ".venv", "out", ".pytest_cache", ".ruff_cache", "__pycache__", ".dvc", "dvc.lock"}


def dvc(copy: Path, *args: str) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run([sys.executable, "-m", "dvc", *args], cwd=copy, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("repo") / "corpus-filter"
    shutil.copytree(ROOT, target,
                    ignore=lambda _d, names: [n for n in names if n in IGNORED or n.endswith(".egg-info")])
    dvc(target, "init", "--no-scm", "-q")
    return target


def test_repro_builds_the_sample_and_status_is_clean(copy):
    out = dvc(copy, "repro")
    for stage in ("extract", "select", "report"):
        assert f"Running stage '{stage}'" in out
    run = copy / "out" / "dvc" / "run"
    assert (run / "stats.json").is_file() and list((run / "accepted").glob("*.parquet"))
    assert (copy / "out" / "dvc" / "report" / "index.html").is_file()
    assert "up to date" in dvc(copy, "status")


def test_select_threshold_change_reruns_only_select_and_report(copy):
    params = copy / "params.yaml"
    params.write_text(params.read_text().replace("min_tokens: 200", "min_tokens: 300"))
    status = dvc(copy, "status")
    assert "select" in status and "extract:" not in status
    out = dvc(copy, "repro")
    assert "Running stage 'select'" in out and "Running stage 'report'" in out
    assert "Running stage 'extract'" not in out
    assert "up to date" in dvc(copy, "status")


def test_metrics_show_reads_stats(copy):
    assert "accepted" in dvc(copy, "metrics", "show")
