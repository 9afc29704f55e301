"""The code's layout (docs/development.md): layers import downwards only, every subpackage says
what it owns, no folder is a heap of modules, and nothing imports in a circle. A module's length is
guidance (docs/development.md), never a test: a module is split where its concept splits."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("filters", "pipeline")
# benchmarks -> pipeline -> filters: a layer imports only the layers below it (and libraries).
LAYERS = ("filters", "pipeline", "benchmarks")
FORBIDDEN = {"filters": {"pipeline", "benchmarks", "samplegen"}, "pipeline": {"benchmarks"}}
MAX_MODULES = 12


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported_packages(path: Path) -> set[str]:
    """Top-level names of every import in a module (absolute imports; relative ones stay inside)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers_import_downwards_only(package):
    upward = {f"{path.relative_to(ROOT)} imports {name}" for path in modules(package)
              for name in imported_packages(path) & FORBIDDEN[package]}
    assert not upward


def test_the_layering_test_finds_an_upward_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import os\nfrom pipeline.params import Params\nif True:\n    import benchmarks.common\n")
    assert imported_packages(module) & FORBIDDEN["filters"] == {"pipeline", "benchmarks"}


def test_no_folder_holds_more_than_twelve_modules():
    crowded = {}
    for package in PACKAGES:
        for folder in [ROOT / package, *(p for p in (ROOT / package).rglob("*") if p.is_dir())]:
            count = len([p for p in folder.glob("*.py") if p.name != "__init__.py"])
            if count > MAX_MODULES:
                crowded[str(folder.relative_to(ROOT))] = count
    assert not crowded


def test_every_subpackage_says_what_it_owns():
    silent = []
    for package in PACKAGES:
        for init in (ROOT / package).rglob("__init__.py"):
            if init.parent == ROOT / package:
                continue
            docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
            if not docstring or "import" not in docstring:
                silent.append(str(init.relative_to(ROOT)))
    assert not silent, "each subpackage's docstring says what it owns and what it may import"


