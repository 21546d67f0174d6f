"""Micro-benchmarks (formerly `tests/bench.py`): argon2 hashing, sitemap, page fetches.

Medians of repeated calls in this process; the page fetches go to the production server
over loopback without throttling, so they time the server, not the network.
"""

from __future__ import annotations

import statistics
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from rcxsite import routes
from rcxsite.accounts.passwords import hash_password, verify_password
from rcxsite.meta import sitemap
from rcxsite.settings import get_settings

_PASSWORD = "correct horse battery staple"


@dataclass(frozen=True)
class Timing:
    label: str
    median_ms: float
    min_ms: float
    max_ms: float
    runs: int


def _measure(label: str, action: Callable[[], object], runs: int) -> Timing:
    action()  # warm-up: imports, connections, caches of the interpreter
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append((time.perf_counter() - start) * 1000)
    return Timing(label, statistics.median(timings), min(timings), max(timings), runs)


def _fresh_sitemap() -> str:
    # The app builds the sitemap once and caches it; this times that one build.
    sitemap._sitemap_for.cache_clear()
    return sitemap.sitemap_xml()


def argon2_parameters() -> str:
    settings = get_settings()
    return (f"argon2id m={settings.argon2_memory_cost_kib} KiB, t={settings.argon2_time_cost}, "
            f"p={settings.argon2_parallelism}")


def run(base_url: str | None) -> list[Timing]:
    stored = hash_password(_PASSWORD)
    timings = [
        _measure("hash_password", lambda: hash_password(_PASSWORD), 30),
        _measure("verify_password", lambda: verify_password(_PASSWORD, stored), 30),
        _measure("sitemap_xml, first build", _fresh_sitemap, 50),
        _measure("sitemap_xml, cached", sitemap.sitemap_xml, 200),
    ]
    if base_url:
        for route in (routes.HOME, routes.SERVICES_INDEX, routes.QUOTE, routes.BLOGS):
            url = f"{base_url}{route.path.rstrip('/')}/"

            def fetch(url: str = url) -> bytes:
                with urllib.request.urlopen(url) as response:
                    return response.read()

            timings.append(_measure(f"GET {route.path.rstrip('/')}/ (loopback)", fetch, 50))
    return timings
