"""A backing service (the database, Redis) that cannot be reached right now.

Such a failure is not a bug in the request: the API answers 503 with a Retry-After, the
screens show their "Something went wrong" texts, the log gets one line instead of a
trace per request, and nothing needs a restart: the next request connects again.
"""

from __future__ import annotations

import logging

from limits.errors import StorageError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

logger = logging.getLogger(__name__)

UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Please try again in a minute."
RETRY_AFTER_SECONDS = 30
# Bounds on waiting for a service that does not answer at all (a host gone from the
# network rather than a refused connection, which fails at once).
CONNECT_TIMEOUT_SECONDS = 5
STATEMENT_TIMEOUT_SECONDS = 15
REDIS_COMMAND_TIMEOUT_SECONDS = 5

OUTAGE_TYPES = (OperationalError, InterfaceError, PoolTimeoutError, RedisConnectionError,
            RedisTimeoutError, StorageError, ConnectionError, TimeoutError)


def is_outage(error: BaseException) -> bool:
    """Whether `error`, or an error it was raised from, says a service is unreachable."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OUTAGE_TYPES) or (
            isinstance(current, DBAPIError) and current.connection_invalidated
        ):
            return True
        current = current.__cause__ or current.__context__
    return False


def log_outage(error: BaseException, where: str) -> None:
    logger.warning("%s: a backing service is unavailable (%s: %s)", where,
                   type(error).__name__, str(error).splitlines()[0] if str(error) else "")


def redis_url_with_timeouts(url: str, *, command_timeout: bool) -> str:
    """`url` with a connect timeout (and a command timeout) unless it sets its own.

    Reflex's clients also hold pub/sub subscriptions that wait for messages for as long as
    there are none, so they get the connect timeout only (`command_timeout=False`)."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return url
    wanted = {"socket_connect_timeout": CONNECT_TIMEOUT_SECONDS}
    if command_timeout:
        wanted["socket_timeout"] = REDIS_COMMAND_TIMEOUT_SECONDS
    missing = [f"{name}={value}" for name, value in wanted.items() if f"{name}=" not in url]
    if not missing:
        return url
    return url + ("&" if "?" in url else "?") + "&".join(missing)
