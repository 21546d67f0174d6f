"""Rate limits kept in Redis, shared by every worker process."""

from __future__ import annotations

import subprocess
import sys

import pytest
import redis

from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.settings import get_settings
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.rate_limits import forget_storage_connections, reset_rate_limits


def test_login_failures_are_counted_in_redis_across_workers(redis_limits: redis.Redis) -> None:
    register_customer()
    for _ in range(10):
        with pytest.raises(ServiceError):
            calls.authenticate(email="alice@example.com", password="wrong", client_ip="10.1.1.1")
    prefix = get_settings().rate_limit_key_prefix
    assert list(redis_limits.scan_iter(f"{prefix}*"))

    forget_storage_connections()  # as if the next attempt reached another worker
    with pytest.raises(ServiceError) as refused:
        calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip="10.2.2.2")

    assert refused.value.status == 429
    reset_rate_limits()
    assert list(redis_limits.scan_iter(f"{prefix}*")) == []
    assert calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip="10.2.2.2")


_OTHER_WORKER = """
from rcxsite.core.service_errors import ServiceError
from tests.support import service_calls as calls
for _ in range(10):
    try:
        calls.authenticate(email="ghost@example.com", password="guess", client_ip="10.3.3.3")
    except ServiceError as refusal:
        assert refusal.status == 401, refusal
"""


def test_two_processes_share_one_limit_through_redis(redis_limits: redis.Redis) -> None:
    # A real second process (another worker) uses up the limit; this one is then refused.
    subprocess.run([sys.executable, "-c", _OTHER_WORKER], check=True, timeout=120)

    with pytest.raises(ServiceError) as refused:
        calls.authenticate(email="ghost@example.com", password="guess", client_ip="10.4.4.4")

    assert (refused.value.status, refused.value.message) == (
        429,
        "Too many requests. Try again in 15 minutes.",
    )
