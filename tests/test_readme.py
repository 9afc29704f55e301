"""A new user's first hour: every command of README.md and docs/*.md that can run offline runs as
written, on the bundled sample, from a directory holding only what a clone has (installing is left out:
it needs the network; `make test` is this suite; DVC's commands are tests/test_dvc.py's; the notebook
is CI's)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

SKIPPED = ("pip install", "make test", "jupyter", "dvc ")
PAGES = ("README.md", *(f"docs/{path.name}" for path in sorted((ROOT / "docs").glob("*.md"))))


def blocks(language: str, page: str = "README.md") -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def make_recipe(target: str) -> list[str]:
    """The shell lines of a Makefile target (`make run`), with the venv's paths."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(f"{target}:"))
    recipe = []
    for line in lines[start + 1:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip().replace("$(VENV)/bin/", ".venv/bin/"))
    return recipe


@pytest.mark.parametrize("page", [page for page in PAGES if blocks("bash", page)])
def test_every_runnable_command_of_a_page_runs_as_written(page, tmp_path):
    shutil.copytree(ROOT / "data" / "sample", tmp_path / "data" / "sample")
    commands = []
    for block in blocks("bash", page):
        for line in block.splitlines():
            command = line.split("  #", 1)[0].strip()
            if not command or any(skip in command for skip in SKIPPED):
                continue
            commands += make_recipe(command.split()[1]) if command.startswith("make ") else [command]
    if page == "README.md":
        assert any("pipeline select" in command for command in commands) and len(commands) >= 4
    venv_bin = str(Path(sys.executable).parent) + "/"
    script = "set -euo pipefail\n" + "\n".join(command.replace(".venv/bin/", venv_bin) for command in commands)
    result = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{script}\n{result.stdout}\n{result.stderr}"
    if page == "README.md":
        assert (tmp_path / "out" / "crawl-strict" / "stats.json").is_file()
        assert (tmp_path / "out" / "crawl.log").is_file()
    if page == "docs/cli.md":
        assert (tmp_path / "out" / "both" / "stats.json").is_file()
    for block in blocks("python", page):
        subprocess.run([sys.executable, "-c", block], cwd=tmp_path, check=True, timeout=120)
