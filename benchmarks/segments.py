"""Segments against posts read by hand, and against article bodies: `python benchmarks/segments.py
[--posts FILE] [--cache FILE]`.

Calls `filters.segment.segments.page_segments` as the pipeline does: on the page's `<body>` after
the consent overlays are removed (the pipeline leaves them in a page the gate turned away; the
forum figures are the same either way), with `text` the extraction cascade's text (`run_cascade`, cached in
`--cache` because it takes minutes) or None (pages the pre-extraction gate turns away). Extraction
decides nothing by the page's type; select's rules page.body_part and page.unsigned_part do
(`dropped_in_select`, default params): forum pages are scored as select keeps their segments on a
page it types `forum`, article pages as it keeps them on a page it types `article` (a perfect
model), `listing` (a mistake that leaves the unsigned-part rule) and `forum` (the worst mistake:
neither rule fires).

1. **Posts** (`../shared/corpora/wcxb-dev.forum-posts.json`: every forum page of wcxb-dev, and
   `trafilatura-eval.forum-posts.json`: 25 forum, Q&A and commented article pages of trafilatura-eval,
   each post's first 8 and last 6 words; on a `comments` page the first post, the article, is left
   out of the count: an article body is never a segment). A labelled post of >= 30 words is *recovered* when exactly one
   segment contains its first and its last words and no other post's first words; *merged* when the
   segment holding it holds another post's first words too; *split* when its first and last words
   are in different segments; *missed* when no segment holds its first words. Segments of >= 30
   words that hold no labelled post's first words are *unmatched*; on Q&A pages those found as
   comments are counted apart (the labels leave the comments under answers out). Words are
   compared as lower-cased `\\w+` runs. Per kind and per language, with the extracted text and
   without, per software (`software`: the label's, else the `generator` meta or a markup fingerprint
   of a forum engine, else the site); threads of >= 3 such posts without a segment; and the pages
   without posts in their HTML that got segments.
2. **Articles** (pages typed `article` in `wcxb-dev.labels.json` and `trafilatura-eval.labels.json`):
   the share of pages with a segment that holds article-body text: at least half of its words are in
   paragraphs or lines of >= 12 words it shares with the extracted text (whose cascade leaves comments out).
3. **Chrome**: the segments of at least `segment.min_tokens` tokens on the labelled pages (those the
   length rule keeps) that hold profile fields, controls, edit notices, sort headers or signature
   rules (`benchmarks/segment_chrome.py`'s phrases), per corpus, with examples.
4. **Cost**: `page_segments` per page (thread CPU time), median and p90 over all wcxb-dev pages.
5. `--cv`: cross-validation of the thresholds read off these pages (`GRID`), leaving one registered
   domain out and leaving one software out (every page the same engine made is held out at once).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lxml.html import HtmlElement  # noqa: E402
from segment_chrome import print_chrome  # noqa: E402

from filters.extract.cascade import run_cascade  # noqa: E402
from filters.extract.cleanup import remove_cookie_overlays  # noqa: E402
from filters.page.domains import registered_domain  # noqa: E402
from filters.parse.html import parse_html_bytes  # noqa: E402
from filters.parse.parsed import Page  # noqa: E402
from filters.rules.reasons import RULES_BY_CODE  # noqa: E402
from filters.segment import units as segment_units  # noqa: E402
from filters.segment.segments import Segment, page_segments  # noqa: E402
from filters.text.tokens import words  # noqa: E402
from pipeline.io.decode import decode_html  # noqa: E402
from pipeline.io.readers import FileReport, read_file  # noqa: E402
from pipeline.params import Params, SegmentParams  # noqa: E402

SHARED = ROOT.parent / "shared" / "corpora"
CORPORA = ("wcxb-dev", "trafilatura-eval")
# Thread pages of other software, posts read by hand, no page-type labels (development data only).
THREAD_CORPORA = ("threads-extra",)
# Languages written without spaces: their snippets are characters (20 first, 15 last), compared as such.
CHARACTER_LANGUAGES = frozenset(("zh", "ja"))
MIN_WORDS = 30
BODY_LINE_WORDS = 12  # a shared run this long is the article's text, not a coincidence
BODY_SHARE = 0.5  # a segment holds article-body text when at least this share of its words are shared runs
_WORD = re.compile(r"\w+")
# The thresholds read off the labelled pages, and the values leave-domain-out cross-validation chooses
# among; the choice maximises recovered posts less BROKEN_ARTICLE_COST for each article page with a
# segment holding its body (a split article costs a detector more than a missed post).
GRID = {"MIN_SHARE": (0.1, 0.15, 0.2, 0.3), "MAX_MEMBER_SHARE": (0.6, 0.7, 0.8, 1.0)}
BROKEN_ARTICLE_COST = 10
DEFAULTS = Params()


def tokens(text: str, characters: bool = False) -> str:
    """Lower-cased `\\w+` runs joined by single spaces, framed by spaces for whole-word search; with
    `characters` (Chinese, Japanese), the `\\w` characters alone, run together, for a search by characters."""
    if characters:
        return "".join(_WORD.findall(text.lower()))
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def _holds(unit: str, phrase: str, characters: bool = False) -> bool:
    needle = tokens(phrase, characters)
    return needle.strip() != "" and needle in unit


holds = _holds


def score_page(unit_texts: list[str], posts: list[dict]) -> tuple[Counter, int]:
    """(outcome counts over the posts of >= MIN_WORDS words, units of >= MIN_WORDS words matching no post)."""
    outcome, unmatched = score_segments([(text, "post") for text in unit_texts], posts)
    return outcome, unmatched["post"]


def score_segments(found: list[tuple[str, str]], posts: list[dict], counted: list[dict] | None = None,
                   characters: bool = False) -> tuple[Counter, Counter]:
    """Outcome counts over the `counted` posts (default all) of >= MIN_WORDS words, and the segments
    (text, kind) of >= MIN_WORDS words matching no post, by kind; `characters`: snippets compared as
    characters (`tokens`)."""
    prepared = [tokens(text, characters) for text, _ in found]
    holds = functools.partial(_holds, characters=characters)
    outcome: Counter = Counter()
    for post in posts if counted is None else counted:
        if post["words"] < MIN_WORDS:
            continue
        first = [i for i, text in enumerate(prepared) if holds(text, post["first_words"])]
        last = [i for i, text in enumerate(prepared) if holds(text, post["last_words"])]
        if not first:
            outcome["missed"] += 1
        elif not set(first) & set(last):
            outcome["split"] += 1
        else:
            unit = prepared[sorted(set(first) & set(last))[0]]
            others = [other for other in posts if other is not post and distinctive(other["first_words"], characters)
                      and holds(unit, other["first_words"])]
            outcome["merged" if others or len(first) > 1 else "recovered"] += 1
    unmatched: Counter = Counter()
    for text, (raw, kind) in zip(prepared, found, strict=True):
        if _length(raw, characters) >= MIN_WORDS and not any(holds(text, post["first_words"]) for post in posts):
            unmatched[kind] += 1
    return outcome, unmatched


# A post's first characters name it only when there are this many: a reply of three characters ("要说。")
# occurs inside long answers (words: 8 words always name a post, as short replies' are shorter).
MIN_DISTINCT_CHARACTERS = 8


def distinctive(snippet: str, characters: bool) -> bool:
    """Whether a post's first words tell it from the others' text: always with words; with characters,
    at least `MIN_DISTINCT_CHARACTERS` of them."""
    return not characters or len(tokens(snippet, True)) >= MIN_DISTINCT_CHARACTERS


def _length(text: str, characters: bool) -> int:
    """Words, or for a language written without spaces its `\\w` characters, as the labels count them."""
    return len(tokens(text, True)) if characters else len(words(text))


def body_runs(body: str) -> list[str]:
    """The extracted text's paragraphs and lines of >= BODY_LINE_WORDS words, as `tokens`."""
    runs = {tokens(line) for part in body.split("\n") if len(_WORD.findall(line := part.strip())) >= BODY_LINE_WORDS}
    return sorted(runs)


