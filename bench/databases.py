"""The databases the bench parts measure on: a fresh SQLite file, a scratch PostgreSQL
database (or the reason there is none), and Alembic's configuration to migrate them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic.config import Config
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from bench import config
from bench.environment import refresh


def alembic_config() -> Config:
    alembic = Config(str(config.ROOT / "alembic.ini"))
    # The bench prints its own lines; Alembic's logging setup would take over the root logger.
    alembic.attributes["configure_logger"] = False
    return alembic


@contextmanager
def sqlite_file(path: Path) -> Iterator[str]:
    """The URL of an empty SQLite file at `path` (an earlier run's is removed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    yield f"sqlite:///{path}"


@contextmanager
def scratch_postgres() -> Iterator[str]:
    """The URL of a new PostgreSQL database on the machine's server, dropped on exit."""
    admin = create_engine(
        f"{config.POSTGRES}/postgres",
        isolation_level="AUTOCOMMIT",
        connect_args={"connect_timeout": 3},
    )
    name = f"rcx_bench_inbox_{uuid.uuid4().hex[:12]}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield f"{config.POSTGRES}/{name}"
    finally:
        refresh()
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def postgres_missing() -> str | None:
    """Why there is no PostgreSQL to measure on; None when there is one."""
    probe = create_engine(f"{config.POSTGRES}/postgres", connect_args={"connect_timeout": 3})
    try:
        with probe.connect():
            return None
    except OperationalError as error:
        return f"PostgreSQL not reachable at {config.POSTGRES}: " + " ".join(
            str(error.orig).split()
        )
    finally:
        probe.dispose()
