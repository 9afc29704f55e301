"""Dates, era labels, authors and titles against a labelled corpus: ours, the libraries, and what ships.

    python benchmarks/metadata.py [WARC] [--labels JSON] [--methods m1,m2] [--cutoff YYYY-MM-DD] [--run DIR]

Default: wcxb-dev and its `wcxb-dev.metadata.json` (title, author and `published` of every page).
Methods: `declared` (our metadata tiers alone, `infer_dates: false`, as `presets/seed.yaml`),
`htmldate` (fast mode, `original_date`, bounded by the capture), `htmldate-extensive`,
`trafilatura` (its `extract_metadata`: htmldate's fast mode inside), `shipped` (what `pipeline run`
writes: the tiers, then htmldate where they found no date).

Measured:
- dates, on the pages labelled with a day on or before their capture (a date after the capture is
  refused by every method here): found, exact day (the label's day, or month where the label has
  only a month), wrong when found; and the share of pages labelled undated that get a date;
- era, with the pipeline's own rule (`filters.corpus.dataset.era_columns`) on the method's date and
  the capture date, against the era of the label's date: pages labelled `pre_cutoff` and the share
  written on or before the cut-off, the same for `post_cutoff`, era right (of all those pages) and
  `unknown`. Pages whose label is after the capture are counted apart. With `--run DIR` (a `pipeline
  run` output of the same WARC) each page's `page_type` is read from DIR's shards and the era is the
  pipeline's page rule exactly (`page_written`: an htmldate date does not make a forum page
  `pre_cutoff`); without it every page is read as an article;
- authors, on pages whose label names one: found, right (the same set of names once case, accents
  and punctuation are set aside; "A and B" is "A, B"), right when found; and authors given on pages
  labelled without one;
- titles: right (the same text once case and punctuation are set aside);
- ms a page: median and mean of the method's call on a tree parsed once (parse not timed);
- per source (`published_source`, `author_source`) of the methods with several: its share of the
  answers given and how often its answer is right (dates on the pages the date figures count);
  and, where a page also declares an update date, whether the label is the publication date found,
  the update date or neither (by declared or htmldate's date, update on the same day or another);
- `shipped` reads, as the pipeline does, the age a page's publication line shows where no date is
  found (`extract.metadata.read_ages`), which the era then uses (`era_date_source: relative`);
- with `--run DIR` and the WARC's `.forum-posts.json` beside it: the authors of DIR's segments against
  the hand-read posts.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import polars as pl  # noqa: E402

from filters.corpus.dataset import date_source, era_columns, page_written  # noqa: E402
from filters.corpus.dataset import shown_age as shown_age_interval  # noqa: E402
from filters.metadata.ages import age_days, shown_age  # noqa: E402
from filters.metadata.fields import extract_metadata  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.parse.parsed import Page  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
DEFAULT_WARC = CORPORA / "wcxb-dev.warc.gz"
METHODS = ("declared", "htmldate", "htmldate-extensive", "trafilatura", "shipped")


@dataclass
class Found:
    """What one method says about one page."""

    published: datetime | None
    source: str | None  # `published_source`: a tier of ours, or htmldate
    updated: datetime | None  # ours only
    author: str | None
    title: str | None
    seconds: float
    author_source: str | None = None  # `author_source`: a tier of ours
    age: tuple[int | None, int | None] = (None, None)  # `shipped`: the publication line's age, in days


def main() -> None:
    args = _arguments()
    labels = json.loads(args.labels.read_text())
    pages = _pages(args.warc, labels)
    methods = args.methods.split(",")
    types = _page_types(args.run) if args.run is not None else {}
    print(f"{len(pages)} labelled HTML pages from {args.warc.name}; cut-off {args.cutoff}; page types "
          f"{'from ' + str(args.run) if types else 'not read (every page an article)'}")
    for name in methods:
        found = [_run(name, url, tree, capture) for url, tree, capture in pages]
        _report(name, pages, found, labels, args.cutoff, types)
    posts = args.warc.with_name(args.warc.name.replace(".warc.gz", ".forum-posts.json"))
    if args.run is not None and posts.is_file():
        _segment_authors(args.run, json.loads(posts.read_text()))


def _segment_authors(run: Path, labels: dict[str, Any]) -> None:
    """Segments' own authors in a run, against hand-read posts (posts of >= 30 words that name their
    writer; a post is recovered when a segment of its page holds its first words)."""
    segments = pl.read_parquet(run / "segments" / "*" / "*.parquet", columns=["url", "text", "author"])
    by_page: dict[str, list[tuple[str, str | None]]] = {}
    for url, text, author in segments.iter_rows():
        by_page.setdefault(url, []).append((_norm(text)[:SEGMENT_HEAD_CHARS], author))
    posts = recovered = found = right = 0
    for url, page in labels.items():
        if url.startswith("_"):
            continue
        for post in page["posts"]:
            if not post.get("author") or post["words"] < 30:
                continue
            posts += 1
            start = _norm(post["first_words"])
            match = next((author for head, author in by_page.get(url, ()) if start and start in head), False)
            if match is False:
                continue
            recovered += 1
            found += bool(match)
            right += bool(match) and _norm(match) == _norm(post["author"])  # type: ignore[arg-type]
    print(f"\n== segments of {run}\nauthors: {posts} posts of >= 30 words name their writer, {recovered} "
          f"recovered: author found {found / max(recovered, 1):.3f}, right {right / max(recovered, 1):.3f}, "
          f"right when found {right / max(found, 1):.3f}")


SEGMENT_HEAD_CHARS = 400  # a post's first words are looked for this far into a segment


def _page_types(run: Path) -> dict[str, str]:
    """url -> page_type of a pipeline run's shards."""
    frame = pl.read_parquet([*run.glob("accepted/*.parquet"), *run.glob("rejected/*.parquet")],
                            columns=["url", "page_type"])
    return {url: kind for url, kind in frame.drop_nulls().iter_rows()}


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warc", nargs="?", type=Path, default=DEFAULT_WARC)
    parser.add_argument("--labels", type=Path, default=None, help="default: WARC's name with .metadata.json")
    parser.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated, of {', '.join(METHODS)}")
    parser.add_argument("--cutoff", type=date.fromisoformat, default=date(2022, 11, 30))
    parser.add_argument("--run", type=Path, default=None, help="a pipeline run of WARC: its page types")
    args = parser.parse_args()
    if args.labels is None:
        args.labels = args.warc.with_name(args.warc.name.replace(".warc.gz", ".metadata.json"))
    for path in (args.warc, args.labels):
        if not path.is_file():
            sys.exit(f"no input at {path}")
    unknown = set(args.methods.split(",")) - set(METHODS)
    if unknown:
        sys.exit(f"unknown methods: {', '.join(sorted(unknown))} (known: {', '.join(METHODS)})")
    return args


