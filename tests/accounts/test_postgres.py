"""The migrations and the race-sensitive parts of the service, on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import text

from rcxsite import accounts
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.db import get_engine
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure
from tests.support.parallel import register_all_at_once
from tests.support.postgres import scratch_postgres
from tests.support.schema import (
    assert_migrations_go_down_and_up_again,
    assert_schema_matches_models,
)
from tests.support.site import outbox_messages, reset_token_in


@pytest.fixture
def postgres(configure: Configure) -> Iterator[None]:
    """A scratch database, migrated to head, dropped afterwards."""
    with scratch_postgres(configure):
        yield


@pytest.mark.usefixtures("postgres")
def test_migrations_on_postgresql() -> None:
    assert get_engine().dialect.name == "postgresql"
    assert_schema_matches_models()
    assert_migrations_go_down_and_up_again()


@pytest.mark.usefixtures("postgres")
def test_parallel_duplicate_registrations_on_postgresql() -> None:
    emails = ["Dup@Example.com" if index % 2 else "dup@example.com" for index in range(20)]
    assert register_all_at_once(emails) == ["created"] + ["known"] * 19
    with get_engine().connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM customer")).scalar_one() == 1


@pytest.mark.usefixtures("postgres")
def test_nul_bytes_never_reach_postgresql() -> None:
    for field in ("user_name", "company_name", "location"):
        with pytest.raises(ServiceError) as refused:
            register_customer(**{field: "bad\x00value"})
        assert refused.value.status == 422
    with pytest.raises(ServiceError) as refused:
        calls.authenticate(email="a\x00@example.com", password="x\x00y", client_ip="1.2.3.4")
    assert refused.value.status == 401
    with pytest.raises(ServiceError) as refused:
        calls.request_password_reset(email="a\x00@example.com", client_ip="1.2.3.4")
    assert refused.value.status == 422
    assert accounts.check_reset_token(token="\x00", client_ip="1.2.3.4").is_valid is False


@pytest.mark.usefixtures("postgres")
def test_reset_flow_and_token_revocation_on_postgresql() -> None:
    register_customer(email="pat@example.com")
    old = calls.authenticate(email="pat@example.com", password=PASSWORD, client_ip="1.2.3.4")
    calls.request_password_reset(email="pat@example.com", client_ip="1.2.3.4")
    token = reset_token_in(outbox_messages()[-1])
    assert accounts.check_reset_token(token=token, client_ip="1.2.3.4").email == "pat@example.com"

    calls.reset_password(
        email="pat@example.com", new_password="fresh-pass", token=token, client_ip="10.0.0.9"
    )

    assert accounts.verify_login_token(old.token) is None
    new = calls.authenticate(email="pat@example.com", password="fresh-pass", client_ip="1.2.3.4")
    assert accounts.verify_login_token(new.token) == new.customer_id
    assert accounts.check_reset_token(token=token, client_ip="1.2.3.4").is_valid is False
