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

from filters.reasons import RULES_BY_CODE


@dataclass(frozen=True)
class Section:
    """One figure of the report: its title, image and data files (names relative to the report)."""

    title: str
    image: str
    data: tuple[str, ...]
    note: str = ""


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
                 sections: Sequence[Section]) -> str:
    """The whole page: summary, the reasons and host tables, then every section's figure."""
    parts = [
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Filter report</title>',
        f"<style>{STYLE}</style>\n</head>\n<body>\n<h1>Filter report</h1>",
        "<h2>Summary</h2>", summary_table(stats),
        "<h2>Rejections per reason</h2>", reasons_html(reasons),
        "<h2>Accepted pages per host</h2>", hosts_html(minimums),
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


def reasons_html(table: pl.DataFrame) -> str:
    if table.height == 0:
        return "<p>No page was rejected.</p>"
    head = "<tr><th>reason</th><th>meaning</th><th>first reason</th><th>all reasons</th></tr>\n"
    body = "".join(reason_row(code, first, total) for code, first, total in table.iter_rows())
    return f"<table>\n{head}{body}</table>"


def reason_row(code: str, first: int, total: int) -> str:
    rule = RULES_BY_CODE.get(code)
    meaning = rule.meaning if rule is not None else ""
    return (f'<tr data-reason="{html.escape(code)}"><td><code>{html.escape(code)}</code></td>'
            f"<td>{html.escape(meaning)}</td>{number_cell(first, 'first_reason')}{number_cell(total, 'by_reason')}"
            "</tr>\n")


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
