"""Libraries are called, never copied (docs/development.md, "Libraries").

* No module imports a library's private name (leading underscore) or a private module, nor reads
  a private attribute of an imported library module.
* The extraction libraries are imported through their documented entry points only:
  `trafilatura` and `readability` at top level, `py3langid` and `py3langid.langid` (its README's
  `LanguageIdentifier.from_model_file`).
* No run of three or more consecutive substantial lines of our code stands verbatim in the source
  of an installed library we depend on (the measure of copied code: trivial lines such as `else:`,
  a closing bracket or an import do not count).
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUR_PACKAGES = ("pipeline", "filters", "samplegen", "benchmarks")
FIRST_PARTY = {"pipeline", "filters", "samplegen", "benchmarks", "conftest", "pages", "damage", "tests"}
# Where each extraction library is documented to be imported from.
DOCUMENTED_MODULES = {
    "trafilatura": {"trafilatura"},
    "readability": {"readability"},
    "py3langid": {"py3langid", "py3langid.langid"},
}
# Installed libraries whose source our code must not repeat (the ones whose work ours is near).
COMPARED_LIBRARIES = ("trafilatura", "readability", "py3langid", "lxml_html_clean", "justext", "htmldate",
                      "courlan", "warcio", "simhash", "fastcdc", "charset_normalizer", "publicsuffixlist")
RUN = 3
MIN_LINE_CHARS = 12


def our_files() -> list[Path]:
    return sorted(path for package in OUR_PACKAGES for path in (ROOT / package).rglob("*.py"))


def test_there_is_code_to_check() -> None:
    assert len(our_files()) > 50


# Names with a leading underscore that their library documents as public API.
DOCUMENTED = {"os._exit"}  # https://docs.python.org/3/library/os.html#os._exit


def _is_private(name: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in name.split("."))


def private_uses(source: str) -> list[str]:
    """Imports of a third-party private module or name, and private attributes read from an imported
    third-party module, in `source`."""
    tree = ast.parse(source)
    found = []
    library_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FIRST_PARTY:
                    continue
                library_aliases.add(alias.asname or alias.name.split(".")[0])
                if _is_private(alias.name):
                    found.append(f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in FIRST_PARTY or node.module == "__future__":
                continue
            if _is_private(node.module):
                found.append(f"from {node.module} import ...")
            found += [f"from {node.module} import {alias.name}" for alias in node.names if _is_private(alias.name)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in library_aliases \
                and _is_private(node.attr):
            found.append(f"{node.value.id}.{node.attr}")
    return [name for name in found if name not in DOCUMENTED]


def test_private_use_detector_finds_what_it_must() -> None:
    source = ("from trafilatura.baseline import _spaced_text\nimport lxml.etree\nfrom x._internal import y\n"
              "import numpy as np\nnp._core\nfrom filters._private import z\n")
    assert private_uses(source) == ["from trafilatura.baseline import _spaced_text", "from x._internal import ...",
                                    "np._core"]


@pytest.mark.parametrize("path", our_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_private_names_of_libraries(path: Path) -> None:
    assert private_uses(path.read_text(encoding="utf-8")) == []


def library_imports(source: str) -> list[str]:
    modules = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append(node.module)
    return [module for module in modules if module.split(".")[0] in DOCUMENTED_MODULES]


def test_extraction_libraries_are_imported_from_their_documented_modules() -> None:
    used = {module for path in our_files() for module in library_imports(path.read_text(encoding="utf-8"))}
    assert {"trafilatura", "readability"} <= used  # the cascade calls both
    undocumented = sorted(module for module in used if module not in DOCUMENTED_MODULES[module.split(".")[0]])
    assert undocumented == []


def _substantial(line: str) -> str | None:
    stripped = line.strip()
    if len(stripped) < MIN_LINE_CHARS or stripped.startswith(("#", "import ", "from ")):
        return None  # a comment marker, a bracket or an import line is no copied code
    return stripped


def _line_runs(lines: list[str]) -> set[tuple[str, ...]]:
    kept = [line for line in map(_substantial, lines) if line is not None]
    return {tuple(kept[i:i + RUN]) for i in range(len(kept) - RUN + 1)}


def _library_runs() -> set[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for name in COMPARED_LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for location in spec.submodule_search_locations:
            for path in Path(location).rglob("*.py"):
                runs |= _line_runs(path.read_text(encoding="utf-8", errors="replace").splitlines())
    return runs


def copied_runs(ours: list[str], theirs: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
    return sorted(run for run in _line_runs(ours) if run in theirs)


def test_copy_detector_finds_a_copied_passage() -> None:
    theirs = _line_runs(["def f(tree, options):", "    cleaned = tree_cleaning(copy(tree), options)",
                         "    body, text = extract_content(cleaned, options)", "    return body, text_of(body)"])
    ours = ["x = 1", "cleaned = tree_cleaning(copy(tree), options)", "body, text = extract_content(cleaned, options)",
            "return body, text_of(body)"]
    assert len(copied_runs(ours, theirs)) == 1
    assert copied_runs(ours[:3] + ["return something_else(body)"], theirs) == []


def test_no_library_source_copied_verbatim() -> None:
    theirs = _library_runs()
    assert len(theirs) > 10_000  # the libraries were found and read
    copied = {str(path.relative_to(ROOT)): runs for path in our_files()
              if (runs := copied_runs(path.read_text(encoding="utf-8").splitlines(), theirs))}
    assert copied == {}
