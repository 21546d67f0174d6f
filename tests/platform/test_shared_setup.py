"""On a shared database the site refuses to start without the settings every host must
share, naming each (rcxsite/platform/shared_setup.py)."""

from __future__ import annotations

import asyncio

import pytest

import rcxsite.rcxsite
from rcxsite.job_kinds import alongside_the_site
from rcxsite.platform.migrations import schema_ready
from rcxsite.platform.settings import Settings
from rcxsite.platform.shared_setup import (
    SharedSetupMissing,
    checked_at_start,
    missing_settings,
)
from tests.support.site import refresh_settings

POSTGRES = "postgresql://postgres@127.0.0.1:9/none"
SHARED = dict(
    secret_key="k" * 48,
    redis_url="redis://127.0.0.1:9/0",
    site_url="https://rcx.example",
    smtp_host="mail.rcx.example",
)


def _settings(**values: object) -> Settings:
    return Settings(**{**SHARED, "database_url": POSTGRES, **values})  # type: ignore[arg-type]


def test_sqlite_needs_none_of_them() -> None:
    bare = Settings(database_url="", secret_key="", redis_url="", site_url="", smtp_host="")
    assert missing_settings(bare) == []


def test_a_shared_database_names_each_missing_setting() -> None:
    missing = missing_settings(_settings(secret_key="", redis_url="", site_url="", smtp_host=""))
    assert [line.split(":")[0] for line in missing] == [
        "SECRET_KEY",
        "REDIS_URL",
        "SITE_URL",
        "SMTP_HOST",
    ]
    assert missing_settings(_settings()) == []


def test_site_url_must_be_set_not_made_from_the_port() -> None:
    made = _settings(site_url="", port=3200)
    assert made.site_url == "http://localhost:3200"
    assert [line.split(":")[0] for line in missing_settings(made)] == ["SITE_URL"]


def test_mail_kept_in_the_outbox_on_purpose_needs_no_mail_server() -> None:
    assert missing_settings(_settings(smtp_host="", mail_to_outbox=True)) == []


def test_a_worker_on_a_shared_database_without_them_stops_at_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In this order: refused before anything else starts, then waiting for the schema,
    # then the jobs.
    tasks = list(rcxsite.rcxsite.app._lifespan_tasks)
    steps = (checked_at_start, schema_ready, alongside_the_site)
    assert [tasks.index(step) for step in steps] == sorted(tasks.index(step) for step in steps)

    async def start() -> None:
        async with checked_at_start():
            pass

    for name, value in {**SHARED, "database_url": POSTGRES, "secret_key": ""}.items():
        monkeypatch.setenv(name.upper(), value)
    refresh_settings()
    try:
        with pytest.raises(SharedSetupMissing, match="SECRET_KEY: the same key on every host"):
            asyncio.run(start())
        monkeypatch.setenv("SECRET_KEY", "k" * 48)
        refresh_settings()
        asyncio.run(start())
    finally:
        monkeypatch.undo()
        refresh_settings()
