"""Which text the rules judge and the dataset writes (issue 43; docs/filters.md, "Which text is judged").

    pipeline extract ../shared/corpora/wcxb-dev.warc.gz ../shared/corpora/trafilatura-eval.warc.gz \
        ../shared/corpora/product-pages.warc.gz --out WORK --extract-all --params presets/train-page-model.yaml
    python benchmarks/written_text.py f1 WORK
    python benchmarks/written_text.py cleaned WORK OUT_WORK
    python benchmarks/language_cv.py WORK        # option (b), what the pipeline does
    python benchmarks/language_cv.py OUT_WORK    # option (a), simulated

The two options of the issue:
(a) write the text C4's line removal leaves (what C4 and Dolma's mixer write), every rule judging it;
(b) write the extraction and judge it with every rule (Gopher on the document, as datatrove and
    FineWeb do), C4's removal feeding only C4's own signals (what `text_signals` does).

`f1` prints, over wcxb-dev's labelled pages with a reference `main_content`, the word-F1 of each
option's written text against the reference (multiset overlap of lower-cased words,
`filters.text.tokens.words`): all pages, articles, long articles (reference >= 200 words), per
type; and what C4's removal takes from the articles' texts.

`cleaned` builds option (a) from a work directory extracted by the current code: a copy of WORK
whose `text` is the C4-cleaned text, with every text signal, the word count and the MinHash
signature recomputed on it; C4's own signals stay those of the removal from the extraction. Then
`benchmarks/language_cv.py` gives both options' cross-validated keep rates.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPORA = ROOT.parent / "shared" / "corpora"

from common import word_f1  # noqa: E402

from filters.corpus.minhash import sketch  # noqa: E402
from filters.text.c4 import nopunc_clean  # noqa: E402
from filters.text.measure import text_signals  # noqa: E402
from filters.text.tokens import word_count  # noqa: E402

C4_SIGNALS = ("c4_line_count", "c4_removed_line_fraction", "c4_removed_word_fraction", "c4_kept_word_count")


def extracted(work: Path) -> pl.DataFrame:
    return pl.read_parquet(sorted((work / "extract").glob("*.parquet"))).select("url", "text")


def f1(work: Path) -> None:
    labels = json.loads((CORPORA / "wcxb-dev.labels.json").read_text(encoding="utf-8"))
    rows = {url: text for url, text in extracted(work).iter_rows() if url in labels}
    scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    taken: list[float] = []
    for url, text in sorted(rows.items()):
        label = labels[url]
        reference = label.get("main_content") or ""
        if not reference.strip():
            continue
        kind = label["page_type"]
        groups = ["all", kind] + (["long article"] if kind == "article" and word_count(reference) >= 200 else [])
        options = {"(b) extraction": text, "(a) C4-cleaned": nopunc_clean(text or "")[0] if text else None,
                   "(a) seed C4": nopunc_clean(text or "", run_together=False)[0] if text else None}
        for option, written in options.items():
            for group in groups:
                scores[group][option].append(word_f1(written, reference))
        if kind == "article" and text:
            taken.append(nopunc_clean(text)[1]["c4_removed_word_fraction"])
    print(f"word-F1 against wcxb-dev main_content ({work}), mean over pages (pages)")
    options = ["(b) extraction", "(a) C4-cleaned", "(a) seed C4"]
    print(f"{'group':<16}" + "".join(f"{name:>18}" for name in options))
    for group in ["all", "article", "long article", *sorted(set(scores) - {"all", "article", "long article"})]:
        cells = scores[group]
        print(f"{group + f' ({len(cells[options[0]])})':<16}" + "".join(f"{statistics.fmean(cells[o]):>18.4f}"
                                                                       for o in options))
    print(f"C4's removal on extracted articles: words removed, median {statistics.median(taken):.3f}, "
          f"mean {statistics.fmean(taken):.3f}; articles losing > 10 %: {sum(t > 0.1 for t in taken)} of {len(taken)}")


def cleaned(work: Path, out: Path) -> None:
    """Option (a): a copy of `work` whose texts are C4-cleaned and whose text signals read them."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(work, out)
    for path in sorted((out / "extract").glob("*.parquet")):
        frame = pl.read_parquet(path)
        texts, counts, signals = [], [], []
        for text, word_total, row_signals in frame.select("text", "word_count", "signals").iter_rows():
            if not text:
                texts.append(text)
                counts.append(word_total)
                signals.append(row_signals)
                continue
            written, removal = nopunc_clean(text)
            updated = {**row_signals, **text_signals(written), **{name: removal[name] for name in C4_SIGNALS}}
            if row_signals.get("minhash") is not None:
                signature, shingles = sketch(written)
                updated.update(minhash=signature, minhash_shingles=shingles if signature is not None else None)
            texts.append(written)
            counts.append(word_count(written))
            signals.append(updated)
        frame = frame.with_columns(pl.Series("text", texts, dtype=pl.String),
                                   pl.Series("word_count", counts, dtype=frame.schema["word_count"]),
                                   pl.Series("signals", signals, dtype=frame.schema["signals"]))
        frame.write_parquet(path)
        print(f"{path.name}: {frame.height} rows rewritten")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("f1").add_argument("work", type=Path)
    build = commands.add_parser("cleaned")
    build.add_argument("work", type=Path)
    build.add_argument("out", type=Path)
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"{CORPORA} is not present: nothing to measure", file=sys.stderr)
        return 2
    if args.command == "f1":
        f1(args.work)
    else:
        cleaned(args.work, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
