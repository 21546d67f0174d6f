"""Whether this process can serve: what a load balancer asks before it sends traffic
(`/healthz`), beside whether the process answers at all (`/livez`). It names the parts
that answer or not, never an address, a message or a setting."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as Late

import redis
from sqlalchemy import text

from rcxsite.platform.db import get_engine
from rcxsite.platform.outages import redis_url_with_timeouts
from rcxsite.platform.settings import get_settings

# A load balancer's check must not hang on a database that never answers.
WAIT_S = 3.0
# One look at the database and Redis per process at most this often: checks polled by
# several balancers, or by anyone, cost them no more than that.
KEPT_S = 1.0

_checks = ThreadPoolExecutor(max_workers=2, thread_name_prefix="readiness")
_last: tuple[float, dict[str, str]] = (0.0, {"database": "not looked at", "redis": "not looked at"})
_looking = threading.Lock()
_pending: list[Future[str]] = []


def _database() -> str:
    with get_engine().connect() as connection:
        connection.execute(text("SELECT 1"))
    return "ok"


def _redis() -> str:
    url = get_settings().redis_url
    if not url:
        return "not used"
    client = redis.Redis.from_url(redis_url_with_timeouts(url, command_timeout=True))
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def _looked_at() -> dict[str, str]:
    if any(not check.done() for check in _pending):
        # The last look's checks still hang (the bounded wait ended first): another look
        # would only queue behind them.
        return {"database": "no answer", "redis": "no answer"}
    parts = {"database": _checks.submit(_database), "redis": _checks.submit(_redis)}
    _pending[:] = parts.values()
    deadline = time.monotonic() + WAIT_S
    found = {}
    for name, answer in parts.items():
        try:
            found[name] = answer.result(timeout=max(0.0, deadline - time.monotonic()))
        except Late:
            found[name] = "no answer"
        except Exception:
            found[name] = "unreachable"
    return found


def readiness() -> tuple[bool, dict[str, str]]:
    """(ready, each part's state): ready when every part this site uses answers. While one
    caller looks, the others get the last look at once rather than wait in line (each
    holds a thread the site's own calls share)."""
    global _last
    at, found = _last
    if time.monotonic() - at > KEPT_S and _looking.acquire(blocking=False):
        try:
            found = _looked_at()
            _last = (time.monotonic(), found)
        finally:
            _looking.release()
    return all(state in ("ok", "not used") for state in found.values()), dict(found)
