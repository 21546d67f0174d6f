"""`python -m rcxsite migrate` run by two hosts at the same moment on one PostgreSQL
database: the migrations run once, and both hosts start. A worker whose code is newer than
the database's schema waits for that step; one whose code is older serves."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from alembic.command import upgrade
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from rcxsite.platform import migrations
from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure, configure
from tests.support.live_server import ROOT
from tests.support.postgres import scratch_postgres
from tests.support.schema import assert_schema_matches_models
from tests.support.site import alembic_config
from tests.support.waiting import wait_for

__all__ = ["configure"]


def test_two_hosts_migrating_at_once_migrate_once(configure: Configure) -> None:
    with scratch_postgres(configure, revision="base"):
        with get_engine().connect() as connection:
            assert inspect(connection).get_table_names() in ([], ["alembic_version"])
        started = [
            subprocess.Popen(
                [sys.executable, "-m", "rcxsite", "migrate"],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        outputs = [process.communicate(timeout=120) for process in started]
        assert [process.returncode for process in started] == [0, 0], outputs
        ran = [err.count("Running upgrade") for _, err in outputs]
        assert sorted(ran) == [0, max(ran)] and max(ran) > 10, ran
        assert all(out.startswith("The database is at migration ") for out, _ in outputs)
        assert_schema_matches_models()


def _start_waiting() -> tuple[threading.Thread, threading.Event]:
    done = threading.Event()

    async def start() -> None:
        async with migrations.schema_ready():
            done.set()

    thread = threading.Thread(target=asyncio.run, args=(start(),), daemon=True)
    thread.start()
    return thread, done


def test_a_worker_of_newer_code_waits_for_the_migration_and_says_so(
    configure: Configure,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    configure(database_url=f"sqlite:///{tmp_path / 'rcx.db'}")
    monkeypatch.setattr(migrations, "SCHEMA_POLL_S", 0.05)
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    previous = script.get_revision(head).down_revision
    upgrade(alembic_config(), str(previous))  # the database as the older version left it
    caplog.set_level(logging.WARNING, logger=migrations.__name__)
    thread, done = _start_waiting()
    assert wait_for(lambda: "waiting for `python -m rcxsite migrate`" in caplog.text)
    assert f"at migration {previous} and this code needs {head}" in caplog.text
    assert not done.is_set()
    assert migrations.migrate() == head
    assert done.wait(30), "the worker did not start once the schema was migrated"
    thread.join(5)


def test_a_worker_of_older_code_serves_what_a_newer_schema_allows(
    configure: Configure, tmp_path: Path
) -> None:
    configure(database_url=f"sqlite:///{tmp_path / 'rcx.db'}")
    upgrade(alembic_config(), "head")
    with get_engine().begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999_from_newer'"))
    thread, done = _start_waiting()
    assert done.wait(30)
    thread.join(5)
    assert migrations.behind("9999_from_newer") == ""


def test_a_worker_waits_for_the_migration_for_a_bounded_time_then_stops(
    configure: Configure, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(database_url=f"sqlite:///{tmp_path / 'rcx.db'}")
    monkeypatch.setattr(migrations, "SCHEMA_POLL_S", 0.05)
    monkeypatch.setattr(migrations, "SCHEMA_WAIT_S", 0.3)
    script = ScriptDirectory.from_config(alembic_config())
    upgrade(alembic_config(), str(script.get_revision(script.get_current_head()).down_revision))

    async def start() -> None:
        async with migrations.schema_ready():
            raise AssertionError("served without its migration")

    with pytest.raises(migrations.SchemaBehind, match="after 0 s; this code needs"):
        asyncio.run(start())
