"""Command line: `pipeline run | extract | select | report | explain | train | sample`.

Exit status: 0 done (damaged records and files inside the input are rejected rows, not
failures); 2 usage error (one clear line on stderr, no traceback); 1 anything else.

INPUT, `--out`, WORKDIR and DIR may be URLs (`pipeline/store/storage.py`). A URL `--out` is written into
a local temporary directory and published at the end (`writers.output_directory`); the work
directory of `run` is then `--out`/work at the URL, written by the extract tasks themselves.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, NoReturn, TextIO

from pipeline.arguments import RESUMABLE, USAGE_ERROR, build_parser
from pipeline.io.readers import discover_inputs
from pipeline.params import Params, ParamsError, RenamedKeyWarning, given_keys, load_params
from pipeline.process_policy import EXTRACT_PRELOAD, ProcessPolicy
from pipeline.run.executors import PROGRESS, Executor, duration_text, use_system_allocator
from pipeline.run.ray_executor import RayUnavailable
from pipeline.run.timings import since
from pipeline.stages.extract import ExtractTask
from pipeline.stages.extract_tasks import run_extract
from pipeline.stages.select import STATS, SelectError, input_warnings, select
from pipeline.store.ownership import (
    OutputRefused,
    claim_output,
    claim_report_output,
    mark_output,
    refuse_overlap,
    refuse_report_overlap,
    refuse_select_overlap,
)
from pipeline.store.storage import (
    ObjectPath,
    StorageUnavailable,
    describe_error,
    is_url,
    join,
    location,
    redact,
    without_credentials,
)
from pipeline.store.workdir import prepare_workdir, write_manifest
from pipeline.store.writers import output_directory, publish_tree


class UsageError(Exception):
    """Bad invocation: reported in one line, exit status 2."""


class Terminated(BaseException):
    """SIGTERM (a scheduler, `kill`, `timeout`): unwinds like Ctrl-C, so the workers are stopped
    and the temporary files removed on the way out. A BaseException, so that no filter's error
    handling turns it into an `error.*` row."""


def main(argv: list[str] | None = None) -> int:
    args = build_parser(HANDLERS).parse_args(argv)
    _remove_credentials(args)
    use_system_allocator()
    with _output_options(args), warnings.catch_warnings():
        warnings.showwarning = _show_warning
        return _dispatch(args)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A params warning (an old key's name) as one `pipeline: warning:` line; others as Python prints them."""
    if issubclass(category, RenamedKeyWarning):
        print(f"pipeline: warning: {message}", file=sys.stderr)
    else:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _dispatch(args: argparse.Namespace) -> int:
    try:
        with _sigterm_raises():
            return int(args.func(args))
    except (UsageError, ParamsError, SelectError, StorageUnavailable, OutputRefused, RayUnavailable) as exc:
        sys.stderr.write(f"pipeline: error: {_one_line(exc)}\n")
        return USAGE_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("pipeline: interrupted\n")
        return 130
    except BrokenPipeError:  # `pipeline explain … | head`: the reader left; nothing to say to it
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115  # Python flushes it at exit
        return 141
    except Terminated:
        sys.stderr.write(f"pipeline: terminated; re-run{_resume_hint(args)} to go on\n")
        return 128 + signal.SIGTERM
    except Exception as exc:  # anything else is a bug or an environment problem: exit 1
        if os.environ.get("PIPELINE_DEBUG"):
            traceback.print_exc()
        else:
            sys.stderr.write(f"pipeline: failed: {_failure_message(exc, args)}\n")
        return 1


