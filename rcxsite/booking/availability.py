"""When members take calls: their rows loaded once, then pure functions of a day.

A member's hours are on their own wall clock (`StaffMember.time_zone`, "" = the company's).
Without weekly rows a member works the default week, DEFAULT_HOURS; a date override
(`MemberDay`, a row per interval) replaces the week on its date ("" start: not working);
time off takes whole days out. A day may hold several intervals: the gaps are breaks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Date, Integer, Select, bindparam, cast, literal, null, union_all
from sqlalchemy import select as select_columns
from sqlalchemy.sql import CompoundSelect
from sqlmodel import Session, col, select

from rcxsite.booking.rules import COMPANY_TIME_ZONE, HOST_ROLES
from rcxsite.core.time_zones import canonical_zone
from rcxsite.core.working_week import COMPANY_WEEK
from rcxsite.models import MemberDay, MemberHours, MemberTimeOff, StaffMember

MINUTES_PER_DAY = 24 * 60
# What a row of `load_hosts`'s query is.
_MEMBER, _WEEK, _DAY, _OFF = "member", "week", "day", "off"
# Minutes from midnight on the member's wall clock, start inclusive, end exclusive.
Interval = tuple[int, int]
# The company's week (Monday to Friday, 09:00-17:30), written once in core/working_week.py.
DEFAULT_HOURS: Mapping[int, tuple[Interval, ...]] = COMPANY_WEEK.hours


def wall_minutes(text: str) -> int | None:
    """ "HH:MM" as minutes from midnight ("24:00" is the day's end); None if not one."""
    hours, colon, minutes = text.partition(":")
    if not (colon and len(hours) == 2 and len(minutes) == 2):
        return None
    if not (hours.isdigit() and minutes.isdigit()) or int(minutes) > 59:
        return None
    total = int(hours) * 60 + int(minutes)
    return total if total <= MINUTES_PER_DAY else None


def interval(start: str, end: str) -> Interval | None:
    """A working interval from "HH:MM" texts; None for "" or anything not a real interval."""
    first, last = wall_minutes(start), wall_minutes(end)
    if first is None or last is None or first >= last:
        return None
    return first, last


@dataclass(frozen=True, slots=True)
class MemberAvailability:
    """A member who takes calls, with everything that decides when."""

    member_id: int
    name: str
    time_zone: str
    # None: no weekly rows, the default week.
    weekly: Mapping[int, tuple[Interval, ...]] | None = None
    days: Mapping[date, tuple[Interval, ...]] = field(default_factory=dict)
    time_off: tuple[tuple[date, date], ...] = ()

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)


def member_zone(member: StaffMember) -> str:
    """The member's zone name; the company's when they set none (or one this machine's
    zone database does not know, rather than failing every visitor's slots)."""
    return zone_or_company(member.time_zone)


def zone_or_company(name: str) -> str:
    """`name` by its canonical name ("Asia/Calcutta" is "Asia/Kolkata"); the company's
    for "" or a name the zone database does not know."""
    return canonical_zone(name) or COMPANY_TIME_ZONE


def working_intervals(member: MemberAvailability, day: date) -> tuple[Interval, ...]:
    """The member's working intervals on `day` (their calendar), sorted."""
    if any(first <= day <= last for first, last in member.time_off):
        return ()
    if day in member.days:
        return member.days[day]
    week = DEFAULT_HOURS if member.weekly is None else member.weekly
    return week.get(day.weekday(), ())


def load_hosts(session: Session) -> list[MemberAvailability]:
    """Every member who takes calls, with their hours, date overrides and time off, in one
    query whatever their number (every booking asks, so every round trip counts). A
    member invited but not yet enrolled (no password) hosts nothing: they could not sign
    in to see the call."""
    return _availabilities(session.execute(_hosts_statement()).all())


