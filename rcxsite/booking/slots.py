"""The free times: every start a member who takes calls could host, on their own wall clock,
with the company's rules (notice, window, calls per day, buffer) applied.

Pure computation over rows loaded in a few queries (availability.load_hosts and the active
bookings in range). Starts are built on each member's wall clock and only then converted
to UTC, so a member's 09:00 stays 09:00 across their daylight-saving changes: a wall time
that does not exist (the spring-forward gap) is skipped, an ambiguous one (fall back) is
its first occurrence (fold=0).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from sqlalchemy import union_all
from sqlmodel import Session, col, select

from rcxsite.booking import busy_cache
from rcxsite.booking.availability import (
    Interval,
    MemberAvailability,
    load_hosts,
    working_intervals,
)
from rcxsite.booking.inputs import SlotQuery
from rcxsite.booking.rules import Rules, rules
from rcxsite.booking.timeline import EMPTY, Timeline
from rcxsite.models import Booking, Interview, InterviewSeat, MemberBusy
from rcxsite.platform.db import session_scope

# A member's day (their zone) can begin up to 14 hours before or after the visitor's, and
# the bookings that count towards it must all be loaded.
_DAY_MARGIN = timedelta(days=2)
ONE_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Slot:
    start: datetime
    end: datetime


@dataclass(frozen=True, slots=True)
class SlotList:
    time_zone: str
    call_minutes: int
    first_day: date
    days: int
    slots: tuple[Slot, ...]
    # False when no member takes calls at all (a fresh install): times are then proposed
    # by mail.
    taking_calls: bool


@dataclass(frozen=True, slots=True)
class _Busy:
    """One member's taken time: their active bookings (and how many fall on each of their
    days, for the calls-per-day cap) and their own calendars' busy times."""

    bookings: Timeline
    per_day: dict[date, int]
    calendar: Timeline = EMPTY

    def overlaps(self, start: datetime, until: datetime) -> bool:
        return self.bookings.overlaps(start, until) or self.calendar.overlaps(start, until)


Spans = dict[int, list[tuple[datetime, datetime]]]


def _busy(
    spans: Iterable[tuple[datetime, datetime]], zone: ZoneInfo, calendar: Timeline = EMPTY
) -> _Busy:
    per_day: dict[date, int] = defaultdict(int)
    bookings = list(spans)
    for start, _ in bookings:
        per_day[start.astimezone(zone).date()] += 1
    return _Busy(bookings=Timeline.of(bookings), per_day=per_day, calendar=calendar)


def _active_bookings(
    session: Session,
    member_ids: list[int],
    *,
    since: datetime,
    until: datetime,
    excluding: int | None = None,
    excluding_interview: int | None = None,
) -> dict[int, list[tuple[datetime, datetime]]]:
    """Each member's held time starting in the range (with its margin): their active
    bookings and the active interviews they sit on (either counts for both)."""
    query = select(Booking.host_id, Booking.starts_at, Booking.blocked_until).where(
        col(Booking.active).is_(True),
        col(Booking.host_id).in_(member_ids),
        col(Booking.starts_at) >= since - _DAY_MARGIN,
        col(Booking.starts_at) < until + _DAY_MARGIN,
    )
    if excluding is not None:
        query = query.where(col(Booking.id) != excluding)
    seats = (
        select(InterviewSeat.staff_member_id, Interview.starts_at, Interview.blocked_until)
        .join(Interview, col(Interview.id) == col(InterviewSeat.interview_id))
        .where(
            col(Interview.active).is_(True),
            col(InterviewSeat.staff_member_id).in_(member_ids),
            col(Interview.starts_at) >= since - _DAY_MARGIN,
            col(Interview.starts_at) < until + _DAY_MARGIN,
        )
    )
    if excluding_interview is not None:
        seats = seats.where(col(Interview.id) != excluding_interview)
    spans: dict[int, list[tuple[datetime, datetime]]] = defaultdict(list)
    for member_id, starts_at, blocked_until in session.execute(union_all(query, seats)):
        spans[member_id].append((starts_at, blocked_until))
    return spans


