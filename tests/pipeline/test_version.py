"""The code version on dataset and model cards: one function, one format."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pipeline import __version__
from pipeline.version import code_version

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None, reason="not a git checkout")
def test_a_checkout_names_its_commit():
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    found = re.fullmatch(rf"{re.escape(__version__)} \(commit ([0-9a-f]{{12}})(-dirty)?\)", code_version())
    assert found, code_version()
    assert head.startswith(found.group(1))



@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout")
def test_git_runs_once_without_optional_locks(monkeypatch):
    """`git describe --dirty` refreshes the index under `.git/index.lock` unless told not to; a run
    must never hold that lock in the user's checkout, and asks git once per process."""
    calls = []

    def fake_run(command, **kwargs):
        calls.append((command, kwargs))
        return subprocess.CompletedProcess(command, 0, stdout="0123456789ab\n", stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    code_version.cache_clear()
    try:
        first, second = code_version(), code_version()
    finally:
        code_version.cache_clear()
    assert first == second == f"{__version__} (commit 0123456789ab)"
    assert len(calls) == 1
    command, kwargs = calls[0]
    assert command[0] == "git" and "describe" in command
    assert kwargs["env"]["GIT_OPTIONAL_LOCKS"] == "0"
    assert kwargs["env"]["PATH"] == os.environ["PATH"]  # the user's environment, plus the switch
