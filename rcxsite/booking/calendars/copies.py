"""Booked calls in their host's own calendars ("Add booked calls to this calendar", CalDAV):
after every change of a call, its copies are made to match it. An active call is written
(PUT, its UID as the object's name, so a move rewrites the one copy) to each such calendar
of its current host; a cancelled call, or a copy in a calendar that is no longer its host's
or no longer takes calls, is removed (DELETE). The job can run again at any time with the
same outcome, so a retry after a server's hiccup is safe.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select

from rcxsite import jobs
from rcxsite.booking.calendars.caldav import delete_event, href_for, put_event
from rcxsite.booking.calendars.copy_jobs import COPY
from rcxsite.booking.calendars.fetch import CalendarProblem
from rcxsite.booking.calendars.sync import auth_of
from rcxsite.booking.notices import host_copy_ics
from rcxsite.models import Booking, CalendarCopy, MemberCalendar, QuoteRequest, StaffMember
from rcxsite.models.calendars import CALDAV
from rcxsite.platform.db import session_scope


def update_copies(booking_id: int) -> list[str]:
    """Make the call's copies match it; what could not be done, in words (empty: all)."""
    problems: list[str] = []
    with session_scope() as session:
        booking = session.get(Booking, booking_id)
        if booking is None:
            return problems
        host = session.get(StaffMember, booking.host_id)
        request = session.get(QuoteRequest, booking.quote_request_id)
        wanted: list[MemberCalendar] = []
        if booking.active and host is not None and request is not None:
            wanted = list(
                session.exec(
                    select(MemberCalendar).where(
                        MemberCalendar.staff_member_id == booking.host_id,
                        col(MemberCalendar.write_calls).is_(True),
                        MemberCalendar.kind == CALDAV,
                    )
                ).all()
            )
        copies = {
            copy.calendar_id: copy
            for copy in session.exec(
                select(CalendarCopy).where(CalendarCopy.booking_id == booking_id)
            ).all()
        }
        ics = host_copy_ics(booking, host, request) if wanted and host and request else ""
        for calendar in wanted:
            assert calendar.id is not None
            href = href_for(calendar.url, booking.uid)
            try:
                auth = auth_of(calendar)
                assert auth is not None
                put_event(href, auth, ics)
            except CalendarProblem as problem:
                problems.append(problem.message)
                continue
            if calendar.id not in copies:
                session.add(CalendarCopy(booking_id=booking_id, calendar_id=calendar.id, href=href))
        keep = {calendar.id for calendar in wanted}
        for calendar_id, copy in copies.items():
            if calendar_id in keep:
                continue
            holder = session.get(MemberCalendar, calendar_id)
            try:
                if holder is not None and (auth := auth_of(holder)) is not None:
                    delete_event(copy.href, auth)
            except CalendarProblem as problem:
                problems.append(problem.message)
                continue
            session.delete(copy)
    return problems


@jobs.handler(COPY)
def _copy(payload: dict[str, Any]) -> None:
    problems = update_copies(int(payload["booking"]))
    if problems:
        raise RuntimeError("; ".join(problems))  # retried: a calendar server's hiccup passes