def calendar_busy(
    session: Session, member_ids: list[int], *, since: datetime, until: datetime
) -> Spans:
    """The busy times from members' own calendars that overlap [since, until)."""
    query = select(MemberBusy.staff_member_id, MemberBusy.starts_at, MemberBusy.ends_at).where(
        col(MemberBusy.staff_member_id).in_(member_ids),
        col(MemberBusy.starts_at) < until,
        col(MemberBusy.ends_at) > since,
    )
    busy: Spans = defaultdict(list)
    for member_id, starts_at, ends_at in session.exec(query):
        busy[member_id].append((starts_at, ends_at))
    return busy


def _wall_clock_starts(
    member: MemberAvailability, zone: ZoneInfo, day: date, call: timedelta
) -> Iterator[datetime]:
    """The UTC start of every call on the member's grid on their `day`."""
    yield from _grid(zone, day, working_intervals(member, day), call)


@lru_cache(maxsize=4096)
def _grid(
    zone: ZoneInfo, day: date, intervals: tuple[Interval, ...], call: timedelta
) -> tuple[datetime, ...]:
    """The UTC starts of the calls in `intervals` of `day` on `zone`'s wall clock: the
    same for every member with the same zone and hours (most of them), so made once."""
    return tuple(_grid_starts(zone, day, intervals, call))


