"""The generated tables of docs/filters.md and docs/dataset.md: for each module that declares rules, its rules with the
signal each reads, the comparison, the default (params.yaml's, the page-type model's own where
its threshold is null) and the value under `presets/seed.yaml`. `python -m pipeline.reference`
rewrites them between their markers; `tests/test_docs.py` keeps the page equal to it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from filters.rules.reasons import RULES, Rule, declared_in
from filters.rules.signals import SIGNALS
from pipeline.params import Params, load_params

ROOT = Path(__file__).resolve().parents[1]
PAGES = (ROOT / "docs" / "filters.md", ROOT / "docs" / "dataset.md")
SEED = ROOT / "presets" / "seed.yaml"
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
    if rule.op == "not_in":
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


def main() -> None:
    defaults, seed = Params(), load_params(SEED)
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        page.write_text(rewrite(text, defaults, seed), encoding="utf-8")
        sys.stdout.write(f"rewrote {len(MARKER.findall(text))} tables in {page.relative_to(ROOT)}\n")


if __name__ == "__main__":
    main()
