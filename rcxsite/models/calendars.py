"""Members' own calendars: where they are busy, so visitors never book over it, and where
their booked calls are copied.

A `MemberCalendar` is a private iCalendar address (read only) or a CalDAV calendar (read,
and written when `write_calls`); its CalDAV password is sealed at rest
(rcxsite/platform/at_rest.py). Each sync replaces the calendar's `MemberBusy` rows: the busy
intervals from a day ago to the end of the booking window, recurring events expanded.
`CalendarCopy` says which calendar holds a copy of which booked call, under which address.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from rcxsite.models.types import UTCDateTime, utcnow

ICS, CALDAV = "ics", "caldav"
CALENDAR_KIND_MAX = 8
CALENDAR_URL_MAX = 2000
CALENDAR_USER_MAX = 200
# Sealed app passwords (at most 200 characters typed) and why a sync failed, in words.
SEALED_PASSWORD_MAX = 500
SYNC_ERROR_MAX = 300
COPY_HREF_MAX = 2200


class MemberCalendar(SQLModel, table=True):
    __tablename__ = "member_calendar"

    id: int | None = Field(default=None, primary_key=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="CASCADE", index=True)
    kind: str = Field(max_length=CALENDAR_KIND_MAX)
    url: str = Field(max_length=CALENDAR_URL_MAX)
    username: str = Field(default="", max_length=CALENDAR_USER_MAX)
    password_sealed: str = Field(default="", max_length=SEALED_PASSWORD_MAX)
    # CalDAV only: booked calls are written to it, moved and removed with them.
    write_calls: bool = False
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # The last sync that worked (and how many busy intervals it found), and the last that
    # failed with why; a failure after a success keeps the busy times found before.
    synced_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    busy_count: int = 0
    # Changed whenever the busy times are replaced: a process that keeps them in memory
    # (rcxsite/booking/busy_cache.py) reads them again when it changed.
    busy_version: int = 0
    failed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    sync_error: str = Field(default="", max_length=SYNC_ERROR_MAX)


class MemberBusy(SQLModel, table=True):
    """A time the member is busy in one of their calendars."""

    __tablename__ = "member_busy"
    __table_args__ = (Index("ix_member_busy_member_starts", "staff_member_id", "starts_at"),)

    id: int | None = Field(default=None, primary_key=True)
    calendar_id: int = Field(foreign_key="member_calendar.id", ondelete="CASCADE", index=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="CASCADE")
    starts_at: datetime = Field(sa_type=UTCDateTime)
    ends_at: datetime = Field(sa_type=UTCDateTime)


class CalendarCopy(SQLModel, table=True):
    """A booked call written to a member's CalDAV calendar, at `href`."""

    __tablename__ = "calendar_copy"
    __table_args__ = (UniqueConstraint("booking_id", "calendar_id", name="uq_calendar_copy"),)

    id: int | None = Field(default=None, primary_key=True)
    booking_id: int = Field(foreign_key="booking.id", ondelete="CASCADE", index=True)
    calendar_id: int = Field(foreign_key="member_calendar.id", ondelete="CASCADE", index=True)
    href: str = Field(max_length=COPY_HREF_MAX)
