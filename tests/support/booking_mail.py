"""Booked calls' mails for the tests: a booking stored directly with the times a test
needs (its host and quote request with it), and the invitations a mail carries, parsed
back by icalendar with every error it reports."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage

from icalendar import Calendar, Component
from sqlmodel import Session

from rcxsite.booking.notices import TOKEN_PURPOSE
from rcxsite.core.tokens import new_token
from rcxsite.models import Booking, QuoteRequest, StaffMember
from rcxsite.platform.at_rest import seal
from rcxsite.platform.db import get_engine
from tests.support.quotes import quote_row
from tests.support.rows import stored
from tests.support.staff import member_row

BUFFER = timedelta(minutes=15)


@dataclass(frozen=True)
class BookedCall:
    """The rows as stored (detached) and the manage token the visitor was mailed."""

    booking: Booking
    host: StaffMember
    request: QuoteRequest
    token: str


def add_host(
    name: str = "Sam Sales", email: str = "sam@rcx.example", *, time_zone: str = ""
) -> StaffMember:
    with Session(get_engine()) as session:
        host = member_row(name, email, "sales", time_zone=time_zone, takes_calls=True)
        session.add(host)
        session.commit()
        session.refresh(host)
        session.expunge(host)
        return host


def book_call(
    start: datetime,
    *,
    host: StaffMember | None = None,
    visitor_time_zone: str = "America/New_York",
    minutes: int = 30,
    name: str = "Alice Smith",
    email: str = "alice@client.example",
    company: str = "ACME GmbH",
) -> BookedCall:
    """A booked call at `start` (UTC-aware) with `host` (a new one when None)."""
    host = host or add_host()
    token, digest = new_token()
    with Session(get_engine()) as session:
        request = quote_row(
            name=name,
            email=email,
            company=company,
            call_date=start.date(),
            call_time=f"{start:%H:%M}",
            owner_id=host.id,
        )
        session.add(request)
        session.flush()
        assert request.id is not None and host.id is not None
        end = start + timedelta(minutes=minutes)
        booking = Booking(
            quote_request_id=request.id,
            host_id=host.id,
            starts_at=start,
            ends_at=end,
            blocked_until=end + BUFFER,
            visitor_name=name,
            visitor_email=email,
            email_key=email.lower(),
            visitor_time_zone=visitor_time_zone,
            token_hash=digest,
            token_sealed=seal(TOKEN_PURPOSE, token),
            uid=f"booking-{request.id}-{uuid.uuid4().hex[:12]}@rcx.example",
        )
        session.add(booking)
        session.commit()
        for row in (request, booking):
            session.refresh(row)
            session.expunge(row)
        return BookedCall(booking, host, request, token)


def stored_booking(booking_id: int) -> Booking:
    return stored(Booking, booking_id)


def change_booking(booking_id: int, **values: object) -> Booking:
    """Set columns of a stored booking (as the service would on a reschedule or cancel);
    a new end moves the buffer after it too."""
    with Session(get_engine()) as session:
        booking = session.get(Booking, booking_id)
        assert booking is not None
        for name, value in values.items():
            setattr(booking, name, value)
        booking.blocked_until = booking.ends_at + BUFFER
        session.add(booking)
        session.commit()
        session.refresh(booking)
        session.expunge(booking)
        return booking


def ics_errors(calendar: Calendar) -> list[str]:
    """Every error icalendar's parser noted, in any component, as "COMPONENT: error"."""
    components: list[Component] = calendar.walk()
    return [f"{part.name}: {error}" for part in components for error in part.errors]


def parse_ics(text: str) -> Calendar:
    """The invitation parsed back; fails on any parser error or a TZID without VTIMEZONE."""
    calendar = Calendar.from_ical(text)
    assert isinstance(calendar, Calendar)
    assert ics_errors(calendar) == []
    assert calendar.get_missing_tzids() == set()
    return calendar


@dataclass(frozen=True)
class MailedInvitation:
    method: str
    calendar_part: str
    attachment: str
    calendar: Calendar


def invitation_in(message: EmailMessage) -> MailedInvitation:
    """The invitation a mail carries: its text/calendar alternative (with its method) and
    its invite.ics attachment, which must say the same; parsed back."""
    part = message.get_body(("calendar",))
    assert part is not None, "no text/calendar part"
    attachments = [
        attachment
        for attachment in message.iter_attachments()
        if attachment.get_filename() == "invite.ics"
    ]
    assert len(attachments) == 1, "no invite.ics attachment"
    assert isinstance(attachments[0], EmailMessage)
    attached = attachments[0].get_content()
    assert isinstance(attached, bytes)
    inline = part.get_content()
    assert attached.decode().replace("\r\n", "\n") == inline.replace("\r\n", "\n")
    return MailedInvitation(
        method=str(part.get_param("method")),
        calendar_part=inline,
        attachment=attached.decode(),
        calendar=parse_ics(attached.decode()),
    )


def plain_text(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None, "mail has no plain-text part"
    content = body.get_content()
    assert isinstance(content, str)
    return content