def load_members(session: Session, member_ids: Collection[int]) -> list[MemberAvailability]:
    """The availability of the members named (enrolled and not disabled), whether or not
    they take calls: the interviewers of an interview (rcxsite/careers/interviews.py)."""
    if not member_ids:
        return []
    return _availabilities(session.execute(_members_statement(), {"ids": list(member_ids)}).all())


def _availabilities(rows: Sequence[Any]) -> list[MemberAvailability]:
    members: dict[int, tuple[str, str]] = {}
    weekly: dict[int, dict[int, list[Interval]]] = defaultdict(lambda: defaultdict(list))
    days: dict[int, dict[date, list[Interval]]] = defaultdict(lambda: defaultdict(list))
    time_off: dict[int, list[tuple[date, date]]] = defaultdict(list)
    for kind, member_id, weekday, first, last, start, end in rows:
        if kind == _MEMBER:
            members[member_id] = (start, end)
        elif kind == _WEEK:
            if (hours := interval(start, end)) is not None:
                weekly[member_id][weekday].append(hours)
            else:
                # A row that is no interval still says the member keeps a week of their own.
                weekly[member_id].setdefault(weekday, [])
        elif kind == _DAY:
            # A date's rows are its intervals; its one "" row: not working that day.
            spans = days[member_id][first]
            if (hours := interval(start, end)) is not None:
                spans.append(hours)
        else:
            time_off[member_id].append((first, last))
    return [
        MemberAvailability(
            member_id=member_id,
            name=name,
            time_zone=zone_or_company(time_zone),
            weekly=(
                {day: tuple(sorted(spans)) for day, spans in weekly[member_id].items()}
                if member_id in weekly
                else None
            ),
            days={day: tuple(sorted(spans)) for day, spans in days[member_id].items()},
            time_off=tuple(time_off.get(member_id, ())),
        )
        for member_id, (name, time_zone) in sorted(members.items())
    ]


def _enrolled() -> tuple[Any, ...]:
    return (col(StaffMember.disabled_at).is_(None), col(StaffMember.password_hash) != "")


@cache
def _hosts_statement() -> CompoundSelect[*tuple[Any, ...]]:
    """A row per member who takes calls, weekly interval, date override and time off,
    told apart by their first column."""
    return _availability_statement(
        select(StaffMember.id).where(
            col(StaffMember.takes_calls).is_(True),
            col(StaffMember.role).in_(HOST_ROLES),
            *_enrolled(),
        )
    )


@cache
def _members_statement() -> CompoundSelect[*tuple[Any, ...]]:
    """As _hosts_statement, for the members whose ids are bound as "ids"."""
    return _availability_statement(
        select(StaffMember.id).where(
            col(StaffMember.id).in_(bindparam("ids", expanding=True)), *_enrolled()
        )
    )


def _availability_statement(hosts: Select[Any]) -> CompoundSelect[*tuple[Any, ...]]:
    no_day, no_date = cast(null(), Integer), cast(null(), Date)
    return union_all(
        select_columns(
            literal(_MEMBER),
            col(StaffMember.id),
            no_day,
            no_date,
            no_date,
            col(StaffMember.name),
            col(StaffMember.time_zone),
        ).where(col(StaffMember.id).in_(hosts)),
        select_columns(
            literal(_WEEK),
            col(MemberHours.staff_member_id),
            col(MemberHours.weekday),
            no_date,
            no_date,
            col(MemberHours.start),
            col(MemberHours.end),
        ).where(col(MemberHours.staff_member_id).in_(hosts)),
        select_columns(
            literal(_DAY),
            col(MemberDay.staff_member_id),
            no_day,
            col(MemberDay.day),
            no_date,
            col(MemberDay.start),
            col(MemberDay.end),
        ).where(col(MemberDay.staff_member_id).in_(hosts)),
        select_columns(
            literal(_OFF),
            col(MemberTimeOff.staff_member_id),
            no_day,
            col(MemberTimeOff.first_day),
            col(MemberTimeOff.last_day),
            literal(""),
            literal(""),
        ).where(col(MemberTimeOff.staff_member_id).in_(hosts)),
    )
