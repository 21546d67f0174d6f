"""A scratch PostgreSQL database for one test, or a visible skip when there is no server."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from alembic.command import upgrade
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from rcxsite.platform.db import get_engine
from tests.support.services import service_missing, services_wanted
from tests.support.site import alembic_config

SERVER = "postgresql://postgres@127.0.0.1:5432"


@contextmanager
def scratch_postgres(
    configure: Callable[..., None],
    *,
    revision: str = "head",
    before_drop: Callable[[], object] = lambda: None,
) -> Iterator[str]:
    """Create a database, point DATABASE_URL at it, migrate to `revision`, drop it after."""
    services_wanted("PostgreSQL")
    admin = create_engine(
        f"{SERVER}/test", isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3}
    )
    name = f"rcx_test_{uuid.uuid4().hex[:12]}"
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as error:
        admin.dispose()
        service_missing(f"PostgreSQL not reachable at 127.0.0.1:5432: {error.orig}")
    url = f"{SERVER}/{name}"
    try:
        configure(database_url=url)
        upgrade(alembic_config(), revision)
        yield url
    finally:
        before_drop()
        get_engine().dispose()
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def sqlite_or_postgres(kind: str, configure: Callable[..., None]) -> Iterator[str]:
    """For tests that run on both databases: the package's SQLite file ("sqlite"), or a
    scratch PostgreSQL database ("postgresql", skipped when there is no server); yields
    `kind`."""
    if kind == "sqlite":
        assert make_url(str(get_engine().url)).get_backend_name() == "sqlite"
        yield kind
        return
    with scratch_postgres(configure):
        yield kind
