"""Issue 10's throughput runs: pages at 50 connections on three targets, then logins.

The targets serve the same pages: the single production process (the one the rest of the
bench measures), `make run-scaled` (nginx in front of the workers) and nginx alone on
run-scaled's build. For each page the three wrk runs follow each other, so a slow spell
of the shared machine hits one page's ratios together. Logins run against run-scaled.
"""

from __future__ import annotations

import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from bench import logins, scaled, wrk
from bench.config import THROUGHPUT_PAGES, WARM_UP_SECONDS, Options
from bench.environment import load_average

# Report order; ratios are against the first.
NGINX_ALONE, SCALED, ONE_PROCESS = "nginx alone", "run-scaled", "one process"
TARGETS = (NGINX_ALONE, SCALED, ONE_PROCESS)


@dataclass
class PageRun:
    answer: wrk.Answer
    result: wrk.WrkResult


@dataclass
class Throughput:
    seconds: int
    workers: int
    # Why nothing was measured (services missing), or what broke part-way.
    skipped: str | None = None
    failure: str | None = None
    pages: dict[str, dict[str, PageRun]] = field(default_factory=dict)
    logins: logins.LoginRun | None = None
    load_start: str = ""
    load_end: str = ""
    wall_seconds: float = 0.0

    def requests_per_s(self, page: str, target: str) -> float | None:
        run = self.pages.get(page, {}).get(target)
        if run is None or run.result.failure or run.answer.status != 200:
            return None
        return run.result.requests_per_s

    def ratio(self, page: str, target: str) -> float | None:
        ours, alone = self.requests_per_s(page, target), self.requests_per_s(page, NGINX_ALONE)
        return ours / alone if ours is not None and alone else None


def _log(page: str, target: str, run: PageRun) -> None:
    r = run.result
    figures = (r.failure or f"{r.requests_per_s:,.0f} req/s, p50 {r.p50_ms:.2f} ms, "
               f"p99 {r.p99_ms:.2f} ms, {r.errors} errors")
    print(f"  {page} {target}: {figures} ({run.answer.describe()})", file=sys.stderr, flush=True)


def _pages(throughput: Throughput, urls: dict[str, str]) -> None:
    for page in THROUGHPUT_PAGES:
        runs = throughput.pages.setdefault(page, {})
        for target in TARGETS:
            url = urls[target] + page
            answer = wrk.probe(url)
            wrk.run(url, WARM_UP_SECONDS)  # first requests: caches, connections, pools
            runs[target] = PageRun(answer, wrk.run(url, throughput.seconds))
            _log(page, target, runs[target])


def _measure(throughput: Throughput, one_process_url: str, work_dir: Path) -> None:
    with scaled.run_scaled(work_dir, throughput.workers) as site:
        with scaled.nginx_alone(work_dir, site.static_root) as alone_url:
            print(f"pages at 50 connections, {throughput.seconds} s per run ...",
                  file=sys.stderr, flush=True)
            _pages(throughput, {NGINX_ALONE: alone_url, SCALED: site.url,
                                ONE_PROCESS: one_process_url})
        print("logins ...", file=sys.stderr, flush=True)
        throughput.logins = logins.run(site.url, throughput.seconds, throughput.workers)
        run = throughput.logins
        print(f"  {run.per_second:.1f} logins/s, limit {run.limit_per_second:.1f}/s "
              f"(one verification {run.hash_ms:.1f} ms, {run.workers} at once "
              f"{run.parallel_hash_ms:.1f} ms), errors {dict(run.errors) or 0}",
              file=sys.stderr, flush=True)


def run(options: Options, one_process_url: str, work_dir: Path) -> Throughput:
    """Measure, or say why not: a missing service or a failure is reported, not raised, so
    the rest of the bench keeps its results."""
    throughput = Throughput(seconds=options.seconds, workers=options.workers)
    throughput.skipped = scaled.missing()
    if throughput.skipped:
        print(f"throughput part skipped: {throughput.skipped}", file=sys.stderr, flush=True)
        return throughput
    started = time.monotonic()
    throughput.load_start = load_average()
    try:
        _measure(throughput, one_process_url, work_dir)
    except Exception as error:  # reported, not raised
        traceback.print_exc()
        throughput.failure = f"{type(error).__name__}: {error}"
    throughput.load_end = load_average()
    throughput.wall_seconds = time.monotonic() - started
    return throughput
