"""Alembic environment: the URL comes from rcxsite.platform.settings, the schema from
rcxsite.models."""

import contextlib
from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy import create_engine, make_url, pool
from sqlmodel import SQLModel

import rcxsite.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from rcxsite.models import UTCDateTime, include_in_schema
from rcxsite.platform.db import private_sqlite_file
from rcxsite.platform.migrations import migration_lock
from rcxsite.platform.settings import get_settings

config = context.config
# Tests run migrations in-process; re-reading logging config there would mute pytest's capture.
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    # Autogenerate would otherwise write an import of the app's type into the migration.
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(dialect: str, **kwargs: Any) -> None:
    context.configure(
        target_metadata=target_metadata,
        compare_type=True,
        render_item=_render_item,
        include_object=include_in_schema(dialect),
        **kwargs,
    )


def run_migrations_offline() -> None:
    url = get_settings().db_url
    _configure(
        make_url(url).get_backend_name(),
        url=url,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = get_settings().db_url
    if url.startswith("sqlite"):
        private_sqlite_file(url)
    engine = create_engine(url, poolclass=pool.NullPool)
    with contextlib.ExitStack() as held:
        if make_url(url).get_backend_name() == "postgresql":
            # Hosts started together migrate one at a time: the next one waits until the
            # first is done, then finds the schema already at head.
            held.enter_context(migration_lock(engine))
        with engine.connect() as connection:
            # SQLite cannot ALTER most things; batch mode rebuilds the table instead.
            dialect = connection.dialect.name
            _configure(dialect, connection=connection, render_as_batch=dialect == "sqlite")
            with context.begin_transaction():
                context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
