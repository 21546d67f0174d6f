"""The one migration step every host runs before it serves (`python -m rcxsite migrate`,
`make migrate`, `make run-scaled`): the database SETTINGS name brought to the newest
migration. On PostgreSQL the migrations run under an advisory lock (alembic/env.py), so
hosts started together migrate once: the others wait, then find nothing left to do."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

from alembic.command import upgrade
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, pool, text

from rcxsite.platform.settings import PROJECT_ROOT, get_settings

logger = logging.getLogger(__name__)
# Any number of ours: PostgreSQL's advisory locks are per database.
MIGRATION_LOCK = 7_242_018
LOCK_POLL_S = 0.2


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """PostgreSQL's advisory lock for the whole run, on a connection of its own outside any
    transaction. A host waits by asking again and again, not in a blocked statement: a
    waiting statement holds a snapshot, which a migration's CREATE INDEX CONCURRENTLY would
    wait for in turn (a deadlock)."""
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        asked = text("SELECT pg_try_advisory_lock(:key)")
        waited = False
        while not connection.execute(asked, {"key": MIGRATION_LOCK}).scalar():
            if not waited:
                logger.info("another host is migrating the database: waiting for it")
                waited = True
            time.sleep(LOCK_POLL_S)
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})


def migrate() -> str:
    """Migrates to head under the lock; the revision the database is at afterwards."""
    upgrade(Config(str(PROJECT_ROOT / "alembic.ini")), "head")
    engine = create_engine(get_settings().db_url, poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision() or ""
    finally:
        engine.dispose()
