"""What SQLite and PostgreSQL spell differently, for the dashboard and the daily counts."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any, Literal

from sqlalchemy import func
from sqlmodel import Session

Bucket = Literal["hour", "day", "month"]

# How a bucket's key is written: PostgreSQL's to_char and SQLite's strftime patterns of
# the same text, and Python's (the same as SQLite's).
FORMATS: dict[Bucket, tuple[str, str]] = {
    "hour": ("YYYY-MM-DD HH24:00", "%Y-%m-%d %H:00"),
    "day": ("YYYY-MM-DD", "%Y-%m-%d"),
    "month": ("YYYY-MM", "%Y-%m"),
}


def day_start(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def seconds_between(session: Session, start: Any, end: Any) -> Any:
    if postgres(session):
        return func.extract("epoch", end - start)
    return (func.julianday(end) - func.julianday(start)) * 86400


def bucket_of(session: Session, column: Any, bucket: Bucket) -> Any:
    """The bucket key of a UTC timestamp column."""
    pattern_pg, pattern_sqlite = FORMATS[bucket]
    if postgres(session):
        return func.to_char(func.timezone("UTC", column), pattern_pg)
    return func.strftime(pattern_sqlite, column)