def _pages(warc: Path, labels: dict[str, Any]) -> list[tuple[str, Any, datetime]]:
    """(url, parsed tree, capture time) of every labelled HTML page."""
    from score import load_pages  # the benchmarks' page loader (decoding is not timed)

    pages = []
    for url, decoded, capture in load_pages(warc):
        if url in labels:
            tree = parse_html_bytes(decoded.data, decoded.encoding)  # type: ignore[attr-defined]
            if tree is not None:
                pages.append((url, tree, capture))
    return pages


def _run(name: str, url: str, tree: Any, capture: datetime) -> Found:
    call = _CALLS[name]
    started = time.perf_counter()
    published, source, updated, author, title, extra = call(url, tree, capture)
    return Found(published, source, updated, author, title, time.perf_counter() - started, **extra)


# published, its source, updated, author, title, and Found's other fields where the method gives them
Answer = tuple[datetime | None, str | None, datetime | None, str | None, str | None, dict[str, Any]]


def _ours(infer: bool) -> Callable[[str, Any, datetime], Answer]:
    def call(url: str, tree: Any, capture: datetime) -> Answer:
        metadata = extract_metadata(Page(tree, url), capture, infer_dates=infer)
        extra: dict[str, Any] = {"author_source": metadata.sources.get("author")}
        if infer and metadata.published is None:  # as the pipeline does where htmldate finds none
            extra["age"] = age_days(shown_age(tree, capture, metadata.language), capture)
        return (metadata.published, metadata.sources.get("published"), metadata.updated, metadata.author,
                metadata.title, extra)
    return call


def _htmldate(extensive: bool) -> Callable[[str, Any, datetime], Answer]:
    def call(url: str, tree: Any, capture: datetime) -> Answer:
        import htmldate

        found = htmldate.find_date(tree, extensive_search=extensive, original_date=True, url=url,
                                   max_date=capture.strftime("%Y-%m-%d"))
        return _day(found), "htmldate", None, None, None, {}
    return call


