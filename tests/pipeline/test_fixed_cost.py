"""What a short run does not load: the fixed cost of `pipeline run` (#46, docs/benchmarks.md).

A one-page run used to import LightGBM's Python package (and with it scikit-learn and SciPy),
scikit-learn's text hashing, matplotlib in the driver and dateparser, together most of a 12 s
run. Each is checked here by what a real run leaves in `sys.modules` of the process that read
the page and selected it (one worker, one task: both happen in the driver).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = """<!doctype html><html lang="en"><head><title>The council votes on the budget</title></head>
<body><article><h1>The council votes on the budget</h1>
{paragraphs}
</article></body></html>"""

RUN_AND_LIST = """
import json, sys
from pipeline.cli import main
code = main(["run", sys.argv[1], "--out", sys.argv[2], "--workers", "1"])
loaded = sorted(name for name in ("lightgbm", "sklearn", "scipy", "matplotlib", "dateparser")
                if name in sys.modules)
print(json.dumps({"code": code, "loaded": loaded}))
"""


@pytest.fixture(scope="module")
def one_page_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("fixed-cost")
    sentence = ("The city council met on Tuesday evening to debate the budget for the coming year, and "
                "residents spoke for and against the plan to repair the old bridge before winter. ")
    page = folder / "page.html"
    page.write_text(PAGE.format(paragraphs="\n".join(f"<p>{sentence * 3}</p>" for _ in range(8))), encoding="utf-8")
    out = folder / "out"
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST, str(page), str(out)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["out"] = out
    return result


def test_the_run_succeeds_with_its_report(one_page_run: dict[str, object]) -> None:
    out = one_page_run["out"]
    assert isinstance(out, Path)
    assert one_page_run["code"] == 0
    assert (out / "report" / "index.html").is_file() and (out / "report" / "funnel.png").stat().st_size > 0
    assert json.loads((out / "stats.json").read_text())["records_in"] == 1


def test_the_driver_loads_no_model_library_plotting_or_date_parser(one_page_run: dict[str, object]) -> None:
    # the page-type model predicts through LightGBM's C library, the text model hashes with mmh3,
    # figures are drawn in a process of their own, and a page whose dates the standard library
    # reads never loads dateparser
    assert one_page_run["loaded"] == []
