"""The grammar of the command line: the `pipeline` parser and its commands' options
(`pipeline/cli.py` runs them). A parse error is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from pipeline.store.storage import redact

USAGE_ERROR = 2
RESUMABLE = ("run", "extract", "select")  # the commands with --resume
BATCH_COMMANDS = ("run", "extract", "select", "report", "train", "sample")  # --log, --quiet, --progress-every
PARAMS_HELP = "params.yaml (default: ./params.yaml if present, else built-in defaults)"


class _Parser(argparse.ArgumentParser):
    _given: Sequence[str] = ()

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]  # typeshed: overloads
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        # Kept for `error`: the arguments this parser (the root or a command's) was given.
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(redact(f"pipeline: error: {message}{self._dash_file_hint()} (see `{self.prog} --help`)\n"))
        sys.exit(USAGE_ERROR)

    def _dash_file_hint(self) -> str:
        """A file named `-x.warc.gz` reads as an option, and argparse then complains of something
        else (a missing INPUT): say how to name it."""
        files = [arg for arg in self._given if arg.startswith("-") and arg != "--" and os.path.exists(arg)]
        if not files:
            return ""
        example = f" (`{self.prog} --out DIR -- {files[0]}`)" if " " in self.prog else ""
        return (f"; {files[0]} is a file: to name a file whose name starts with '-', write it after the "
                f"options and `--`{example}, or as ./{files[0]}")


def build_parser(handlers: Mapping[str, Callable[[argparse.Namespace], Any]] | None = None) -> argparse.ArgumentParser:
    """The parser; each command's handler (`handlers[name]`, if given) becomes its `func`."""
    parser = _Parser(prog="pipeline", description="Raw web crawls -> clean article datasets.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the version (package version, and the git commit of a checkout) and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser("run", help="extract + select (+ report) in one go")
    _add_extract_options(run, out_help="output directory (dataset, stats.json, work/)")

    extract = commands.add_parser("extract", help="stage 1: records -> signals + text, one file per input")
    _add_extract_options(extract, out_help="work directory")

    sel = commands.add_parser("select", help="stage 2: thresholds + dedup -> accepted/rejected shards")
    sel.add_argument("workdir", nargs="+", metavar="WORKDIR",
                     help="work directories of `pipeline extract` (several: selected and de-duplicated together)")
    sel.add_argument("--out", required=True, metavar="DIR",
                     help="output directory (dataset, stats.json, the card, report/); may hold WORKDIR as DIR/work")
    sel.add_argument("--params", type=Path, metavar="FILE", help=PARAMS_HELP)
    _add_executor_options(sel, "processes running the de-duplication partitions")
    sel.add_argument("--resume", action="store_true",
                     help="reuse the de-duplication partitions an interrupted select finished")
    sel.add_argument("--no-report", action="store_true",
                     help="write no report (DIR/report, written by default, is then removed: it would describe "
                          "another selection)")

    report = commands.add_parser("report", help="stage 3: figures (PNG), CSVs and index.html for a run")
    report.add_argument("run_dir", metavar="DIR", help="the output directory of `pipeline run` or `pipeline select`")
    report.add_argument("--out", metavar="DIR", help="where to write (default DIR/report)")

    explain = commands.add_parser("explain", help="one page: every signal, reason and extractor trace")
    explain.add_argument("inputs", nargs="+", metavar="FILE_OR_DIR",
                         help="an HTML file, or WARC/ARC files or directories to search with --url")
    explain.add_argument("--url", help="the record's exact target URI (required when the inputs hold several records)")
    explain.add_argument("--offset", type=int, help="the record's offset in its file, where several records have "
                                                    "the URL (explain names them)")
    explain.add_argument("--params", type=Path, metavar="FILE", help=PARAMS_HELP)
    explain.add_argument("--json", action="store_true", help="print the row as JSON")
    explain.add_argument("--workers", type=_positive_int, default=1, metavar="N",
                         help="processes for the run over the inputs that judges the record (default 1: an HTML "
                              "file or a small WARC; give more for a large crawl)")

    train = commands.add_parser("train", help="fit the page-type model on labelled pages (writes MODEL and its card)")
    train.add_argument("labels", nargs="+", metavar="LABELS",
                       help="NAME.labels.json (URL -> page type; labels NAME.warc.gz beside it) or WARC=TYPE")
    train.add_argument("--out", required=True, type=Path, metavar="MODEL", help="the model file to write (JSON)")
    train.add_argument("--params", type=Path, metavar="FILE", help=PARAMS_HELP)
    train.add_argument("--workers", type=_positive_int, default=usable_cores(), metavar="N",
                       help=f"processes extracting the labelled WARCs; default: every core this process may use "
                            f"({usable_cores()} here)")

    sample = commands.add_parser("sample", help="write the bundled sample (WARC + HTML + manifest)")
    sample.add_argument("--out", required=True, metavar="DIR", help="where to write the sample's files")
    for name, command in commands.choices.items():
        if name in BATCH_COMMANDS:
            _add_output_options(command)
        if handlers is not None:
            command.set_defaults(func=handlers[name])
    return parser


def _add_extract_options(parser: argparse.ArgumentParser, out_help: str) -> None:
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="WARC/ARC files, HTML files, or directories (walked recursively)")
    parser.add_argument("--out", required=True, metavar="DIR", help=out_help)
    parser.add_argument("--params", type=Path, metavar="FILE", help=PARAMS_HELP)
    _add_executor_options(parser, "processes extracting input files in parallel")
    parser.add_argument("--extract-all", action="store_true",
                        help="run the extraction cascade on every HTML record, even gated ones")
    parser.add_argument("--resume", action="store_true",
                        help="skip input files whose finished output is present and valid")


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity (a container's or a scheduler's
    limit), else every core of the machine."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _add_executor_options(parser: argparse.ArgumentParser, workers_help: str) -> None:
    parser.add_argument("--workers", type=_positive_int, default=usable_cores(), metavar="N",
                        help=f"{workers_help}; default: every core this process may use ({usable_cores()} here)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="local: processes on this machine (default); ray: tasks on a Ray cluster "
                             "(the `ray` extra)")
    parser.add_argument("--ray-address", metavar="ADDR",
                        help="with --executor ray: the cluster to join (auto, or ray://HOST:PORT); default: a local "
                             "Ray started for this run")


class _Version(argparse.Action):
    """`--version`: the code version, read only when asked (a checkout's commit costs a git call)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from pipeline.version import code_version

        print(f"{parser.prog} {code_version()}")
        parser.exit()


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    """What a batch job sees: its log file, quiet, and how often progress is written without a terminal."""
    parser.add_argument("--log", type=Path, metavar="FILE",
                        help="also append everything printed (progress, warnings, the summary) to FILE")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress and no summary; warnings and errors are still written to stderr")
    parser.add_argument("--progress-every", type=_positive_float, default=30.0, metavar="SECONDS",
                        help="without a terminal, a progress line (tasks, MB, records, rate, time left) at most "
                             "this often; default 30")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value
