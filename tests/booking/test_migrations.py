"""Migration 0011 (booked calls) on SQLite and PostgreSQL: the schema is the models', it
goes down and up again, and existing sales members take calls."""

from __future__ import annotations

from pathlib import Path

from alembic.command import downgrade, upgrade
from sqlalchemy import inspect, text

from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.schema import (
    assert_migrations_go_down_and_up_again,
    assert_schema_matches_models,
)
from tests.support.site import alembic_config

BOOKING_TABLES = {"booking", "member_hours", "member_day", "member_time_off"}


def _add_members_and_upgrade() -> dict[str, bool]:
    """Members of three roles made before 0011; whether each takes calls after it."""
    with get_engine().begin() as connection:
        for role in ("sales", "admin", "support"):
            connection.execute(
                text(
                    "INSERT INTO staff_member (name, email, email_key, role, password_hash,"
                    " totp_secret, totp_last_step, recovery_code_hashes, time_zone, created_at)"
                    " VALUES (:role, :email, :email, :role, '', '', 0, '[]', '',"
                    " '2026-01-01 00:00:00+00')"
                ),
                {"role": role, "email": f"{role}@rcx.example"},
            )
    upgrade(alembic_config(), "0011")
    with get_engine().connect() as connection:
        rows = connection.execute(text("SELECT role, takes_calls FROM staff_member"))
        return {role: bool(takes) for role, takes in rows}


def _check_0011() -> None:
    downgrade(alembic_config(), "0010")
    with get_engine().connect() as connection:
        inspector = inspect(connection)
        assert not BOOKING_TABLES & set(inspector.get_table_names())
        columns = {column["name"] for column in inspector.get_columns("staff_member")}
    assert not {"takes_calls", "calendar_feed_hash"} & columns

    assert _add_members_and_upgrade() == {"sales": True, "admin": False, "support": False}
    upgrade(alembic_config(), "head")
    assert_schema_matches_models()
    assert_migrations_go_down_and_up_again()


def test_migration_0011_on_sqlite(tmp_path: Path, configure: Configure) -> None:
    configure(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'booking.db'}")
    upgrade(alembic_config(), "head")
    _check_0011()


def test_migration_0011_on_postgresql(configure: Configure) -> None:
    with scratch_postgres(configure):
        assert get_engine().dialect.name == "postgresql"
        assert_schema_matches_models()
        with get_engine().connect() as connection:
            constraint = connection.execute(
                text("SELECT contype FROM pg_constraint WHERE conname = 'ex_booking_host_overlap'")
            ).scalar_one()
        assert constraint == "x"
        _check_0011()


def test_migration_0014_ends_the_feeds_of_members_without_the_calls(
    tmp_path: Path, configure: Configure
) -> None:
    configure(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'feeds.db'}")
    upgrade(alembic_config(), "0013")
    members = {  # name: (role, password hash, disabled)
        "sales": ("sales", "x", False),
        "admin": ("admin", "x", False),
        "demoted": ("support", "x", False),
        "disabled": ("sales", "x", True),
        "reset": ("sales", "", False),
    }
    with get_engine().begin() as connection:
        for name, (role, password, disabled) in members.items():
            connection.execute(
                text(
                    "INSERT INTO staff_member (name, email, email_key, role, password_hash,"
                    " totp_secret, totp_last_step, recovery_code_hashes, time_zone, created_at,"
                    " takes_calls, calendar_feed_hash, disabled_at) VALUES (:name, :email,"
                    " :email, :role, :password, '', 0, '[]', '', '2026-01-01 00:00:00+00',"
                    " true, :feed, :disabled)"
                ),
                {
                    "name": name,
                    "email": f"{name}@rcx.example",
                    "role": role,
                    "password": password,
                    "feed": f"feed-{name}",
                    "disabled": "2026-02-01 00:00:00+00" if disabled else None,
                },
            )
    upgrade(alembic_config(), "0014")
    with get_engine().connect() as connection:
        rows = connection.execute(text("SELECT name, calendar_feed_hash FROM staff_member"))
        feeds = {name: feed for name, feed in rows}
    assert feeds == {
        "sales": "feed-sales",
        "admin": "feed-admin",
        "demoted": "",
        "disabled": "",
        "reset": "",
    }


def test_migration_0017_lets_a_date_hold_intervals_and_going_down_keeps_the_first(
    tmp_path: Path, configure: Configure
) -> None:
    configure(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'breaks.db'}")
    upgrade(alembic_config(), "head")
    insert_member = text(
        "INSERT INTO staff_member (id, name, email, email_key, role, password_hash, totp_secret,"
        " totp_last_step, recovery_code_hashes, time_zone, created_at, takes_calls,"
        " calendar_feed_hash) VALUES (1, 'Sam', 's@rcx.example', 's@rcx.example', 'sales', 'x',"
        " '', 0, '[]', '', '2026-01-01 00:00:00+00', true, '')"
    )
    insert_interval = text(
        'INSERT INTO member_day (staff_member_id, day, start, "end")'
        " VALUES (1, '2027-03-01', :start, :end)"
    )
    with get_engine().begin() as connection:
        connection.execute(insert_member)
        for start, end in (("09:00", "12:30"), ("13:30", "17:30")):
            connection.execute(insert_interval, {"start": start, "end": end})
    downgrade(alembic_config(), "0016")
    with get_engine().connect() as connection:
        rows = connection.execute(text('SELECT start, "end" FROM member_day')).all()
    assert [tuple(row) for row in rows] == [("09:00", "12:30")]
    upgrade(alembic_config(), "head")
    assert_schema_matches_models()


def test_migration_0018_stores_zones_by_their_canonical_names(
    tmp_path: Path, configure: Configure
) -> None:
    configure(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'zones.db'}")
    upgrade(alembic_config(), "0017")
    with get_engine().begin() as connection:
        for number, zone in enumerate(("Asia/Calcutta", "Europe/Oslo", "", "Nowhere/Else")):
            connection.execute(
                text(
                    "INSERT INTO staff_member (name, email, email_key, role, password_hash,"
                    " totp_secret, totp_last_step, recovery_code_hashes, time_zone, created_at,"
                    " takes_calls, calendar_feed_hash) VALUES (:name, :name, :name, 'sales',"
                    " 'x', '', 0, '[]', :zone, '2026-01-01 00:00:00+00', true, '')"
                ),
                {"name": f"m{number}@rcx.example", "zone": zone},
            )
    upgrade(alembic_config(), "head")
    with get_engine().connect() as connection:
        rows = connection.execute(text("SELECT time_zone FROM staff_member ORDER BY name"))
        zones = [zone for (zone,) in rows]
    assert zones == ["Asia/Kolkata", "Europe/Oslo", "", "Nowhere/Else"]