def holds_body_text(segment: str, body: str, runs: list[str]) -> bool:
    """Whether at least half of `segment`'s words are in paragraphs or lines of >= BODY_LINE_WORDS words it
    shares with the extracted `body` (`tokens` of it; `runs` from `body_runs`), either way round. A
    comment that quotes a sentence of the article does not hold its body."""
    prepared = tokens(segment)
    total = len(_WORD.findall(segment))
    inside = sum(run.count(" ") - 1 for run in runs if run in prepared)
    lines = [found for line in segment.split("\n") if len(found := _WORD.findall(line)) >= BODY_LINE_WORDS]
    shared = sum(len(found) for found in lines if tokens(" ".join(found)) in body)
    return total > 0 and max(inside, shared) >= BODY_SHARE * total


def pages(warc: Path, urls: set[str] | None = None) -> Iterator[tuple[str, HtmlElement, str]]:
    """(url, parsed page, decoded HTML) of the WARC's HTML pages (only `urls` when given), consent
    overlays removed as the extract step does before the cascade and the segments."""
    for raw in read_file(str(warc), 5_000_000, FileReport(str(warc))):
        if raw.payload is None or not raw.url or (urls is not None and raw.url not in urls):
            continue
        decoded = decode_html(raw.payload, raw.http_content_type)
        tree = parse_html_bytes(decoded.data, decoded.encoding)
        if tree is None:
            continue
        remove_cookie_overlays(tree)
        yield raw.url, tree, decoded.data.decode(decoded.encoding or "utf-8", "replace")


