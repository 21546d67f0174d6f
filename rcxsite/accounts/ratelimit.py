"""Rate limits on login failures, reset mails and reset-link checks, and the generic
`consume_limit` that other features (quote requests) count with.

Counters live in memory (one process) or, when `REDIS_URL` is set, in Redis so that all
workers share them. Identifiers are hashed: no addresses end up in Redis keys.
"""

from __future__ import annotations

import hashlib
import math
import time
from functools import lru_cache

from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from rcxsite.accounts.errors import AccountError
from rcxsite.settings import get_settings

_LOGIN = "login-failure"
_RESET_MAIL = "reset-mail"
_RESET_CHECK = "reset-check"


@lru_cache(maxsize=4)
def _storage(uri: str, key_prefix: str) -> Storage:
    if uri.startswith("memory"):
        return storage_from_string(uri)
    return storage_from_string(uri, key_prefix=key_prefix)


def _configured_storage() -> Storage:
    settings = get_settings()
    return _storage(settings.redis_url or "memory://", settings.rate_limit_key_prefix)


def _limiter() -> MovingWindowRateLimiter:
    return MovingWindowRateLimiter(_configured_storage())


@lru_cache(maxsize=16)
def _items(spec: str) -> tuple[RateLimitItem, ...]:
    return tuple(parse_many(spec))


def _identifier(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _blocked(
    limiter: MovingWindowRateLimiter, keys: list[tuple[RateLimitItem, str, str]]
) -> int | None:
    """Seconds to wait if any of the limits is exhausted, else None."""
    waits = [
        limiter.get_window_stats(item, scope, ident).reset_time - time.time()
        for item, scope, ident in keys
        if not limiter.test(item, scope, ident)
    ]
    return max(1, math.ceil(max(waits))) if waits else None


def _too_many(what: str, retry_after: int) -> AccountError:
    minutes = max(1, math.ceil(retry_after / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return AccountError(429, f"{what} Try again in {minutes} {unit}.", retry_after=retry_after)


def _login_keys(account: str, client_ip: str) -> list[tuple[RateLimitItem, str, str]]:
    items = _items(get_settings().login_failure_limit)
    return [(item, f"{_LOGIN}:account", _identifier(account)) for item in items] + [
        (item, f"{_LOGIN}:client", _identifier(client_ip)) for item in items
    ]


def ensure_login_allowed(*, account: str, client_ip: str) -> None:
    """Refuse a login attempt while the account or the client has too many recent failures."""
    retry_after = _blocked(_limiter(), _login_keys(account, client_ip))
    if retry_after is not None:
        raise _too_many("Too many failed login attempts.", retry_after)


def record_login_failure(*, account: str, client_ip: str) -> None:
    limiter = _limiter()
    for item, scope, ident in _login_keys(account, client_ip):
        limiter.hit(item, scope, ident)


def consume_reset_mail(*, account: str) -> None:
    """Count one reset request for an address (known or not, so 429s reveal nothing)."""
    keys = [
        (item, _RESET_MAIL, _identifier(account))
        for item in _items(get_settings().reset_mail_limits)
    ]
    _consume(keys, "Too many reset requests for this email address.")


def consume_reset_check(*, client_ip: str) -> None:
    keys = [
        (item, _RESET_CHECK, _identifier(client_ip))
        for item in _items(get_settings().reset_check_limit)
    ]
    _consume(keys, "Too many reset link checks.")


def _consume(keys: list[tuple[RateLimitItem, str, str]], what: str) -> None:
    retry_after = _consume_keys(keys)
    if retry_after is not None:
        raise _too_many(what, retry_after)


def _consume_keys(keys: list[tuple[RateLimitItem, str, str]]) -> int | None:
    limiter = _limiter()
    retry_after = _blocked(limiter, keys)
    if retry_after is not None:
        return retry_after
    for item, scope, ident in keys:
        limiter.hit(item, scope, ident)
    return None


def consume_limit(*, limits: str, scope: str, identifier: str) -> int | None:
    """Count one event for `identifier` against `limits` (`limits` notation, ";"-separated).

    Returns None when the event was counted, or the seconds to wait when a limit is
    exhausted (then nothing is counted). Shares the configured storage with the account
    limits, so `reset_rate_limits` clears these counters too.
    """
    return _consume_keys([(item, scope, _identifier(identifier)) for item in _items(limits)])


def reset_rate_limits() -> None:
    """Forget every counter of the configured storage (tests, or an operator's unlock)."""
    _configured_storage().reset()