@contextlib.contextmanager
def _output_options(args: argparse.Namespace) -> Iterator[None]:
    """`--log FILE` (everything printed also appended there), `--quiet` (no progress, no summary)
    and `--progress-every` (how often a batch job gets a progress line), for the command's length."""
    PROGRESS.quiet = bool(getattr(args, "quiet", False))
    PROGRESS.every_seconds = float(getattr(args, "progress_every", PROGRESS.every_seconds))
    log_path = getattr(args, "log", None)
    with contextlib.ExitStack() as stack:
        out, err = sys.stdout, sys.stderr
        log = None
        if log_path is not None:
            try:
                log_path.parent.mkdir(parents=True, exist_ok=True)
                log = stack.enter_context(open(log_path, "a", encoding="utf-8", buffering=1))
            except OSError as exc:
                raise SystemExit(f"pipeline: error: cannot write the log {log_path}: {exc.strerror}") from None
            log.write(f"# {time.strftime('%Y-%m-%dT%H:%M:%S%z')} pipeline {' '.join(sys.argv[1:])}\n")
        shown = open(os.devnull, "w", encoding="utf-8") if PROGRESS.quiet else out  # noqa: SIM115
        if PROGRESS.quiet:
            stack.callback(shown.close)
        stack.enter_context(contextlib.redirect_stdout(_Tee(shown, log)))
        stack.enter_context(contextlib.redirect_stderr(_Tee(err, log)))
        yield


class _Tee(io.TextIOBase):
    """A text stream that writes to `shown` (and `log`, if any); a terminal is a terminal still."""

    def __init__(self, shown: TextIO, log: TextIO | None) -> None:
        super().__init__()
        self._shown, self._log = shown, log

    def write(self, text: str) -> int:
        self._shown.write(text)
        if self._log is not None:
            self._log.write(text)
        return len(text)

    def flush(self) -> None:
        self._shown.flush()
        if self._log is not None:
            self._log.flush()

    def isatty(self) -> bool:
        # Ray's colour reset asks at exit, when a quiet run's null stream is already closed.
        return not self._shown.closed and self._shown.isatty()


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """Raise `Terminated` on SIGTERM while the command runs (main thread only: elsewhere Python
    cannot install a handler), then put the previous handler back."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_terminated(signum: int, frame: Any) -> NoReturn:
    raise Terminated()


def _failure_message(exc: Exception, args: argparse.Namespace) -> str:
    """One line for an exit-1 failure: what happened and what to do, without a traceback."""
    resume = _resume_hint(args)
    if isinstance(exc, BrokenProcessPool):
        return f"a worker process died (killed, or out of memory?); re-run{resume} to go on"
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        out = getattr(args, "out", None) or getattr(args, "run_dir", "the output directory")
        return f"no space left on device while writing to {out}; free space, then re-run{resume}"
    storage = describe_error(exc)
    if storage is not None:
        return f"{storage} (set PIPELINE_DEBUG=1 for the traceback)"
    return f"{type(exc).__name__}: {_one_line(exc)} (set PIPELINE_DEBUG=1 for the traceback)"


def _resume_hint(args: argparse.Namespace) -> str:
    """' with --resume' for the commands that have the option, else nothing: `explain`, `report`,
    `train` and `sample` start over."""
    return " with --resume" if args.command in RESUMABLE else ""


def _one_line(exc: BaseException) -> str:
    # Some library messages (pyarrow, polars) span lines; the contract is one line on stderr.
    # No URL credentials either, whatever a library put in its message.
    return redact(" ".join(str(exc).split()))


def _remove_credentials(args: argparse.Namespace) -> None:
    """Drop `user:password@` from URL arguments: credentials come from the environment only, and
    what is printed or stored (stats.json, source_file) must not carry them."""
    changed = False
    for name in ("inputs", "out", "workdir", "run_dir"):
        value = getattr(args, name, None)
        if isinstance(value, list):
            cleaned: list[str] | str = [without_credentials(item) for item in value]
        elif isinstance(value, str):
            cleaned = without_credentials(value)
        else:
            continue
        changed |= cleaned != value
        setattr(args, name, cleaned)
    if changed:
        sys.stderr.write("pipeline: credentials in URLs are not used and were removed; give them in the "
                         "environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE) or ~/.aws\n")


def _sample(args: argparse.Namespace) -> int:
    from pipeline.sample import write_sample
    from samplegen.content import manifest_path

    entries = write_sample(Path(args.out))
    print(f"wrote the sample to {args.out}, its {len(entries)} manifest entries to {manifest_path(Path(args.out))}")
    return 0


def _report_command(args: argparse.Namespace) -> int:
    _require_dir(args.run_dir, "run directory")
    if args.out is not None:
        refuse_report_overlap(args.out, args.run_dir)
        _writable(args.out, lambda: claim_report_output(args.out))
    if is_url(args.run_dir) or (args.out is not None and is_url(args.out)):
        print(f"report: {_url_report(args.run_dir, args.out)}")
        return 0
    index = _report(Path(args.run_dir), Path(args.out) if args.out else None)
    print(f"report: {index}")
    return 0


def _select(args: argparse.Namespace) -> int:
    params = load_params(args.params)
    for workdir in args.workdir:
        _require_dir(workdir)
    refuse_select_overlap(args.out, args.workdir)
    _writable(args.out, lambda: claim_output(args.out))
    index = None
    policy = ProcessPolicy.for_select(args, params)
    with output_directory(args.out, STATS) as out_dir, policy.executor_for(preload=()) as executor:
        started = time.perf_counter()
        stats = select(args.workdir, str(out_dir), params, executor=executor, resume=args.resume,
                       asked=given_keys(args.params))
        _stage_end("select", started, _decided(stats))
        # Every output in DIR describes this selection: the report is drawn again, or removed.
        if args.no_report:
            shutil.rmtree(out_dir / "report", ignore_errors=True)
        else:
            with policy.report_executor(executor) as drawing:
                index = _report(out_dir, None, drawing, here_too=policy.here_too)
    _print_summary(stats, args.out)
    if index is not None:
        print(f"report: {join(args.out, *index.relative_to(out_dir).parts)}")
    return 0


def _prepare_extract(args: argparse.Namespace) -> tuple[Params, list[str], dict[str, str]]:
    """What run and extract check before any work: params, the inputs, and an --out that is
    neither an input nor someone else's directory."""
    params = load_params(args.params)
    inputs, skipped = _discover(args.inputs)
    refuse_overlap(args.out, args.inputs)
    _writable(args.out, lambda: claim_output(args.out))
    return params, inputs, skipped


