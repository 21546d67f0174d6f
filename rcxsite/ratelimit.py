"""Rate limits for every feature (accounts, quote requests), with one way to count and one
wording for a refusal.

Each event is checked and counted in one atomic step: `limits`' `hit()` answers whether
the event still fitted, under a lock in memory and in one Lua call in Redis, so parallel
requests cannot all pass a check made before any of them was counted. Counters live in
memory (one process) or, when `REDIS_URL` is set, in Redis so that all workers share them.
Identifiers are hashed: no addresses end up in Redis keys.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import time
from dataclasses import dataclass
from functools import lru_cache

from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from rcxsite.outages import redis_url_with_timeouts
from rcxsite.settings import get_settings

# One IPv6 customer line gets a whole /64; keying by the full address would give one
# visitor 2**64 separate budgets.
IPV6_CLIENT_PREFIX = 64


@dataclass(frozen=True, slots=True)
class Limit:
    """`rule` in `limits` notation ("10 per hour", ";" between several) for one identifier."""

    rule: str
    scope: str
    identifier: str


class RateLimited(Exception):
    """A limit is used up; `message` is the one text every screen and the API show."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        self.message = too_many_message(retry_after)
        super().__init__(self.message)


def too_many_message(retry_after: int) -> str:
    minutes = max(1, math.ceil(retry_after / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return f"Too many requests. Try again in {minutes} {unit}."


def _bare_address(address: str) -> str:
    """Drops a port some proxies add: "1.2.3.4:5678", "[2001:db8::1]:443"."""
    address = address.strip()
    if address.startswith("["):
        return address[1:].partition("]")[0]
    host, colon, port = address.rpartition(":")
    if colon and "." in host and port.isdigit():
        return host
    return address


def client_key(address: str) -> str:
    """What a per-client limit counts: the IPv4 address, or the /64 of an IPv6 address."""
    try:
        ip = ipaddress.ip_address(_bare_address(address))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_CLIENT_PREFIX}", strict=False))
    return str(ip)


@lru_cache(maxsize=4)
def _storage(uri: str, key_prefix: str) -> Storage:
    if uri.startswith("memory"):
        return storage_from_string(uri)
    return storage_from_string(
        redis_url_with_timeouts(uri, command_timeout=True), key_prefix=key_prefix
    )


def _configured_storage() -> Storage:
    settings = get_settings()
    return _storage(settings.redis_url or "memory://", settings.rate_limit_key_prefix)


def forget_storage_connections() -> None:
    """Drop the cached storage objects, as a fresh worker process would start."""
    _storage.cache_clear()


@lru_cache(maxsize=32)
def _items(rule: str) -> tuple[RateLimitItem, ...]:
    return tuple(parse_many(rule))


def _hashed(value: str) -> str:
    # Keyed: a plain SHA-256 of an IPv4 address or a common email is reversed by trying them.
    key = get_settings().signing_key().encode()
    digest = hmac.new(key, value.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return digest.hexdigest()[:32]


def hit(*limits: Limit) -> None:
    """Count one event against every limit; raise `RateLimited` if any of them is used up.

    The limits are hit in the order given and the first refusal stops: events counted on
    the earlier ones stay counted, which errs on the strict side and keeps every step
    atomic (a check-all-then-count-all would reopen the race).
    """
    limiter = MovingWindowRateLimiter(_configured_storage())
    for limit in limits:
        identifier = _hashed(limit.identifier)
        for item in _items(limit.rule):
            if not limiter.hit(item, limit.scope, identifier):
                reset_at = limiter.get_window_stats(item, limit.scope, identifier).reset_time
                raise RateLimited(max(1, math.ceil(reset_at - time.time())))


def reset_rate_limits() -> None:
    """Forget every counter of the configured storage (tests, or an operator's unlock)."""
    _configured_storage().reset()
