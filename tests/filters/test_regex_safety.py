"""Every regex of `filters/` and `pipeline/io/decode.py` against inputs built to make it backtrack.

A pattern is collected from module globals, also inside tuples, lists, sets and dicts, and is
`search`ed (its most expensive use: a match attempt at every position) in every pathological
input: long runs of one character, a run that almost matches and fails at the end
(`'a' * 50_000 + '!'`), repeated separators, nested brackets, 100 000 spaces, and runs built from
the pattern's own literal characters and words. A linear pattern takes milliseconds on these; a
pattern that backtracks catastrophically takes seconds or never ends (the bound is generous, so
a slow machine does not fail it). Python's `re` checks for signals while matching, so a slow
pattern is also cut by the per-record time budget, but only after burning all of it.

Also checked: no regex is compiled per call inside the filters, and none is built from text
that is not a constant (a page could inject a pattern).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import filters

try:  # the parser behind `re.compile`; private, and renamed in 3.11
    from re import _constants as sre_constants
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants
    import sre_parse

MODULES = sorted(m.name for m in pkgutil.walk_packages(filters.__path__, "filters.") if not m.ispkg)
MODULES.append("pipeline.io.decode")
ROOT = Path(__file__).resolve().parents[2]
SECONDS_PER_CALL = 3.0
LONG = 50_000
SHORT = 10_000  # the many runs of punctuation and of each pattern's own characters

# Long inputs for the character classes patterns quantify (\s, \w, \d, [^>] …): a quadratic
# pattern needs this length to take clearly longer than a linear one.
GENERIC_LONG: tuple[str, ...] = (
    "a" * LONG + "!", " " * 100_000, "\n" * LONG, "a " * LONG, "Aa" * LONG, "1" * LONG, "1 " * LONG, "1," * LONG,
    "<a" * LONG, "<!---->" * (LONG // 4), "[" * LONG + "]" * LONG, "([{" * LONG, "\u00a0" * LONG,
)
GENERIC_SHORT: tuple[str, ...] = tuple(
    text * SHORT for text in (
        "\t", ",", ".", "-", "/", ":", "&", "=", "#", "|", "_", "'", '"', "\\", "@", "%", "…", "<", "</", "<p ",
        "<!--", "&amp;", " - ", " | ", ", ", "a=b&", "http://", "www.", "12:", "1.",
    )
)


def _patterns_in(value: object, module_name: str, seen: set[int]) -> Iterator[re.Pattern]:
    """Patterns in `value`: itself, the items of a container, the attributes of an object of a
    class of the module (`product._Phrases` keeps its patterns there)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, re.Pattern):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, module_name, seen)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _patterns_in(item, module_name, seen)
    elif type(value).__module__ == module_name and hasattr(value, "__dict__"):
        yield from _patterns_in(vars(value), module_name, seen)


def module_patterns() -> dict[str, re.Pattern]:
    found: dict[str, re.Pattern] = {}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            for index, pattern in enumerate(_patterns_in(value, module_name, set())):
                found[f"{module_name}.{name}" + ("" if isinstance(value, re.Pattern) else f"[{index}]")] = pattern
    return found


PATTERNS = module_patterns()
_REPEATS = {sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, getattr(sre_constants, "POSSESSIVE_REPEAT", None)}


def repeats(pattern: re.Pattern) -> bool:
    """Whether the pattern has a quantifier anywhere. Without one, a match attempt reads at most
    the pattern's length of input, so a search is linear and cannot backtrack catastrophically."""
    def walk(items: object) -> bool:
        for item in items if isinstance(items, list | tuple | sre_parse.SubPattern) else ():
            if isinstance(item, tuple) and len(item) == 2 and item[0] in _REPEATS:
                return True
            if isinstance(item, list | tuple | sre_parse.SubPattern) and walk(item):
                return True
        return False
    return walk(sre_parse.parse(pattern.pattern, pattern.flags))


REPEATING = sorted(name for name, pattern in PATTERNS.items() if repeats(pattern))


