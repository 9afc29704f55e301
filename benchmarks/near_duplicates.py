"""Near-duplicate detection on edited copies of real articles: MinHash LSH against simhash.

    python benchmarks/near_duplicates.py RUN_DIR [--pages N] [--seed S]

RUN_DIR is the output of `pipeline run` (for example over ../shared/corpora/trafilatura-eval.warc.gz):
its accepted pages of at least 300 words are the originals. For each original the script builds
copies by the edits a syndicated story goes through, and pairs that share less:

* `lede`: the first paragraph replaced by another article's first paragraph;
* `words10`: 10 % of the words replaced by words of another article, at random places;
* `boilerplate`: 120 words of another page's text added before and after (navigation, footer);
* `reorder`: the paragraphs shuffled;
* `words5+lede`: both a new lede and 5 % of the words changed;
* `half`: the first half of the article followed by the second half of another (lower Jaccard);
* `other`: another article (unrelated).

Each pair's containment (the share of the shorter text's word 5-grams found in the other) is
computed on the exact sets. A pair is found by MinHash as select finds it: a candidate when it
shares at least `min_shared_bands` LSH bands (the params' defaults), a near duplicate when its
exact containment reaches `min_containment`; by simhash when the 64-bit simhashes are within the
Hamming distance. The script prints, per edit and overall, recall among pairs of containment
>= 0.8 and the share found among pairs of containment <= 0.5, then the cost of a signature against
the extract stage's time per page (from RUN_DIR/stats.json). Targets: recall >= 95 % at C >= 0.8,
<= 1 % found at C <= 0.5; signatures < 3 % of extract time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from filters.corpus.dedup import hamming, simhash64  # noqa: E402
from filters.corpus.minhash import band_keys, shingle_values, signature, signature_array  # noqa: E402
from pipeline.params import Params  # noqa: E402


def originals(run_dir: Path, pages: int) -> list[str]:
    accepted = pl.read_parquet(run_dir / "accepted").select("text").sort("text")
    texts = [t for t in accepted["text"] if t and len(t.split()) >= 300 and t.count("\n") >= 3]
    return texts[:pages]


def edits(text: str, other: str, rng: random.Random) -> dict[str, str]:
    paragraphs = [p for p in text.split("\n") if p.strip()]
    theirs = [p for p in other.split("\n") if p.strip()]
    foreign = other.split()

    def change(words: list[str], share: float) -> list[str]:
        words = list(words)
        for index in rng.sample(range(len(words)), int(len(words) * share)):
            words[index] = rng.choice(foreign)
        return words

    shuffled = list(paragraphs)
    rng.shuffle(shuffled)
    half_words = text.split()
    other_words = other.split()
    return {
        "lede": "\n".join([theirs[0], *paragraphs[1:]]),
        "words10": " ".join(change(text.split(), 0.10)),
        "boilerplate": " ".join(foreign[:120]) + "\n" + text + "\n" + " ".join(foreign[-120:]),
        "reorder": "\n".join(shuffled),
        "words5+lede": " ".join(change("\n".join([theirs[0], *paragraphs[1:]]).split(), 0.05)),
        "half": " ".join(half_words[:len(half_words) // 2] + other_words[len(other_words) // 2:]),
        "other": other,
    }


def containment(a: str, b: str) -> float:
    """The share of the shorter 5-gram set found in the other."""
    first, second = set(shingle_values(a).tolist()), set(shingle_values(b).tolist())
    return len(first & second) / min(len(first), len(second)) if first and second else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    near = Params().select.dedup.near
    texts = originals(args.run_dir, args.pages)
    if len(texts) < 2:
        sys.exit(f"{args.run_dir}/accepted holds fewer than 2 pages of >= 300 words")
    rng = random.Random(args.seed)
    found: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    rows = []
    for index, text in enumerate(texts):
        other = texts[(index + 1 + rng.randrange(len(texts) - 1)) % len(texts)]
        original_bands = band_keys(signature_array([signature(text)]), near.bands, near.rows)[0]
        original_simhash = simhash64(text)
        for edit, copy in edits(text, other, rng).items():
            bands = band_keys(signature_array([signature(copy)]), near.bands, near.rows)[0]
            shared = int(np.sum(bands == original_bands))
            contained = containment(text, copy)
            rows.append((edit, contained, shared >= near.min_shared_bands and contained >= near.min_containment,
                         hamming(original_simhash, simhash64(copy)) <= (near.max_hamming_distance or 3)))
    for edit, contained, by_minhash, by_simhash in rows:
        band = "high" if contained >= 0.8 else "low" if contained <= 0.5 else "mid"
        for key in (edit, "all"):
            found[key][f"{band}.minhash"].append(by_minhash)
            found[key][f"{band}.simhash"].append(by_simhash)
    print(f"{len(texts)} originals of >= 300 words from {args.run_dir}; MinHash {near.bands} bands x {near.rows} "
          f"rows, >= {near.min_shared_bands} shared, containment >= {near.min_containment}; simhash <= "
          f"{near.max_hamming_distance} bits")
    print(f"{'edit':<13}{'pairs':>6}{'C>=0.8':>8}{'MinHash':>9}{'simhash':>9}{'C<=0.5':>8}{'MinHash':>9}{'simhash':>9}")
    for key in [*dict.fromkeys(edit for edit, *_ in rows), "all"]:
        cells = found[key]
        pairs = sum(len(cells[f"{band}.minhash"]) for band in ("high", "mid", "low"))

        def rate(name: str, cells: dict[str, list[int]] = cells) -> str:
            values = cells[name]
            return f"{100 * sum(values) / len(values):.1f}%" if values else "-"
        print(f"{key:<13}{pairs:>6}{len(cells['high.minhash']):>8}{rate('high.minhash'):>9}{rate('high.simhash'):>9}"
              f"{len(cells['low.minhash']):>8}{rate('low.minhash'):>9}{rate('low.simhash'):>9}")
    started = time.perf_counter()
    for text in texts:
        signature(text)
    per_page = (time.perf_counter() - started) / len(texts)
    print(f"signature: {per_page * 1000:.3f} ms a page (mean {np.mean([len(t.split()) for t in texts]):.0f} words)")
    stats_path = args.run_dir / "stats.json"
    if stats_path.is_file():
        timings = json.loads(stats_path.read_text())["timings"]
        # the extract stage's own steps (names without a dot; select's are "select.*"), summed over workers
        extract = sum(value["seconds"] for name, value in timings.items() if "." not in name and name != "select")
        keys = timings.get("dedup_keys")  # the content hash, the simhash and the MinHash signature
        if extract and keys:
            print(f"in the run: de-duplication keys {keys['seconds']:.2f} s over {keys['calls']} pages; the extract "
                  f"stage's steps {extract:.2f} s: {100 * keys['seconds'] / extract:.2f} % of extract time")
            select = timings.get("select")
            if select:
                print(f"select {select['seconds']:.2f} s: {100 * select['seconds'] / extract:.2f} % of extract time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
