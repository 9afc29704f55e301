"""The generated tables of the docs. In docs/filters.md and docs/dataset.md, for each module that declares rules,
its rules with the signal each reads, the comparison, the default (params.yaml's, the page-type model's own where
its threshold is null) and the value under `presets/seed.yaml`. In docs/cli.md, every parameter key with its
default, the values it may take (its declared `Bounds`), its stage and what it does (params.yaml's comment on it,
else the rule that reads it). In docs/scale.md, the de-duplication pass graph as its passes declare it
(`pipeline.stages.dedup.graph.diagram`, with the dataset step's per-site balance after it).
`python -m pipeline.reference` rewrites them between their markers;
`tests/test_docs.py` keeps the pages equal to it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from filters.core.declarations import Bounds
from filters.rules.reasons import RULES, Rule, declared_in
from filters.rules.signals import SIGNALS
from pipeline.params import Params, allowed_types, declared_bounds, flatten, leaf_hints, load_params, stage_of

ROOT = Path(__file__).resolve().parents[1]
PAGES = (ROOT / "docs" / "filters.md", ROOT / "docs" / "dataset.md")
KEYS_PAGE = ROOT / "docs" / "cli.md"
PARAMS_FILE = ROOT / "params.yaml"
KEYS_MARKER = re.compile(r"(<!-- params start -->\n)(.*?)(<!-- params end -->)", re.S)
SEED = ROOT / "presets" / "seed.yaml"
PASSES_PAGE = ROOT / "docs" / "scale.md"
PASSES_MARKER = re.compile(r"(<!-- passes start -->\n)(.*?)(<!-- passes end -->)", re.S)
MARKER = re.compile(r"(<!-- rules:(?P<module>[\w/.]+) start -->\n)(.*?)(<!-- rules:(?P=module) end -->)", re.S)
_MEANINGS = {signal.name: signal.meaning for signal in SIGNALS}


def setting(rule: Rule, params: Params) -> str:
    """What the rule compares with under `params`: a threshold, on/off for a flag, or off."""
    if not rule.enabled(params):
        return "off"
    threshold = rule.threshold(params)
    if rule.op in ("is_true", "is_false"):
        return "on"
    if rule.op == "outside":
        low, high = threshold
        return f"outside [{_number(low)}, {_number(high)}]"
    if rule.op in ("not_in", "in"):
        return ", ".join(threshold)
    own = rule.default_threshold is not None and params.get(str(rule.params_key)) is None
    return f"{rule.op} {_number(threshold)}" + (" (the model file's)" if own else "")


def _number(value: Any) -> str:
    return "-" if value is None else json.dumps(value)


def table(module_file: str, defaults: Params, seed: Params) -> str:
    """The rules `module_file` declares, in pipeline order."""
    lines = ["| code | signal | default | `presets/seed.yaml` |", "|---|---|---|---|"]
    for rule in RULES:
        if declared_in(rule) != module_file:
            continue
        signal = f"`{rule.signal}`: {_MEANINGS[rule.signal]}" if rule.signal in _MEANINGS else f"`{rule.signal}`"
        lines.append(f"| `{rule.code}` | {signal} | {setting(rule, defaults)} | {setting(rule, seed)} |")
    return "\n".join(lines) + "\n"


def rewrite(text: str, defaults: Params, seed: Params) -> str:
    """`text` with every marked table generated anew."""
    return MARKER.sub(lambda m: m.group(1) + table(m.group("module"), defaults, seed) + m.group(4), text)


def keys_table(params_text: str) -> str:
    """Every parameter key: default, allowed values, stage, and what it does."""
    comments = yaml_comments(params_text)
    rules = {key: rule for rule in RULES if rule.params_key
             for key in (rule.params_key if isinstance(rule.params_key, tuple) else (rule.params_key,))}
    lines = ["| key | default | allowed | stage | what it does |", "|---|---|---|---|---|"]
    hints = leaf_hints()
    for key, value in flatten(Params().to_dict()).items():
        hint = hints[key]
        stage = "select" if stage_of(key) is None else "extract"
        meaning = comments.get(key) or (f"`{rules[key].code}`: {rules[key].meaning}" if key in rules else "")
        meaning = meaning or comments.get(key.rsplit(".", 1)[0], "")
        lines.append(f"| `{key}` | `{json.dumps(value)}` | {allowed(hint)} | {stage} | {meaning.replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def allowed(hint: Any) -> str:
    """The values a key may take, from its type and declared bounds."""
    bounds = declared_bounds(hint)
    kinds = allowed_types(hint)
    if bounds:
        text = "; ".join(_bounds_text(found) for found in bounds)
    else:
        text = next((words for kind, words in _KIND_WORDS if kind in kinds), "any value")
    if list in kinds:
        text = f"a list of: {text}" if bounds else "a list"
    return text + (", or null" if type(None) in kinds else "")


_KIND_WORDS = ((bool, "true, false"), (int, "an integer"), (float, "a number"), (str, "text"))


def _bounds_text(bounds: Bounds) -> str:
    return bounds.describe().removeprefix("in ")


def yaml_comments(text: str) -> dict[str, str]:
    """Dotted key -> the comment on its line in params.yaml (a group's key has its group's)."""
    found: dict[str, str] = {}
    path: list[tuple[int, str]] = []
    for line in text.splitlines():
        match = re.match(r"^(?P<indent>\s*)(?P<key>[a-z_0-9]+):(?P<rest>.*)$", line)
        if match is None:
            continue
        indent = len(match["indent"])
        path = [(depth, name) for depth, name in path if depth < indent] + [(indent, match["key"])]
        comment = match["rest"].split(" #", 1)[1].strip() if " #" in match["rest"] else ""
        if comment:
            found[".".join(name for _, name in path)] = comment
    return found


def rewrite_keys(text: str, params_text: str) -> str:
    return KEYS_MARKER.sub(lambda m: m.group(1) + keys_table(params_text) + m.group(3), text)


def rewrite_passes(text: str) -> str:
    """`text` with the pass graph between its markers: the rounds select runs (`pipeline.stages.decide`)."""
    from pipeline.stages import balance, dedup
    from pipeline.stages.dedup.graph import diagram

    return PASSES_MARKER.sub(lambda m: m.group(1) + diagram((*dedup.ROUNDS, balance.ROUND)) + m.group(3), text)


def main() -> None:
    defaults, seed = Params(), load_params(SEED)
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        page.write_text(rewrite(text, defaults, seed), encoding="utf-8")
        sys.stdout.write(f"rewrote {len(MARKER.findall(text))} tables in {page.relative_to(ROOT)}\n")
    text = KEYS_PAGE.read_text(encoding="utf-8")
    KEYS_PAGE.write_text(rewrite_keys(text, PARAMS_FILE.read_text(encoding="utf-8")), encoding="utf-8")
    sys.stdout.write(f"rewrote the parameter keys in {KEYS_PAGE.relative_to(ROOT)}\n")
    text = PASSES_PAGE.read_text(encoding="utf-8")
    PASSES_PAGE.write_text(rewrite_passes(text), encoding="utf-8")
    sys.stdout.write(f"rewrote the pass graph in {PASSES_PAGE.relative_to(ROOT)}\n")


if __name__ == "__main__":
    main()