def module_imports(path: Path) -> set[str]:
    """Dotted names of the project modules a module imports (absolute imports, at any depth)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name.split(".")[0] in PACKAGES}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each cycle found by a depth-first walk, as the list of modules around it."""
    cycles, state = [], {}

    def walk(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                cycles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                walk(target, [*trail, target])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            walk(node, [node])
    return cycles


def test_modules_do_not_import_each_other_in_a_circle():
    """A call path that goes from one module to another and back again shows as an import cycle
    (a package's __init__ re-exporting its modules is not one)."""
    names = {}
    for package in PACKAGES:
        for path in modules(package):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {name: {target for target in module_imports(path) if target in names and target != name
                    and not name.startswith(f"{target}.") and not target.startswith(f"{name}.")}
             for name, path in names.items()}
    assert not import_cycles(graph)


def subpackage_of(module: str) -> str:
    """The unit of the package-level graph: `filters.page` for `filters.page.product`, and a
    module that sits directly in a top package (`pipeline.cli`) stands for itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_subpackages_do_not_import_each_other_in_a_circle():
    """Modules may avoid cycles while their packages do not (`rules.reasons` -> `page.product` ->
    `rules.declarations`): a package is one unit of the design, so the graph of subpackages has
    no cycle either. Leaves such as `filters.core` (declarations, word lists) make that possible."""
    graph: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in modules(package):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            source = subpackage_of(name)
            graph.setdefault(source, set()).update(
                subpackage_of(target) for target in module_imports(path) if subpackage_of(target) != source
                and target.count(".") >= 1)
    assert not import_cycles(graph)


def test_the_cycle_finder_finds_a_cycle():
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_the_select_stage_loads_no_extractor():
    """`pipeline select` decides over stored signals: importing it must not load trafilatura or
    readability (seconds of import and memory in every select and every dedup worker)."""
    code = ("import sys, pipeline.stages.select; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('trafilatura', 'readability')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"


def long_functions(folder: Path, limit: int) -> list[str]:
    """Functions of the modules under `folder` longer than `limit` lines (decorators aside)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                    (node.end_lineno or node.lineno) - node.lineno + 1 > limit:
                found.append(f"{path.relative_to(folder)}:{node.lineno} {node.name}")
    return found


def test_the_stages_read_in_short_functions():
    """A stage is a sequence of named phases: no function of pipeline/stages/ runs past 50 lines,
    and one record's way through extract is the loop over its declared steps."""
    assert long_functions(ROOT / "pipeline" / "stages", 50) == []
    source = (ROOT / "pipeline" / "stages" / "extract.py").read_text(encoding="utf-8")
    function = next(node for node in ast.walk(ast.parse(source))
                    if isinstance(node, ast.FunctionDef) and node.name == "record_to_row")
    assert (function.end_lineno or 0) - function.lineno + 1 <= 30


def test_the_length_check_finds_a_long_function(tmp_path):
    (tmp_path / "m.py").write_text("def f():\n" + "    x = 1\n" * 60)
    assert [line.split(" ")[1] for line in long_functions(tmp_path, 50)] == ["f"]


# A subpackage's docstring declares what it may import: "May import `filters.core` and `filters.parse`;
# never `pipeline`", "May import every other `filters` subpackage", or (a leaf) "imports nothing of
# `filters` or `pipeline`". A package's own top-level modules (`pipeline/params.py`, `pipeline/faults.py`,
# its `__init__`) are the base its subpackages stand on: any of them may import those.
_MAY_IMPORT = re.compile(r"May import (?P<declared>.*?)(?:;|\.\s|\.$)", re.S)
_NAMED = re.compile(r"`((?:filters|pipeline)(?:\.\w+)?)`")


def subpackages(root: Path = ROOT) -> dict[str, Path]:
    """`filters.core` -> its folder, for every subpackage of `PACKAGES`."""
    return {f"{package}.{init.parent.name}": init.parent for package in PACKAGES
            for init in sorted((root / package).glob("*/__init__.py"))}


def declared_imports(name: str, folder: Path, every: dict[str, Path]) -> set[str]:
    """The subpackages (and top-level packages' own modules) `name`'s docstring says it may import."""
    source = (folder / "__init__.py").read_text(encoding="utf-8")
    docstring = " ".join((ast.get_docstring(ast.parse(source)) or "").split())
    found = _MAY_IMPORT.search(docstring)
    if found is None:
        return set()
    declared = found["declared"]
    allowed: set[str] = set()
    for named in _NAMED.findall(declared):
        if named in PACKAGES:  # a whole package: its subpackages and its top-level modules
            allowed |= {other for other in every if other.startswith(f"{named}.")} | {named}
        else:
            allowed.add(named)
    for package in PACKAGES:
        if f"every other `{package}` subpackage" in declared:
            allowed |= {other for other in every if other.startswith(f"{package}.")} | {package}
    return allowed - {name}


def undeclared_imports(root: Path = ROOT) -> list[str]:
    every = subpackages(root)
    found = []
    for name, folder in every.items():
        allowed = declared_imports(name, folder, every)
        for path in sorted(folder.rglob("*.py")):
            for imported in sorted(module_imports(path)):
                parts = imported.split(".")
                target = ".".join(parts[:2])
                if target not in every and parts[0] == name.split(".")[0]:
                    continue  # the package's own top-level modules
                if target not in every:
                    target = parts[0]
                if target != name and target not in allowed:
                    found.append(f"{path.relative_to(root)} imports {imported} ({name} declares {sorted(allowed)})")
    return found


def test_every_subpackage_imports_only_what_its_docstring_declares():
    assert not undeclared_imports()


def test_the_declared_imports_are_read_from_the_docstring():
    every = subpackages()
    assert declared_imports("filters.text", every["filters.text"], every) == {"filters.core"}
    assert "filters.page" in declared_imports("filters.rules", every["filters.rules"], every)
    assert declared_imports("filters.core", every["filters.core"], every) == set()
    assert {"filters.core", "pipeline.store"} <= declared_imports("pipeline.io", every["pipeline.io"], every)


def test_an_import_the_docstring_does_not_declare_is_found(tmp_path):
    for name, docstring, code in (
            ("core", "Leaf: imports nothing of `filters` or `pipeline`.", ""),
            ("text", "Numbers. May import `filters.core` only; never `pipeline`.", "from filters.core import x\n"),
            ("page", "Pages. May import `filters.core`; never `pipeline`.", "from filters.text.tokens import words\n")):
        (tmp_path / "filters" / name).mkdir(parents=True)
        (tmp_path / "filters" / name / "__init__.py").write_text(f'"""{docstring}"""\n')
        (tmp_path / "filters" / name / "m.py").write_text(code)
    module = Path("filters", "page", "m.py")  # a file of the temporary tree, not of this repository
    assert undeclared_imports(tmp_path) == [
        f"{module} imports filters.text.tokens (filters.page declares ['filters.core'])",
        f"{module} imports filters.text.tokens.words (filters.page declares ['filters.core'])"]
