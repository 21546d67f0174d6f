"""A database or Redis that cannot be reached: 503 envelopes, bounded waits, no traces."""

from __future__ import annotations

import logging

import psycopg
import pytest
from fastapi.testclient import TestClient
from redis.exceptions import ConnectionError as RedisConnectionError
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from rcxsite.api import create_api
from rcxsite.outages import (
    RETRY_AFTER_SECONDS,
    UNAVAILABLE_MESSAGE,
    is_outage,
    redis_url_with_timeouts,
)

_REFUSED = OperationalError(
    "SELECT 1", {}, psycopg.OperationalError("connection failed: Connection refused")
)


@pytest.mark.parametrize("error", [_REFUSED, RedisConnectionError("Error 111 connecting")])
def test_an_unreachable_service_is_a_503_envelope_with_retry_after(
    error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_api()

    def down() -> None:
        raise error

    app.add_api_route("/api/v1/down", down)
    app.router.routes.insert(0, app.router.routes.pop())  # ahead of the catch-all route

    with TestClient(app, raise_server_exceptions=False) as client, \
            caplog.at_level(logging.WARNING):
        response = client.get("/api/v1/down")

    assert response.status_code == 503
    assert response.json() == {"status": 503, "message": UNAVAILABLE_MESSAGE, "data": None}
    assert response.headers["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "Traceback" not in caplog.text and "unavailable" in caplog.text


def test_a_database_error_that_is_a_bug_stays_a_500_with_its_trace_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = create_api()
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
