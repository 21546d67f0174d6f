"""Checks that the migrated database matches the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.command import downgrade, upgrade
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from rcxsite.models import include_in_schema
from rcxsite.platform.db import get_engine
from tests.support.site import alembic_config

# Derived from the models so that later tables (quote requests) need no edit here.
TABLES = {"alembic_version", *SQLModel.metadata.tables}


def assert_schema_matches_models() -> None:
    """What `reflex run` checks too: the migrated schema equals the model metadata."""
    with get_engine().connect() as connection:
        assert {"customer", "password_reset_token"} <= TABLES
        assert set(inspect(connection).get_table_names()) == TABLES
        context = MigrationContext.configure(
            connection,
            opts={
                "compare_type": True,
                "include_object": include_in_schema(connection.dialect.name),
            },
        )
        assert compare_metadata(context, SQLModel.metadata) == []


def assert_migrations_go_down_and_up_again() -> None:
    downgrade(alembic_config(), "base")
    with get_engine().connect() as connection:
        assert set(inspect(connection).get_table_names()) == {"alembic_version"}
    upgrade(alembic_config(), "head")
    assert_schema_matches_models()
