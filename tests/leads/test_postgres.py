"""The quote table and service on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from alembic.command import downgrade, upgrade
from sqlalchemy import inspect

from rcxsite.db import get_engine
from rcxsite.mail import wait_for_outgoing_mail
from tests.leads.forms import quote_fields, stored_requests
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.schema import assert_schema_matches_models
from tests.support.service_calls import submit_quote
from tests.support.site import alembic_config


@pytest.fixture
def postgres(configure: Configure) -> Iterator[None]:
    """A scratch database, migrated to head, dropped afterwards."""
    with scratch_postgres(configure, before_drop=lambda: wait_for_outgoing_mail(30)):
        yield


@pytest.mark.usefixtures("postgres")
def test_migration_0002_on_postgresql() -> None:
    assert get_engine().dialect.name == "postgresql"
    assert_schema_matches_models()
    downgrade(alembic_config(), "0001")
    with get_engine().connect() as connection:
        assert "quote_request" not in inspect(connection).get_table_names()
    upgrade(alembic_config(), "head")
    assert_schema_matches_models()


@pytest.mark.usefixtures("postgres")
def test_quote_requests_on_postgresql() -> None:
    longest = "ü" * 5000  # limits count characters, not bytes
    result = submit_quote(
        fields=quote_fields(name="Zoë " + "x" * 96, message=longest), client_ip="10.0.0.1"
    )
    assert result.ok, result.errors
    assert wait_for_outgoing_mail(10)
    [row] = stored_requests()
    assert row.message == longest and len(row.name) == 100
    assert row.mailed_at is not None and row.created_at.tzinfo is not None

    refused = submit_quote(fields=quote_fields(company="bad\x00value"), client_ip="10.0.0.1")
    assert refused.status == 422 and "company" in refused.errors
    assert len(stored_requests()) == 1
