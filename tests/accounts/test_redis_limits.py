"""Rate limits kept in Redis, shared by every worker process."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest
import redis

from rcxsite import accounts, ratelimit
from rcxsite.accounts import AccountError
from rcxsite.settings import get_settings
from tests.support.fixtures import Configure
from tests.support.services import service_missing
from tests.support.site import PASSWORD, register_customer

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def redis_client(configure: Configure) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        service_missing(f"Redis not reachable at 127.0.0.1:6379: {error}")
    # A prefix of its own, so neither a running site nor other tests share these counters.
    configure(redis_url=REDIS_URL, rate_limit_key_prefix=f"rcx-test-{uuid.uuid4().hex}")
    yield client
    accounts.reset_rate_limits()
    client.close()


def test_login_failures_are_counted_in_redis_across_workers(redis_client: redis.Redis) -> None:
    register_customer()
    for _ in range(10):
        with pytest.raises(AccountError):
            accounts.authenticate(email="alice@example.com", password="wrong", client_ip="10.1.1.1")
    prefix = get_settings().rate_limit_key_prefix
    assert list(redis_client.scan_iter(f"{prefix}*"))

    ratelimit.forget_storage_connections()  # as if the next attempt reached another worker
    with pytest.raises(AccountError) as refused:
        accounts.authenticate(email="alice@example.com", password=PASSWORD, client_ip="10.2.2.2")

    assert refused.value.status == 429
    accounts.reset_rate_limits()
    assert list(redis_client.scan_iter(f"{prefix}*")) == []
    assert accounts.authenticate(email="alice@example.com", password=PASSWORD, client_ip="10.2.2.2")


_OTHER_WORKER = """
from rcxsite import accounts
for _ in range(10):
    try:
        accounts.authenticate(email="ghost@example.com", password="guess", client_ip="10.3.3.3")
    except accounts.AccountError as refusal:
        assert refusal.status == 401, refusal
"""


def test_two_processes_share_one_limit_through_redis(redis_client: redis.Redis) -> None:
    # A real second process (another worker) uses up the limit; this one is then refused.
    subprocess.run([sys.executable, "-c", _OTHER_WORKER], check=True, timeout=120)

    with pytest.raises(AccountError) as refused:
        accounts.authenticate(email="ghost@example.com", password="guess", client_ip="10.4.4.4")

    assert (refused.value.status, refused.value.message) == (
        429, "Too many requests. Try again in 15 minutes."
    )
