"""`python -m rcxsite migrate` run by two hosts at the same moment on one PostgreSQL
database: the migrations run once, and both hosts start."""

from __future__ import annotations

import subprocess
import sys

from sqlalchemy import inspect

from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure, configure
from tests.support.live_server import ROOT
from tests.support.postgres import scratch_postgres
from tests.support.schema import assert_schema_matches_models

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
