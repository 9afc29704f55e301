"""What the benchmarks share: the single-file ones' command line (one WARC, a repeat count), and the word F1
of a text against a reference."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
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


def word_f1(text: str | None, reference: str) -> float:
    """Word-F1 of `text` against `reference` (multisets of lower-cased words); 0 for no text."""
    from filters.text.tokens import words  # the pipeline's tokens (its root is on sys.path by now)

    got, want = Counter(w.lower() for w in words(text or "")), Counter(w.lower() for w in words(reference))
    overlap = sum((got & want).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(got.values()), overlap / sum(want.values())
    return 2 * precision * recall / (precision + recall)

