"""Booked calls for the tests: members who take calls (with their hours, days and time
off), bookings inserted directly with the times a test needs, and the service called as
the screens and the API call it (raw fields in, the model parsed)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from rcxsite import booking
from rcxsite.core.attribution import Attribution
from rcxsite.models import (
    Booking,
    MemberCalendar,
    MemberDay,
    MemberHours,
    MemberTimeOff,
    QuoteChange,
    QuoteRequest,
    StaffMember,
)
from rcxsite.platform.at_rest import seal
from rcxsite.platform.db import get_engine
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.quotes import quote_fields, quote_row
from tests.support.rows import stored
from tests.support.site import empty_tables
from tests.support.staff import ENROLLED

# A Monday in March 2027, before both daylight-saving changes (US 14th, UK 28th).
MONDAY = date(2027, 3, 1)
# "Now" for most tests: the Sunday before, at noon UTC.
NOW = datetime(2027, 2, 28, 12, 0, tzinfo=UTC)
LONDON = "Europe/London"
NEW_YORK = "America/New_York"
KOLKATA = "Asia/Kolkata"
VISITOR_IP = "203.0.113.9"


def empty_booking_tables() -> None:
    empty_tables(Booking, MemberDay, MemberHours, MemberTimeOff, MemberCalendar)


def add_host(
    name: str,
    *,
    role: str = "sales",
    time_zone: str = "",
    takes_calls: bool = True,
    disabled: bool = False,
    invited: bool = False,
    hours: Iterable[tuple[int, str, str]] = (),
    meeting_url: str = "",
) -> int:
    """A member (default hours unless `hours` lists (weekday, start, end)); their id.
    `invited`: the invitation not yet accepted (no password)."""
    email = f"{name.lower().replace(' ', '.')}.{secrets.token_hex(3)}@rcx.example"
    with Session(get_engine()) as session:
        member = StaffMember(
            name=name,
            email=email,
            email_key=email,
            role=role,
            time_zone=time_zone,
            takes_calls=takes_calls,
            meeting_url=meeting_url,
            password_hash="" if invited else ENROLLED,
            disabled_at=NOW if disabled else None,
        )
        session.add(member)
        session.flush()
        assert member.id is not None
        for weekday, start, end in hours:
            session.add(
                MemberHours(staff_member_id=member.id, weekday=weekday, start=start, end=end)
            )
        session.commit()
        return member.id


def add_day(member_id: int, day: date, start: str = "", end: str = "") -> None:
    with Session(get_engine()) as session:
        session.add(MemberDay(staff_member_id=member_id, day=day, start=start, end=end))
        session.commit()


def add_time_off(member_id: int, first_day: date, last_day: date) -> None:
    with Session(get_engine()) as session:
        session.add(
            MemberTimeOff(staff_member_id=member_id, first_day=first_day, last_day=last_day)
        )
        session.commit()


def booking_row(
    quote_id: int,
    host_id: int,
    start: datetime,
    *,
    email: str,
    name: str = "Earlier Visitor",
    status: str = "booked",
    minutes: int = 30,
    buffer: int = 15,
    **columns: Any,
) -> Booking:
    """A booking of the stored request `quote_id` with a fresh manage token (its digest and
    sealed copy), not yet added to a session."""
    token = secrets.token_urlsafe(16)
    return Booking(
        quote_request_id=quote_id,
        host_id=host_id,
        starts_at=start,
        ends_at=start + timedelta(minutes=minutes),
        blocked_until=start + timedelta(minutes=minutes + buffer),
        status=status,
        active=status in {"booked", "moved"},
        visitor_name=name,
        visitor_email=email,
        email_key=email.lower(),
        visitor_time_zone=LONDON,
        token_hash=hashlib.sha256(token.encode()).hexdigest(),
        token_sealed=seal("booking-token", token),
        uid=f"booking-test-{secrets.token_hex(8)}@rcx.test",
        **columns,
    )


def add_booking(
    host_id: int,
    start: datetime,
    *,
    status: str = "booked",
    email: str = "earlier@client.example",
    created_at: datetime = NOW,
    minutes: int = 30,
    buffer: int = 15,
) -> int:
    """A booking stored directly (with its quote request); its id."""
    with Session(get_engine()) as session:
        request = quote_row(email=email, owner_id=host_id, created_at=created_at)
        session.add(request)
        session.flush()
        assert request.id is not None
        row = booking_row(
            request.id,
            host_id,
            start,
            email=email,
            status=status,
            minutes=minutes,
            buffer=buffer,
            created_at=created_at,
            updated_at=created_at,
        )
        session.add(row)
        session.commit()
        assert row.id is not None
        return row.id


def at(day: date, wall_time: str, zone: str = LONDON) -> datetime:
    """`wall_time` ("HH:MM") on `day` in `zone`, as an aware UTC datetime."""
    hour, minute = (int(part) for part in wall_time.split(":"))
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZoneInfo(zone)).astimezone(
        UTC
    )


def iso(moment: datetime) -> str:
    """As the page and API send a start: UTC with "Z"."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def slot_starts(
    first_day: date, *, days: int = 1, time_zone: str = LONDON, now: datetime = NOW
) -> list[datetime]:
    query = booking.SlotQuery.parse(
        {"first_day": first_day.isoformat(), "days": days, "time_zone": time_zone}
    )
    return [slot.start for slot in booking.free_slots(query, now=now).slots]


