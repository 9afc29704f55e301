"""The version of the code that produced an output, for dataset and model cards."""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path

from pipeline import __version__


@functools.cache
def code_version() -> str:
    """'0.1.0 (commit 1a2b3c4d5e6f)': the package version, and the git commit of the checkout the code
    runs from, with '-dirty' when tracked files have uncommitted changes. The version alone for an
    installed copy, which has no checkout of its own, or when git cannot be run.

    Computed once per process. `git describe --dirty` refreshes the index and so takes
    `.git/index.lock` in the user's checkout, failing a `git commit` they run meanwhile:
    `GIT_OPTIONAL_LOCKS=0` (git's documented switch for background readers) tells it not to."""
    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():
        return __version__
    try:
        done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=12"],
                              capture_output=True, text=True, timeout=10, check=False,
                              env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    except (OSError, subprocess.SubprocessError):
        return __version__
    commit = done.stdout.strip() if done.returncode == 0 else ""
    return f"{__version__} (commit {commit})" if commit else __version__
