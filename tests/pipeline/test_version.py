"""The code version on dataset and model cards: one function, one format."""

from __future__ import annotations

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

