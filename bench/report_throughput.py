"""The report's throughput section (issue 10): pages at 50 connections, logins at 16 clients."""

from __future__ import annotations

import os

from bench.config import (
    LOGIN_ACCOUNTS,
    POSTGRES,
    REDIS,
    SCALED_LIMITS,
    WARM_UP_SECONDS,
    WRK_CONNECTIONS,
    WRK_HEADERS,
    WRK_THREADS,
)
from bench.logins import LoginRun
from bench.micro import argon2_parameters
from bench.throughput import NGINX_ALONE, ONE_PROCESS, SCALED, TARGETS, Throughput

DASH = "–"
TITLE = "## 5. Throughput: one process, run-scaled, nginx alone (issue 10)"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _ms(value: float | None) -> str:
    return DASH if value is None else f"{value:.2f} ms" if value < 100 else f"{value:.0f} ms"


def _label(target: str, workers: int) -> str:
    return f"{SCALED} ({workers} workers)" if target == SCALED else target


def _pages(throughput: Throughput) -> str:
    rows = []
    for page, runs in throughput.pages.items():
        for target in TARGETS:
            run = runs.get(target)
            if run is None:
                continue
            result, ratio = run.result, throughput.ratio(page, target)
            if result.failure:
                figures = [DASH, DASH, DASH]
            else:
                figures = [f"{result.requests_per_s:,.0f}", _ms(result.p50_ms), _ms(result.p99_ms)]
            factor = DASH if ratio is None else f"{ratio:.2f}x"
            if target == SCALED and ratio is not None:
                factor = f"**{factor}**"
            rows.append([f"`{page}`", _label(target, throughput.workers), *figures, factor,
                         str(result.errors) if result.errors else "", run.answer.describe()])
    failures = [f"- `{page}` {target}: {run.result.failure}"
                for page, runs in throughput.pages.items()
                for target, run in runs.items() if run.result.failure]
    return "\n".join([
        _table(["Page", "Target", "Requests/s", "p50", "p99", "vs nginx alone", "Failed requests",
                "Answer (one request)"], rows),
        *(["", *failures] if failures else []),
    ])


def _parallel(run: LoginRun) -> str:
    if run.parallel_hash_ms is None or run.workers < 2:
        return ""
    return (f"; with {run.workers} verifications at once (threads) one took "
            f"{run.parallel_hash_ms:.1f} ms, {run.workers / run.parallel_hash_ms * 1000:.1f} "
            "per s on this machine")


def _logins(run: LoginRun) -> str:
    errors = ", ".join(f"{kind}: {n}" for kind, n in run.errors.most_common()) or "none"
    rate = DASH if run.per_second is None else f"{run.per_second:.1f}"
    limit = DASH if run.limit_per_second is None else f"{run.limit_per_second:.1f}"
    ratio = DASH if run.ratio is None else f"**{run.ratio:.2f}x**"
    hash_ms = DASH if run.hash_ms is None else f"{run.hash_ms:.1f} ms"
    return "\n".join([
        f"### Logins at {run.clients} clients (run-scaled, {run.workers} workers)",
        "",
        f"`POST /api/v1/Auth/Login` with the right password for {run.seconds:.1f} s, "
        f"{run.clients} clients in turn on {LOGIN_ACCOUNTS} accounts registered through "
        "`POST /api/v1/User/CreateCustomer`. The hashing limit is workers / the median time "
        f"of one `verify_password` ({argon2_parameters()}) in the bench's own process, "
        f"{hash_ms} this run{_parallel(run)}.",
        "",
        _table(["Logins/s", "Hashing limit/s", "Ratio", "Logins", "p50", "p99", "Errors"],
               [[rate, limit, ratio, str(run.ok), _ms(run.latency(50)), _ms(run.latency(99)),
                 errors]]),
    ])


def _method(throughput: Throughput) -> str:
    headers = ", ".join(f"`{header}`" for header in WRK_HEADERS)
    limits = ", ".join(f"`{name}` {value}" for name, value in SCALED_LIMITS.items())
    return "\n".join([
        f"- Pages: `wrk -t{WRK_THREADS} -c{WRK_CONNECTIONS} -d{throughput.seconds}s --latency` "
        f"with {headers} over loopback, after {WARM_UP_SECONDS} s of warm-up per target and "
        "page; the three targets of a page run one after the other. *Failed requests*: "
        "answers other than 2xx/3xx and socket errors. *Answer*: one request as wrk sends it, "
        f"redirects not followed. {NGINX_ALONE} and {SCALED} serve the same build; "
        f"{ONE_PROCESS} its own build of the same code.",
        f"- {ONE_PROCESS}: `reflex run --env prod` as in 1 (SQLite, no Redis). {SCALED}: "
        f"`python -m rcxsite.tools.run_scaled`, {throughput.workers} workers, a fresh "
        f"database at {POSTGRES} (dropped after), Redis {REDIS} with a key prefix of its own "
        f"(removed after), limits raised so that they are not what is measured ({limits}). "
        f"{NGINX_ALONE}: nginx serving run-scaled's build with deploy's static-file settings "
        "(precompressed brotli and gzip), without its headers or proxy.",
        f"- wrk, the login clients and every server share this machine's {os.cpu_count()} "
        "cores; load average (1, 5, 15 min) before the throughput runs "
        f"{throughput.load_start}, after {throughput.load_end}; they took "
        f"{throughput.wall_seconds:.0f} s including run-scaled's build.",
    ])


def render(throughput: Throughput | None) -> str | None:
    if throughput is None:
        return None
    if throughput.skipped:
        return f"{TITLE}\n\nNot measured: {throughput.skipped}."
    parts = [TITLE, ""]
    if throughput.failure:
        parts += [f"**Failed part-way:** `{throughput.failure}` (trace on stderr).", ""]
    if throughput.pages:
        parts += [_pages(throughput), ""]
    if throughput.logins is not None:
        parts += [_logins(throughput.logins), ""]
    parts.append(_method(throughput))
    return "\n".join(parts)
