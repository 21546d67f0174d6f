"""Throughput, all with wrk: pages at 50 connections on run-scaled and on nginx
alone, then logins at 16 connections on run-scaled against the hashing limit.

Both page targets serve the same build; a page's two runs follow each other, so that a
slow spell of the shared machine hits both sides of its ratio. The hashing limit is
workers / the time of one password verification (median of `verify_password` calls in
this process with the site's argon2 settings, timed just before the logins).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import time
import timeit
import traceback
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench import config, sites
from rcxsite.core.passwords import hash_password, verify_password

NGINX_ALONE, SCALED = "nginx alone", "run-scaled"
_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}  # wrk's "812.00us", "1.23ms"
_PERCENTILE = re.compile(r"^\s*(50|99)(?:\.0+)?%\s+([\d.]+)(us|ms|s|m)\s*$", re.MULTILINE)
_RATE = re.compile(r"^Requests/sec:\s+([\d.]+)", re.MULTILINE)
_ERRORS = re.compile(
    r"Non-2xx or 3xx responses:\s+(\d+)|Socket errors: connect (\d+), "
    r"read (\d+), write (\d+), timeout (\d+)"
)
# Each of wrk's connections logs the accounts in, in turn.
_LOGIN_SCRIPT = """local bodies = {%s}
local n = 0
request = function()
  n = n + 1
  return wrk.format("POST", "/api/v1/Auth/Login", {["Content-Type"] = "application/json"},
                    bodies[n %% #bodies + 1])
end
"""


@dataclass
class WrkRun:
    requests_per_s: float | None = None
    p50_ms: float | None = None
    p99_ms: float | None = None
    errors: int = 0  # answers other than 2xx/3xx, socket errors
    failure: str | None = None


def wrk(url: str, seconds: int, connections: int, *options: str) -> WrkRun:
    # At least one connection per thread (-t2), or wrk refuses.
    command = [*config.WRK_COMMAND, f"-c{max(2, connections)}", f"-d{seconds}s", *options, url]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    except subprocess.TimeoutExpired:
        return WrkRun(failure=f"wrk did not finish within {seconds + 60} s")
    rate = _RATE.search(done.stdout)
    percentiles = {
        int(p): float(value) * _UNIT_MS[unit] for p, value, unit in _PERCENTILE.findall(done.stdout)
    }
    if done.returncode != 0 or rate is None or len(percentiles) != 2:
        return WrkRun(
            failure=f"wrk exited with {done.returncode}: "
            + (done.stderr + done.stdout).strip()[-800:]
        )
    errors = sum(int(n) for match in _ERRORS.findall(done.stdout) for n in match if n)
    return WrkRun(float(rate.group(1)), percentiles[50], percentiles[99], errors)


def _login_script(base_url: str, path: Path) -> tuple[str, ...]:
    """Registers LOGIN_ACCOUNTS customers through the API; wrk's options to log them in."""
    bodies = []
    with httpx.Client(base_url=base_url, timeout=30) as client:
        for index in range(config.LOGIN_ACCOUNTS):
            email = f"bench.{index}.{uuid.uuid4().hex[:12]}@example.com"
            password = f"bench-{uuid.uuid4().hex}"
            answer = client.post(
                "/api/v1/User/CreateCustomer",
                json={
                    "UserName": "Bench Customer",
                    "EmailAddress": email,
                    "MobileNumber": "0123456789",
                    "Password": password,
                    "CompanyName": "Bench Ltd",
                    "Location": "Leeds",
                },
            )
            if answer.status_code != 201:
                raise RuntimeError(f"CreateCustomer answered {answer.status_code}: {answer.text}")
            bodies.append(json.dumps({"UserName": email, "Password": password}))
    path.write_text(_LOGIN_SCRIPT % ", ".join(f"[[{body}]]" for body in bodies))
    # A login may wait long behind the others: only one that takes 30 s is an error.
    return "-s", str(path), "--timeout", "30s"


@dataclass
class Throughput:
    seconds: int
    workers: int
    skipped: str | None = None  # why nothing was measured (services missing)
    failure: str | None = None  # what broke part-way
    pages: dict[str, dict[str, WrkRun]] = field(default_factory=dict)
    logins: WrkRun | None = None
    hash_ms: float | None = None
    load: tuple[tuple[float, ...], ...] = ((), ())  # load average before and after
    wall_seconds: float = 0.0

    def ratio(self, page: str) -> float | None:
        """run-scaled's requests per second over nginx alone's."""
        runs = self.pages.get(page, {})
        scaled, alone = (
            getattr(runs.get(target), "requests_per_s", None) for target in (SCALED, NGINX_ALONE)
        )
        return scaled / alone if scaled and alone else None

    @property
    def login_limit(self) -> float | None:
        return self.workers * 1000 / self.hash_ms if self.hash_ms else None

    @property
    def login_ratio(self) -> float | None:
        rate, limit = self.logins and self.logins.requests_per_s, self.login_limit
        return rate / limit if rate and limit else None


def _log(target: str, run: WrkRun) -> None:
    print(
        f"  {target}: "
        + (
            run.failure
            or f"{run.requests_per_s:,.1f} req/s, p50 "
            f"{run.p50_ms:.2f} ms, p99 {run.p99_ms:.2f} ms, {run.errors} errors"
        ),
        file=sys.stderr,
        flush=True,
    )


def _measure(t: Throughput, work_dir: Path) -> None:
    with sites.run_scaled(work_dir, t.workers) as scaled_url:
        with sites.nginx_alone(work_dir) as alone_url:
            for page in config.THROUGHPUT_PAGES:
                for target, url in ((NGINX_ALONE, alone_url + page), (SCALED, scaled_url + page)):
                    wrk(url, config.WARM_UP_SECONDS, config.PAGE_CONNECTIONS)  # caches, pools
                    run = wrk(url, t.seconds, config.PAGE_CONNECTIONS)
                    t.pages.setdefault(page, {})[target] = run
                    _log(f"{page} {target}", run)
        script = _login_script(scaled_url, work_dir / "logins.lua")
        warm_up = wrk(scaled_url, config.WARM_UP_SECONDS, t.workers, *script)  # every worker
        if warm_up.failure or warm_up.errors:
            raise RuntimeError(f"warm-up logins failed: {warm_up.failure or warm_up.errors}")
        password = uuid.uuid4().hex
        stored = hash_password(password)
        t.hash_ms = 1000 * statistics.median(
            timeit.repeat(lambda: verify_password(password, stored), number=1, repeat=15)
        )
        t.logins = wrk(scaled_url, t.seconds, config.LOGIN_CONNECTIONS, *script)
        _log(f"logins (limit {t.login_limit:.1f}/s)", t.logins)


def run(options: config.Options, work_dir: Path) -> Throughput:
    """Measure, or say why not: a missing service or a failure is reported, not raised, so
    that the rest of the bench keeps its results."""
    t = Throughput(seconds=options.seconds, workers=options.workers, skipped=sites.missing())
    if t.skipped:
        print(f"throughput part skipped: {t.skipped}", file=sys.stderr, flush=True)
        return t
    started, load_start = time.monotonic(), os.getloadavg()
    try:
        _measure(t, work_dir)
    except Exception as error:  # reported, not raised
        traceback.print_exc()
        t.failure = f"{type(error).__name__}: {error}"
    t.load, t.wall_seconds = (load_start, os.getloadavg()), time.monotonic() - started
    return t
