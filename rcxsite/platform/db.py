"""The database engine, made once per process from `DATABASE_URL`."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from sqlalchemy import event, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry
from sqlmodel import Session, create_engine

from rcxsite.platform.outages import CONNECT_TIMEOUT_SECONDS, STATEMENT_TIMEOUT_SECONDS
from rcxsite.platform.settings import get_settings, private_folder

# What SQLite adds beside a database file: the write-ahead log, its shared memory, and the
# rollback journal of a database not (yet) in WAL mode.
_SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")


@lru_cache
def get_engine() -> Engine:
    url = get_settings().db_url
    if url.startswith("sqlite"):
        private_sqlite_file(url)
        # A file's pool is sized like PostgreSQL's; an in-memory database has a pool of
        # its own kind, which takes no size.
        in_memory = make_url(url).database in (None, "", ":memory:")
        sizes = {} if in_memory else _pool_sizes()
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            hide_parameters=True,
            **sizes,
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(
            dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry
        ) -> None:
            # WAL lets the several Reflex workers read while one writes.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(
        url,
        # A failed statement's log line names no value it carried (names, emails, notes).
        hide_parameters=True,
        pool_pre_ping=True,
        pool_timeout=CONNECT_TIMEOUT_SECONDS * 2,
        connect_args=_postgres_bounds(url),
        **_pool_sizes(),
    )


def private_sqlite_file(url: str) -> None:
    """Before SQLite opens the file of `url`: the data folder and the database's files
    readable by the site's own user only (the database holds password hashes and
    customers' details). SQLite would make the file 0644 under the usual umask, so it is
    made 0600 first; SQLite gives the files it adds beside it the database file's mode,
    whatever the umask. Files an older version left readable are narrowed."""
    private_folder(get_settings().data_dir)
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    # A missing folder is left for SQLite to report as it connects, as before.
    with contextlib.suppress(FileNotFoundError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for file in (path, *(path.with_name(path.name + suffix) for suffix in _SQLITE_COMPANIONS)):
        # Another user's file (a shared volume) is left as its owner made it.
        with contextlib.suppress(FileNotFoundError, PermissionError):
            os.chmod(file, 0o600)


def _pool_sizes() -> dict[str, int]:
    settings = get_settings()
    return {
        "pool_size": settings.database_pool_size,
        "max_overflow": settings.database_max_overflow,
    }


def _postgres_bounds(url: str) -> dict[str, object]:
    """A refused connection fails at once; these bound the wait on a host that is gone
    (the statement timeout counts on the server, the TCP ones on this side). What
    DATABASE_URL sets itself is left alone."""
    bounds: dict[str, object] = {
        "connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "options": f"-c statement_timeout={STATEMENT_TIMEOUT_SECONDS * 1000}",
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 5,
        "keepalives_count": 3,
        # Data sent and not acknowledged: a healthy server acknowledges at once, however
        # long the statement runs, so a host cut off is found out this soon.
        "tcp_user_timeout": CONNECT_TIMEOUT_SECONDS * 1000,
    }
    given = make_url(url).query
    return {name: value for name, value in bounds.items() if name not in given}


@contextmanager
def session_scope(*, for_update: bool = False) -> Iterator[Session]:
    """A session that commits on success and rolls back on any error.

    `for_update`: the transaction writes on the strength of what it reads (a lock and a
    login, the last admin), so two of them must not both act on what they read before the
    other wrote. On PostgreSQL the caller locks its rows (`with_for_update`); SQLite has no
    row locks, and pysqlite starts a transaction only at the first write, so there the
    transaction takes the database's write lock before its first read (BEGIN IMMEDIATE)
    and the other waits (up to the 30 s busy timeout). Only for such transactions: every
    other one keeps reading alongside the writer."""
    with Session(get_engine()) as session:
        if for_update and session.get_bind().dialect.name == "sqlite":
            session.connection().exec_driver_sql("BEGIN IMMEDIATE")
        try:
            yield session
            session.commit()
        except Exception:
            session.rollback()
            raise


def advisory_key(scope: str, value: str) -> int:
    """A PostgreSQL advisory lock's number for one thing (`scope`, `value`): a signed 64-bit
    number from their hash."""
    digest = hashlib.sha256(f"{scope}:{value}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def hold_advisory_lock(session: Session, scope: str, value: str) -> None:
    """Serialise the transactions about one thing until `session` commits or rolls back: on
    PostgreSQL an advisory lock on it; on SQLite the caller's `session_scope(for_update=True)`
    already holds the database's write lock."""
    if session.get_bind().dialect.name == "postgresql":
        session.connection().execute(
            text("SELECT pg_advisory_xact_lock(:key)"), {"key": advisory_key(scope, value)}
        )
