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
from sqlalchemy.exc import DBAPIError, InterfaceError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

logger = logging.getLogger(__name__)

UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Please try again in a minute."
RETRY_AFTER_SECONDS = 30
# Bounds on waiting for a service that does not answer at all (a host gone from the
# network rather than a refused connection, which fails at once).
CONNECT_TIMEOUT_SECONDS = 5
STATEMENT_TIMEOUT_SECONDS = 15
REDIS_COMMAND_TIMEOUT_SECONDS = 5


class ServiceUnreachable(Exception):
    """A backing service of the site's own (the file store) did not answer."""


# Types that always mean "cannot reach it". A DBAPIError is one only when it says so (see
# `_database_unreachable`): a missing table or a deadlock is a bug or a retry, not an outage.
OUTAGE_TYPES = (
    DBAPIError,
    PoolTimeoutError,
    RedisConnectionError,
    RedisTimeoutError,
    StorageError,
    ServiceUnreachable,
)
# SQLSTATE classes of a lost or refused connection and of a server shutting down.
_UNREACHABLE_STATES = ("08", "57P01", "57P02", "57P03")


def _database_unreachable(error: DBAPIError) -> bool:
    if error.connection_invalidated or isinstance(error, InterfaceError):
        return True
    original = error.orig
    if original is None or not hasattr(original, "sqlstate"):  # SQLite
        return "unable to open database" in str(original)
    state = original.sqlstate
    # psycopg has no SQLSTATE when the server never answered (refused, no route, timeout).
    return state is None or str(state).startswith(_UNREACHABLE_STATES)


def is_outage(error: BaseException) -> bool:
    """Whether `error`, or an error it was raised from, says a service is unreachable."""
    current: BaseException | None = error
    for _ in range(10):  # `raise ... from` chains are short; a cycle must not loop
        if current is None:
            return False
        if isinstance(current, DBAPIError):
            if _database_unreachable(current):
                return True
        elif isinstance(current, OUTAGE_TYPES):
            return True
        current = current.__cause__
    return False


def log_outage(error: BaseException, where: str) -> None:
    logger.warning(
        "%s: a backing service is unavailable (%s: %s)",
        where,
        type(error).__name__,
        str(error).splitlines()[0] if str(error) else "",
    )


def redis_url_with_timeouts(url: str, *, command_timeout: bool) -> str:
    """`url` with a connect timeout (and a command timeout) unless it sets its own.

    Reflex's clients also hold pub/sub subscriptions that wait for messages for as long as
    there are none, so they get the connect timeout and TCP keepalives only
    (`command_timeout=False`)."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return url
    wanted: dict[str, object] = {
        "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "socket_keepalive": "true",
    }
    if command_timeout:
        wanted["socket_timeout"] = REDIS_COMMAND_TIMEOUT_SECONDS
    missing = [f"{name}={value}" for name, value in wanted.items() if f"{name}=" not in url]
    if not missing:
        return url
    return url + ("&" if "?" in url else "?") + "&".join(missing)