def _trafilatura(url: str, tree: Any, capture: datetime) -> Answer:
    import trafilatura

    document = trafilatura.extract_metadata(tree, default_url=url, date_config={
        "extensive_search": False, "original_date": True, "max_date": capture.strftime("%Y-%m-%d")})
    return _day(document.date), "htmldate", None, document.author, document.title, {}


def _day(value: str | None) -> datetime | None:
    return datetime.strptime(value[:10], "%Y-%m-%d").replace(tzinfo=UTC) if value else None


_CALLS = {"declared": _ours(False), "shipped": _ours(True), "htmldate": _htmldate(False),
          "htmldate-extensive": _htmldate(True), "trafilatura": _trafilatura}


def _report(name: str, pages: list[tuple[str, Any, datetime]], found: list[Found], labels: dict[str, Any],
            cutoff: date, types: dict[str, str]) -> None:
    print(f"\n== {name}")
    _dates(pages, found, labels)
    _eras(pages, found, labels, cutoff, types)
    if name not in ("htmldate", "htmldate-extensive"):
        _authors(pages, found, labels)
        titles = [(labels[url]["title"], item.title) for (url, _, _), item in zip(pages, found, strict=True)
                  if labels[url].get("title")]
        right = sum(_norm(title) == _norm(got) for title, got in titles)
        print(f"titles: {len(titles)} labelled, right {right / len(titles):.3f}")
    times = [item.seconds * 1000 for item in found]
    print(f"ms a page: median {statistics.median(times):.2f}, mean {statistics.mean(times):.2f}")


def _dates(pages: list[tuple[str, Any, datetime]], found: list[Found], labels: dict[str, Any]) -> None:
    n = hits = exact = later = undated = undated_found = 0
    for (url, _, capture), item in zip(pages, found, strict=True):
        label = labels[url].get("published")
        if not label:
            undated += 1
            undated_found += item.published is not None
            continue
        if label > capture.strftime("%Y-%m-%d"):
            later += 1
            continue
        n += 1
        if item.published is not None:
            hits += 1
            exact += item.published.strftime("%Y-%m-%d")[:len(label)] == label
    print(f"dates: {n} pages dated on or before their capture ({later} after it, apart): found {hits / n:.3f}, "
          f"exact day {exact / n:.3f}, wrong when found {(hits - exact) / max(hits, 1):.3f}; "
          f"{undated_found} of {undated} pages labelled undated get a date")
    _by_source("dates", [(item.source, _same_day(item.published, labels[url].get("published")))
                         for (url, _, capture), item in zip(pages, found, strict=True)
                         if item.published is not None and _dated_by(labels[url].get("published"), capture)])
    _update_evidence(pages, found, labels)


def _update_evidence(pages: list[tuple[str, Any, datetime]], found: list[Found], labels: dict[str, Any]) -> None:
    """Which day the label is where a page also declares an update date: the publication date found,
    the update date, or neither; by whether the date is declared or htmldate's, and whether the update
    falls on another day or the same one."""
    counts: dict[tuple[str, str], list[int]] = {}
    for (url, _, capture), item in zip(pages, found, strict=True):
        label = labels[url].get("published")
        if item.published is None or item.updated is None or not _dated_by(label, capture):
            continue
        same = _same_day(item.updated, item.published.strftime("%Y-%m-%d")[:len(label)])
        key = ("htmldate" if item.source == "htmldate" else "declared", "same day" if same else "another day")
        count = counts.setdefault(key, [0, 0, 0])
        count[0 if _same_day(item.published, label) else 1 if _same_day(item.updated, label) else 2] += 1
    if counts:
        print("  label where an update date is declared (publication, update, neither): " + "; ".join(
            f"{source} date, update on {when} {a}/{b}/{c}" for (source, when), (a, b, c) in sorted(counts.items())))


def _dated_by(label: str | None, capture: datetime) -> bool:
    """Whether a page's label is a date on or before its capture (the pages the date figures count)."""
    return bool(label) and label <= capture.strftime("%Y-%m-%d")  # type: ignore[operator]


def _same_day(found: datetime | None, label: str | None) -> bool:
    return found is not None and bool(label) and found.strftime("%Y-%m-%d")[:len(label)] == label  # type: ignore[arg-type]


