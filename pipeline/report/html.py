"""`index.html` of `pipeline report`: the run's summary and tables, and each figure with its data.

Text from the pages (reason codes, hosts) is HTML-escaped; the page holds no paths and no dates,
so it is reproducible byte for byte.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl


@dataclass(frozen=True)
class Section:
    """One figure of the report: its title, image and data files (names relative to the report)."""

    title: str
    image: str
    data: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class SplitTables:
    """The detector dataset's tables: accepted pages per split and language; pages, hosts and
    sites per split."""

    languages: pl.DataFrame  # split, language, accepted_pages
    hosts: pl.DataFrame  # split, accepted_pages, hosts, sites


STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1.5em 0; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; }
"""


def render_index(stats: dict[str, Any], reasons: pl.DataFrame, minimums: pl.DataFrame,
                 sections: Sequence[Section], splits: SplitTables | None = None,
                 examples: dict[str, list[dict[str, Any]]] | None = None) -> str:
    """The whole page: summary, the reasons and host tables, the dataset's splits, example
    rejected pages per reason, then every section's figure."""
    parts = [
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Filter report</title>',
        f"<style>{STYLE}</style>\n</head>\n<body>\n<h1>Filter report</h1>",
        "<h2>Summary</h2>", summary_table(stats), *warnings_html(stats.get("warnings") or []),
        "<h2>Rejections per reason</h2>", reasons_html(reasons, _params_of(stats)),
        "<h2>Accepted pages per host</h2>", hosts_html(minimums),
        *(splits_html(splits) if splits is not None else ()),
        *(examples_html(examples) if examples is not None else ()),
        "<h2>Figures</h2>", *(figure_html(section) for section in sections),
        "</body>\n</html>\n",
    ]
    return "\n".join(parts)


def number_cell(value: object, key: str) -> str:
    text = f"{value:,}" if isinstance(value, int) else str(value)
    return f'<td class="n" data-key="{html.escape(key)}">{html.escape(text)}</td>'


def summary_table(stats: dict[str, Any]) -> str:
    records_in = int(stats.get("records_in", 0))
    accepted_count = int(stats.get("accepted", 0))
    share = f"{accepted_count / records_in:.1%}" if records_in else "–"
    rows = [
        ("records in", number_cell(records_in, "records_in")),
        ("accepted", number_cell(accepted_count, "accepted")),
        ("rejected", number_cell(int(stats.get("rejected", 0)), "rejected")),
        ("accepted share", number_cell(share, "accepted_share")),
        ("input files", number_cell(len(stats.get("files") or []), "files")),
        ("skipped files (not WARC/ARC/HTML)", number_cell(len(stats.get("skipped_files") or []), "skipped_files")),
        ("warnings", number_cell(len(stats.get("warnings") or []), "warnings")),
    ]
    body = "".join(f"<tr><th>{html.escape(label)}</th>{cell}</tr>\n" for label, cell in rows)
    return f"<table>\n{body}</table>"


def warnings_html(warnings: Sequence[str]) -> list[str]:
    """The run's warnings, one item each (inputs not read whole, work directories from another
    version); nothing when there are none."""
    if not warnings:
        return []
    items = "".join(f"<li>{html.escape(warning)}</li>\n" for warning in warnings)
    return ["<h2>Warnings</h2>", f'<ul class="warnings">\n{items}</ul>']


def _params_of(stats: dict[str, Any]) -> Any:
    """The params the run recorded (stats.json), to show each rule as it ran; None if unreadable
    (a stats.json of another version)."""
    from pipeline.params import ParamsError, params_from_dict

    try:
        return params_from_dict(stats.get("params"))
    except ParamsError:
        return None


def reasons_html(table: pl.DataFrame, params: Any = None) -> str:
    if table.height == 0:
        return "<p>No page was rejected.</p>"
    head = "<tr><th>reason</th><th>meaning</th><th>as it ran</th><th>first reason</th><th>all reasons</th></tr>\n"
    body = "".join(reason_row(code, first, total, params) for code, first, total in table.iter_rows())
    return f"<table>\n{head}{body}</table>"


