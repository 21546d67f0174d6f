"""Benchmarks (`make bench`), kept out of `make test`: timings vary with the machine.

Prints the median and range of a password hash and verify with the configured argon2
parameters, of building sitemap.xml, and, when LIVE_SITE_URL is set (e.g. a `make run`
site), of fetching a few prerendered pages over HTTP.
"""

from __future__ import annotations

import os
import statistics
import time
import urllib.request
from collections.abc import Callable

from rcxsite import routes
from rcxsite.accounts.passwords import hash_password, verify_password
from rcxsite.meta.sitemap import sitemap_xml
from rcxsite.settings import get_settings


def _measure(label: str, action: Callable[[], object], runs: int) -> None:
    action()  # warm-up
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        timings.append((time.perf_counter() - start) * 1000)
    print(f"{label:<38} median {statistics.median(timings):8.2f} ms   "
          f"min {min(timings):8.2f}   max {max(timings):8.2f}   ({runs} runs)")


def main() -> None:
    settings = get_settings()
    print(f"argon2id m={settings.argon2_memory_cost_kib} KiB, t={settings.argon2_time_cost}, "
          f"p={settings.argon2_parallelism}")
    stored = hash_password("correct horse battery staple")
    _measure("hash_password", lambda: hash_password("correct horse battery staple"), 30)
    _measure("verify_password", lambda: verify_password("correct horse battery staple", stored),
             30)
    _measure("sitemap_xml", sitemap_xml, 200)
    base = os.environ.get("LIVE_SITE_URL", "").rstrip("/")
    if not base:
        print("LIVE_SITE_URL not set: HTTP timings skipped")
        return
    for route in (routes.HOME, routes.SERVICES_INDEX, routes.QUOTE, routes.BLOGS):
        url = f"{base}{route.path.rstrip('/')}/"
        _measure(f"GET {route.path}", lambda url=url: urllib.request.urlopen(url).read(), 50)


if __name__ == "__main__":
    main()