def extracted_texts(cache: Path) -> dict[str, str | None]:
    """Every page's cascade text (as the extract step computes it), from `cache` or computed into it
    (the corpora missing from it added: `_corpora` lists those it holds)."""
    texts: dict = json.loads(cache.read_text(encoding="utf-8")) if cache.exists() else {}
    done = texts.pop("_corpora", list(CORPORA) if texts else [])
    missing = [corpus for corpus in (*CORPORA, *THREAD_CORPORA)
               if corpus not in done and (SHARED / f"{corpus}.warc.gz").is_file()]
    for corpus in missing:
        for url, tree, _ in pages(SHARED / f"{corpus}.warc.gz"):
            texts[url] = run_cascade(Page(tree, url)).text
    if missing:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({**texts, "_corpora": [*done, *missing]}), encoding="utf-8")
    return texts


def timed_segments(body: HtmlElement | None, text: str | None, page_type: str = "forum",
                   json_ld: list[dict] | None = None) -> tuple[list[Segment], float]:
    """The page's segments select keeps on a page of `page_type` under the default params (rules
    page.body_part and page.unsigned_part), and the thread CPU seconds `page_segments` took
    (`json_ld`: the page's, as the pipeline passes it; read before, as the metadata step reads it)."""
    start = time.thread_time()
    found = page_segments(body, text, json_ld) if body is not None else []
    seconds = time.thread_time() - start
    return [segment for segment in found if not dropped_in_select(segment, page_type)], seconds


def dropped_in_select(segment: Segment, page_type: str) -> bool:
    """Whether rule page.body_part or page.unsigned_part, as registered and under the default params,
    drops the segment on a page of `page_type` (select sets their signals as `flat_segments` does)."""
    return any(RULES_BY_CODE[f"page.{flag}"].fires(page_type if getattr(segment, flag) else None, DEFAULTS)
               for flag in ("body_part", "unsigned_part"))


# Forum and comment engines by their markup, in the order tried (a page of one engine often names
# another in its text or scripts, so the most particular marks come first); the `generator` meta first.
ENGINES = (
    ("Stack Exchange", r"js-post-body|class=\"[^\"]*\banswercell\b"),
    ("Discourse", r"\bdiscourse\b"),
    ("XenForo", r"data-xf-init|message--post"),
    ("Invision", r"\bipsComment|\bipsType"),
    ("NodeBB", r"nodebb"),
    ("Flarum", r"flarum"),
    ("MyBB", r"\bmybb\b"),
    ("vBulletin", r"postbit|vbulletin"),
    ("phpBB", r"\bpostbody\b|phpbb"),
    ("SMF", r"simplemachines|\bsmf\b"),
    ("Vanilla", r"vanilla"),
    ("Disqus", r"disqus_thread|\bdisqus\b"),
    ("Reddit", r"shreddit|\bredditstatic\b"),
    ("WordPress", r"comment-body|wp-content"),
)
_ENGINES = tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in ENGINES)
_GENERATOR = re.compile(r"<meta[^>]+name=[\"']generator[\"'][^>]*content=[\"']([^\"'\s]+)"
                        r"|<meta[^>]+content=[\"']([^\"'\s]+)[^>]*name=[\"']generator[\"']", re.IGNORECASE)