def _extract_command(args: argparse.Namespace) -> int:
    params, inputs, skipped = _prepare_extract(args)
    policy = ProcessPolicy.of(args, params)
    with policy.executor_for() as executor:
        summaries = _extract(args, params, args.out, inputs, skipped, executor, policy)[1]
    warnings = input_warnings(summaries)
    _print_warnings(warnings)
    records = sum(summary.get("rows", 0) for summary in summaries)
    print(f"records: {records}  files: {len(inputs)}  skipped files: {len(skipped)}  warnings: {len(warnings)}")
    print(f"work directory: {args.out}  (next: pipeline select {args.out} --out DIR)")
    return _failed_tasks_exit([f for summary in summaries for f in summary.get("failed_tasks", [])])


def _stage_end(stage: str, started: float, what: str = "") -> None:
    """A batch job's line at the end of each stage (docs/cli.md, "Progress"): on a terminal the
    summary says it, and `--quiet` says nothing."""
    if PROGRESS.quiet or sys.stderr.isatty():
        return
    sys.stderr.write(f"pipeline: {stage} finished in {duration_text(time.perf_counter() - started)}"
                     + (f": {what}" if what else "") + "\n")


def _decided(stats: dict[str, Any]) -> str:
    return f"{stats['records_in']:,} records, {stats['accepted']:,} accepted"


def _run(args: argparse.Namespace) -> int:
    params, inputs, skipped = _prepare_extract(args)
    policy = ProcessPolicy.for_run(args, params, inputs)  # which process does what, and why
    workdir = join(args.out, "work")
    with policy.run_executors() as (executor, drawing):
        timings, _ = _extract(args, params, workdir, inputs, skipped, executor, policy)
        policy.after_extraction(executor)
        # A URL --out: select and the report write locally, published together at the block's end.
        with output_directory(args.out, STATS) as out_dir:
            selecting = policy.select_executor(executor, drawing)
            started = time.perf_counter()
            stats = select(workdir, str(out_dir), params, extract_timings=timings,
                           executor=selecting, resume=args.resume)
            _stage_end("select", started, _decided(stats))
            index = _report(out_dir, None, drawing, here_too=policy.here_too)
        _print_summary(stats, args.out)
        print(f"report: {join(args.out, *index.relative_to(out_dir).parts)}")
    return _failed_tasks_exit(stats["failed_tasks"])


