"""A duplicate-heavy crawl: a corpus written N times, and the peak memory of every process of a run.

    python benchmarks/copies.py [WARC] [--copies 10] [--workers 2] [--rounds 1] [--dir DIR] [--skip-single]

Real crawls repeat: mirrors, syndication, scraped copies. This writes WARC (default
../shared/corpora/trafilatura-eval.warc.gz) N times into one file, each copy on renamed hosts
(`cN-` before the host), with new record ids and one added line in each HTML page (so the copies
are near duplicates, not exact ones), then runs `pipeline run` on the single corpus and on the
N-copy crawl (`--workers`), sampling the memory (RSS) of the driver and of every process under it
every 0.1 s. It prints, per run: the wall time, the accepted pages, and the peak RSS of the driver
and of the largest extract worker and select worker (a worker is named by what it runs: its
command line, and the run's phase when its peak came); then the ratio of the two times.

Targets (#59): every process under 500 MB on the N-copy crawl; its time at most 0.9 N the
single corpus's.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WARC = ROOT.parent / "shared" / "corpora" / "trafilatura-eval.warc.gz"
SAMPLE_SECONDS = 0.1


def renamed(url: str | None, copy: int) -> str | None:
    if not url or copy == 0:
        return url
    parts = urlsplit(url)
    if not parts.hostname:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(parts.hostname, f"c{copy}-{parts.hostname}", 1)))


def with_line(payload: bytes, copy: int) -> bytes:
    """The page with one line of its copy's own before `</body>` (at the end without one)."""
    line = f"<p>Republished by mirror number {copy} of this story.</p>".encode()
    at = payload.lower().rfind(b"</body>")
    return payload + line if at < 0 else payload[:at] + line + payload[at:]


def write_copies(source: Path, target: Path, copies: int) -> int:
    """`copies` copies of every record of `source` into `target`; returns the records written."""
    written = 0
    with open(target, "wb") as raw:
        writer = WARCWriter(raw, gzip=True)  # a gzip member a record: the file splits into byte-range tasks
        for copy in range(copies):
            with open(source, "rb") as fh:
                for record in ArchiveIterator(fh):
                    headers = record.rec_headers
                    url = renamed(headers.get_header("WARC-Target-URI"), copy)
                    payload = record.content_stream().read()
                    http = record.http_headers
                    if record.rec_type == "response" and copy and b"<html" in payload[:4096].lower():
                        payload = with_line(payload, copy)
                    if http is not None:  # the payload is read decoded, and its length may change
                        for name in ("Content-Length", "Content-Encoding", "Transfer-Encoding"):
                            http.remove_header(name)
                    fields = {"WARC-Record-ID": f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{copy}/{written}')}>",
                              "WARC-Date": headers.get_header("WARC-Date") or "2024-01-01T00:00:00Z"}
                    if url:
                        fields["WARC-Target-URI"] = url
                    writer.write_record(writer.create_warc_record(
                        url or "", record.rec_type, payload=io.BytesIO(payload), http_headers=http,
                        warc_headers_dict=fields))
                    written += 1
    return written


def watched_run(inputs: Path, out: Path, workers: int) -> dict[str, object]:
    """`pipeline run` with the peak RSS of the driver and of each worker in each phase: extraction,
    select (ends when stats.json is written) and the report after it."""
    import psutil  # installed with the ray extra (make test installs it)

    command = [str(ROOT / ".venv" / "bin" / "pipeline"), "run", str(inputs), "--out", str(out),
               "--workers", str(workers), "--quiet"]
    started = time.time()
    driver = subprocess.Popen(command, cwd=ROOT)
    handle = psutil.Process(driver.pid)
    samples: list[tuple[float, int, int]] = []  # wall time, pid, rss
    while driver.poll() is None:
        try:
            processes = [handle, *handle.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for process in processes:
            try:
                samples.append((time.time(), process.pid, process.memory_info().rss))
            except psutil.Error:
                continue
        time.sleep(SAMPLE_SECONDS)
    ended = time.time()
    if driver.returncode != 0:
        raise SystemExit(f"pipeline run failed ({driver.returncode}) on {inputs}")
    stats = json.loads((out / "stats.json").read_text())
    select_ended = (out / "stats.json").stat().st_mtime
    select_started = select_ended - stats["timings"]["select"]["seconds"]

    def phase(at: float) -> str:
        return "extract" if at < select_started else "select" if at <= select_ended else "report"

    peaks: dict[str, int] = {}
    for at, pid, rss in samples:
        who = "driver" if pid == driver.pid else "worker"
        key = f"{who} in {phase(at)}"
        peaks[key] = max(peaks.get(key, 0), rss)
    return {"seconds": round(ended - started, 1), "records": stats["records_in"], "accepted": stats["accepted"],
            "select_seconds": stats["timings"]["select"]["seconds"],
            "peak_mb": {key: round(rss / 2**20) for key, rss in sorted(peaks.items())}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warc", nargs="?", type=Path, default=DEFAULT_WARC)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=ROOT / "out" / "bench" / "copies")
    parser.add_argument("--skip-single", action="store_true", help="run the N-copy crawl only")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    crawl = args.dir / f"{args.warc.name.split('.')[0]}-x{args.copies}.warc.gz"
    if not crawl.is_file():
        print(f"writing {crawl}: {write_copies(args.warc, crawl, args.copies)} records", flush=True)
    runs = [("N copies", crawl)] if args.skip_single else [("single", args.warc), ("N copies", crawl)]
    times: dict[str, list[float]] = {}
    for round_index in range(args.rounds):
        for name, inputs in runs:
            found = watched_run(inputs, args.dir / f"run-{name.replace(' ', '')}", args.workers)
            times.setdefault(name, []).append(float(found["seconds"]))  # type: ignore[arg-type]
            print(f"round {round_index + 1} {name}: {json.dumps(found)}", flush=True)
    if len(times) == 2:
        single, many = (sorted(values)[len(values) // 2] for values in times.values())
        print(f"median times: single {single:.1f} s, {args.copies} copies {many:.1f} s: "
              f"{many / single:.2f}x for {args.copies}x the records")


if __name__ == "__main__":
    main()
