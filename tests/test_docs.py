"""The README and docs/: every relative link resolves (file and heading), the README stays short,
neither they nor the code cite documents a reader cannot open, and every module, file and code symbol
they or the module docstrings name exists."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]
EXPECTED_DOCS = {"cli.md", "output.md", "filters.md", "reliability.md", "scale.md", "dataset.md", "benchmarks.md",
                 "development.md", "decisions.md", "segments.md"}
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
# Internal references: numbers of documents and issues that are not in the repository.
INTERNAL = re.compile(r"seed 0|issues? #\d|CONTRACT\.md|\.\./shared/seeds")


def slug(heading: str) -> str:
    """The anchor a code host gives a Markdown heading: lower-cased, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"^#{1,6} ", line):
            found.add(slug(line.lstrip("#")))
    return found


def links(page: Path) -> list[str]:
    text, fenced, kept = page.read_text(encoding="utf-8"), False, []
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return LINK.findall("\n".join(kept))


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:: not checked (no network)
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    return broken


def test_docs_are_all_there():
    assert {page.name for page in DOCS} >= EXPECTED_DOCS


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_resolves(page):
    assert not broken_links(page)


def test_the_link_checker_finds_a_broken_file_and_a_broken_anchor(tmp_path):
    (tmp_path / "a.md").write_text("# Title\n\n## Some section\n\n[ok](#some-section) [ok](b.md)\n"
                                   "[bad](missing.md) [bad](#no-such-heading) [web](https://example.org)\n")
    (tmp_path / "b.md").write_text("# B\n")
    assert broken_links(tmp_path / "a.md") == ["missing.md", "#no-such-heading"]


def test_the_readme_reads_in_five_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_no_internal_references():
    """Code, tests, benchmarks, params and docs cite the repository's docs or public sources only."""
    code = [path for folder in ("pipeline", "filters", "samplegen", "benchmarks", "tests")
            for path in (ROOT / folder).rglob("*.py") if path != Path(__file__)]
    files = [*PAGES, *code, ROOT / "params.yaml", *(ROOT / "presets").glob("*.yaml"),
             ROOT / "data/sample.manifest.json"]
    cited = [f"{path.relative_to(ROOT)}:{number}" for path in files
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if INTERNAL.search(line)]
    assert not cited


# Names of our own modules and files in prose: `pipeline.stages.select` (a module, or a module and
# a name in it), `pipeline/stages/select.py`, `store/writers.py` (under a package), `ray_executor.py`.
DOTTED = re.compile(r"`((?:pipeline|filters|samplegen)(?:\.\w+)+)`")
FILE = re.compile(r"`([\w-]+(?:/[\w.-]+)*\.py)`|(?<![\w/.-])((?:pipeline|filters|tests|benchmarks|samplegen|docs|"
                  r"notebooks|presets)/[\w./-]*\.(?:py|md|ipynb|yaml))\b")
# Files of other projects named by their path there (Dolma's taggers).
EXTERNAL = ("python/dolma/",)


