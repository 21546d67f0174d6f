"""Booked calls as the staff inbox sees them: a quote request with its call, stored
directly with the status, time and visitor's zone a test needs."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlmodel import Session

from rcxsite.at_rest import seal
from rcxsite.db import get_engine
from rcxsite.models import Booking
from tests.support.booking import LONDON, add_booking


def booked_request(
    host_id: int,
    start: datetime,
    *,
    status: str = "booked",
    time_zone: str = LONDON,
    email: str = "earlier@client.example",
) -> int:
    """A quote request whose call (with `host_id`, at `start`) is `status`; its id."""
    booking_id = add_booking(host_id, start, status=status, email=email)
    with Session(get_engine()) as session:
        row = session.get(Booking, booking_id)
        assert row is not None
        row.visitor_time_zone = time_zone
        session.add(row)
        session.commit()
        return row.quote_request_id


def add_call(quote_id: int, host_id: int, start: datetime, *, email: str) -> int:
    """A booked 30-minute call for the stored request `quote_id` (the configured database:
    a live site's too, from a process with its environment); the booking's id."""
    token = secrets.token_urlsafe(16)
    with Session(get_engine()) as session:
        row = Booking(
            quote_request_id=quote_id,
            host_id=host_id,
            starts_at=start,
            ends_at=start + timedelta(minutes=30),
            blocked_until=start + timedelta(minutes=45),
            visitor_name="Booked Visitor",
            visitor_email=email,
            email_key=email.lower(),
            visitor_time_zone=LONDON,
            token_hash=hashlib.sha256(token.encode()).hexdigest(),
            token_sealed=seal("booking-token", token),
            uid=f"booking-test-{secrets.token_hex(8)}@rcx.test",
        )
        session.add(row)
        session.commit()
        assert row.id is not None
        return row.id
