"""Pytest fixtures for the accounts and API test packages; each conftest imports them."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

import rcxsite.job_kinds  # noqa: F401  (every kind of job a runner does)
from rcxsite.jobs.runner import BackgroundRunner
from rcxsite.mail import wait_for_outgoing_mail
from tests.support.rate_limits import reset_rate_limits
from tests.support.scratch_services import ScratchObjectStore
from tests.support.services import service_missing, services_wanted
from tests.support.site import isolated_site, refresh_settings, reset_state
from tests.support.smtp import Mailbox

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="package", autouse=True)
def site_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A migrated, empty site per test package; the real environment is restored after."""
    with isolated_site(tmp_path_factory.mktemp("site")) as root:
        yield root


@pytest.fixture(autouse=True)
def fresh_state(site_root: Path) -> None:
    reset_state()


Configure = Callable[..., None]


@pytest.fixture
def configure() -> Iterator[Configure]:
    """Change settings for one test: `configure(reset_token_minutes=5)`."""
    patch = pytest.MonkeyPatch()

    def apply(**values: object) -> None:
        for name, value in values.items():
            patch.setenv(name.upper(), str(value))
        refresh_settings()

    yield apply
    patch.undo()
    refresh_settings()


@pytest.fixture
def mailbox(configure: Configure) -> Iterator[Mailbox]:
    """A running SMTP server that the site sends to for the duration of the test."""
    box = Mailbox().start()
    configure(smtp_host=box.host, smtp_port=box.port, smtp_starttls=False)
    # The site's own job runner delivers the outbox, as it does beside the site.
    runner = BackgroundRunner().start()
    yield box
    runner.stop()
    wait_for_outgoing_mail(30)
    box.stop()


@pytest.fixture
def redis_limits(configure: Configure) -> Iterator[redis.Redis]:
    """Rate limits kept in the machine's Redis for one test; yields a client to look inside."""
    services_wanted("Redis")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        service_missing(f"Redis not reachable at 127.0.0.1:6379: {error}")
    # A prefix of its own, so neither a running site nor other tests share these counters.
    configure(redis_url=REDIS_URL, rate_limit_key_prefix=f"rcx-test-{uuid.uuid4().hex}")
    yield client
    reset_rate_limits()
    client.close()


@pytest.fixture(scope="module")
def object_store() -> Iterator[ScratchObjectStore]:
    """A real S3 API (moto in server mode) for the module's tests."""
    services_wanted("S3 (moto)")
    store = ScratchObjectStore()
    store.start()
    try:
        yield store
    finally:
        store.remove()


@pytest.fixture
def bucket(object_store: ScratchObjectStore, configure: Configure) -> str:
    """A fresh bucket the site's file store is set to (FILE_STORE=s3://<bucket>/site)."""
    name = f"rcx-files-{os.urandom(4).hex()}"
    object_store.client().create_bucket(Bucket=name)
    configure(
        file_store=f"s3://{name}/site",
        file_store_endpoint=object_store.endpoint,
        file_store_access_key="test",
        file_store_secret_key="test",
    )
    return name