def wall_times(starts: Iterable[datetime], zone: str = LONDON) -> list[str]:
    """Starts as "HH:MM" on `zone`'s clock."""
    return [start.astimezone(ZoneInfo(zone)).strftime("%H:%M") for start in starts]


def booking_fields(start: datetime, **overrides: Any) -> dict[str, Any]:
    """The booking form's fields as a visitor fills them in, for the call at `start`."""
    fields: dict[str, Any] = {
        key: value for key, value in quote_fields().items() if key not in {"call_date", "call_time"}
    }
    fields.update(start=iso(start), time_zone=LONDON)
    fields.update(overrides)
    return fields


def book(
    start: datetime,
    *,
    client_ip: str = VISITOR_IP,
    now: datetime = NOW,
    attribution: Attribution | None = None,
    **overrides: Any,
) -> booking.BookingReceipt:
    return booking.book(
        booking.BookingInput.parse(booking_fields(start, **overrides)),
        client_ip=client_ip,
        now=now,
        attribution=attribution,
    )


def reschedule(
    token: str, start: datetime, *, client_ip: str = VISITOR_IP, now: datetime = NOW
) -> booking.BookingReceipt:
    change = booking.RescheduleInput.parse({"token": token, "start": iso(start)})
    return booking.reschedule(change, client_ip=client_ip, now=now)


def cancel(
    token: str, *, client_ip: str = VISITOR_IP, now: datetime = NOW, reason: str = ""
) -> booking.ManagedCall:
    change = booking.CancelInput.parse({"token": token, "reason": reason})
    return booking.cancel(change, client_ip=client_ip, now=now)


def stored_bookings() -> list[Booking]:
    with Session(get_engine()) as session:
        rows = list(session.exec(select(Booking).order_by(col(Booking.id))))
        for row in rows:
            session.expunge(row)
        return rows


def stored_booking(booking_id: int) -> Booking:
    [row] = [row for row in stored_bookings() if row.id == booking_id]
    return row


def stored_request(request_id: int) -> QuoteRequest:
    return stored(QuoteRequest, request_id)


def history(request_id: int) -> list[tuple[str, str, str]]:
    """The request's history lines: (field, old, new), oldest first."""
    with Session(get_engine()) as session:
        changes = session.exec(
            select(QuoteChange)
            .where(col(QuoteChange.quote_request_id) == request_id)
            .order_by(col(QuoteChange.id))
        )
        return [(change.field, change.old_value, change.new_value) for change in changes]


def member_name(member_id: int) -> str:
    return stored(StaffMember, member_id).name


@contextmanager
def booking_database(kind: str, configure: Configure) -> Iterator[str]:
    """SQLite or PostgreSQL (`kind`, skipped when absent) for many visitors booking at
    once, each from an address of their own: the limits have their own tests."""
    configure(booking_limit="1000 per hour")
    with sqlite_or_postgres(kind, configure) as database:
        yield database
