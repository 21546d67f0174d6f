"""Booked calls as the staff inbox sees them: a quote request with its call, stored
directly with the status, time and visitor's zone a test needs."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from rcxsite.models import Booking
from rcxsite.platform.db import get_engine
from tests.support.booking import LONDON, add_booking, booking_row
from tests.support.rows import change_row


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
    return change_row(Booking, booking_id, visitor_time_zone=time_zone).quote_request_id


def add_call(quote_id: int, host_id: int, start: datetime, *, email: str) -> int:
    """A booked 30-minute call for the stored request `quote_id` (the configured database:
    a live site's too, from a process with its environment); the booking's id."""
    with Session(get_engine()) as session:
        row = booking_row(quote_id, host_id, start, email=email, name="Booked Visitor")
        session.add(row)
        session.commit()
        assert row.id is not None
        return row.id