def derived_inputs(pattern: re.Pattern) -> list[str]:
    """Runs of each literal character of the pattern, and of its words, plain and spaced."""
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    chars = sorted({c for c in source if not c.isspace() and c not in "\\^$*+?"})
    words = sorted(set(re.findall(r"[^\W\d_]{2,}", source)), key=lambda w: (-len(w), w))[:10]
    inputs = [c * SHORT + "!" for c in chars]
    inputs += [(c + " ") * (SHORT // 2) for c in chars if c.isalnum()]
    inputs += [(w + " ") * (SHORT // (len(w) + 1)) + "!" for w in words]
    inputs += [w * (SHORT // len(w)) for w in words]
    return inputs


def _subject(pattern: re.Pattern, text: str) -> str | bytes:
    return text.encode("utf-8") if isinstance(pattern.pattern, bytes) else text


def test_patterns_are_collected():
    # the collector must see the patterns it is meant to check, nested ones included
    assert len(PATTERNS) > 50
    assert "filters.page.url_rules._PORT_RE" in PATTERNS and "pipeline.io.decode._META_CHARSET" in PATTERNS
    assert any(name.startswith("filters.page.product._AVAILABILITY") for name in PATTERNS)  # inside an object
    assert "filters.extract.boilerplate._TITLE_SEPARATORS" in REPEATING
    assert "filters.page.product._CART_PHRASES[0]" not in REPEATING


def test_patterns_without_quantifiers_are_fast():
    # the patterns left out below (alternations of literals: the cart and availability phrases)
    for name in sorted(set(PATTERNS) - set(REPEATING)):
        for text in ("a" * LONG + "!", " " * 100_000):
            subject = _subject(PATTERNS[name], text)
            assert min(timed_search(PATTERNS[name], subject) for _ in range(3)) < SECONDS_PER_CALL, name


class _GaveUp(Exception):
    pass


def _give_up(_signum: int, _frame: object) -> None:
    raise _GaveUp


def timed_search(pattern: re.Pattern, subject: str | bytes) -> float:
    """Seconds one `search` took; a catastrophic one is cut at 10 bounds (`re` checks for
    signals while it matches), so a regression fails the test instead of hanging it."""
    previous = signal.signal(signal.SIGALRM, _give_up)
    signal.setitimer(signal.ITIMER_REAL, 10 * SECONDS_PER_CALL)
    started = time.perf_counter()
    try:
        pattern.search(subject)
    except _GaveUp:
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return time.perf_counter() - started


@pytest.mark.parametrize("name", REPEATING)
def test_no_catastrophic_backtracking(name: str):
    pattern = PATTERNS[name]
    slow = []
    for text in (*GENERIC_LONG, *GENERIC_SHORT, *derived_inputs(pattern)):
        seconds = timed_search(pattern, _subject(pattern, text))
        if seconds > SECONDS_PER_CALL:  # the best of three: a loaded machine slows one, never all
            seconds = min(seconds, *(timed_search(pattern, _subject(pattern, text)) for _ in range(2)))
        if seconds > SECONDS_PER_CALL:
            slow.append(f"{seconds:.2f} s on {text[:12]!r}… ({len(text)} chars)")
    assert not slow, f"{name} = {pattern.pattern!r} backtracks: {slow}"



# Functions allowed to compile a regex, and why that is not per record or from page content.
COMPILES_AT_RUN_TIME = {
    ("filters/page/url_rules.py", "compile_patterns"):
        "the user's extract.url.exclude_regex, once per params (lru_cache), by RE2",
    ("filters/page/url_rules.py", "_refusal"):
        "a user pattern RE2 refused, parsed (never matched) once at params load, to say what is wrong with it",
    ("filters/page/product.py", "_Phrases.__init__"): "constant phrases, re.escape'd, at import",
}
_RE_CALLS = frozenset({"compile", "search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer"})


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.AST]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + node.name, node
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _functions(node, f"{prefix}{node.name}.")


def test_no_regex_compiled_inside_functions():
    """`re.compile(...)` or `re.search(pattern, ...)` in a function compiles (or looks up the
    cache) on every call, and would be where a pattern built from page text could come in;
    every pattern of the filters is a module constant instead."""
    found = []
    for module_name in MODULES:
        path = module_name.replace(".", "/") + ".py"
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        for qualname, function in _functions(tree):
            for node in ast.walk(function):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RE_CALLS
                        and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                        and (path, qualname) not in COMPILES_AT_RUN_TIME):
                    found.append(f"{path}:{node.lineno} {qualname}: re.{node.func.attr}")
    assert not found, found


def test_phrase_patterns_escape_their_phrases():
    from filters.page.product import _bounded

    assert re.compile(_bounded("a.b (c)*")).search("a.b (c)*") and not re.compile(_bounded("a.b")).search("axb")