def _defined_names(module: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(target.id for target in targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def dotted_exists(dotted: str) -> bool:
    """A module, or a module and a name defined or imported in it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        module = next((path for path in (base.with_suffix(".py"), base / "__init__.py") if path.is_file()), None)
        if module is not None:
            return cut == len(parts) or parts[cut] in _defined_names(module)
    return False


def file_exists(name: str, named_in: Path, repository: set[str]) -> bool:
    if name.startswith(EXTERNAL):
        return True
    if "/" not in name:
        return any(path.rsplit("/", 1)[-1] == name for path in repository)
    return (ROOT / name).exists() or (named_in.parent / name).exists() or \
        any(path.endswith("/" + name) for path in repository)


def missing_names(files: list[Path]) -> list[str]:
    repository = {path.relative_to(ROOT).as_posix() for path in ROOT.rglob("*")
                  if not {".venv", ".git", "out"} & set(path.relative_to(ROOT).parts)}
    missing = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            names = [f"`{m}`" for m in DOTTED.findall(line) if not dotted_exists(m)]
            names += [n for m in FILE.findall(line) for n in m if n and not file_exists(n, path, repository)]
            missing += [f"{path.name}:{number}: {name}" for name in names]
    return missing


def test_every_module_and_file_named_in_the_docs_and_docstrings_exists():
    code = [path for folder in ("pipeline", "filters", "samplegen", "benchmarks", "tests")
            for path in (ROOT / folder).rglob("*.py") if path != Path(__file__)]
    assert missing_names([*PAGES, *code, ROOT / "params.yaml", *(ROOT / "presets").glob("*.yaml")]) == []


def test_the_name_check_finds_a_deleted_module_and_file(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("`filters.fallback` runs `pipeline.stages.select.select`; see `pipeline/nowhere.py`, "
                    "`store/writers.py`.\n")
    assert [line.split(": ", 1)[1] for line in missing_names([page])] == ["`filters.fallback`", "pipeline/nowhere.py"]


# Code symbols in prose: `filters.text.gopher.GopherParams`, `gopher.GopherParams` (a module's basename, when only
# one module under filters/ or pipeline/ has it, and it is no standard-library module's name), `filters.rules.reasons`,
# and `pipeline/stages/steps.py`, `text_signals` (a file of ours, then a name in it). Each is resolved by importing
# the module and looking the remaining parts up in it.
SYMBOL = re.compile(r"`+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`+")
FILE_SYMBOL = re.compile(r"`((?:filters|pipeline)/[\w/]+\.py)(?:`(?:,\s*|\s+)`|::?)([A-Za-z_]\w*(?:\.\w+)*)(?:\(\))?`")
FILE_SUFFIXES = {"py", "md", "json", "yaml", "yml", "txt", "csv", "html", "png", "parquet", "gz", "warc", "ipynb",
                 "toml", "cfg", "zst", "arrow", "card", "labels", "tmp", "new", "old"}
# The top-level groups of params.yaml: `select.gopher.min_words` is a params key, not a module's name.
PARAMS_GROUPS = frozenset(re.findall(r"(?m)^(\w+):", (ROOT / "params.yaml").read_text(encoding="utf-8")))


def module_names() -> dict[str, str]:
    """Each module's basename under filters/ and pipeline/ -> its dotted name; a basename two modules share is left
    out, and so is one that names a standard-library module (`io`, `select`)."""
    dotted: dict[str, list[str]] = {}
    for package in ("filters", "pipeline"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            dotted.setdefault(parts[-1], []).append(".".join(parts))
    return {name: paths[0] for name, paths in dotted.items()
            if len(paths) == 1 and name not in sys.stdlib_module_names}


def not_symbols() -> set[str]:
    """Dotted names that are data, not code: reason codes (`gopher.dup_lines`) and fields of the `signals` column
    (`signals.cross_split_containment`)."""
    from filters.rules.reasons import RULES
    from filters.rules.signals import SIGNALS
    return {rule.code for rule in RULES} | {f"signals.{signal.name}" for signal in SIGNALS}


def symbol_exists(dotted: str) -> bool:
    """`dotted` is a module, or a module and a chain of names in it (a dataclass's fields included)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.util.find_spec(".".join(parts[:cut]))
        except ModuleNotFoundError:
            found = None
        if found is None:
            continue
        thing = importlib.import_module(".".join(parts[:cut]))
        for name in parts[cut:]:
            fields = getattr(thing, "__dataclass_fields__", {})
            if not hasattr(thing, name) and name not in fields:
                return False
            thing = getattr(thing, name, None)
        return True
    return False


def qualified(name: str, modules: dict[str, str]) -> str | None:
    """The dotted name `name` stands for, or None when it is not one of our code symbols: a file name
    (`params.yaml`), a params key (`select.gopher.min_words`), a name whose first part is no module of ours
    or the basename of several (`html.escape`, `io.BytesIO`)."""
    first, _, rest = name.partition(".")
    if first in ("filters", "pipeline"):
        return name
    if name.rsplit(".", 1)[-1] in FILE_SUFFIXES or first in PARAMS_GROUPS:
        return None
    return f"{modules[first]}.{rest}" if first in modules else None


def text_of(path: Path) -> str:
    """What is checked of a file: a Python module's docstring, or a page's prose outside code fences."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return ast.get_docstring(ast.parse(text), clean=False) or ""
    kept, fenced = [], False
    for line in text.splitlines():
        fence = line.startswith("```")
        fenced ^= fence
        kept.append("" if fenced or fence else line)  # blank, so that line numbers stay the file's
    return "\n".join(kept)


def missing_symbols(files: list[Path]) -> list[str]:
    """`FILE:LINE: dotted.name` for each code symbol named in `files` that does not resolve (lines of a Python
    file are counted from its docstring's first)."""
    modules, data = module_names(), not_symbols()
    missing = []
    for path in files:
        for number, line in enumerate(text_of(path).splitlines(), 1):
            names = [qualified(name, modules) for name in SYMBOL.findall(line) if name not in data]
            names += [".".join((*Path(file).with_suffix("").parts, name)) for file, name in FILE_SYMBOL.findall(line)]
            missing += [f"{path.name}:{number}: {name}" for name in names
                        if name and not symbol_exists(name)]
    return missing


def test_every_code_symbol_named_in_the_docs_and_module_docstrings_exists():
    modules = [path for folder in ("filters", "pipeline") for path in (ROOT / folder).rglob("*.py")]
    assert missing_symbols([*PAGES, *modules]) == []


def test_the_symbol_check_finds_a_made_up_name(tmp_path):
    page, module = tmp_path / "page.md", tmp_path / "module.py"
    page.write_text("`filters.text.gopher.GopherParams` and `gopher.GopherParams.min_words` exist, "
                    "`gopher.NoSuchParams` does not; `reasons.applicable()`, `filters.rules.reasons`, "
                    "`filters.rules.nowhere`; `pipeline/stages/steps.py`, `text_signals`, and `filters/text/c4.py`, "
                    "`no_such_reading`; not symbols: `io.BytesIO`, `select.gopher.min_words`, `gopher.dup_lines`, "
                    "`params.yaml`, `signals.gopher_word_count`; `filters.page_model.model.gone`.\n"
                    "```\n`gopher.in_a_fence`\n```\n")
    module.write_text('"""A module that names `c4.C4Params.run_together`."""\n\n"""`c4.not_a_docstring`"""\n')
    assert [line.split(": ", 1)[1] for line in missing_symbols([page, module])] == [
        "filters.text.gopher.NoSuchParams", "filters.rules.nowhere", "filters.page_model.model.gone",
        "filters.text.c4.no_such_reading", "filters.text.c4.C4Params.run_together"]


def test_the_filter_pages_rule_tables_are_generated_from_the_registry():
    """docs/filters.md and docs/dataset.md hold one generated table per module that declares rules
    (`python -m pipeline.reference` rewrites them): every rule appears, with today's defaults."""
    from filters.rules.reasons import RULES, declared_in
    from pipeline import reference
    from pipeline.params import Params, load_params

    defaults, seed = Params(), load_params(reference.SEED)
    tabled = set()
    for page in reference.PAGES:
        text = page.read_text(encoding="utf-8")
        assert reference.rewrite(text, defaults, seed) == text, f"{page.name}: run python -m pipeline.reference"
        tabled |= {match.group("module") for match in reference.MARKER.finditer(text)}
    assert {declared_in(rule) for rule in RULES} <= tabled


def test_the_pass_diagram_of_scale_md_is_generated_from_the_passes_declarations():
    """docs/scale.md draws the de-duplication passes from their declarations (`python -m
    pipeline.reference`): every pass select runs is named there with its module."""
    from pipeline import reference
    from pipeline.stages import balance, dedup
    from pipeline.stages.dedup.graph import passes_of

    text = reference.PASSES_PAGE.read_text(encoding="utf-8")
    assert reference.rewrite_passes(text) == text, "docs/scale.md: run python -m pipeline.reference"
    drawn = text.split("<!-- passes start -->")[1].split("<!-- passes end -->")[0]
    for one in passes_of((*dedup.ROUNDS, balance.ROUND)):
        assert f"**{one.name}**" in drawn


def test_every_parameter_key_is_in_the_generated_table_of_cli_md():
    """README says every key is in docs/cli.md: the table there is generated from the params and
    params.yaml's comments (`python -m pipeline.reference`), and each key has a line saying what it does."""
    from pipeline import reference
    from pipeline.params import Params, flatten

    keys = reference.KEYS_PAGE.read_text(encoding="utf-8")
    params_text = reference.PARAMS_FILE.read_text(encoding="utf-8")
    assert reference.rewrite_keys(keys, params_text) == keys, "docs/cli.md: run python -m pipeline.reference"
    table = keys.split("<!-- params start -->")[1].split("<!-- params end -->")[0]
    for key in flatten(Params().to_dict()):
        row = next((line for line in table.splitlines() if line.startswith(f"| `{key}` |")), None)
        assert row is not None and not row.rstrip().endswith("|  |"), key


def test_a_stale_rule_table_is_rewritten():
    from pipeline import reference
    from pipeline.params import Params, params_from_dict

    stale = "x\n<!-- rules:filters/text/length.py start -->\n| old |\n<!-- rules:filters/text/length.py end -->\n"
    fresh = reference.rewrite(stale, Params(), Params())
    assert "| old |" not in fresh and "`length.tokens`" in fresh and "< 200" in fresh
    off = params_from_dict({"select": {"length": {"min_tokens": None}}})
    assert "| off | off |" in reference.rewrite(stale, off, off)
