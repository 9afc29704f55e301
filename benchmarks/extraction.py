"""Extraction quality and speed on trafilatura's evaluation pages, in one run.

    python benchmarks/extraction.py [--corpus trafilatura-eval|wcxb-dev] [--limit N] [--policy NAME]

Corpora: `trafilatura-eval` (980 pages with snippets, mostly 2010s news and blogs; the default) or
`wcxb-dev` (1,353 pages of seven types collected in 2025, whose labels carry `with` / `without`
snippets too).

Quality: for every page, the share of its `with` snippets found in the extracted text and the
share of its `without` snippets absent (whitespace-normalised substring match); the table
reports both means over the pages that have such snippets and their harmonic mean, for
readability alone, trafilatura alone, trafilatura with favor_precision alone, and every
selection policy of the cascade (all policies share one computation of the candidates).

Speed: per page, the default cascade (one lxml parse + cookie-overlay removal + the
candidates the policy asks for + blocks + boilerplate filters) against readability alone plus
trafilatura alone, each from the HTML string as a user would call them. Target:
cascade <= 1.15x (readability + trafilatura).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import lxml.html  # noqa: E402
import trafilatura  # noqa: E402
from common import word_f1  # noqa: E402
from readability import Document as ReadabilityDocument  # noqa: E402

from filters.extract.boilerplate import remove_boilerplate  # noqa: E402
from filters.extract.cascade import POLICIES, Candidates, run_cascade  # noqa: E402
from filters.extract.cleanup import remove_cookie_overlays  # noqa: E402
from filters.page.content_type import is_html_media_type, resolve_media_type  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.parse.parsed import Page  # noqa: E402
from filters.text.blocks import blocks_from_element  # noqa: E402
from pipeline.io.decode import decode_html  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"


SNIPPETS = {"trafilatura-eval": "trafilatura-eval.snippets.json", "wcxb-dev": "wcxb-dev.labels.json"}


def load(corpus: str, limit: int | None) -> list[tuple[str, str, dict]]:
    snippets = json.loads((CORPORA / SNIPPETS[corpus]).read_text(encoding="utf-8"))
    path = CORPORA / f"{corpus}.warc.gz"
    pages = []
    for raw in read_file(str(path), 5_000_000, FileReport(str(path))):
        if raw.payload is None or raw.url not in snippets:
            continue
        if not is_html_media_type(resolve_media_type(raw.http_content_type, raw.identified_payload_type, raw.payload)):
            continue
        pages.append((raw.url, decode_html(raw.payload, raw.http_content_type), snippets[raw.url]))
        if limit and len(pages) >= limit:
            break
    return pages


def normalise(text: str | None) -> str:
    return " ".join((text or "").split())


def snippet_scores(text: str | None, expected: dict) -> tuple[float | None, float | None]:
    body = normalise(text)
    found = [normalise(s) in body for s in expected.get("with", []) if normalise(s)]
    absent = [normalise(s) not in body for s in expected.get("without", []) if normalise(s)]
    return (sum(found) / len(found) if found else None, sum(absent) / len(absent) if absent else None)


def readability_alone(html: str, url: str) -> str | None:
    summary = ReadabilityDocument(html, url=url).summary(html_partial=True)
    blocks, _ = remove_boilerplate(blocks_from_element(lxml.html.fromstring(summary))) if summary.strip() else ([], {})
    return "\n\n".join(b.text for b in blocks) or None


def trafilatura_alone(html: str, url: str, precision: bool = False) -> str | None:
    return trafilatura.extract(html, url=url, include_comments=False, include_tables=True, deduplicate=False,
                               favor_precision=precision)


def cascade(decoded, url: str, policy: str) -> str | None:  # type: ignore[no-untyped-def]
    """The pipeline's path: one parse of the payload bytes, overlay removal, the cascade."""
    tree = parse_html_bytes(decoded.data, decoded.encoding)
    if tree is None:
        return None
    remove_cookie_overlays(tree)
    return run_cascade(Page(tree, url), policy).text


