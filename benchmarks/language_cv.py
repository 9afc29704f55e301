"""Keep rates by language, cross-validated, at several select thresholds: the measure of a change to
features, extraction or rules before the shipped model is retrained.

    pipeline extract ../shared/corpora/wcxb-dev.warc.gz ../shared/corpora/trafilatura-eval.warc.gz \
        ../shared/corpora/product-pages.warc.gz --out WORK --extract-all --params presets/train-page-model.yaml
    python benchmarks/language_cv.py WORK [--params presets/train-page-model.yaml] [--seed 7]

The work directory must be extracted with the pre-extraction gate off (the preset turns it off,
as `pipeline train` does): a page the gate turns away keeps only that reason, so the other rules
would seem to keep it, and the non-article keep rates came out too high (listing 0.093 against
the card's 0.056 at 0.95). A work directory with gated pages is refused.

Select runs over WORK with the page-type model's rules off (as `pipeline train` does), the labelled
pages of the three corpora are cross-validated by registered domain exactly as `pipeline train`
does (`pipeline.stages.train`: same folds, booster, stacked text model and pre-extraction
threshold), and the whole
pipeline's keep rates are printed at each select threshold: all articles, articles whose own text
has at least 200 tokens (the labels' reference text, else the longest extraction candidate), the
articles of each language group, the long non-English ones, and each other type, with the
threshold `pipeline train` would choose marked `*` (`measures.best_threshold`). Nothing is
written but the select output in a temporary directory. Run a change and its baseline on work
directories extracted by each version of the code.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from filters.page_model import measures, training  # noqa: E402
from filters.page_model.features import FULL_FEATURES, PAGE_FEATURES, PAGE_TYPES, page_features  # noqa: E402
from filters.page_model.text_model import stacked  # noqa: E402
from pipeline.params import load_params  # noqa: E402
from pipeline.stages import train  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
LABELS = (f"{CORPORA}/wcxb-dev.labels.json", f"{CORPORA}/trafilatura-eval.labels.json",
          f"{CORPORA}/product-pages.warc.gz=product")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("work", help="a work directory of `pipeline extract --extract-all` over the three corpora")
    parser.add_argument("--params", default=str(ROOT / "presets" / "train-page-model.yaml"))
    parser.add_argument("--seed", type=int, default=training.BOOSTER_PARAMS["seed"],
                        help="LightGBM's seed (pipeline train ships 7): the spread over seeds is the noise of a change")
    args = parser.parse_args()
    training.BOOSTER_PARAMS["seed"] = args.seed
    overrides = yaml.safe_load(Path(args.params).read_text(encoding="utf-8")) or {}
    overrides.setdefault("select", {}).setdefault("page", {})["use_page_model"] = False  # the model's rule off
    load_params(Path(args.params))  # a clear error for a bad file, before the work
    with tempfile.TemporaryDirectory(prefix="language-cv-") as scratch:
        params_file = Path(scratch) / "params.yaml"
        params_file.write_text(yaml.safe_dump(overrides), encoding="utf-8")
        selected = Path(scratch) / "selected"
        subprocess.run([sys.executable, "-m", "pipeline.cli", "select", args.work, "--out", str(selected),
                        "--params", str(params_file), "--workers", "1"], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
        sources = train.label_sources(LABELS)
        rows, labels, _ = train.labelled_rows(train.read_rows(selected), sources)
    gated = sum(bool((row.get("signals") or {}).get("extraction_gated")) for row in rows)
    if gated:
        sys.exit(f"{args.work}: {gated} labelled pages were turned away by the pre-extraction gate, so no other "
                 "rule judged them; extract with the gate off (--params presets/train-page-model.yaml)")
    keep = training.kept_by_other_rules(rows)
    y = np.array([PAGE_TYPES.index(label) for label in labels])
    folds = np.array([training.fold_of(row.get("host")) for row in rows])
    page = training.out_of_fold(np.array([page_features(r, PAGE_FEATURES) for r in rows]), y, folds)[:, 0]
    text = stacked(rows, y, folds, training.ARTICLE, len(PAGE_TYPES))  # the text model's feature, as in training
    full = training.out_of_fold(np.array([page_features(r, FULL_FEATURES) for r in rows]), y, folds, text)[:, 0]
    types = np.array(labels)
    article = types == "article"
    gate = page >= measures.recall_threshold(page, article, training.PAGE_ARTICLE_RECALL)
    groups = np.array([measures.language_group(row) for row in rows])
    long = np.array([train.own_text_tokens(row, sources) >= measures.LONG_ARTICLE_TOKENS for row in rows])
    print(f"{len(rows)} labelled pages; {int(article.sum())} articles, {int((article & long).sum())} with >= "
          f"{measures.LONG_ARTICLE_TOKENS} tokens of their own text; every rule but the model keeps "
          f"{keep[article & long].mean():.3f} of those")
    chosen = measures.best_threshold(full, labels, keep & gate)  # what `pipeline train` would ship (marked *)
    print("threshold | articles  long  long-not-en |   en     de   other | product  coll+list  service  forum  doc")
    for threshold in sorted({*measures.TRADE_THRESHOLDS, chosen}):
        kept = gate & keep & (full >= threshold)

        def rate(mask: np.ndarray, kept: np.ndarray = kept) -> str:
            return f"{kept[mask].mean():.3f}" if mask.any() else "  -  "

        foreign = article & long & (groups != "en")
        mark = "*" if threshold == chosen else " "
        print(f"{mark} {threshold:.2f}    | {rate(article)}    {rate(article & long)}  {rate(foreign)}"
              f"       | {rate(article & (groups == 'en'))}  {rate(article & (groups == 'de'))}  "
              f"{rate(article & (groups == 'other'))} | {rate(types == 'product')}    "
              f"{rate((types == 'collection') | (types == 'listing'))}      {rate(types == 'service')}    "
              f"{rate(types == 'forum')}  {rate(types == 'documentation')}")


if __name__ == "__main__":
    main()
