"""The one migration step every host runs before it serves (`python -m rcxsite migrate`,
`make migrate`, `make run-scaled`): the database SETTINGS name brought to the newest
migration. On PostgreSQL the migrations run under an advisory lock (alembic/env.py), so
hosts started together migrate once: the others wait, then find nothing left to do.

A worker whose code needs a newer schema than the database has waits before it serves,
saying so, until the step has run (`schema_ready`); a worker of older code, on a database
a newer version migrated, serves what that schema allows (migrations only add or widen
while old workers may still run)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

from alembic.command import upgrade
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from rcxsite.platform.db import get_engine
from rcxsite.platform.settings import PROJECT_ROOT

logger = logging.getLogger(__name__)
# Any number of ours: PostgreSQL's advisory locks are per database.
MIGRATION_LOCK = 7_242_018
LOCK_POLL_S = 0.2
# How often a worker waiting for the migration step looks again, and for how long it
# waits before it stops (its supervisor starts it again). The server reads its stop
# signal only once the worker has started, so the wait is bounded.
SCHEMA_POLL_S = 2.0
SCHEMA_WAIT_S = 120.0


class SchemaBehind(RuntimeError):
    """The database still lacks this code's migrations after `SCHEMA_WAIT_S`."""


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
                # Said where the command's output goes (alembic.ini logs warnings only).
                logger.warning("another host is migrating the database: waiting for it")
                waited = True
            time.sleep(LOCK_POLL_S)
        try:
            yield
        finally:
            # The lock ends with the session anyway: a connection lost during a long
            # migration must not turn the migration's own outcome into this error.
            try:
                unlock = text("SELECT pg_advisory_unlock(:key)")
                connection.execute(unlock, {"key": MIGRATION_LOCK})
            except DBAPIError as error:
                logger.warning("could not release the migration lock: %s", error)


def _config() -> Config:
    return Config(str(PROJECT_ROOT / "alembic.ini"))


def current_revision() -> str:
    """The migration the database is at ("" before the first), through the site's engine
    and its connect and statement timeouts: a database that never answers is not waited
    for."""
    with get_engine().connect() as connection:
        return MigrationContext.configure(connection).get_current_revision() or ""


def migrate() -> str:
    """Migrates to head under the lock; the revision the database is at afterwards."""
    upgrade(_config(), "head")
    return current_revision()


def behind(current: str) -> str:
    """The newest migration this code knows, if the database at `current` lacks it; ""
    when it has it, or is at a migration this code does not know (newer code ran it)."""
    script = ScriptDirectory.from_config(_config())
    head = script.get_current_head() or ""
    known = {revision.revision for revision in script.walk_revisions()}
    if current == head or (current and current not in known):
        return ""
    return head


@contextlib.asynccontextmanager
async def schema_ready() -> AsyncIterator[None]:
    """A worker's lifespan step: it serves once the database has this code's migrations
    (or newer ones). A database it cannot reach is the outage handling's to show, so the
    worker then starts at once."""
    said = False
    deadline = time.monotonic() + SCHEMA_WAIT_S
    while True:
        try:
            current = await asyncio.to_thread(current_revision)
            needed = await asyncio.to_thread(behind, current)
        except Exception as error:
            logger.warning("could not read the database's migration: %s", type(error).__name__)
            break
        if not needed:
            break
        if not said:
            logger.warning(
                "the database is at migration %s and this code needs %s: waiting for"
                " `python -m rcxsite migrate` before serving",
                current or "(none)",
                needed,
            )
            said = True
        if time.monotonic() > deadline:
            message = (
                f"the database is still at migration {current or '(none)'} after"
                f" {SCHEMA_WAIT_S:.0f} s; this code needs {needed}: stopping"
            )
            logger.error("%s", message)
            raise SchemaBehind(message)
        await asyncio.sleep(SCHEMA_POLL_S)
    yield