def all_policies(decoded, url: str) -> dict[str, str | None]:  # type: ignore[no-untyped-def]
    """Every policy's text from one computation of the candidates."""
    texts: dict[str, str | None] = {}
    tree = parse_html_bytes(decoded.data, decoded.encoding)
    if tree is None:
        return dict.fromkeys(POLICIES)
    remove_cookie_overlays(tree)
    candidates = Candidates(Page(tree, url))
    for name in ("jsonld", "trafilatura", "readability", "dom"):
        candidates.get(name)
    for policy, choose in POLICIES.items():
        winner, _ = choose(candidates)
        chosen = candidates.derived.get(winner) or candidates.get(winner)
        blocks, _ = remove_boilerplate(chosen.blocks)
        texts[policy] = "\n\n".join(b.text for b in blocks) or None
    return texts


def timed(fn, *args) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=sorted(SNIPPETS), default="trafilatura-eval")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--policy", default=Params().extract.cascade.selection)
    args = parser.parse_args()
    if not (CORPORA / f"{args.corpus}.warc.gz").is_file():
        print("skipped: ../shared/corpora is not present")
        return
    pages = load(args.corpus, args.limit)
    systems = ["readability", "trafilatura", "trafilatura_precision", *(f"cascade:{p}" for p in POLICIES)]
    scores: dict[str, list[tuple[float | None, float | None]]] = {s: [] for s in systems}
    f1s: dict[str, list[float]] = {s: [] for s in systems}  # word F1 against a label's main_content (wcxb-dev)
    seconds = {"readability": 0.0, "trafilatura": 0.0, "cascade": 0.0}
    for url, decoded, expected in pages:
        html = decoded.text  # what a user hands to readability and trafilatura
        t_r, r_text = timed(readability_alone, html, url)
        t_t, t_text = timed(trafilatura_alone, html, url)
        t_c, _ = timed(cascade, decoded, url, args.policy)
        seconds["readability"] += t_r
        seconds["trafilatura"] += t_t
        seconds["cascade"] += t_c
        texts = {"readability": r_text, "trafilatura": t_text,
                 "trafilatura_precision": trafilatura_alone(html, url, True),
                 **{f"cascade:{policy}": text for policy, text in all_policies(decoded, url).items()}}
        reference = expected.get("main_content") if isinstance(expected, dict) else None
        for system, text in texts.items():
            scores[system].append(snippet_scores(text, expected))
            if reference and reference.strip():
                f1s[system].append(word_f1(text, reference))
    print(f"pages: {len(pages)} ({args.corpus}), default policy: {args.policy}")
    print(f"{'system':32} {'with found':>10} {'without absent':>15} {'harmonic':>9} {'word F1':>8}")
    for system in systems:
        with_scores = [w for w, _ in scores[system] if w is not None]
        without_scores = [o for _, o in scores[system] if o is not None]
        w = sum(with_scores) / len(with_scores)
        o = sum(without_scores) / len(without_scores)
        h = 2 * w * o / (w + o) if w + o else 0.0
        f1 = f"{sum(f1s[system]) / len(f1s[system]):8.4f}" if f1s[system] else f"{'-':>8}"
        print(f"{system:32} {w:10.4f} {o:15.4f} {h:9.4f} {f1}")
    base = seconds["readability"] + seconds["trafilatura"]
    n = len(pages)
    print(f"time per page: readability {seconds['readability'] / n * 1000:.1f} ms, trafilatura "
          f"{seconds['trafilatura'] / n * 1000:.1f} ms, cascade ({args.policy}) {seconds['cascade'] / n * 1000:.1f} ms")
    print(f"ratio cascade / (readability + trafilatura): {seconds['cascade'] / base:.2f}x  (target <= 1.15x)")


if __name__ == "__main__":
    main()
