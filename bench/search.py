"""Site search: the server time of one query over the whole site.

Timed in this process, as the /search page's state calls it: `search_site` with its input
model parsed, the per-client limit counted (in memory; the limit itself raised so that it
is not what is measured) and the query answered with snippets. No Reflex, no network.
Also the time to build the index, which the first search of a worker pays once, and the
queries made to cost the most within the 100 typed characters (config.SEARCH_ADVERSARIAL):
the slowest call of each, and the process's memory before and after them (resident, and
what Python still holds, by tracemalloc).
"""

from __future__ import annotations

import gc
import os
import re
import statistics
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from bench import config
from bench.environment import environment
from bench.report import load_average
from bench.sections import replaced
from rcxsite.search import SearchInput, SearchResults, search_site
from rcxsite.search.index import site_index
from rcxsite.search.text import clear_stem_cache

TITLE = "## Site search"
_SECTION = re.compile(r"^## Site search\b.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
_CLIENT = "192.0.2.20"
_WARM_UP = 3


@dataclass(frozen=True)
class Timing:
    query: str
    found: int
    first: str  # the path of the first result, "" for none
    median: float
    p95: float


@dataclass(frozen=True)
class Adversarial:
    label: str
    answer: str  # what the visitor sees: pages found, or the start of the message
    median: float
    slowest: float  # of every call, the first (cold) one included


@dataclass(frozen=True)
class Memory:
    """KiB: resident before and after the adversarial queries (one at a time, then the
    flood), and by tracemalloc the most Python held at once while answering one of them
    and what it still held after all."""

    resident_before: int
    resident_after: int
    resident_after_flood: int
    traced_peak: int
    traced_kept: int


@dataclass(frozen=True)
class Flood:
    """The adversarial queries sent at once from config.SEARCH_FLOOD_CLIENTS threads (the
    page's state answers through a thread pool), and an ordinary query meanwhile."""

    calls: int
    seconds: float
    ordinary_slowest: float  # ms


@dataclass(frozen=True)
class SearchBench:
    build_ms: float
    pages: int
    words: int
    runs: int
    timings: tuple[Timing, ...]
    load: tuple[tuple[float, ...], tuple[float, ...]]
    wall_seconds: float
    adversarial: tuple[Adversarial, ...] = ()
    memory: Memory | None = None
    flood: Flood | None = None

    @property
    def worst_median(self) -> float:
        return max(timing.median for timing in self.timings)

    @property
    def worst_p95(self) -> float:
        return max(timing.p95 for timing in self.timings)

    @property
    def worst_adversarial(self) -> float:
        return max((timing.slowest for timing in self.adversarial), default=0.0)


def _settings(work_dir: Path) -> AbstractContextManager[None]:
    """In-memory counters, a key and a data folder of the bench's own, then as it was."""
    return environment(
        {
            "REDIS_URL": "",
            "DATA_DIR": str(work_dir),
            "SECRET_KEY": "bench-signing-key-" + "x" * 40,
            "SEARCH_LIMIT": "1000000 per minute",
        }
    )


def _milliseconds(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000


def _resident_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _answer(results: SearchResults) -> str:
    if results.hits:
        return f"{results.total} pages" + (" (some words)" if results.message else "")
    return results.message.split("”")[0].split("“")[0].strip() or "no pages"


def _flood(searches: list[SearchInput]) -> Flood:
    ordinary = SearchInput.parse({"q": config.SEARCH_QUERIES[0]})
    started = time.perf_counter()
    with ThreadPoolExecutor(config.SEARCH_FLOOD_CLIENTS) as pool:
        calls = [
            pool.submit(search_site, search, client_ip=f"192.0.2.{100 + n}")
            for n in range(config.SEARCH_FLOOD_CLIENTS)
            for search in searches
        ]
        slowest = 0.0
        while True:
            before = time.perf_counter()
            search_site(ordinary, client_ip=_CLIENT)
            slowest = max(slowest, time.perf_counter() - before)
            if all(call.done() for call in calls):
                break
        for call in calls:
            call.result()
    return Flood(len(calls), time.perf_counter() - started, slowest * 1000)


def _adversarial(runs: int) -> tuple[tuple[Adversarial, ...], Memory, Flood]:
    searches = [
        (label, SearchInput.parse({"q": query})) for label, query in config.SEARCH_ADVERSARIAL
    ]
    gc.collect()
    resident_before = _resident_kib()
    timings = []
    for label, search in searches:
        samples = []
        for _ in range(runs):
            before = time.perf_counter()
            results = search_site(search, client_ip=_CLIENT)
            samples.append(time.perf_counter() - before)
        timings.append(
            Adversarial(
                label, _answer(results), statistics.median(samples) * 1000, max(samples) * 1000
            )
        )
    gc.collect()
    resident_after = _resident_kib()
    flood = _flood([search for _label, search in searches])
    gc.collect()
    resident_after_flood = _resident_kib()
    # Not while timing: tracing every allocation slows the calls down.
    tracemalloc.start()
    try:
        start, peak = tracemalloc.get_traced_memory()[0], 0
        for _label, search in searches:
            tracemalloc.reset_peak()
            search_site(search, client_ip=_CLIENT)
            peak = max(peak, tracemalloc.get_traced_memory()[1] - start)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    return (
        tuple(timings),
        Memory(resident_before, resident_after, resident_after_flood, peak // 1024, kept // 1024),
        flood,
    )


def run(
    work_dir: Path,
    runs: int = config.SEARCH_RUNS,
    adversarial_runs: int = config.SEARCH_ADVERSARIAL_RUNS,
) -> SearchBench:
    started, load_start = time.monotonic(), os.getloadavg()
    work_dir.mkdir(parents=True, exist_ok=True)
    with _settings(work_dir):
        site_index.cache_clear()
        clear_stem_cache()
        before = time.perf_counter()
        index = site_index()
        build_ms = (time.perf_counter() - before) * 1000
        timings = []
        for query in config.SEARCH_QUERIES:
            search = SearchInput.parse({"q": query})
            for _ in range(_WARM_UP):
                results = search_site(search, client_ip=_CLIENT)
            samples = []
            for _ in range(runs):
                before = time.perf_counter()
                results = search_site(search, client_ip=_CLIENT)
                samples.append(time.perf_counter() - before)
            median, p95 = _milliseconds(samples)
            first = results.hits[0].path if results.hits else ""
            timings.append(Timing(query, results.total, first, median, p95))
        adversarial, memory, flood = _adversarial(adversarial_runs)
    return SearchBench(
        build_ms,
        len(index.entries),
        len(index.vocabulary),
        runs,
        tuple(timings),
        (load_start, os.getloadavg()),
        time.monotonic() - started,
        adversarial,
        memory,
        flood,
    )


def _ms(value: float) -> str:
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def render(bench: SearchBench, environment: dict[str, str]) -> str:
    target = config.SEARCH_TARGET_MS
    header = ["Query", "Pages found", "First result", "Median", "p95", f"< {target:g} ms"]
    rows = [
        [
            f"`{t.query}`",
            str(t.found),
            f"`{t.first}`" if t.first else "–",
            _ms(t.median),
            _ms(t.p95),
            "yes" if t.p95 < target else "**no**",
        ]
        for t in bench.timings
    ]
    table = "\n".join(
        [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows),
        ]
    )
    met = "met" if bench.worst_p95 < target else "**not met**"
    return "\n".join(
        [
            TITLE,
            "",
            f"- Date: {environment['date']}; git commit `{environment['commit']}`; the part took "
            f"{bench.wall_seconds:.0f} s",
            f"- Machine: {environment['machine']}; load average (1, 5, 15 min) before the part "
            f"{load_average(bench.load[0])}, after {load_average(bench.load[1])}",
            f"- Index: {bench.pages} pages, {bench.words:,} distinct words, built in "
            f"{bench.build_ms:.0f} ms (once per worker, by its first search).",
            "- What is timed: `search_site(...)` called in the bench's process as /search calls "
            f"it (input parsed, the per-client limit counted in memory, ranking and snippets), "
            f"{bench.runs} times per query after {_WARM_UP} warm-up calls: server time, no Reflex "
            "or network. Queries with typing mistakes, other word forms, several words and none "
            "that match.",
            f"- Target: under {target:g} ms per query. Slowest median "
            f"{_ms(bench.worst_median)}, slowest p95 {_ms(bench.worst_p95)}: {met}.",
            *_adversarial_lines(bench),
            "",
            table,
            *_adversarial_table(bench),
        ]
    )


def _mib(kib: int) -> str:
    return f"{kib / 1024:.1f} MiB"


def _adversarial_lines(bench: SearchBench) -> list[str]:
    if not bench.adversarial or bench.memory is None or bench.flood is None:
        return []
    target, memory, flood = config.SEARCH_ADVERSARIAL_TARGET_MS, bench.memory, bench.flood
    met = "met" if bench.worst_adversarial < target else "**not met**"
    return [
        f"- Queries made to cost the most in 100 typed characters (second table; "
        f"{config.SEARCH_ADVERSARIAL_RUNS} calls each, the first included, no warm-up): "
        f"slowest call {_ms(bench.worst_adversarial)}, target under {target:g} ms: {met}. "
        f"All of them at once from {config.SEARCH_FLOOD_CLIENTS} threads ({flood.calls} "
        f"calls): {flood.seconds:.2f} s, `{config.SEARCH_QUERIES[0]}` meanwhile at most "
        f"{_ms(flood.ordinary_slowest)}. Resident memory {_mib(memory.resident_before)} "
        f"before them, {_mib(memory.resident_after)} after, "
        f"{_mib(memory.resident_after_flood)} after the flood; by tracemalloc, at most "
        f"{_mib(memory.traced_peak)} held while answering one, "
        f"{memory.traced_kept:+,} KiB still held after all of them."
    ]


def _adversarial_table(bench: SearchBench) -> list[str]:
    if not bench.adversarial:
        return []
    target = config.SEARCH_ADVERSARIAL_TARGET_MS
    header = [
        "Adversarial query (100 characters at most)",
        "Answer",
        "Median",
        "Slowest",
        f"< {target:g} ms",
    ]
    rows = [
        [
            t.label,
            t.answer,
            _ms(t.median),
            _ms(t.slowest),
            "yes" if t.slowest < target else "**no**",
        ]
        for t in bench.adversarial
    ]
    return [
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def replace_section(markdown: str, section: str) -> str:
    """`markdown` with its search section (if any) replaced by `section`, else with it
    added at the end."""
    return replaced(markdown, section, _SECTION)
