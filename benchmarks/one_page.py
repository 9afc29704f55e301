"""A one-page run's wall time: `python benchmarks/one_page.py [--repeat N] [--workers N] [--pages N] [--pipeline EXE]`.

Writes one article page (a title, a byline and 30 sentences in six paragraphs, the same bytes
every time) into a temporary folder and times `pipeline run page.html --out DIR` as a user
would start it, `--repeat` times (default 5), each into a fresh output folder (`--pages N`: N
such pages, their sentences rotated, run as a folder: one task each). Printed: each run's wall,
the median, and from the median run's `stats.json` the time its steps took, the select and the
report, so that the fixed cost (the wall less the records' steps) shows.
Also printed: the CPU time of each run, its workers included (user and system): on a shared or
small machine the run's processes compete for the cores, and the CPU time moves less with the
machine's load than the wall does. Target (#46): the median wall <= 2.5 s.

`--pipeline` names the console script to time (default: the one beside this Python), so that a
plain user install (`pip install .`, no test extras) can be timed from a checkout.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 2.5


SENTENCES = (
    "The new bridge over the river will open in the spring, the council said on Monday.",
    "Work began two years ago and was meant to take eighteen months.",
    "The cost has risen by about a third since the first plans were drawn up.",
    "Most of the extra money went on steel, which arrived late after a supplier closed.",
    "Traders in the old town hope the crossing will take lorries away from their streets.",
    "A footpath and a cycle lane were added after a crowded public meeting last year.",
    "The river flooded the site twice during the first winter, washing away a crane base.",
    "Engineers then raised the temporary platforms by almost a metre.",
    "An inquiry into the delays reported in August and blamed nobody in particular.",
    "Its authors did say that the timetable had been optimistic from the start.",
    "The mayor, who has backed the scheme since she was elected, called the report fair.",
    "Her opponents on the council said it let the contractor off lightly.",
    "Residents who live near the northern ramp have complained about noise at night.",
    "The contractor agreed in October to stop piling work after seven in the evening.",
    "The old ferry, which has carried passengers for more than a century, will keep running.",
    "It will sail only at weekends, mainly for visitors and school trips.",
    "Lights along the deck will be switched off after midnight to protect the bats.",
    "A survey found three colonies roosting under the arches of the railway viaduct.",
    "The county surveyor said a second crossing further east is not planned for now.",
    "Some councillors think it will be needed within twenty years as the town grows.",
    "Bus companies have already drawn up new routes that use the bridge.",
    "One of them expects to cut ten minutes from the journey to the hospital.",
    "Parking on the southern bank will be limited while the junction is rebuilt.",
    "Shops there have been offered a small grant to make up for lost trade.",
    "The opening ceremony is expected to be modest, partly because of the overspend.",
    "A local choir has nonetheless offered to sing on the first morning.",
    "Children from the primary school painted the hoardings around the site last summer.",
    "Their pictures will be moved to the library once the hoardings come down.",
    "The council will publish the final cost of the project next year.",
    "Until then, officials say, any figure is only an estimate.",
)


def article_page(shift: int = 0) -> str:
    """A plain news article of 30 sentences in six paragraphs, with a title, a byline and a date
    (`shift`: the sentences rotated by that many, for a folder of pages that are not byte-equal)."""
    sentences = SENTENCES[shift:] + SENTENCES[:shift]
    paragraphs = ["<p>" + " ".join(sentences[i:i + 5]) + "</p>" for i in range(0, len(sentences), 5)]
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>The new bridge opens in spring</title><meta property=\"og:type\" content=\"article\"></head>"
            "<body><header><a href=\"/\">Town News</a></header>"
            "<article><h1>The new bridge opens in spring</h1><p class=\"byline\">By Ann Example, 3 March 2024</p>"
            + "".join(paragraphs) + "</article><footer>Town News</footer></body></html>\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None, help="passed on to pipeline run (default: its own)")
    parser.add_argument("--pages", type=int, default=1,
                        help="pages to write; more than one are run as a folder (one task each)")
    parser.add_argument("--pipeline", type=Path, default=Path(sys.executable).with_name("pipeline"))
    args = parser.parse_args()
    if not args.pipeline.is_file():
        sys.exit(f"no console script at {args.pipeline} (install the project, or pass --pipeline)")
    with tempfile.TemporaryDirectory() as tmp:
        if args.pages == 1:
            page = Path(tmp) / "page.html"
            page.write_text(article_page(), encoding="utf-8")
        else:
            page = Path(tmp) / "pages"
            page.mkdir()
            for index in range(args.pages):
                (page / f"page-{index:03d}.html").write_text(article_page(index), encoding="utf-8")
        runs: list[tuple[float, dict]] = []
        cpus: list[float] = []
        for attempt in range(args.repeat):
            out = Path(tmp) / f"out{attempt}"
            command = [str(args.pipeline), "run", str(page), "--out", str(out)]
            if args.workers is not None:
                command += ["--workers", str(args.workers)]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            # in the temporary folder: no params.yaml of the caller's folder is read (the defaults are)
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            runs.append((wall, json.loads((out / "stats.json").read_text(encoding="utf-8"))))
            cpus.append(cpu)
            print(f"run {attempt + 1}: {wall:.2f} s wall, {cpu:.2f} s CPU (all processes)")
        walls = sorted(wall for wall, _ in runs)
        median = statistics.median(walls)
        stats = min(runs, key=lambda run: abs(run[0] - median))[1]
        print(f"median CPU {statistics.median(cpus):.2f} s (user and system, the run and its workers)")
        print(f"median wall {median:.2f} s over {len(walls)} runs (target <= {TARGET_S} s): "
              f"{'met' if median <= TARGET_S else 'not met'}")
        print("median run's stats.json timings (s):")
        for key, value in sorted(stats["timings"].items()):
            print(f"  {key:<24} {value['seconds']:.3f}")
        if stats["accepted"] == 0:
            print(f"warning: no page was accepted ({', '.join(stats['by_reason'])})")


if __name__ == "__main__":
    main()