def reason_row(code: str, first: int, total: int, params: Any = None) -> str:
    # imported here: index.html is written by the driver, which holds the rules already; the
    # workers that draw the figures import this module without them
    from filters.rules.reasons import RULES_BY_CODE

    rule = RULES_BY_CODE.get(code)
    meaning = rule.meaning if rule is not None else ""
    ran = rule.in_force(params) if rule is not None and params is not None else ""
    return (f'<tr data-reason="{html.escape(code)}"><td><code>{html.escape(code)}</code></td>'
            f"<td>{html.escape(meaning)}</td><td><code>{html.escape(ran)}</code></td>"
            f"{number_cell(first, 'first_reason')}{number_cell(total, 'by_reason')}</tr>\n")


def hosts_html(minimums: pl.DataFrame) -> str:
    head = "<tr><th>hosts with at least</th><th>hosts</th></tr>\n"
    body = "".join(f"<tr><td>{n:,} accepted page{'s' if n != 1 else ''}</td>{number_cell(hosts, f'hosts_min_{n}')}"
                   "</tr>\n" for n, hosts in minimums.iter_rows())
    return f"<table>\n{head}{body}</table>"


def figure_html(section: Section) -> str:
    image = html.escape(section.image)
    title = html.escape(section.title)
    data = ", ".join(f'<a href="{html.escape(name)}">{html.escape(name)}</a>' for name in section.data)
    note = f" {html.escape(section.note)}" if section.note else ""
    return (f'<figure>\n<h3>{title}</h3>\n<a href="{image}"><img src="{image}" alt="{title}"></a>\n'
            f"<figcaption>{note.strip()} Data: {data}.</figcaption>\n</figure>")


def splits_html(splits: SplitTables) -> list[str]:
    head = ("<tr><th>split</th><th>accepted pages</th><th>hosts</th><th>sites</th>"
            "<th>removed: shares a story with train</th></tr>\n")
    body = "".join(f"<tr><td>{html.escape(split)}</td>{number_cell(pages, f'{split}_pages')}"
                   f"{number_cell(hosts, f'{split}_hosts')}{number_cell(sites, f'{split}_sites')}"
                   f"{number_cell(cross, f'{split}_cross_split')}</tr>\n"
                   for split, pages, hosts, sites, cross in splits.hosts.select(
                       "split", "accepted_pages", "hosts", "sites", "cross_split_rejected").iter_rows())
    languages = "<tr><th>split</th><th>language</th><th>accepted pages</th></tr>\n" + "".join(
        f"<tr><td>{html.escape(split)}</td><td>{html.escape(language)}</td>"
        f"{number_cell(pages, f'{split}_{language}')}</tr>\n"
        for split, language, pages in splits.languages.iter_rows())
    return ["<h2>Detector dataset: splits</h2>",
            "<p>Pages, hosts and sites (the unit of dataset.split_by, registered domains by default) with "
            "accepted pages, per split. A site is in one split only. Validation and test pages that share a "
            "story with a kept train page are removed (dataset.cross_split).</p>", f"<table>\n{head}{body}</table>",
            "<h3>Languages per split</h3>", f"<table>\n{languages}</table>"]


def examples_html(examples: dict[str, list[dict[str, Any]]]) -> list[str]:
    """A few rejected pages per reason (the first ones in output order), to judge each rule by eye."""
    parts = ["<h2>Example rejected pages per reason</h2>",
             "<p>The first rejected pages with each reason, in output order: URL, title and the first words "
             "of the extracted text (none when the page was not extracted).</p>"]
    for code, pages in examples.items():
        if not pages:
            continue
        rows = "".join(
            f"<tr><td>{html.escape(page['url'] or '')}</td><td>{html.escape(page['title'] or '')}</td>"
            f"<td>{html.escape(page['words'] or '(no text)')}</td></tr>\n" for page in pages)
        parts.append(f'<h3 data-reason="{html.escape(code)}"><code>{html.escape(code)}</code></h3>\n'
                     f"<table>\n<tr><th>URL</th><th>title</th><th>first words</th></tr>\n{rows}</table>")
    return parts
