"""The README and docs/: every relative link resolves (file and heading), the README stays short,
and neither they nor the code cite documents a reader cannot open."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md", *DOCS]
EXPECTED_DOCS = {"cli.md", "output.md", "filters.md", "reliability.md", "scale.md", "dataset.md", "benchmarks.md",
                 "development.md"}
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
# Internal references: numbers of documents and issues that are not in the repository.
INTERNAL = re.compile(r"seed 0|issues? #\d|CONTRACT\.md|\.\./shared/seeds")


def slug(heading: str) -> str:
    """The anchor a code host gives a Markdown heading: lower-cased, punctuation dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"^#{1,6} ", line):
            found.add(slug(line.lstrip("#")))
    return found


def links(page: Path) -> list[str]:
    text, fenced, kept = page.read_text(encoding="utf-8"), False, []
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return LINK.findall("\n".join(kept))


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:: not checked (no network)
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    return broken


def test_docs_are_all_there():
    assert {page.name for page in DOCS} >= EXPECTED_DOCS


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_resolves(page):
    assert not broken_links(page)


def test_the_link_checker_finds_a_broken_file_and_a_broken_anchor(tmp_path):
    (tmp_path / "a.md").write_text("# Title\n\n## Some section\n\n[ok](#some-section) [ok](b.md)\n"
                                   "[bad](missing.md) [bad](#no-such-heading) [web](https://example.org)\n")
    (tmp_path / "b.md").write_text("# B\n")
    assert broken_links(tmp_path / "a.md") == ["missing.md", "#no-such-heading"]


def test_the_readme_reads_in_five_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_no_internal_references():
    """Code, tests, benchmarks, params and docs cite the repository's docs or public sources only."""
    code = [path for folder in ("pipeline", "filters", "samplegen", "benchmarks", "tests")
            for path in (ROOT / folder).rglob("*.py") if path != Path(__file__)]
    files = [*PAGES, *code, ROOT / "params.yaml", *(ROOT / "presets").glob("*.yaml"),
             ROOT / "data/sample/manifest.json"]
    cited = [f"{path.relative_to(ROOT)}:{number}" for path in files
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if INTERNAL.search(line)]
    assert not cited
