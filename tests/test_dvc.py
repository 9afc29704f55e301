"""`dvc repro` on a fresh `git clone` of the repository builds the bundled sample end to end, with
no `dvc init`; a select threshold change re-runs only select and report.

The clone is of the committed HEAD: what a new user (or CI) gets. The stages call the `pipeline`
command of the venv running the tests, so they run the installed package (the working tree in an
editable install), while DVC hashes the clone's files as dependencies."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytest.importorskip("dvc", reason="the dvc extra is not installed (make test installs it)")

GIT = shutil.which("git")


def git_head(repo: Path) -> str | None:
    if GIT is None:
        return None
    result = subprocess.run([GIT, "-C", str(repo), "rev-parse", "--verify", "HEAD"],
                            capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else None


def dvc(clone: Path, *args: str) -> str:
    # The venv's bin first: dvc.yaml's commands call `pipeline`, as after `source .venv/bin/activate`.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run([sys.executable, "-m", "dvc", *args], cwd=clone, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    head = git_head(ROOT)
    if head is None:
        pytest.skip("git or a git checkout of the repository is missing; the test clones HEAD")
    target = tmp_path_factory.mktemp("clone") / "corpus-filter"
    # Check out ROOT's HEAD by hash: a CI checkout may be a detached HEAD that is no branch's tip.
    subprocess.run([GIT, "clone", "-q", "--no-hardlinks", "--no-checkout", str(ROOT), str(target)], check=True)
    subprocess.run([GIT, "-C", str(target), "checkout", "-q", "--detach", head], check=True)
    return target


def test_clone_is_a_dvc_repository_without_network(clone):
    assert (clone / ".dvc" / "config").is_file(), "commit .dvc/config (`dvc init` in the repository)"
    assert not (clone / "dvc.lock").exists(), "dvc.lock is not committed (README, DVC section)"
    assert dvc(clone, "config", "core.analytics").strip() == "false"


def test_repro_builds_the_sample_and_status_is_clean(clone):
    out = dvc(clone, "repro")
    for stage in ("extract", "select", "report"):
        assert f"Running stage '{stage}'" in out
    # the shipped model's training stage is frozen: it needs labelled corpora a clone does not have
    assert "Running stage 'train_page_model'" not in out and "frozen stage: 'train_page_model'" in out
    run = clone / "out" / "dvc" / "run"
    assert (run / "stats.json").is_file() and list((run / "accepted").glob("*.parquet"))
    assert (clone / "out" / "dvc" / "report" / "index.html").is_file()
    assert "up to date" in dvc(clone, "status")
    # Outputs stay out of git (out/ is ignored); DVC's cache and tmp too (.dvc/.gitignore).
    untracked = subprocess.run([GIT, "-C", str(clone), "status", "--porcelain"], capture_output=True,
                               text=True, check=True).stdout.splitlines()
    assert untracked == ["?? dvc.lock"]


def test_select_threshold_change_reruns_only_select_and_report(clone):
    params = clone / "params.yaml"
    text = params.read_text()
    assert "min_tokens: 200" in text
    params.write_text(text.replace("min_tokens: 200", "min_tokens: 300"))
    status = dvc(clone, "status")
    assert "select" in status and "extract:" not in status
    out = dvc(clone, "repro")
    assert "Running stage 'select'" in out and "Running stage 'report'" in out
    assert "Running stage 'extract'" not in out
    assert "up to date" in dvc(clone, "status")


def test_metrics_show_reads_counts_not_params_or_timings(clone):
    shown = dvc(clone, "metrics", "show", "--json")
    assert "accepted_share" in shown and "by_reason" in shown
    assert "min_tokens" not in shown and "seconds" not in shown  # params are DVC's params, timings vary
