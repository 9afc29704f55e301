"""dvc.yaml's stages depend on the code they run: every module of the package that a stage's
command imports, at any depth, is one of its deps (a file, or a folder above it), so a change to
that code re-runs the stage."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml
from test_layout import module_imports

ROOT = Path(__file__).resolve().parents[1]
# The module each stage's `pipeline` command runs (pipeline/cli.py).
ENTRIES = {"train_page_model": "pipeline.stages.train", "extract": "pipeline.stages.extract_tasks",
           "select": "pipeline.stages.select", "report": "pipeline.report.index"}


def module_file(name: str, root: Path = ROOT) -> Path | None:
    path = root / Path(*name.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else None


def closure(entry: str, root: Path = ROOT) -> set[str]:
    """The package files `entry` runs: itself, what it imports, and so on (with their packages' __init__)."""
    seen: set[Path] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        path = module_file(name, root)
        if path is None or path in seen:
            continue
        seen.add(path)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        todo += sorted(module_imports(path))
    return {path.relative_to(root).as_posix() for path in seen if not only_a_docstring(path)}


def only_a_docstring(path: Path) -> bool:
    """A package's __init__ that says what it owns and runs nothing."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in body)


def uncovered(files: set[str], deps: list[str]) -> set[str]:
    return {file for file in files if not any(file == dep or file.startswith(dep.rstrip("/") + "/") for dep in deps)}


@pytest.mark.parametrize("stage", sorted(ENTRIES))
def test_each_stage_depends_on_the_code_it_runs(stage: str):
    stages = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))["stages"]
    deps = [dep for dep in stages[stage]["deps"] if not dep.startswith("$")]
    assert not uncovered(closure(ENTRIES[stage]), deps)
    assert all((ROOT / dep).exists() for dep in deps)


def test_the_deps_check_finds_a_module_not_listed(tmp_path: Path):
    package = tmp_path / "pipeline"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("def f():\n    from pipeline.second import g\n")
    (package / "second.py").write_text("g = 1\n")
    first, second = (path.relative_to(tmp_path).as_posix() for path in (package / "first.py", package / "second.py"))
    files = closure("pipeline.first", tmp_path)
    assert files == {first, second}  # an empty __init__ runs nothing
    assert uncovered(files, [first]) == {second}


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


@pytest.mark.parametrize("stage", sorted(ENTRIES))
def test_no_stage_depends_on_its_own_outputs(stage: str):
    # DVC refuses a stage whose deps hold its outs ("defined as both a dependency and an output")
    spec = yaml.safe_load((ROOT / "dvc.yaml").read_text(encoding="utf-8"))["stages"][stage]
    outs = [next(iter(out)) if isinstance(out, dict) else out for out in spec.get("outs", [])]
    assert not [(dep, out) for dep in spec["deps"] for out in outs if inside(out, dep) or inside(dep, out)]


def test_the_overlap_check_sees_an_output_inside_a_dependency():
    assert inside("filters/page_model/page_type.json", "filters") and not inside("filters2/x", "filters")
