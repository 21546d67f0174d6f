"""A member's call settings: whether they take calls, their zone, weekly hours, date
overrides and time off (the Availability page).

A member sets their own (Permission.TAKE_CALLS); an admin sets those of any member who
may host calls (role sales or admin). Every change is one transaction with its audit
entry, made with the member's row locked, so two saves of one member's week cannot mix
their rows. The free slots (rcxsite/booking/slots.py) read the same rows, so a change
shows in the visitors' times at once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import distinct
from sqlmodel import Session, col, delete, func, select

from rcxsite.booking.availability import DEFAULT_HOURS, member_zone
from rcxsite.booking.hours_inputs import (
    WEEKDAY_NAMES,
    CallSettingsInput,
    DayInput,
    TimeOffInput,
    WallInterval,
    WeekInput,
    hours_text,
)
from rcxsite.booking.rules import HOST_ROLES
from rcxsite.core import audit
from rcxsite.core.permissions import NO_ACCESS, Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import MemberDay, MemberHours, MemberTimeOff, StaffMember
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event

NO_MEMBER = "This member does not exist."
NOT_A_HOST = "Only members with the role sales or admin take calls."
NO_DAYS = "Choose at least one day with hours. To take no calls at all, turn off “Takes calls”."
PAST_DAY = "This date is in the past"
FIRST_DAY_PAST = "The first day cannot be in the past"
TOO_FAR = "Choose a date within the next two years"
NO_SUCH_ENTRY = "This entry no longer exists."
TOO_MANY_DAYS = "There are too many date overrides already. Please remove some first."
TOO_MANY_TIME_OFF = "There is too much time off listed already. Please remove some first."
# How far ahead an override or time off may be set, and how many upcoming ones a member
# keeps: enough for any plan, bounded so a page and the slots' query stay small.
HORIZON = timedelta(days=2 * 366)
MAX_ENTRIES = 100

# A member's dated entry: a date override or a stretch of time off.
Entry = TypeVar("Entry", MemberDay, MemberTimeOff)


@dataclass(frozen=True, slots=True)
class HostChoice:
    """A member whose call settings the actor may open (the Availability page's select)."""

    id: int
    name: str
    takes_calls: bool


@dataclass(frozen=True, slots=True)
class WeekdayHours:
    weekday: int  # 0 = Monday
    name: str
    intervals: tuple[WallInterval, ...]  # () when off

    @property
    def on(self) -> bool:
        return bool(self.intervals)

    @property
    def text(self) -> str:
        """ "09:00-12:30, 13:30-17:30" (the form's value); "" when off."""
        return hours_text(self.intervals)


@dataclass(frozen=True, slots=True)
class DayOverride:
    id: int  # its first row's: the date's handle for "Remove"
    day: date
    intervals: tuple[WallInterval, ...]  # () when not available that day


@dataclass(frozen=True, slots=True)
class TimeOff:
    id: int
    first_day: date
    last_day: date


@dataclass(frozen=True, slots=True)
class CallSettings:
    """Everything the Availability page shows of one member; days from their today on."""

    member_id: int
    name: str
    role: str
    takes_calls: bool
    time_zone: str  # the zone in effect (the company's when they set none)
    meeting_url: str  # their own video meeting link; "" = a room made per call
    # True while they have no weekly hours of their own (the default week applies).
    default_week: bool
    week: tuple[WeekdayHours, ...]
    days: tuple[DayOverride, ...]
    time_off: tuple[TimeOff, ...]
    today: date


def may_edit(actor: StaffActor | None, member_id: int) -> StaffActor:
    """The actor, when they may change `member_id`'s call settings (their own, or anyone's
    for an admin); ServiceError 403 otherwise."""
    actor = require(actor, Permission.TAKE_CALLS)
    if actor.role != "admin" and actor.member_id != member_id:
        security_event(
            "staff_denied",
            "refused",
            client_ip=actor.client_address or None,
            actor=actor.member_id,
            permission=Permission.TAKE_CALLS.value,
            handler="another member's calls",
        )
        raise ServiceError(403, NO_ACCESS)
    return actor


def host_member(session: Session, member_id: int, *, lock: bool = False) -> StaffMember:
    """The member who may host calls (404 NO_MEMBER, 409 NOT_A_HOST otherwise), their row
    locked for a change when `lock`."""
    member = session.get(
        StaffMember, member_id, with_for_update={"key_share": True} if lock else None
    )
    if member is None or member.id is None:
        raise ServiceError(404, NO_MEMBER)
    if member.role not in HOST_ROLES:
        raise ServiceError(409, NOT_A_HOST)
    return member


def member_today(member: StaffMember, now: datetime | None = None) -> date:
    """Today on the member's own calendar."""
    return (now or datetime.now(UTC)).astimezone(ZoneInfo(member_zone(member))).date()


def host_choices(*, actor: StaffActor | None) -> list[HostChoice]:
    """Whose call settings and calls the actor may open: every enabled member of role sales
    or admin for an admin, else themselves."""
    actor = require(actor, Permission.TAKE_CALLS)
    query = select(StaffMember).where(col(StaffMember.role).in_(HOST_ROLES))
    if actor.role == "admin":
        query = query.where(col(StaffMember.disabled_at).is_(None))
    else:
        query = query.where(StaffMember.id == actor.member_id)
    with session_scope() as session:
        members = session.exec(query.order_by(col(StaffMember.name), col(StaffMember.id))).all()
        return [
            HostChoice(id=member.id, name=member.name, takes_calls=member.takes_calls)
            for member in members
            if member.id is not None
        ]


def _week(session: Session, member_id: int) -> tuple[bool, tuple[WeekdayHours, ...]]:
    rows = session.exec(
        select(MemberHours)
        .where(MemberHours.staff_member_id == member_id)
        .order_by(col(MemberHours.weekday), col(MemberHours.start))
    ).all()
    own: dict[int, list[WallInterval]] = defaultdict(list)
    for row in rows:
        if row.start and row.end:
            own[row.weekday].append((row.start, row.end))
    default = not rows
    if default:
        for weekday, spans in DEFAULT_HOURS.items():
            own[weekday] = [(_clock(first), _clock(last)) for first, last in spans]
    return default, tuple(
        WeekdayHours(weekday, name, tuple(own.get(weekday, ())))
        for weekday, name in enumerate(WEEKDAY_NAMES)
    )


def _overrides(session: Session, member_id: int, today: date) -> tuple[DayOverride, ...]:
    rows = session.exec(
        select(MemberDay)
        .where(MemberDay.staff_member_id == member_id, col(MemberDay.day) >= today)
        .order_by(col(MemberDay.day), col(MemberDay.start))
    ).all()
    by_day: dict[date, DayOverride] = {}
    for row in rows:
        if row.id is None:
            continue
        found = by_day.setdefault(row.day, DayOverride(id=row.id, day=row.day, intervals=()))
        if row.start and row.end:
            by_day[row.day] = replace(
                found, id=min(found.id, row.id), intervals=(*found.intervals, (row.start, row.end))
            )
    return tuple(by_day.values())


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def call_settings(
    *, actor: StaffActor | None, member_id: int, now: datetime | None = None
) -> CallSettings:
    may_edit(actor, member_id)
    with session_scope() as session:
        member = host_member(session, member_id)
        today = member_today(member, now)
        default, week = _week(session, member_id)
        time_off = session.exec(
            select(MemberTimeOff)
            .where(MemberTimeOff.staff_member_id == member_id, col(MemberTimeOff.last_day) >= today)
            .order_by(col(MemberTimeOff.first_day), col(MemberTimeOff.id))
        ).all()
        return CallSettings(
            member_id=member_id,
            name=member.name,
            role=member.role,
            takes_calls=member.takes_calls,
            time_zone=member_zone(member),
            meeting_url=member.meeting_url,
            default_week=default,
            week=week,
            days=_overrides(session, member_id, today),
            time_off=tuple(
                TimeOff(id=row.id, first_day=row.first_day, last_day=row.last_day)
                for row in time_off
                if row.id is not None
            ),
            today=today,
        )


def _whose(actor: StaffActor, member: StaffMember) -> str:
    return "Your" if actor.member_id == member.id else f"{member.name}’s"


def _record(
    session: Session, actor: StaffActor, member: StaffMember, action: str, detail: str
) -> None:
    audit.record(
        session, action=action, actor=actor, target=f"member {member.email}", detail=detail
    )


def day_text(day: date) -> str:
    """Friday 2 April 2027"""
    return f"{day:%A} {day.day} {day:%B %Y}"


def set_call_settings(
    change: CallSettingsInput, *, actor: StaffActor | None, member_id: int
) -> str:
    """Takes calls on or off, and the zone of the member's hours."""
    actor = may_edit(actor, member_id)
    with session_scope(for_update=True) as session:
        member = host_member(session, member_id, lock=True)
        member.takes_calls, member.time_zone = change.takes_calls, change.time_zone
        member.meeting_url = change.meeting_url
        session.add(member)
        _record(
            session,
            actor,
            member,
            "call_settings_changed",
            f"takes calls {'on' if change.takes_calls else 'off'}, zone {change.time_zone}, "
            f"meeting link {'own' if change.meeting_url else 'a room per call'}",
        )
        zone = f"in the {change.time_zone} time zone"
        if actor.member_id == member.id:
            return f"Saved: you {'take calls' if change.takes_calls else 'take no calls'}, {zone}."
        takes = "takes calls" if change.takes_calls else "takes no calls"
        return f"Saved: {member.name} {takes}, {zone}."


def set_week(change: WeekInput, *, actor: StaffActor | None, member_id: int) -> str:
    """Replace the member's weekly hours (their own week from now on, never the default)."""
    actor = may_edit(actor, member_id)
    hours = change.hours()
    if not hours:
        raise ServiceError(422, NO_DAYS)
    with session_scope(for_update=True) as session:
        member = host_member(session, member_id, lock=True)
        session.exec(delete(MemberHours).where(col(MemberHours.staff_member_id) == member_id))
        for weekday, intervals in sorted(hours.items()):
            for start, end in intervals:
                session.add(
                    MemberHours(staff_member_id=member_id, weekday=weekday, start=start, end=end)
                )
        detail = "; ".join(
            f"{WEEKDAY_NAMES[weekday][:3]} {hours_text(intervals)}"
            for weekday, intervals in sorted(hours.items())
        )
        _record(session, actor, member, "call_hours_changed", detail)
        return f"{_whose(actor, member)} weekly hours are saved."


def _upcoming_days(session: Session, member_id: int, today: date) -> int:
    return session.exec(
        select(func.count(distinct(col(MemberDay.day)))).where(
            MemberDay.staff_member_id == member_id, col(MemberDay.day) >= today
        )
    ).one()


def _upcoming_time_off(session: Session, member_id: int, today: date) -> int:
    return session.exec(
        select(func.count())
        .select_from(MemberTimeOff)
        .where(MemberTimeOff.staff_member_id == member_id, col(MemberTimeOff.last_day) >= today)
    ).one()


def _check_future(day: date, today: date, *, field: str, past: str) -> None:
    if day < today:
        raise ServiceError(422, past, fields={field: past})
    if day > today + HORIZON:
        raise ServiceError(422, TOO_FAR, fields={field: TOO_FAR})


def add_day(
    change: DayInput, *, actor: StaffActor | None, member_id: int, now: datetime | None = None
) -> str:
    """Set the hours of one date (replacing any override of that date): its intervals, or
    not available."""
    actor = may_edit(actor, member_id)
    day = change.chosen_day
    with session_scope(for_update=True) as session:
        member = host_member(session, member_id, lock=True)
        today = member_today(member, now)
        _check_future(day, today, field="day", past=PAST_DAY)
        same_day = (col(MemberDay.staff_member_id) == member_id, col(MemberDay.day) == day)
        replacing = session.exec(select(MemberDay.id).where(*same_day)).first() is not None
        if not replacing and _upcoming_days(session, member_id, today) >= MAX_ENTRIES:
            raise ServiceError(409, TOO_MANY_DAYS)
        session.exec(delete(MemberDay).where(*same_day))
        for start, end in change.hours or (("", ""),):
            session.add(MemberDay(staff_member_id=member_id, day=day, start=start, end=end))
        hours = hours_text(change.hours) or "not available"
        _record(session, actor, member, "call_day_set", f"{day.isoformat()} {hours}")
        if change.hours:
            return f"{day_text(day)}: {hours_text(change.hours, '–')} saved."
        return f"{day_text(day)}: not available, saved."


def _remove_entry(
    model: type[Entry],
    entry_id: int,
    *,
    actor: StaffActor | None,
    member_id: int,
    action: str,
    detail: Callable[[Entry], str],
) -> Entry:
    """Delete one of the member's own dated entries (404 for anyone else's, as for none),
    recorded as `action` with `detail(row)`; the row, its columns still loaded."""
    actor = may_edit(actor, member_id)
    with session_scope(for_update=True) as session:
        member = host_member(session, member_id, lock=True)
        row = session.get(model, entry_id)
        if row is None or row.staff_member_id != member_id:
            raise ServiceError(404, NO_SUCH_ENTRY)
        session.delete(row)
        if isinstance(row, MemberDay):  # the date's other intervals go with it
            session.exec(
                delete(MemberDay).where(
                    col(MemberDay.staff_member_id) == member_id,
                    col(MemberDay.day) == row.day,
                    col(MemberDay.id) != row.id,
                )
            )
        _record(session, actor, member, action, detail(row))
        session.flush()
        session.expunge(row)
        return row


def remove_day(*, actor: StaffActor | None, member_id: int, day_id: int) -> str:
    row = _remove_entry(
        MemberDay,
        day_id,
        actor=actor,
        member_id=member_id,
        action="call_day_removed",
        detail=lambda row: row.day.isoformat(),
    )
    return f"{day_text(row.day)} follows the weekly hours again."


def add_time_off(
    change: TimeOffInput, *, actor: StaffActor | None, member_id: int, now: datetime | None = None
) -> str:
    actor = may_edit(actor, member_id)
    first, last = change.days
    with session_scope(for_update=True) as session:
        member = host_member(session, member_id, lock=True)
        today = member_today(member, now)
        _check_future(first, today, field="first_day", past=FIRST_DAY_PAST)
        _check_future(last, today, field="last_day", past=PAST_DAY)
        if _upcoming_time_off(session, member_id, today) >= MAX_ENTRIES:
            raise ServiceError(409, TOO_MANY_TIME_OFF)
        session.add(MemberTimeOff(staff_member_id=member_id, first_day=first, last_day=last))
        _record(
            session, actor, member, "time_off_added", f"{first.isoformat()} to {last.isoformat()}"
        )
        if first == last:
            return f"Time off on {day_text(first)} saved."
        return f"Time off from {day_text(first)} to {day_text(last)} saved."


def remove_time_off(*, actor: StaffActor | None, member_id: int, time_off_id: int) -> str:
    _remove_entry(
        MemberTimeOff,
        time_off_id,
        actor=actor,
        member_id=member_id,
        action="time_off_removed",
        detail=lambda row: f"{row.first_day.isoformat()} to {row.last_day.isoformat()}",
    )
    return "Time off removed."


__all__ = [
    "FIRST_DAY_PAST",
    "NOT_A_HOST",
    "NO_DAYS",
    "NO_MEMBER",
    "NO_SUCH_ENTRY",
    "PAST_DAY",
    "CallSettings",
    "DayOverride",
    "HostChoice",
    "TimeOff",
    "WeekdayHours",
    "add_day",
    "add_time_off",
    "call_settings",
    "host_choices",
    "host_member",
    "may_edit",
    "remove_day",
    "remove_time_off",
    "set_call_settings",
    "set_week",
]
