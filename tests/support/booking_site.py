"""Who takes calls on a running site (the browser tests' live site): its database is
written directly, as the staff Availability page would leave it."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import create_engine, text
from sqlmodel import Session

from tests.support.staff import member_row


def _engine(site: Any) -> Any:
    return create_engine(site.database_url)


def nobody_takes_calls_on(site: Any) -> None:
    """A site as freshly installed: the quote form asks for a preferred time."""
    engine = _engine(site)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE staff_member SET takes_calls = false"))
    finally:
        engine.dispose()


def only_host_on(site: Any, name: str, *, time_zone: str = "") -> int:
    """A sales member who takes calls at the default hours, the only one; their id."""
    nobody_takes_calls_on(site)
    email = f"{name.lower().replace(' ', '.')}.{secrets.token_hex(3)}@rcx.example"
    engine = _engine(site)
    try:
        with Session(engine) as session:
            member = member_row(name, email, "sales", time_zone=time_zone, takes_calls=True)
            session.add(member)
            session.commit()
            assert member.id is not None
            return member.id
    finally:
        engine.dispose()


def rows_on(site: Any, query: str, **params: object) -> list[tuple[Any, ...]]:
    engine = _engine(site)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query), params)]
    finally:
        engine.dispose()
