"""What the single-file benchmarks share: their command line (one WARC, a repeat count)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WARC = ROOT.parent / "shared" / "corpora" / "trafilatura-eval.warc.gz"


def warc_and_repeat(doc: str, default: Path = DEFAULT_WARC) -> argparse.Namespace:
    """`[WARC] [--repeat N]` (default: `default`, trafilatura-eval; best of 3); exits when WARC is missing."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("warc", nargs="?", type=Path, default=default)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not args.warc.is_file():
        sys.exit(f"no input at {args.warc} (pass a WARC file)")
    return args
