"""Rate limits for every feature (accounts, quote requests), with one way to count and one
wording for a refusal.

Each event is checked and counted in one atomic step: `limits`' `hit()` answers whether
the event still fitted, under a lock in memory and in one Lua call in Redis, so parallel
requests cannot all pass a check made before any of them was counted. Counters live in
memory (one process) or, when `REDIS_URL` is set, in Redis so that all workers share them.
Identifiers are hashed: no addresses end up in Redis keys.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, RedisStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.logs import security_event
from rcxsite.platform.outages import redis_url_with_timeouts
from rcxsite.platform.settings import get_settings, keyed_hash

# One IPv6 customer line gets a whole /64; keying by the full address would give one
# visitor 2**64 separate budgets.
IPV6_CLIENT_PREFIX = 64


@dataclass(frozen=True, slots=True)
class Limit:
    """`rule` in `limits` notation ("10 per hour", ";" between several) for one identifier."""

    rule: str
    scope: str
    identifier: str


class RateLimited(ServiceError):
    """A limit is used up (429); `message` is the one text every screen and the API show."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(429, too_many_message(retry_after), retry_after)


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
def open_storage(uri: str, key_prefix: str) -> Storage:
    """The counters at `uri`, opened once per process and then shared by every request."""
    if uri.startswith("memory"):
        storage = storage_from_string(uri)
    else:
        storage = storage_from_string(
            redis_url_with_timeouts(uri, command_timeout=True), key_prefix=key_prefix
        )
    if not isinstance(storage, Storage):  # an "async+..." URI: `hit()` counts synchronously
        raise ValueError(f"rate limits need a synchronous storage, not {uri.split(':')[0]}")
    return storage


def configured_storage() -> Storage:
    """The storage the settings name: Redis when `REDIS_URL` is set, else this process."""
    settings = get_settings()
    return open_storage(settings.redis_url or "memory://", settings.rate_limit_key_prefix)


@lru_cache(maxsize=32)
def _items(rule: str) -> tuple[RateLimitItem, ...]:
    return tuple(parse_many(rule))


def hit(*limits: Limit) -> None:
    """Count one event against every limit; raise `RateLimited` if any of them is used up
    (the event then counts against none of them)."""
    reserve(*limits)


@dataclass(frozen=True, slots=True)
class Reservation:
    """Slots taken by `reserve`; `give_back()` returns them (the attempt did not count)."""

    keys: tuple[str, ...]

    def give_back(self) -> None:
        storage = configured_storage()
        for key in self.keys:
            _drop_newest_entry(storage, key)


def _drop_newest_entry(storage: Storage, key: str) -> None:
    # `limits` has no "undo" for its moving window: an entry is a bare timestamp, newest
    # first, in a list (memory) or a Redis list. Dropping the newest one lowers the count
    # by one, atomically in both; it may be a parallel attempt's slightly newer entry,
    # which only lets one slot free up a moment earlier.
    if isinstance(storage, MemoryStorage):
        with storage.locks[key]:
            entries = storage.events.get(key)
            if entries:
                entries.pop(0)
    elif isinstance(storage, RedisStorage):
        connection: Any = storage.get_connection()  # typed without the list commands
        connection.lpop(storage.prefixed_key(key))


class _UsedUp(Exception):
    def __init__(self, scope: str, retry_after: int) -> None:
        self.scope, self.retry_after = scope, retry_after


def reserve(*limits: Limit) -> Reservation:
    """As `hit`, but the caller may give the slots back (`Reservation.give_back`) when the
    attempt turns out not to count, such as a login that succeeded. Taken before the work
    it guards, so parallel attempts cannot overrun a limit; a refused attempt keeps no
    slot of any of the limits."""
    try:
        return _take(limits)
    except _UsedUp as used_up:
        security_event("rate_limit", "refused", scope=used_up.scope)
        raise RateLimited(used_up.retry_after) from None


def fits(*limits: Limit) -> bool:
    """As `hit` for what is only counted, not defended against: False when a limit is used
    up, with no security-log line (a tab's page views past its allowance would otherwise
    write one line each, burying the refusals that matter)."""
    try:
        _take(limits)
    except _UsedUp:
        return False
    return True


def _take(limits: tuple[Limit, ...]) -> Reservation:
    limiter = MovingWindowRateLimiter(configured_storage())
    taken: list[str] = []
    for limit in limits:
        # Keyed (see `keyed_hash`); 32 hex digits (128 bits) keep the Redis keys short.
        identifier = keyed_hash(limit.identifier)[:32]
        for item in _items(limit.rule):
            if not limiter.hit(item, limit.scope, identifier):
                Reservation(tuple(taken)).give_back()
                reset_at = limiter.get_window_stats(item, limit.scope, identifier).reset_time
                raise _UsedUp(limit.scope, max(1, math.ceil(reset_at - time.time())))
            taken.append(item.key_for(limit.scope, identifier))
    return Reservation(tuple(taken))
