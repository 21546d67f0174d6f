"""The quote table and service on a real PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from alembic.command import downgrade, upgrade
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import OperationalError

from rcxsite.db import get_engine
from rcxsite.leads import submit_quote, wait_for_quote_mail
from tests.leads.forms import quote_fields, stored_requests
from tests.support.fixtures import Configure
from tests.support.schema import assert_schema_matches_models
from tests.support.site import alembic_config

SERVER = "postgresql+psycopg2://postgres@127.0.0.1:5432"


@pytest.fixture
def postgres(configure: Configure) -> Iterator[None]:
    """A scratch database, migrated to head, dropped afterwards."""
    admin = create_engine(
        f"{SERVER}/test", isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )
    name = f"rcx_test_{uuid.uuid4().hex[:12]}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as error:
        admin.dispose()
        pytest.skip(f"PostgreSQL not reachable at 127.0.0.1:5432: {error.orig}")
    try:
        configure(database_url=f"{SERVER}/{name}")
        upgrade(alembic_config(), "head")
        yield
    finally:
        assert wait_for_quote_mail(30)
        get_engine().dispose()
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


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
    assert wait_for_quote_mail(10)
    [row] = stored_requests()
    assert row.message == longest and len(row.name) == 100
    assert row.mailed_at is not None and row.created_at.tzinfo is not None

    refused = submit_quote(fields=quote_fields(company="bad\x00value"), client_ip="10.0.0.1")
    assert refused.status == 422 and "company" in refused.errors
    assert len(stored_requests()) == 1