def _grid_starts(
    zone: ZoneInfo, day: date, intervals: tuple[Interval, ...], call: timedelta
) -> Iterator[datetime]:
    step = int(call.total_seconds() // 60)
    if not intervals:
        return
    offset = datetime.combine(day, time(0), tzinfo=zone).utcoffset()
    steady = offset == datetime.combine(day + ONE_DAY, time(0), tzinfo=zone).utcoffset()
    midnight = datetime.combine(day, time(0), tzinfo=UTC)
    for first, last in intervals:
        for minute in range(first, last - step + 1, step):
            if steady and offset is not None:
                # No clock change that day: plain arithmetic (the slots' hot loop).
                yield midnight + timedelta(minutes=minute) - offset
                continue
            local = datetime.combine(day, time(minute // 60, minute % 60), tzinfo=zone)
            start = local.astimezone(UTC)
            if start.astimezone(zone).replace(tzinfo=None) != local.replace(tzinfo=None):
                continue  # the clocks skip this wall time (spring forward)
            yield start


def _free_starts(
    member: MemberAvailability,
    busy: _Busy,
    *,
    since: datetime,
    until: datetime,
    rules: Rules,
    known: frozenset[datetime] | set[datetime] = frozenset(),
) -> Iterator[datetime]:
    """The member's free starts in [since, until) (already cut to notice and window);
    `known`: starts found free already (another member's), not tested again."""
    zone = member.zone
    first_day = since.astimezone(zone).date()
    last_day = until.astimezone(zone).date()
    blocked = rules.blocked
    for offset in range((last_day - first_day).days + 1):
        day = first_day + timedelta(days=offset)
        if busy.per_day.get(day, 0) >= rules.calls_per_day:
            continue
        for start in _wall_clock_starts(member, zone, day, rules.call):
            if start in known or not since <= start < until:
                continue
            if not busy.overlaps(start, start + blocked):
                yield start


def _bounds(
    since: datetime, until: datetime, *, now: datetime, rules: Rules
) -> tuple[datetime, datetime]:
    return max(since, now + rules.notice), min(until, now + rules.window)


def day_start(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def free_slots(
    query: SlotQuery, *, now: datetime | None = None, excluding: int | None = None
) -> SlotList:
    """The free times whose start falls on the visitor's days `query.first_day` (today in
    `query.time_zone` when None) to `first_day + days - 1`, sorted. `excluding`: a booking
    that does not count (the one being moved: times next to or over it are free for it)."""
    now = now or datetime.now(UTC)
    company = rules()
    zone = ZoneInfo(query.time_zone)
    first_day = query.first_day or now.astimezone(zone).date()
    since, until = (
        day_start(first_day, zone),
        day_start(first_day + timedelta(days=query.days), zone),
    )
    earliest, latest = _bounds(since, until, now=now, rules=company)
    with session_scope() as session:
        hosts = load_hosts(session)
        ids = [h.member_id for h in hosts]
        spans, calendars = (
            (
                _active_bookings(session, ids, since=earliest, until=latest, excluding=excluding),
                busy_cache.busy_timelines(session, ids),
            )
            if hosts and earliest < latest
            else ({}, {})
        )
    starts: set[datetime] = set()
    if earliest < latest:
        for host in hosts:
            busy = _busy(
                spans.get(host.member_id, ()), host.zone, calendars.get(host.member_id, EMPTY)
            )
            # Most members share a grid: a start one of them is free at needs no more tests.
            starts.update(
                list(
                    _free_starts(
                        host, busy, since=earliest, until=latest, rules=company, known=starts
                    )
                )
            )
    return SlotList(
        time_zone=query.time_zone,
        call_minutes=int(company.call.total_seconds() // 60),
        first_day=first_day,
        days=query.days,
        slots=tuple(Slot(start=start, end=start + company.call) for start in sorted(starts)),
        taking_calls=bool(hosts),
    )


def hosts_free_at(
    session: Session,
    *,
    start: datetime,
    now: datetime,
    rules: Rules,
    excluding: int | None = None,
) -> list[MemberAvailability]:
    """The members who could host a call at `start` now (in `session`'s transaction):
    it is on their grid, within notice and window, under their day's cap and free with its
    buffer. `excluding`: a booking that does not count (the one being moved)."""
    earliest, latest = call_bounds(start, now=now, rules=rules)
    if earliest >= latest:
        return []
    hosts = load_hosts(session)
    if not hosts:
        return []
    ids = [h.member_id for h in hosts]
    spans = _active_bookings(session, ids, since=earliest, until=latest, excluding=excluding)
    calendars = calendar_busy(session, ids, since=start, until=start + rules.blocked)
    return free_at(hosts, spans, start=start, now=now, rules=rules, calendars=calendars)


def call_bounds(start: datetime, *, now: datetime, rules: Rules) -> tuple[datetime, datetime]:
    """Where a call at `start` may begin, cut to notice and window (empty when it may not)."""
    return _bounds(start, start + timedelta(seconds=1), now=now, rules=rules)


def bookings_window(start: datetime, *, now: datetime, rules: Rules) -> tuple[datetime, datetime]:
    """The starts of the active bookings that count for a call at `start`: its hosts'
    whole days (on any wall clock) around it."""
    earliest, latest = call_bounds(start, now=now, rules=rules)
    return earliest - _DAY_MARGIN, latest + _DAY_MARGIN


def free_at(
    hosts: list[MemberAvailability],
    spans: Spans,
    *,
    start: datetime,
    now: datetime,
    rules: Rules,
    calendars: Spans | None = None,
    on_grid: bool = True,
) -> list[MemberAvailability]:
    """Those of `hosts` free for a call at `start`, given their active bookings' spans
    (starts_at, blocked_until) over `bookings_window` and their calendars' busy times
    around the call: the start `free_slots` would give for them, decided without walking
    their days. Not `on_grid`: any start within their working hours will do (an
    interview's other interviewers, whose grid need not be its first one's)."""
    earliest, latest = call_bounds(start, now=now, rules=rules)
    if not earliest <= start < latest:
        return []
    free = []
    for host in hosts:
        day = (
            _grid_day(host, start, rules.call) if on_grid else _working_day(host, start, rules.call)
        )
        if day is None:
            continue
        busy = _busy(
            spans.get(host.member_id, ()),
            host.zone,
            Timeline.of((calendars or {}).get(host.member_id, ())),
        )
        if busy.per_day.get(day, 0) < rules.calls_per_day and not busy.overlaps(
            start, start + rules.blocked
        ):
            free.append(host)
    return free


def _working_day(member: MemberAvailability, start: datetime, call: timedelta) -> date | None:
    """The member's day on which [start, start + call) lies within one working interval,
    or None."""
    local = start.astimezone(member.zone)
    day, minute = local.date(), local.hour * 60 + local.minute
    step = int(call.total_seconds() // 60)
    if any(first <= minute <= last - step for first, last in working_intervals(member, day)):
        return day
    return None


def _grid_day(member: MemberAvailability, start: datetime, call: timedelta) -> date | None:
    """The member's day whose grid has `start` (a whole number of calls from the beginning
    of one of its working intervals, the call within it), or None. A wall time the clocks
    repeat is on the grid at its first occurrence only, as `_wall_clock_starts` makes it."""
    zone = member.zone
    local = start.astimezone(zone)
    if local.second or local.microsecond:
        return None
    day, minute, step = (
        local.date(),
        local.hour * 60 + local.minute,
        int(call.total_seconds() // 60),
    )
    for first, last in working_intervals(member, day):
        if first <= minute <= last - step and (minute - first) % step == 0:
            wall = datetime.combine(day, time(minute // 60, minute % 60), tzinfo=zone)
            return day if wall.astimezone(UTC) == start else None
    return None


def free_together(
    session: Session,
    members: list[MemberAvailability],
    *,
    since: datetime,
    until: datetime,
    now: datetime,
    rules: Rules,
    excluding_interview: int | None = None,
) -> list[datetime]:
    """The starts in [since, until) (cut to notice and window) at which every one of
    `members` is free for `rules.call` with its buffer: an interview's times, on the
    first interviewer's grid. `excluding_interview`: one that does not count (the one
    being moved)."""
    earliest, latest = _bounds(since, until, now=now, rules=rules)
    if not members or earliest >= latest:
        return []
    ids = [m.member_id for m in members]
    spans = _active_bookings(
        session, ids, since=earliest, until=latest, excluding_interview=excluding_interview
    )
    calendars = calendar_busy(session, ids, since=earliest, until=latest + rules.blocked)
    first, others = members[0], members[1:]
    starts = _free_starts(
        first,
        _busy(
            spans.get(first.member_id, ()),
            first.zone,
            Timeline.of(calendars.get(first.member_id, ())),
        ),
        since=earliest,
        until=latest,
        rules=rules,
    )
    return [
        start
        for start in starts
        if len(
            free_at(
                others,
                spans,
                start=start,
                now=now,
                rules=rules,
                calendars=calendars,
                on_grid=False,
            )
        )
        == len(others)
    ]


def all_free_at(
    session: Session,
    members: list[MemberAvailability],
    *,
    start: datetime,
    now: datetime,
    rules: Rules,
    excluding_interview: int | None = None,
) -> bool:
    """Whether every one of `members` is free at `start` (in `session`'s transaction): on
    the first one's grid, the others merely free then."""
    if not members:
        return False
    earliest, latest = call_bounds(start, now=now, rules=rules)
    if earliest >= latest:
        return False
    ids = [m.member_id for m in members]
    spans = _active_bookings(
        session, ids, since=earliest, until=latest, excluding_interview=excluding_interview
    )
    calendars = calendar_busy(session, ids, since=start, until=start + rules.blocked)
    first, others = members[0], members[1:]
    return bool(
        free_at([first], spans, start=start, now=now, rules=rules, calendars=calendars)
    ) and len(
        free_at(
            others, spans, start=start, now=now, rules=rules, calendars=calendars, on_grid=False
        )
    ) == len(others)
