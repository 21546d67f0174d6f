"""Reading a member's calendar into their busy times: once on connecting, on "Sync now",
and by the job runner every CALENDAR_SYNC_MINUTES (a job per calendar, so one calendar's
failure shows in "Mail and jobs" and holds up no other).

The calendar is read outside any transaction (it may take seconds); its busy intervals from
a day ago to the end of the booking window then replace the stored ones in one. A failed
read keeps the busy times found before (the member's calendar has not become free because
its server is down) and says when and why on the calendar's row.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import delete, insert
from sqlmodel import col, select

from rcxsite import jobs
from rcxsite.booking.availability import member_zone
from rcxsite.booking.calendars.caldav import events_between
from rcxsite.booking.calendars.events import Interval, busy_intervals
from rcxsite.booking.calendars.fetch import CalendarProblem, exchange
from rcxsite.booking.rules import rules
from rcxsite.jobs.queue import QUEUED
from rcxsite.models import Job, MemberBusy, MemberCalendar, StaffMember, utcnow
from rcxsite.models.calendars import CALDAV, SYNC_ERROR_MAX
from rcxsite.platform.at_rest import SealBroken, unseal
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

PASSWORD_PURPOSE = "calendar-password"
SYNC = "calendar-sync"
PASSWORD_UNREADABLE = "The saved password can no longer be read. Please connect the calendar again."
# Busy times from a day back (a call in progress), to a day past the booking window.
_MARGIN = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Source:
    """What reading one calendar needs, loaded before the network is touched."""

    kind: str
    url: str
    auth: tuple[str, str] | None
    zone: ZoneInfo


@dataclass(frozen=True, slots=True)
class SyncResult:
    ok: bool
    busy: int
    message: str


def window(now: datetime) -> tuple[datetime, datetime]:
    return now - _MARGIN, now + rules().window + _MARGIN


def read_busy(source: Source, *, now: datetime) -> list[Interval]:
    """The calendar's busy intervals in the sync window; CalendarProblem if it cannot be
    read."""
    since, until = window(now)
    if source.kind == CALDAV:
        assert source.auth is not None
        texts: list[str] | list[bytes] = events_between(
            source.url, source.auth, since=since, until=until
        )
    else:
        texts = [exchange("GET", source.url, headers={"Accept": "text/calendar"}).body]
    return busy_intervals(texts, since=since, until=until, zone=source.zone)


def auth_of(calendar: MemberCalendar) -> tuple[str, str] | None:
    if calendar.kind != CALDAV:
        return None
    try:
        return calendar.username, unseal(PASSWORD_PURPOSE, calendar.password_sealed)
    except SealBroken:
        raise CalendarProblem(PASSWORD_UNREADABLE) from None


def _source(calendar_id: int) -> tuple[Source | None, str]:
    with session_scope() as session:
        calendar = session.get(MemberCalendar, calendar_id)
        if calendar is None:
            return None, ""
        member = session.get(StaffMember, calendar.staff_member_id)
        zone = ZoneInfo(member_zone(member)) if member is not None else ZoneInfo("UTC")
        try:
            auth = auth_of(calendar)
        except CalendarProblem as problem:
            return None, problem.message
        return Source(calendar.kind, calendar.url, auth, zone), ""


def store_busy(session: Any, calendar: MemberCalendar, busy: list[Interval], now: datetime) -> None:
    """Replace the calendar's busy intervals (in the caller's transaction)."""
    assert calendar.id is not None
    session.exec(delete(MemberBusy).where(col(MemberBusy.calendar_id) == calendar.id))
    if busy:
        session.execute(
            insert(MemberBusy),
            [
                {
                    "calendar_id": calendar.id,
                    "staff_member_id": calendar.staff_member_id,
                    "starts_at": start,
                    "ends_at": end,
                }
                for start, end in busy
            ],
        )
    calendar.synced_at, calendar.busy_count = now, len(busy)
    # Random rather than counted: a calendar connected again may get a removed one's id
    # (SQLite reuses ids), and must never be taken for it.
    calendar.busy_version = secrets.randbits(31)
    calendar.sync_error = ""
    session.add(calendar)


def _record_failure(calendar_id: int, message: str, now: datetime) -> None:
    with session_scope() as session:
        calendar = session.get(MemberCalendar, calendar_id)
        if calendar is not None:
            calendar.failed_at, calendar.sync_error = now, message[:SYNC_ERROR_MAX]
            session.add(calendar)


def sync_calendar(calendar_id: int, *, now: datetime | None = None) -> SyncResult:
    """Read one calendar now and store what it says (or why it could not be read)."""
    now = now or utcnow()
    source, broken = _source(calendar_id)
    if source is None:
        if broken:
            _record_failure(calendar_id, broken, now)
            return SyncResult(False, 0, broken)
        return SyncResult(False, 0, "This calendar is no longer connected.")
    try:
        busy = read_busy(source, now=now)
    except CalendarProblem as problem:
        _record_failure(calendar_id, problem.message, now)
        return SyncResult(False, 0, problem.message)
    with session_scope() as session:
        calendar = session.get(MemberCalendar, calendar_id)
        if calendar is None:  # removed while it was read
            return SyncResult(False, 0, "This calendar is no longer connected.")
        store_busy(session, calendar, busy, now)
    return SyncResult(True, len(busy), synced_text(len(busy)))


def synced_text(busy: int) -> str:
    return f"Synced: {busy} busy time{'' if busy == 1 else 's'} found."


def sync_ref(calendar_id: int) -> str:
    return f"calendar:{calendar_id}"


@jobs.periodic("calendar_syncs", every_seconds=60)
def plan_syncs(*, now: datetime | None = None) -> int:
    """A sync job for each calendar last read CALENDAR_SYNC_MINUTES ago or more, unless one
    is waiting already; how many were planned."""
    now = now or utcnow()
    due_before = now - timedelta(minutes=get_settings().calendar_sync_minutes)
    planned = 0
    with session_scope() as session:
        calendars = session.exec(select(MemberCalendar)).all()
        waiting = set(
            session.exec(
                select(Job.ref).where(col(Job.kind) == SYNC, col(Job.state) == QUEUED)
            ).all()
        )
        for calendar in calendars:
            last = max(
                (moment for moment in (calendar.synced_at, calendar.failed_at) if moment),
                default=None,
            )
            ref = sync_ref(calendar.id or 0)
            if (last is None or last <= due_before) and ref not in waiting:
                jobs.add(session, kind=SYNC, payload={"calendar": calendar.id}, ref=ref)
                planned += 1
    return planned


@jobs.handler(SYNC)
def _sync(payload: dict[str, Any]) -> None:
    result = sync_calendar(int(payload["calendar"]))
    if not result.ok:
        # Shown in "Mail and jobs"; the next period reads it again, so no retry here.
        raise jobs.Permanent(result.message)


def sync_all(*, now: datetime | None = None) -> list[tuple[str, MemberCalendar, SyncResult]]:
    """Every calendar read now, one after the other (the command line's sync-calendars):
    its member's address, the calendar and what its read found."""
    with session_scope() as session:
        rows = session.exec(
            select(StaffMember.email, MemberCalendar)
            .join(StaffMember, col(StaffMember.id) == MemberCalendar.staff_member_id)
            .order_by(col(MemberCalendar.id))
        ).all()
        for _, calendar in rows:
            session.expunge(calendar)
    return [(email, calendar, sync_calendar(calendar.id or 0, now=now)) for email, calendar in rows]
