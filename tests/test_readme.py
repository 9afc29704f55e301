"""A new user's first hour: every command of README.md that can run offline runs as written, on the
bundled sample, from a directory holding only what a clone has (installing is left out: it needs
the network; `make test` is this suite; `dvc repro` is tests/test_dvc.py; the notebook is CI's)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SKIPPED = ("pip install", "make test", "jupyter", "dvc repro")


def blocks(language: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
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


def test_every_runnable_readme_command_runs_as_written(tmp_path):
    shutil.copytree(ROOT / "data" / "sample", tmp_path / "data" / "sample")
    commands = []
    for block in blocks("bash"):
        for line in block.splitlines():
            command = line.split("  #", 1)[0].strip()
            if not command or any(skip in command for skip in SKIPPED):
                continue
            commands += make_recipe(command.split()[1]) if command.startswith("make ") else [command]
    assert any("pipeline select" in command for command in commands) and len(commands) >= 4
    venv_bin = str(Path(sys.executable).parent) + "/"
    script = "set -euo pipefail\n" + "\n".join(command.replace(".venv/bin/", venv_bin) for command in commands)
    result = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{script}\n{result.stdout}\n{result.stderr}"
    assert (tmp_path / "out" / "crawl-strict" / "stats.json").is_file() and (tmp_path / "out" / "crawl.log").is_file()
    for block in blocks("python"):
        subprocess.run([sys.executable, "-c", block], cwd=tmp_path, check=True, timeout=120)