def _failed_tasks_exit(failed: list[dict[str, Any]]) -> int:
    """0, or 1 with one line when tasks failed every attempt (their records are error.task rows)."""
    if not failed:
        return 0
    first = failed[0]
    sys.stderr.write(f"pipeline: failed: {len(failed)} task(s) failed on every attempt; their records are "
                     f"error.task rows in rejected/ and the tasks are listed in stats.json failed_tasks "
                     f"(first: {first['path']}: {first['error'][:200]}); re-run with --resume to retry them\n")
    return 1


def _url_report(run_dir: str, out: str | None) -> str:
    """`pipeline report` where DIR or --out is a URL: the run's stats.json and shards are read
    from a local copy, the report is drawn locally and its directory replaced at the URL."""
    out = out or join(run_dir, "report")
    with tempfile.TemporaryDirectory(prefix="pipeline-report-") as scratch:
        local_run = location(run_dir)
        if isinstance(local_run, ObjectPath):
            remote, local_run = local_run, Path(scratch) / "run"
            for name in ("accepted", "rejected"):
                (remote / name).download_tree(local_run / name)
            if (remote / STATS).is_file():  # else the report says what is missing
                (remote / STATS).download(local_run / STATS)
        target = location(out)
        if not isinstance(target, ObjectPath):
            return str(_report(local_run, target))
        staging = Path(scratch) / "out"
        index = _report(local_run, staging / target.name)
        publish_tree(staging, target.parent, marker=None)
        return join(out, *index.relative_to(staging / target.name).parts)


def _report(run_dir: Path, out: Path | None, executor: Executor | None = None, here_too: bool = False) -> Path:
    """Draw the report of `run_dir`; `here_too`: this process draws figures too, beside the
    report's process, rather than wait for it (`LocalExecutor.map_here_too`; a one-worker run
    whose select ran its tasks apart, and `pipeline select --workers 1`; docs/decisions.md)."""
    from pipeline.report.index import write_report

    out_dir = out or run_dir / "report"
    started = time.perf_counter()
    try:
        write_report(run_dir, out_dir, executor, here_too=here_too)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    _stage_end("report", started)
    return out_dir / "index.html"


def _discover(paths: list[str]) -> tuple[list[str], dict[str, str]]:
    """Input files and skipped paths (with why); no input file at all is a usage error, not an empty run:
    an empty dataset published over a good one (a re-run replaces every shard) is worse than a
    stop, and an empty input directory is almost always a wrong path or an unfinished copy."""
    try:
        inputs, skipped = discover_inputs(paths)
    except FileNotFoundError as exc:
        raise UsageError(f"input not found: {exc}") from None
    if not inputs:
        first = next(iter(skipped.items()), None)
        why = f" ({len(skipped)} file(s) skipped; {first[0]}: {first[1]})" if first else ""
        raise UsageError(f"no input files found in {' '.join(paths)}{why}")
    return inputs, skipped


