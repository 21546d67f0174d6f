"""Who hosts a call: the members free at its start, in the order they are given calls.

The one to host first has the fewest active calls in the next 7 days, then the one whose
latest booking was made longest ago (never booked first), then the lowest id.

A new booking reads everything it decides on in two queries (the members' availability,
then one statement for the bookings around the call, the members' load and the visitor's
upcoming calls): under many visitors at once, a booking's cost is mostly round trips.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Integer, case, cast, func, literal, null, union_all
from sqlalchemy import select as select_columns
from sqlalchemy.sql import CompoundSelect
from sqlalchemy.sql.expression import bindparam
from sqlmodel import Session, col, select

from rcxsite.booking.availability import MemberAvailability, load_hosts
from rcxsite.booking.rules import Rules
from rcxsite.booking.slots import bookings_window, calendar_busy, free_at
from rcxsite.models import Booking, Interview, InterviewSeat

# Fewest calls in this period decides among the free hosts.
HOST_LOAD_PERIOD = timedelta(days=7)
_NEVER = datetime.min.replace(tzinfo=UTC)
# What a row of the new booking's statement is.
_SPAN, _LOAD, _MINE = "span", "load", "mine"


@dataclass(frozen=True, slots=True)
class NewCallHosts:
    """For a new call: its free hosts, the one to host first first, and how many calls
    to come the visitor's address already holds."""

    ranked: list[MemberAvailability]
    upcoming_for_email: int


def _in_order(
    free: list[MemberAvailability],
    load: Mapping[int, int],
    latest: Mapping[int, datetime | None],
) -> list[MemberAvailability]:
    def order(member: MemberAvailability) -> tuple[int, datetime, int]:
        made = latest.get(member.member_id)
        return load.get(member.member_id, 0), made or _NEVER, member.member_id

    return sorted(free, key=order)


def _upcoming(now: Any) -> Any:
    return (
        col(Booking.active).is_(True)
        & (col(Booking.starts_at) >= now)
        & (col(Booking.starts_at) < now + HOST_LOAD_PERIOD)
    )


def ranked(
    session: Session, free: list[MemberAvailability], *, now: datetime
) -> list[MemberAvailability]:
    """`free` in the order they are given calls (one query)."""
    rows = session.exec(
        select(
            Booking.host_id,
            func.sum(case((_upcoming(now), 1), else_=0)),
            func.max(Booking.created_at),
        )
        .where(col(Booking.host_id).in_([member.member_id for member in free]))
        .group_by(col(Booking.host_id))
    ).all()
    return _in_order(
        free,
        {host_id: int(calls or 0) for host_id, calls, _ in rows},
        {host_id: made for host_id, _, made in rows},
    )


def for_new_call(
    session: Session, *, start: datetime, now: datetime, rules: Rules, email_key: str
) -> NewCallHosts:
    """The hosts free for a new call at `start`, ranked, and the address's calls to come."""
    hosts = load_hosts(session)
    since, until = bookings_window(start, now=now, rules=rules)
    rows = session.execute(
        _facts_statement(),
        {
            "since": since,
            "until": until,
            "now": now,
            "load_until": now + HOST_LOAD_PERIOD,
            "email_key": email_key,
            "host_ids": [host.member_id for host in hosts] or [0],
        },
    ).all()
    spans: dict[int, list[tuple[datetime, datetime]]] = defaultdict(list)
    load: dict[int, int] = {}
    latest: dict[int, datetime | None] = {}
    upcoming = 0
    for kind, host_id, first, last, count in rows:
        if kind == _SPAN:
            spans[host_id].append((first, last))
        elif kind == _LOAD:
            load[host_id], latest[host_id] = int(count or 0), first
        else:
            upcoming = int(count or 0)
    calendars = calendar_busy(
        session, [host.member_id for host in hosts], since=start, until=start + rules.blocked
    )
    free = free_at(hosts, spans, start=start, now=now, rules=rules, calendars=calendars)
    return NewCallHosts(ranked=_in_order(free, load, latest), upcoming_for_email=upcoming)


@cache
def _facts_statement() -> CompoundSelect[*tuple[Any, ...]]:
    """A row per active booking or interview around the call (its host's span), per
    member who takes calls and was ever booked (calls in the next 7 days, latest booking
    made), and one with the address's active calls to come."""
    moment = Booking.__table__.c.starts_at.type  # type: ignore[attr-defined]
    no_moment, no_count = cast(null(), moment), cast(null(), Integer)
    hosts: Any = bindparam("host_ids", expanding=True)
    now, load_until = bindparam("now", type_=moment), bindparam("load_until", type_=moment)
    active = col(Booking.active).is_(True)
    in_period = active & (col(Booking.starts_at) >= now) & (col(Booking.starts_at) < load_until)
    return union_all(
        select_columns(
            literal(_SPAN),
            col(Booking.host_id),
            col(Booking.starts_at),
            col(Booking.blocked_until),
            no_count,
        ).where(
            active,
            col(Booking.host_id).in_(hosts),
            col(Booking.starts_at) >= bindparam("since", type_=moment),
            col(Booking.starts_at) < bindparam("until", type_=moment),
        ),
        # The interviews they sit on hold their time as calls do (rcxsite/careers).
        select_columns(
            literal(_SPAN),
            col(InterviewSeat.staff_member_id),
            col(Interview.starts_at),
            col(Interview.blocked_until),
            no_count,
        )
        .join(Interview, col(Interview.id) == col(InterviewSeat.interview_id))
        .where(
            col(Interview.active).is_(True),
            col(InterviewSeat.staff_member_id).in_(hosts),
            col(Interview.starts_at) >= bindparam("since", type_=moment),
            col(Interview.starts_at) < bindparam("until", type_=moment),
        ),
        select_columns(
            literal(_LOAD),
            col(Booking.host_id),
            func.max(col(Booking.created_at)),
            no_moment,
            func.sum(case((in_period, 1), else_=0)),
        )
        .where(col(Booking.host_id).in_(hosts))
        .group_by(col(Booking.host_id)),
        select_columns(literal(_MINE), no_count, no_moment, no_moment, func.count()).where(
            active,
            col(Booking.email_key) == bindparam("email_key"),
            col(Booking.starts_at) > now,
        ),
    )
