"""The data folder and the SQLite files in it (`rcx.db`, its `-wal` and `-shm`) are the
site's user's alone, as `secret_key` is: whether the migration or the site makes them,
under the usual umask, and also when an older version left them readable by everyone."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.command import upgrade
from sqlmodel import Session

from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure
from tests.support.site import alembic_config
from tests.support.staff import member_row

DATABASE_FILES = ("rcx.db", "rcx.db-wal", "rcx.db-shm")
PRIVATE = {"data/": "0o700", **dict.fromkeys(DATABASE_FILES, "0o600")}


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """022, under which a file is made readable by everyone unless asked otherwise."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def _modes(data: Path) -> dict[str, str]:
    """The data folder's mode and its database files', as `oct` writes them."""
    return {
        "data/": oct(stat.S_IMODE(data.stat().st_mode)),
        **{name: oct(stat.S_IMODE((data / name).stat().st_mode)) for name in DATABASE_FILES},
    }


def _site_in(data: Path, configure: Configure) -> None:
    configure(data_dir=data, database_url=f"sqlite:///{data / 'rcx.db'}")


def _write_a_row() -> None:
    """A write through the site's engine, whose pooled connection keeps -wal and -shm."""
    with Session(get_engine()) as session:
        session.add(member_row("Ada Admin", "ada@rcx.example", "admin"))
        session.commit()


def test_a_new_data_folder_and_its_database_are_private(
    tmp_path: Path, configure: Configure, usual_umask: None
) -> None:
    data = tmp_path / "data"
    _site_in(data, configure)
    upgrade(alembic_config(), "head")
    _write_a_row()
    assert _modes(data) == PRIVATE


def test_the_site_alone_makes_them_private_too(
    tmp_path: Path, configure: Configure, usual_umask: None
) -> None:
    """The engine opening a database no migration made yet."""
    data = tmp_path / "data"
    _site_in(data, configure)
    with get_engine().begin() as connection:
        connection.exec_driver_sql("CREATE TABLE t (x)")
    assert _modes(data) == PRIVATE


def test_files_an_older_version_left_readable_are_made_private(
    tmp_path: Path, configure: Configure, usual_umask: None
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    # The files as the site made them before: SQLite's own 0644, -wal and -shm alike.
    kept = sqlite3.connect(data / "rcx.db")
    kept.execute("PRAGMA journal_mode=WAL")
    kept.execute("CREATE TABLE t (x)")
    kept.commit()
    assert _modes(data) == {"data/": "0o755", **dict.fromkeys(DATABASE_FILES, "0o644")}
    _site_in(data, configure)
    upgrade(alembic_config(), "head")
    _write_a_row()
    kept.close()
    assert _modes(data) == PRIVATE