def software(html: str, url: str, labelled: str | None = None) -> str:
    """The software that made a page: the label's (`labelled`, without its parenthesis), else the
    `generator` meta's first word, else the first of `ENGINES` whose mark the HTML holds, else the
    page's registered domain (a site's own system is its own group)."""
    if labelled:
        return labelled.split(" (")[0]
    found = _GENERATOR.search(html)
    if found is not None:
        name = (found.group(1) or found.group(2)).lower()
        for engine, _ in _ENGINES:
            if engine.lower().replace(" ", "") == name:
                return engine
    for engine, pattern in _ENGINES:
        if pattern.search(html) is not None:
            return engine
    return f"site {domain(url)}"


def domain(url: str) -> str:
    host = urlsplit(url).hostname
    return registered_domain(host) or host or url


def labelled_posts(page: dict) -> list[dict]:
    """The posts counted: on a `comments` page, all but the first (the article)."""
    return page["posts"][1:] if page["kind"] == "comments" else page["posts"]


def cross_validate(forum: list[tuple[str, HtmlElement, dict]], articles: list[tuple[str, HtmlElement, str | None]],
                   groupings: dict[str, dict[str, str]], json_lds: dict[str, list[dict]]) -> None:
    """For each grouping (url -> group: domain, software), leave one group out: the `GRID` values that
    score best on the other groups' pages, applied to its own (forum pages with text=None, article
    pages with their text); prints the held-out recovered share and share of article pages with a
    segment holding body text."""
    combos = [dict(zip(GRID, values, strict=True)) for values in itertools.product(*GRID.values())]
    defaults = {name: getattr(segment_units, name) for name in GRID}
    scores: list[dict[str, tuple[int, int, int]]] = []  # per combo, url -> (recovered, posts, broken)
    for combo in combos:
        for name, value in combo.items():
            setattr(segment_units, name, value)
        scored = {}
        for url, body, page in forum:
            outcome = score_posts(page_segments(body, None, json_lds.get(url)), page)
            posts = sum(outcome[key] for key in ("recovered", "merged", "split", "missed"))
            scored[url] = (outcome["recovered"], posts, 0)
        for url, body, text in articles:
            runs, prepared = body_runs(text or ""), tokens(text or "")
            broken = any(holds_body_text(segment.text, prepared, runs)
                         for segment in page_segments(body, text, json_lds.get(url)))
            scored[url] = (0, 0, int(broken))
        scores.append(scored)
    for name, value in defaults.items():
        setattr(segment_units, name, value)

    def gain(index: int, urls: list[str]) -> int:
        return sum(scores[index][url][0] - BROKEN_ARTICLE_COST * scores[index][url][2] for url in urls)

    for grouping, group_of in groupings.items():
        by_group: dict[str, list[str]] = defaultdict(list)
        for url in scores[0]:
            by_group[group_of.get(url) or domain(url)].append(url)
        held = [0, 0, 0]
        chosen: Counter = Counter()
        for group, urls in by_group.items():
            others = [url for other, listed in by_group.items() if other != group for url in listed]
            best = max(range(len(combos)), key=lambda index: (gain(index, others), -abs(index - len(combos) // 2)))
            chosen[str(combos[best])] += 1
            for url in urls:
                held = [total + value for total, value in zip(held, scores[best][url], strict=True)]
        pages = len(articles)
        broken = f"{held[2] / pages:.3f} of {pages}" if pages else "not measured (--skip-articles)"
        print(f"\nleave-one-{grouping}-out ({len(by_group)} groups; {dict(chosen)}): recovered "
              f"{held[0] / held[1]:.3f} of {held[1]} posts (text=None); article pages holding body text {broken}")


def posts_table(title: str, by_group: dict[str, Counter]) -> None:
    columns = ("recovered", "merged", "split", "missed", "segments", "unmatched", "qa comments")
    print(f"\n{title}: posts of >= {MIN_WORDS} words; segments of >= {MIN_WORDS} words")
    print(f"{'group':<14}" + "".join(f"{name:>12}" for name in columns) + f"{'recovered':>11}")
    for name, counts in by_group.items():
        posts = sum(counts[key] for key in ("recovered", "merged", "split", "missed"))
        share = counts["recovered"] / posts if posts else float("nan")
        print(f"{name:<14}" + "".join(f"{counts[key]:>12}" for key in columns) + f"{share:>11.3f}")


def score_posts(found: list[Segment], page: dict) -> Counter:
    characters = page.get("language") in CHARACTER_LANGUAGES
    outcome, unmatched = score_segments([(segment.text, segment.kind) for segment in found], page["posts"],
                                        labelled_posts(page), characters)
    outcome["segments"] += sum(1 for segment in found if _length(segment.text, characters) >= MIN_WORDS)
    if page["kind"] == "qa":  # comments under the question and answers are not labelled
        outcome["qa comments"] += unmatched.pop("comment", 0)
    outcome["unmatched"] += sum(unmatched.values())
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--posts", type=Path, nargs="+",
                        default=[SHARED / f"{corpus}.forum-posts.json" for corpus in (*CORPORA, *THREAD_CORPORA)])
    parser.add_argument("--cache", type=Path, default=ROOT / "out" / "cache" / "segments-extracted.json",
                        help="the cascade's text of every page (computed once, about 5 minutes)")
    parser.add_argument("--skip-articles", action="store_true", help="posts and cost only")
    parser.add_argument("--show", type=int, default=10, help="article pages listed per line")
    parser.add_argument("--examples", type=int, default=3, help="examples of chrome per phrase")
    parser.add_argument("--software", action="store_true", help="a table per software")
    parser.add_argument("--cv", action="store_true", help="cross-validate the thresholds by domain and by software")
    args = parser.parse_args()
    posts = {url: page for path in args.posts if path.is_file()
             for url, page in json.loads(path.read_text(encoding="utf-8")).items() if not url.startswith("_")}
    texts = extracted_texts(args.cache)
    types = {corpus: {url: label["page_type"] for url, label in
                      json.loads((SHARED / f"{corpus}.labels.json").read_text(encoding="utf-8")).items()}
             for corpus in CORPORA}
    tables: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    empty_with_segments: dict[str, list[str]] = defaultdict(list)
    threads_without: dict[str, list[str]] = defaultdict(list)  # threads of >= 3 posts with no segment
    threads: Counter = Counter()
    costs: dict[str, list[float]] = defaultdict(list)
    articles: dict[str, Counter] = defaultdict(Counter)
    holding: dict[str, list[str]] = defaultdict(list)
    kept_forum: list[tuple[str, HtmlElement, dict]] = []
    kept_articles: list[tuple[str, HtmlElement, str | None]] = []
    software_of: dict[str, str] = {}
    json_lds: dict[str, list[dict]] = {}
    long_segments: dict[str, list[tuple[str, str]]] = defaultdict(list)  # (page#index, text) of >= min_tokens
    left_out: dict[str, Counter] = defaultdict(Counter)  # words kept and left out as the software's, by corpus
    for corpus in (*CORPORA, *THREAD_CORPORA):
        if not (SHARED / f"{corpus}.warc.gz").is_file():
            continue
        types.setdefault(corpus, {})
        wanted = None if corpus == "wcxb-dev" else \
            {url for url, kind in types[corpus].items() if kind == "article" and not args.skip_articles} | set(posts)
        for url, tree, html in pages(SHARED / f"{corpus}.warc.gz", wanted):
            body, text = tree.find("body"), texts.get(url)
            json_lds[url] = Page(tree, url).json_ld
            found, seconds = timed_segments(body, text, "forum", json_lds[url])
            kind = types[corpus].get(url)
            if corpus == "wcxb-dev":
                costs["all"].append(seconds)
                costs[kind or "unlabelled"].append(seconds)
            if kind == "article" and not args.skip_articles and url not in posts:
                if args.cv and body is not None:
                    kept_articles.append((url, body, text))
                runs = body_runs(text or "")
                prepared = tokens(text or "")
                typed = {page_type: timed_segments(body, text, page_type, json_lds[url])[0]
                         for page_type in ("article", "listing")}
                for hint, segments in (("typed article", typed["article"]), ("typed listing", typed["listing"]),
                                       ("typed forum", found)):
                    counts = articles[f"{corpus}, {hint}"]
                    counts["pages"] += 1
                    counts["with segments"] += bool(segments)
                    if any(holds_body_text(segment.text, prepared, runs) for segment in segments):
                        counts["holding body text"] += 1
                        holding[f"{corpus}, {hint}"].append(url)
            page = posts.get(url)
            if page is None:
                continue
            software_of[url] = software(html, url, page.get("software"))
            if args.cv and body is not None and page["posts"]:
                kept_forum.append((url, body, page))
            long_posts = sum(post["words"] >= MIN_WORDS for post in labelled_posts(page))
            characters = page.get("language") in CHARACTER_LANGUAGES
            long_segments[corpus].extend((f"{url}#{index}", segment.text) for index, segment in enumerate(found)
                                         if _length(segment.text, characters) >= SegmentParams().min_tokens)
            for segment in found:
                left_out[corpus]["segments"] += 1
                left_out[corpus]["kept words"] += len(segment.text.split())
                left_out[corpus]["left out"] += segment.left_out_words or 0
                left_out[corpus]["counted"] += segment.left_out_words is not None
            for setting, segments in (("text", found), ("None", timed_segments(body, None, "forum", json_lds[url])[0])):
                if not page["posts"]:
                    if segments:
                        empty_with_segments[f"{corpus}, text={setting}"].append(url)
                    continue
                outcome = score_posts(segments, page)
                groups = ["all", page["kind"], f"lang {page['language']}"]
                if args.software:
                    groups.append(software_of[url])
                table = tables[f"{corpus} posts, text={'extracted' if setting == 'text' else 'None'}"]
                for group in groups:
                    table[group].update(outcome)
                if long_posts >= 3:
                    threads[f"{corpus}, text={setting}"] += 1
                    if not segments:
                        threads_without[f"{corpus}, text={setting}"].append(url)
    for title, by_group in tables.items():
        posts_table(title, dict(sorted(by_group.items(), key=lambda item: (item[0] != "all", item[0]))))
    for name, count in threads.items():
        print(f"{name}: pages of >= 3 posts of >= {MIN_WORDS} words without a segment: "
              f"{len(threads_without[name])} of {count} {threads_without[name]}")
    for name, urls in empty_with_segments.items():
        print(f"{name}: pages without posts in their HTML that got segments: {len(urls)} {urls}")
    print(f"\nchrome in segments of >= {SegmentParams().min_tokens} tokens (those select's length rule keeps) on the "
          "labelled pages, text=extracted (benchmarks/segment_chrome.py's phrases)")
    for corpus, texts in long_segments.items():
        print_chrome(f"  {corpus}", texts, args.examples)
    print("\nwords the labelled pages' segments keep, and leave out as the software's (left_out_words: the "
          "writer's and date's parts, fields, edit notices, signatures, controls)")
    for corpus, counts in left_out.items():
        print(f"  {corpus:<18}{counts['segments']:>6} segments ({counts['counted']} counted): "
              f"{counts['kept words']} words kept, {counts['left out']} left out")
    if args.software:
        print("\nsoftware of the labelled pages: " + ", ".join(
            f"{name} {count}" for name, count in Counter(software_of.values()).most_common()))
    if not args.skip_articles:
        print("\narticle pages (text=extracted; the segments select keeps on a page it types so):"
              "\n  pages, with segments, with a segment holding article-body text")
        for name, counts in articles.items():
            share = counts["holding body text"] / counts["pages"]
            print(f"  {name:<32}{counts['pages']:>6}{counts['with segments']:>6}{counts['holding body text']:>6}"
                  f"  ({share:.3f})  {holding[name][:args.show]}")
    if args.cv:
        cross_validate(kept_forum, kept_articles,
                       {"domain": {}, "software": {url: f"software {name}" for url, name in software_of.items()}},
                       json_lds)
    print("\ncost of page_segments, ms a page (thread CPU time), wcxb-dev, text=extracted")
    for group, timings in sorted(costs.items(), key=lambda item: -len(item[1])):
        millis = sorted(1000 * value for value in timings)
        print(f"  {group:<14}{len(millis):>6} pages  median {statistics.median(millis):6.2f}"
              f"  p90 {millis[int(0.9 * (len(millis) - 1))]:6.2f}  max {millis[-1]:7.1f}")


if __name__ == "__main__":
    main()
