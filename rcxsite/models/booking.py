"""Booked calls: when members take calls (weekly hours, date overrides, time off) and the
calls visitors booked with them.

A member with no `MemberHours` rows works the default week (rcxsite/booking/availability.py);
a `MemberDay` replaces the weekly hours of its date; `MemberTimeOff` takes whole days out.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Index, UniqueConstraint, func, text
from sqlalchemy.dialects.postgresql import ExcludeConstraint
from sqlmodel import Field, SQLModel

from rcxsite.models.staff import TIME_ZONE_MAX
from rcxsite.models.types import (
    EMAIL_MAX,
    MEETING_URL_MAX,
    QUOTE_NAME_MAX,
    SHA256_HEX_LENGTH,
    STATUS_MAX,
    UTCDateTime,
    utcnow,
)

# "HH:MM" on the member's wall clock; "" in a MemberDay = not available that day.
WALL_TIME_LENGTH = 5
BOOKING_UID_MAX = 100
VIDEO, PHONE = "video", "phone"
CALL_KIND_MAX = 8
SEALED_TOKEN_MAX = 255

BOOKED, MOVED, CANCELLED, HELD, NO_SHOW = "booked", "moved", "cancelled", "held", "no-show"
BOOKING_STATUSES = (BOOKED, MOVED, CANCELLED, HELD, NO_SHOW)
# The statuses that hold the host's time: the exclusion constraint's and the slots' "active".
ACTIVE_STATUSES = frozenset({BOOKED, MOVED})

OVERLAP_CONSTRAINT = "ex_booking_host_overlap"


class MemberHours(SQLModel, table=True):
    """One weekly working interval of a member, on their own wall clock."""

    __tablename__ = "member_hours"

    id: int | None = Field(default=None, primary_key=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="CASCADE", index=True)
    weekday: int  # 0 = Monday
    start: str = Field(max_length=WALL_TIME_LENGTH)
    end: str = Field(max_length=WALL_TIME_LENGTH)


class MemberDay(SQLModel, table=True):
    """One interval of a date whose hours differ from the member's week (a row per
    interval; one row with "" start and end: not working that day)."""

    __tablename__ = "member_day"
    __table_args__ = (
        UniqueConstraint("staff_member_id", "day", "start", name="uq_member_day_interval"),
    )

    id: int | None = Field(default=None, primary_key=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="CASCADE", index=True)
    day: date
    start: str = Field(default="", max_length=WALL_TIME_LENGTH)
    end: str = Field(default="", max_length=WALL_TIME_LENGTH)


class MemberTimeOff(SQLModel, table=True):
    """Whole days, first to last inclusive, on which the member takes no calls."""

    __tablename__ = "member_time_off"

    id: int | None = Field(default=None, primary_key=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="CASCADE", index=True)
    first_day: date
    last_day: date


class Booking(SQLModel, table=True):
    """A call a visitor booked: its quote request, host, time and manage link.

    [starts_at, blocked_until) is the host's time it takes (the call and the buffer after
    it) while `active`; on PostgreSQL the database refuses two active bookings of one host
    whose such times overlap (OVERLAP_CONSTRAINT, below).
    """

    __tablename__ = "booking"
    __table_args__ = (Index("ix_booking_host_id_starts_at", "host_id", "starts_at"),)

    id: int | None = Field(default=None, primary_key=True)
    quote_request_id: int = Field(
        foreign_key="quote_request.id", ondelete="CASCADE", index=True, unique=True
    )
    host_id: int = Field(foreign_key="staff_member.id", ondelete="RESTRICT", index=True)
    starts_at: datetime = Field(sa_type=UTCDateTime)
    ends_at: datetime = Field(sa_type=UTCDateTime)
    blocked_until: datetime = Field(sa_type=UTCDateTime)
    status: str = Field(default=BOOKED, max_length=STATUS_MAX)
    active: bool = True
    visitor_name: str = Field(max_length=QUOTE_NAME_MAX)
    visitor_email: str = Field(max_length=EMAIL_MAX)
    email_key: str = Field(max_length=EMAIL_MAX, index=True)
    visitor_time_zone: str = Field(max_length=TIME_ZONE_MAX)
    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True, index=True)
    # The manage token sealed at rest (rcxsite/platform/at_rest.py, purpose "booking-token"), so
    # reminders and My account can show the link again.
    token_sealed: str = Field(max_length=SEALED_TOKEN_MAX)
    # The invitation's UID: stable for the booking's life, so calendars update one entry.
    uid: str = Field(max_length=BOOKING_UID_MAX, unique=True)
    sequence: int = 0
    # Where the call happens: VIDEO at `meeting_url` ("" for calls booked before there was
    # one: the host sends a link), or PHONE, the host calling the request's number.
    call_kind: str = Field(
        default=VIDEO, max_length=CALL_KIND_MAX, sa_column_kwargs={"server_default": VIDEO}
    )
    meeting_url: str = Field(
        default="", max_length=MEETING_URL_MAX, sa_column_kwargs={"server_default": ""}
    )
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


# PostgreSQL's guard against double booking; alembic/versions/0011_booking.py creates it
# (with btree_gist, which lets an integer take part in a GiST index). SQLite has no such
# constraint: there the booking service checks and inserts in one BEGIN IMMEDIATE.
_booking = Booking.__table__  # type: ignore[attr-defined]
_booking.append_constraint(
    ExcludeConstraint(
        (_booking.c.host_id, "="),
        (func.tstzrange(_booking.c.starts_at, _booking.c.blocked_until, text("'[)'")), "&&"),
        name=OVERLAP_CONSTRAINT,
        using="gist",
        where=text("active"),
    ).ddl_if(dialect="postgresql")
)