def _extract(args: argparse.Namespace, params: Params, workdir: str, inputs: list[str],
             skipped: dict[str, str], executor: Executor,
             policy: ProcessPolicy) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Extract every input; returns the wall-clock timing and the file summaries."""
    target = location(workdir)
    if target.exists() and not target.is_dir():
        raise UsageError(f"output path exists and is not a directory: {workdir}")
    if skipped:
        first, why = next(iter(skipped.items()))
        sys.stderr.write(f"pipeline: skipped {len(skipped)} file(s) (first: {first}: {why}); all are listed in "
                         f"stats.json\n")
    started = time.perf_counter()
    progress = policy.record_bar and sys.stderr.isatty() and not PROGRESS.quiet
    prepare_workdir(workdir)
    mark_output(workdir)  # `run`'s DIR/work: `pipeline extract --out DIR/work --resume` may go on with it
    template = ExtractTask(path="", workdir=workdir, params=params, extract_all=args.extract_all, resume=args.resume,
                           progress=progress)
    run = run_extract(inputs, template, executor)
    write_manifest(workdir, inputs, skipped, params, args.extract_all)
    resumed = [f"{run.resumed_files} of {len(inputs)} files"] if run.resumed_files else []
    if run.resumed_ranges:
        resumed.append(f"{run.resumed_ranges} of {run.ranges} byte ranges")
    if resumed:
        sys.stderr.write(f"pipeline: resumed {' and '.join(resumed)} from earlier output\n")
    records = sum(summary.get("rows", 0) for summary in run.summaries)
    _stage_end("extract", started, f"{records:,} records from {len(inputs):,} files")
    return {"extract.wall": since(started)}, run.summaries


def _explain(args: argparse.Namespace) -> int:
    from pipeline.explain import (
        NotFound,
        explain_row,
        find_record,
        judged_by_engine,
        print_explanation,
        with_engine_verdict,
    )

    params = load_params(args.params)
    try:
        raw = find_record(args.inputs, args.url, params, args.offset)
        row, timings = explain_row(raw, params)
        # the verdict is the run's over these inputs: the same rules, de-duplication and segments
        row = with_engine_verdict(row, *judged_by_engine(args.inputs, params, args.workers))
    except FileNotFoundError as exc:
        raise UsageError(f"input not found: {exc}") from None
    except NotFound as exc:
        raise UsageError(str(exc)) from None
    print_explanation(row, timings, sys.stdout, as_json=args.json, params=params)
    return 0


def _train(args: argparse.Namespace) -> int:
    from pipeline.stages.train import LabelError, train_from_labels

    out: Path = args.out
    if out.exists() and out.is_dir():
        raise UsageError(f"--out must be a file path, not a directory: {out}")
    try:
        trained = train_from_labels(args.labels, [_label_argument(a) for a in args.labels], out,
                                    load_params(args.params), args.workers, EXTRACT_PRELOAD)
    except LabelError as exc:
        raise UsageError(str(exc)) from None
    print(f"model: {out}  ({trained.pages} pages; card: {trained.card})")
    print("kept in cross-validation (whole pipeline): "
          + ", ".join(f"{k} {v:.3f}" for k, v in trained.summary["full_keep_rates"].items()))
    return 0


def _label_argument(argument: str) -> str:
    """A LABELS argument as the model card names it: the file name, not the machine's path."""
    path, _, page_type = argument.rpartition("=") if "=" in argument and not argument.endswith(".json") \
        else (argument, "", "")
    return f"{Path(path).name}={page_type}" if page_type else Path(path).name


def _require_dir(path: str, what: str = "work directory") -> None:
    if not location(path).is_dir():
        raise UsageError(f"{what} not found: {path}")


def _writable(path: str, claim: Callable[[], None]) -> None:
    """Claim the output directory (`pipeline/store/ownership.py`: create it and write its marker)
    before any work, which also shows that a file can be created in it (at a URL: that the bucket
    exists and takes an object from us)."""
    try:
        claim()
    except OSError as exc:
        raise UsageError(f"output directory {path} is not writable: {exc.strerror or exc}") from None


def _print_summary(stats: dict[str, Any], out: str) -> None:
    warnings = stats.get("warnings") or []
    _print_warnings(warnings)
    print(f"records: {stats['records_in']}  accepted: {stats['accepted']}  rejected: {stats['rejected']}  "
          f"warnings: {len(warnings)}")
    splits = stats.get("dataset", {}).get("splits", {})
    by_split = "  ".join(f"{name}: {split['pages']}" for name, split in splits.items() if name != "none")
    print(f"dataset: {join(out, 'accepted')}" + (f"  ({by_split})" if by_split else ""))
    print(f"dataset card: {join(out, 'README.md')}")
    print(f"rejected (with reasons): {join(out, 'rejected')}")
    print(f"stats: {join(out, 'stats.json')}")




def _print_warnings(warnings: list[str]) -> None:
    """One stderr line a warning (an input not read whole: file, offset, what), so a batch job's log
    shows damage that the rows only record as `input.corrupt`."""
    for warning in warnings:
        print(f"pipeline: warning: {warning}", file=sys.stderr)


# Each command's handler (`build_parser` makes it the command's `func`).
HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": _run, "extract": _extract_command, "select": _select, "report": _report_command,
    "explain": _explain, "train": _train, "sample": _sample,
}


if __name__ == "__main__":
    sys.exit(main())
