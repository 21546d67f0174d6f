"""The job that brings a booked call's copies in its host's calendars up to date, planned
wherever the call changes (booked, moved, cancelled) in that change's transaction. Its work
is in rcxsite/booking/calendars/copies.py."""

from __future__ import annotations

from sqlmodel import Session

from rcxsite import jobs

COPY = "calendar-copy"


def plan_copies(session: Session, *, booking_id: int) -> None:
    jobs.add(session, kind=COPY, payload={"booking": booking_id}, ref=f"calendar-copy:{booking_id}")
