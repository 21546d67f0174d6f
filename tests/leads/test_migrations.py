from __future__ import annotations

from pathlib import Path

from alembic.command import downgrade, upgrade
from sqlalchemy import inspect, text

from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure
from tests.support.schema import assert_schema_matches_models
from tests.support.site import alembic_config

# The table as migration 0002 made it: a record of its own, not the model's (nor the export's)
# columns, which may change in later migrations.
_COLUMNS_0002 = (
    "id name email company phone service budget timeline "
    "message call_date call_time client_ip_hash created_at mailed_at"
)
QUOTE_COLUMNS = set(_COLUMNS_0002.split())


def table_names() -> set[str]:
    with get_engine().connect() as connection:
        return set(inspect(connection).get_table_names())


def test_migration_0002_goes_up_and_down_on_an_empty_sqlite_file(
    tmp_path: Path, configure: Configure
) -> None:
    database = tmp_path / "empty.db"
    configure(data_dir=tmp_path, database_url=f"sqlite:///{database}")

    upgrade(alembic_config(), "0001")
    assert "quote_request" not in table_names()
    with get_engine().begin() as connection:
        connection.execute(
            text(
                "INSERT INTO customer (user_name, email, email_key, mobile_number, password_hash,"
                " company_name, location, is_trial, created_at) VALUES ('A', 'a@example.com',"
                " 'a@example.com', '0123456789', 'h', 'C', 'L', false, '2026-01-01 00:00:00')"
            )
        )

    upgrade(alembic_config(), "0002")
    with get_engine().connect() as connection:
        inspector = inspect(connection)
        columns = {column["name"]: column for column in inspector.get_columns("quote_request")}
        indexes = {index["name"] for index in inspector.get_indexes("quote_request")}
    assert set(columns) == QUOTE_COLUMNS
    assert columns["mailed_at"]["nullable"] is True
    assert columns["call_date"]["nullable"] is False
    assert "ix_quote_request_created_at" in indexes

    downgrade(alembic_config(), "0001")
    assert table_names() == {"alembic_version", "customer", "password_reset_token"}
    with get_engine().connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM customer")).scalar_one() == 1

    upgrade(alembic_config(), "head")
    assert_schema_matches_models()
