"""Are two runs' outputs the same? `python benchmarks/same_output.py DIR_A DIR_B`.

For proving a refactor: every file under DIR_A must be in DIR_B with the same bytes, except
stats.json and the work directory's JSON summaries, compared without their `timings`, and the
dataset card (README.md), compared without its "commit …" words (a checkout with changes not yet
committed is named "-dirty"). Prints each difference and their count; exits 1 when there is one,
and refuses a directory that is missing or holds no file (an empty comparison proves nothing).
"""

from __future__ import annotations

import filecmp
import json
import re
import sys
from pathlib import Path

COMMIT = re.compile(r"\(commit [0-9a-f]+(?:-dirty)?\)")


def differences(first: Path, second: Path) -> list[str]:
    found = []
    for path in sorted(p for p in first.rglob("*") if p.is_file()):
        other = second / path.relative_to(first)
        if not other.is_file():
            found.append(f"missing in {second}: {path.relative_to(first)}")
        elif path.suffix == ".json" and not filecmp.cmp(path, other, shallow=False):
            # stats.json and the work directory's summaries: the same less their `timings`
            ours, theirs = (json.loads(p.read_text(encoding="utf-8")) for p in (path, other))
            if not (isinstance(ours, dict) and isinstance(theirs, dict)):
                found.append(f"differs: {path.relative_to(first)}")
                continue
            ours.pop("timings", None)
            theirs.pop("timings", None)
            if ours != theirs:
                found.append(f"differs (less timings): {path.relative_to(first)}")
        elif path.suffix == ".md":
            if COMMIT.sub("", path.read_text(encoding="utf-8")) != COMMIT.sub("", other.read_text(encoding="utf-8")):
                found.append(f"differs (less the commit): {path.relative_to(first)}")
        elif not filecmp.cmp(path, other, shallow=False):
            found.append(f"differs: {path.relative_to(first)}")
    return found


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.splitlines()[0])
    first, second = Path(sys.argv[1]), Path(sys.argv[2])
    for directory in (first, second):
        # a run that wrote nothing is no proof: an empty comparison would find no difference
        if not directory.is_dir() or not any(path.is_file() for path in directory.rglob("*")):
            raise SystemExit(f"no output at {directory}: nothing to compare")
    found = differences(first, second)
    print("\n".join([*found, f"{len(found)} differences"]))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
