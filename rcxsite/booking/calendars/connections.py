"""A member's connected calendars, as their Availability page (and the command line) shows
and changes them: connect one (read once first, so a wrong address or password is said at
once and nothing is saved), "Sync now", remove. Allowed as call settings are: the member
themselves, or an admin for any member who may host calls."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, func, select

from rcxsite.booking.availability import member_zone
from rcxsite.booking.calendars.fetch import CalendarProblem
from rcxsite.booking.calendars.inputs import CalendarInput
from rcxsite.booking.calendars.sync import (
    PASSWORD_PURPOSE,
    Source,
    read_busy,
    store_busy,
    sync_calendar,
    synced_text,
)
from rcxsite.booking.hours import host_member, may_edit
from rcxsite.core import audit
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import MemberCalendar, StaffMember, utcnow
from rcxsite.models.calendars import CALDAV
from rcxsite.platform.at_rest import seal
from rcxsite.platform.db import session_scope

MAX_CALENDARS = 5
TOO_MANY = f"A member connects at most {MAX_CALENDARS} calendars. Please remove one first."
NO_SUCH_CALENDAR = "This calendar is no longer connected."


@dataclass(frozen=True, slots=True)
class CalendarView:
    id: int
    kind: str  # "ics" or "caldav"
    # The address without its secret: a private iCal address is a password in itself.
    place: str
    write_calls: bool
    synced_at: datetime | None
    busy_count: int
    failed_at: datetime | None
    sync_error: str

    @property
    def failing(self) -> bool:
        """The last read failed (after the last that worked, if any)."""
        return bool(self.sync_error) and (
            self.synced_at is None
            or (self.failed_at is not None and self.failed_at >= self.synced_at)
        )


def shown_address(url: str) -> str:
    """ "calendar.google.com/…": the host, and that there is more, never the secret path."""
    parts = urlsplit(url)
    return f"{parts.hostname or ''}{'/…' if parts.path.strip('/') or parts.query else ''}"


def _described(kind: str, url: str) -> str:
    return f"{'CalDAV calendar' if kind == CALDAV else 'iCal address'} {shown_address(url)}"


def _view(calendar: MemberCalendar) -> CalendarView:
    assert calendar.id is not None
    return CalendarView(
        id=calendar.id,
        kind=calendar.kind,
        place=shown_address(calendar.url),
        write_calls=calendar.write_calls,
        synced_at=calendar.synced_at,
        busy_count=calendar.busy_count,
        failed_at=calendar.failed_at,
        sync_error=calendar.sync_error,
    )


def member_calendars(*, actor: StaffActor | None, member_id: int) -> list[CalendarView]:
    may_edit(actor, member_id)
    with session_scope() as session:
        host_member(session, member_id)
        rows = session.exec(
            select(MemberCalendar)
            .where(MemberCalendar.staff_member_id == member_id)
            .order_by(col(MemberCalendar.id))
        ).all()
        return [_view(row) for row in rows]


def _record(
    session: Session, actor: StaffActor, member: StaffMember, action: str, detail: str
) -> None:
    audit.record(
        session, action=action, actor=actor, target=f"member {member.email}", detail=detail
    )


def connect(
    change: CalendarInput, *, actor: StaffActor | None, member_id: int, now: datetime | None = None
) -> str:
    """Connect a calendar: read it first (a refusal says why, with nothing saved), then
    store it with its busy times."""
    actor = may_edit(actor, member_id)
    now = now or utcnow()
    with session_scope() as session:
        member = host_member(session, member_id)
        zone = ZoneInfo(member_zone(member))
    auth = (change.username, change.password) if change.kind == CALDAV else None
    try:
        busy = read_busy(Source(change.kind, change.url, auth, zone), now=now)
    except CalendarProblem as problem:
        raise ServiceError(422, problem.message, fields={"url": problem.message}) from None
    with session_scope(for_update=True) as session:
        # The member's row locked: two connects at once cannot pass the count together.
        member = host_member(session, member_id, lock=True)
        count = session.exec(
            select(func.count())
            .select_from(MemberCalendar)
            .where(MemberCalendar.staff_member_id == member_id)
        ).one()
        if count >= MAX_CALENDARS:
            raise ServiceError(409, TOO_MANY)
        calendar = MemberCalendar(
            staff_member_id=member_id,
            kind=change.kind,
            url=change.url,
            username=change.username,
            password_sealed=seal(PASSWORD_PURPOSE, change.password),
            write_calls=change.write_calls,
        )
        session.add(calendar)
        session.flush()
        store_busy(session, calendar, busy, now)
        kind = "CalDAV calendar" if change.kind == CALDAV else "iCal address"
        writes = ", booked calls added" if change.write_calls else ""
        _record(
            session,
            actor,
            member,
            "calendar_connected",
            f"{kind} {shown_address(change.url)}{writes}",
        )
    return f"Calendar connected. {synced_text(len(busy))}"


def _own_calendar(session: Session, member_id: int, calendar_id: int) -> MemberCalendar:
    calendar = session.get(MemberCalendar, calendar_id)
    if calendar is None or calendar.staff_member_id != member_id:
        raise ServiceError(404, NO_SUCH_CALENDAR)
    return calendar


def sync_now(
    *, actor: StaffActor | None, member_id: int, calendar_id: int, now: datetime | None = None
) -> str:
    may_edit(actor, member_id)
    with session_scope() as session:
        host_member(session, member_id)
        _own_calendar(session, member_id, calendar_id)
    result = sync_calendar(calendar_id, now=now)
    if not result.ok:
        raise ServiceError(502, f"The calendar could not be read: {result.message}")
    return result.message


def remove(*, actor: StaffActor | None, member_id: int, calendar_id: int) -> str:
    """Disconnect a calendar: its busy times stop counting at once. Copies of booked calls
    already written to it stay there (the member's own calendar is theirs to tidy)."""
    actor = may_edit(actor, member_id)
    with session_scope(for_update=True) as session:
        member = host_member(session, member_id)
        calendar = _own_calendar(session, member_id, calendar_id)
        session.delete(calendar)
        _record(session, actor, member, "calendar_removed", _described(calendar.kind, calendar.url))
    return "Calendar removed: its busy times no longer count."