def _by_source(what: str, answers: list[tuple[str | None, bool]]) -> None:
    """Each source's share of the answers given and how often its answer is right."""
    if len({source for source, _ in answers}) < 2:
        return  # one source only: the line above says it
    counts: dict[str, list[int]] = {}
    for source, right in answers:
        count = counts.setdefault(source or "none", [0, 0])
        count[0] += 1
        count[1] += right
    cells = [f"{source} {given / len(answers):.3f} ({right / given:.3f} right, {given})"
             for source, (given, right) in sorted(counts.items(), key=lambda item: -item[1][0])]
    print(f"  {what} by source (share of answers given, right): " + "; ".join(cells))


def _eras(pages: list[tuple[str, Any, datetime]], found: list[Found], labels: dict[str, Any], cutoff: date,
          types: dict[str, str]) -> None:
    rows = [{"published": item.published, "updated": item.updated, "warc_date": capture,
             "label": labels[url].get("published"),
             "page_type": types.get(url, "article"),
             "signals": {"published_source": item.source, "age_min_days": item.age[0], "age_max_days": item.age[1]}}
            for (url, _, capture), item in zip(pages, found, strict=True) if labels[url].get("published")]
    frame = pl.DataFrame(rows, schema={"published": pl.Datetime("us", "UTC"), "updated": pl.Datetime("us", "UTC"),
                                       "warc_date": pl.Datetime("us", "UTC"),
                                       "label": pl.String, "page_type": pl.String,
                                       "signals": pl.Struct({"published_source": pl.String, "age_min_days": pl.Int32,
                                                             "age_max_days": pl.Int32})})
    cut = cutoff.isoformat()
    for strict in (False, True):
        modified = pl.col("updated") if strict else None
        era = era_columns(cutoff, page_written(), floor=(pl.col("published"), date_source()), modified=modified,
                          age=shown_age_interval())
        if strict and frame["updated"].is_null().all():
            continue  # a method that reads no update date: the same figures
        _era_lines(frame.with_columns(era).with_columns(
            pl.when(pl.col("label").str.slice(0, 10) <= cut).then(pl.lit("pre_cutoff"))
            .otherwise(pl.lit("post_cutoff")).alias("truth"),
            (pl.col("label") > pl.col("warc_date").dt.strftime("%Y-%m-%d")).alias("later")),
            " (dataset.era_unmodified_since_cutoff)" if strict else "")


def _era_lines(frame: pl.DataFrame, variant: str) -> None:
    for later, title in ((False, "on or before the capture"), (True, "after the capture")):
        part = frame.filter(pl.col("later") == later)
        if part.is_empty():
            continue
        cells = []
        for era in ("pre_cutoff", "post_cutoff"):
            labelled = part.filter(pl.col("era") == era)
            right = labelled.filter(pl.col("truth") == era).height
            cells.append(f"{era} {labelled.height} ({right / max(labelled.height, 1):.3f} written so)")
        right = part.filter(pl.col("era") == pl.col("truth")).height
        unknown = part.filter(pl.col("era") == "unknown").height
        print(f"era{variant}, {part.height} pages labelled {title}: " + ", ".join(cells) +
              f"; right {right / part.height:.3f}, unknown {unknown / part.height:.3f}")


def _authors(pages: list[tuple[str, Any, datetime]], found: list[Found], labels: dict[str, Any]) -> None:
    n = hits = right = 0
    spurious = unnamed = 0
    for (url, _, _), item in zip(pages, found, strict=True):
        label = labels[url].get("author")
        if not label:
            unnamed += 1
            spurious += bool(item.author)
            continue
        n += 1
        if item.author:
            hits += 1
            right += _same_names(item.author, label)
    print(f"authors: {n} pages name one: found {hits / n:.3f}, right {right / n:.3f}, right when found "
          f"{right / max(hits, 1):.3f}; {spurious} of {unnamed} pages naming none get one")
    if any(item.author_source for item in found):
        _by_source("authors", [(item.author_source, bool(labels[url].get("author"))
                                and _same_names(item.author, labels[url]["author"]))
                               for (url, _, _), item in zip(pages, found, strict=True) if item.author])


def _same_names(found: str, label: str) -> bool:
    return _norm(found) == _norm(label) or _names(found) == _names(label)


def _names(value: str) -> set[str]:
    return {name for part in _NAME_SPLIT.split(value) if (name := _norm(part))}


def _norm(value: str | None) -> str:
    if not value:
        return ""
    ascii_text = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return _NOT_WORD.sub(" ", ascii_text.lower()).strip()


_NAME_SPLIT = re.compile(r",|;|\||&|\band\b", re.IGNORECASE)
_NOT_WORD = re.compile(r"[^a-z0-9]+")


if __name__ == "__main__":
    main()
