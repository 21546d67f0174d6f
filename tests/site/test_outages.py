"""A database or Redis that cannot be reached: 503 envelopes, bounded waits, no traces."""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import suppress

import psycopg
import pytest
from fastapi.testclient import TestClient
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from rcxsite.core import ratelimit
from rcxsite.core.ratelimit import Limit
from rcxsite.platform.db import get_engine
from rcxsite.platform.outages import (
    CONNECT_TIMEOUT_SECONDS,
    REDIS_COMMAND_TIMEOUT_SECONDS,
    RETRY_AFTER_SECONDS,
    UNAVAILABLE_MESSAGE,
    is_outage,
    redis_url_with_timeouts,
)
from rcxsite.web.server import create_server
from tests.support.rate_limits import forget_storage_connections
from tests.support.site import refresh_settings

_REFUSED = OperationalError(
    "SELECT 1", {}, psycopg.OperationalError("connection failed: Connection refused")
)


@pytest.mark.parametrize("error", [_REFUSED, RedisConnectionError("Error 111 connecting")])
def test_an_unreachable_service_is_a_503_envelope_with_retry_after(
    error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_server()

    def down() -> None:
        raise error

    app.add_api_route("/api/v1/down", down)
    app.router.routes.insert(0, app.router.routes.pop())  # ahead of the catch-all route

    with TestClient(app, raise_server_exceptions=False) as client, caplog.at_level(logging.WARNING):
        response = client.get("/api/v1/down")

    assert response.status_code == 503
    assert response.json() == {"status": 503, "message": UNAVAILABLE_MESSAGE, "data": None}
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "Traceback" not in caplog.text and "unavailable" in caplog.text


def test_a_database_error_that_is_a_bug_stays_a_500_with_its_trace_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = create_server()
    engine = create_engine("sqlite://")

    def broken() -> None:
        with engine.connect() as connection:
            connection.execute(text("SELECT * FROM no_such_table"))

    app.add_api_route("/api/v1/broken", broken)
    app.router.routes.insert(0, app.router.routes.pop())

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/v1/broken")

    assert response.status_code == 500
    assert "no_such_table" in caplog.text and "Traceback" in caplog.text


def test_an_outage_is_recognised_under_the_error_raised_from_it() -> None:
    try:
        try:
            raise _REFUSED
        except OperationalError as cause:
            raise RuntimeError("could not count the attempt") from cause
    except RuntimeError as wrapped:
        assert is_outage(wrapped)
    assert not is_outage(ValueError("a bug, not an outage"))


def test_redis_connections_get_timeouts_unless_the_url_sets_its_own() -> None:
    assert redis_url_with_timeouts("redis://h:6379/0", command_timeout=True) == (
        "redis://h:6379/0?socket_connect_timeout=5&socket_keepalive=true&socket_timeout=5"
    )
    # Reflex's subscriptions wait for messages: a connect timeout only.
    assert redis_url_with_timeouts("redis://h/0?ssl_cert_reqs=none", command_timeout=False) == (
        "redis://h/0?ssl_cert_reqs=none&socket_connect_timeout=5&socket_keepalive=true"
    )
    own = "redis://h/0?socket_connect_timeout=1&socket_keepalive=false&socket_timeout=2"
    assert redis_url_with_timeouts(own, command_timeout=True) == own
    assert redis_url_with_timeouts("", command_timeout=True) == ""


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A host that accepts connections and never answers: a server hung or cut off
    behind a network that does not refuse (unlike a stopped one, which fails at once)."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            with suppress(TimeoutError):
                accepted.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def _gives_up(action: Callable[[], object], within_s: float) -> BaseException:
    """Runs `action` in a thread; it must fail, and before `within_s` (else it hangs)."""
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            action()
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(within_s)
    assert not thread.is_alive(), f"still waiting after {within_s} s"
    assert outcome, "it did not fail"
    return outcome[0]


@pytest.fixture
def settings_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Environment changes that the settings, the engine and the limits see; undone after."""
    yield monkeypatch
    monkeypatch.undo()
    refresh_settings()
    forget_storage_connections()


def test_a_database_host_that_never_answers_is_an_outage_not_a_hang(
    silent_server: int, settings_env: pytest.MonkeyPatch
) -> None:
    settings_env.setenv("DATABASE_URL", f"postgresql://postgres@127.0.0.1:{silent_server}/rcx")
    refresh_settings()

    def query() -> None:
        with get_engine().connect() as connection:
            connection.execute(text("SELECT 1"))

    assert is_outage(_gives_up(query, within_s=CONNECT_TIMEOUT_SECONDS * 3))


def test_a_redis_host_that_never_answers_is_an_outage_not_a_hang(
    silent_server: int, settings_env: pytest.MonkeyPatch
) -> None:
    settings_env.setenv("REDIS_URL", f"redis://127.0.0.1:{silent_server}/0")
    settings_env.setenv("RATE_LIMIT_KEY_PREFIX", "rcx-test-silent")
    refresh_settings()
    forget_storage_connections()
    failure = _gives_up(
        lambda: ratelimit.hit(Limit("5 per minute", "silent", "a")),
        within_s=REDIS_COMMAND_TIMEOUT_SECONDS * 6,
    )
    assert is_outage(failure)
