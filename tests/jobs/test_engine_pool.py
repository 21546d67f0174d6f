"""The database pool is sized by settings (DATABASE_POOL_SIZE, DATABASE_MAX_OVERFLOW), on a
SQLite file as on PostgreSQL; an in-memory SQLite database keeps the pool of its kind."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure


def test_the_pool_takes_its_size_from_the_settings(configure: Configure, tmp_path: Path) -> None:
    configure(database_url=f"sqlite:///{tmp_path / 'pool.db'}", database_pool_size=7)
    assert get_engine().pool.size() == 7  # type: ignore[attr-defined]


def test_an_in_memory_database_still_starts(configure: Configure) -> None:
    configure(database_url="sqlite://", database_pool_size=7)
    with get_engine().connect() as connection:
        assert connection.execute(text("SELECT 1")).scalar_one() == 1
