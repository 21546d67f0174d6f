from __future__ import annotations

from pathlib import Path

import pytest
from alembic.command import upgrade
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure
from tests.support.schema import (
    assert_migrations_go_down_and_up_again,
    assert_schema_matches_models,
)
from tests.support.site import alembic_config


def test_migrations_build_the_schema_on_an_empty_sqlite_file(
    tmp_path: Path, configure: Configure
) -> None:
    database = tmp_path / "nested" / "empty.db"
    configure(data_dir=tmp_path / "nested", database_url=f"sqlite:///{database}")

    upgrade(alembic_config(), "head")

    assert database.exists()
    assert_schema_matches_models()
    assert_migrations_go_down_and_up_again()


def test_the_email_key_is_unique_in_the_database_itself() -> None:
    insert = text(
        "INSERT INTO customer (user_name, email, email_key, mobile_number, password_hash,"
        " company_name, location, is_trial, created_at)"
        " VALUES ('A', :email, 'a@example.com', '0123456789', 'h', 'C', 'L', false,"
        " '2026-01-01 00:00:00')"
    )
    with get_engine().begin() as connection:
        connection.execute(insert, {"email": "a@example.com"})
    with pytest.raises(IntegrityError), get_engine().begin() as connection:
        connection.execute(insert, {"email": "A@example.com"})
