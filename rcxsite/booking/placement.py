"""Where a new call lands: the first of the ranked free hosts the database accepts.

The rows of a new call (its quote request, booking, history line and the job that mails
it) are made as model objects by the caller, for a given host; this module writes them.

- SQLite: the caller's transaction began with BEGIN IMMEDIATE, so its free check and this
  write are one step: the first host is written, as is.
- PostgreSQL: every visitor books concurrently, and a booking's cost was mostly round
  trips, so a try is two statements. The pick: the first of the ranked hosts that has no
  active booking overlapping the call and whose row no other booking is locking right
  now (`FOR NO KEY UPDATE SKIP LOCKED`: concurrent visitors, who rank the hosts alike,
  spread over the free hosts instead of queueing for the first), locked, with an
  advisory lock on the visitor's address (one booking per address at a time). The
  write: while the host's day has room and the address may hold another call, the four
  rows, linked by their new ids. Each statement sees what was committed
  before it began, so each cap is counted only once its lock is held. The exclusion
  constraint still refuses a booking that overlaps one committed meanwhile (SQLSTATE
  23P01): that try is rolled back and the next one sees it. When every free host is
  locked, the tries wait for the locks instead of skipping them; when none is free any
  more, no host is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Integer,
    String,
    Table,
    any_,
    bindparam,
    exists,
    func,
    insert,
    select,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import Select
from sqlmodel import Session, SQLModel

from rcxsite.booking.meetings import link_with_host
from rcxsite.models import (
    Booking,
    Interview,
    InterviewSeat,
    Job,
    QuoteChange,
    QuoteRequest,
    StaffMember,
)
from rcxsite.models.booking import OVERLAP_CONSTRAINT
from rcxsite.models.staff import CHANGE_VALUE_MAX
from rcxsite.platform.db import advisory_key

logger = logging.getLogger(__name__)

# SQLSTATE of an exclusion constraint's refusal.
EXCLUSION_VIOLATION = "23P01"


@dataclass(frozen=True, slots=True)
class NewCall:
    """A new call's rows, for whichever host it lands with: the writer sets the request's
    owner and the booking's host, the ids that link the rows, and ends the history
    line's `new_value` (written up to " with ") with the host's name."""

    request: QuoteRequest
    booking: Booking
    change: QuoteChange
    job: Job


@dataclass(frozen=True, slots=True)
class Placed:
    host_id: int
    request_id: int
    booking_id: int


class NoHostFree(Exception):
    """Every host was taken meanwhile."""


class TooManyUpcoming(Exception):
    """The visitor's address holds as many calls to come as it may (counted under lock)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The company's caps a new call must stay under, checked again under lock on
    PostgreSQL: the address's calls to come, and the host's calls on their day
    (`day_of(host_id)`: that day's bounds on the host's wall clock, in UTC)."""

    email_key: str
    now: datetime
    upcoming_per_email: int
    calls_per_day: int
    day_of: Callable[[int], tuple[datetime, datetime]]


def is_overlap(error: IntegrityError) -> bool:
    """Whether PostgreSQL's exclusion constraint refused the row (another booking won)."""
    original = error.orig
    code = getattr(original, "sqlstate", None) or getattr(original, "pgcode", None)
    return code == EXCLUSION_VIOLATION or OVERLAP_CONSTRAINT in str(original)


def place_new(session: Session, hosts: list[int], call: NewCall, limits: Limits) -> Placed:
    """Write `call` for the first host of `hosts` the database accepts and commit it
    (with whatever the session holds); NoHostFree when none does, TooManyUpcoming when
    the address has reached its cap meanwhile."""
    if session.get_bind().dialect.name != "postgresql":
        return _write_with_orm(session, hosts[0], call)
    candidates = list(hosts)
    for wait in (False, True):
        # Each refused try is a booking committed meanwhile, which the next try sees.
        for _ in range(len(hosts) + 1):
            placed = _try(session, candidates, call, limits, wait=wait)
            if placed is None:  # every host left is locked (or, waiting, booked)
                break
            if placed.booking_id == _FULL:
                candidates.remove(placed.host_id)
                if not candidates:
                    break
            elif placed is not _TAKEN:
                return placed
    raise NoHostFree


@dataclass(frozen=True, slots=True)
class DayCap:
    """A moved call's host may hold `calls_per_day` active calls on their day
    (`day_of(host_id)`, as in Limits), the call itself (`moving`) not counted."""

    calls_per_day: int
    day_of: Callable[[int], tuple[datetime, datetime]]
    moving: int


def place_moved(
    session: Session, hosts: list[int], put: Callable[[int], Booking], cap: DayCap
) -> Booking:
    """Write the moved booking as `put(host_id)` makes it for the first host of `hosts`
    the database accepts, flushed, not committed (the move writes more after it);
    NoHostFree when none does. On PostgreSQL each try is a savepoint, so a refused one
    leaves the rest of the transaction as it was; the passes are place_new's, and the
    host's day is counted once their row is locked, as there."""
    if session.get_bind().dialect.name != "postgresql":
        row = put(hosts[0])
        session.add(row)
        session.flush()
        return row
    busy: list[int] = []
    for host_id in hosts:
        locked, placed = _try_in_savepoint(session, host_id, put, cap, wait=False)
        if locked:
            busy.append(host_id)
        elif placed is not None:
            return placed
    for host_id in busy:
        _, placed = _try_in_savepoint(session, host_id, put, cap, wait=True)
        if placed is not None:
            return placed
    raise NoHostFree


def _try_in_savepoint(
    session: Session,
    host_id: int,
    put: Callable[[int], Booking],
    cap: DayCap,
    *,
    wait: bool,
) -> tuple[bool, Booking | None]:
    """(False, the booking), (False, None) when the host was taken meanwhile (or their
    day filled up), or (True, None) when not `wait`ing and another booking of the host is
    being written."""
    savepoint = session.begin_nested()
    try:
        locked = session.execute(
            select(_table(StaffMember).c.id)
            .where(_table(StaffMember).c.id == host_id)
            .with_for_update(key_share=True, skip_locked=not wait)
        ).first()
        if locked is None:
            savepoint.rollback()
            return True, None
        day_from, day_until = cap.day_of(host_id)
        booking_table = _table(Booking)
        on_that_day = session.execute(
            select(func.count()).where(
                booking_table.c.host_id == host_id,
                _active(booking_table),
                booking_table.c.starts_at >= day_from,
                booking_table.c.starts_at < day_until,
                booking_table.c.id != cap.moving,
            )
        ).scalar_one()
        if on_that_day >= cap.calls_per_day:
            savepoint.rollback()
            return False, None
        row = put(host_id)
        session.add(row)
        session.flush()
        if session.execute(
            select(_sits_in_interview(host_id, row.starts_at, row.blocked_until))
        ).scalar_one():
            savepoint.rollback()
            return False, None
    except IntegrityError as error:
        savepoint.rollback()
        if not is_overlap(error):
            raise
        logger.info("Booking: host %s was taken meanwhile; trying the next", host_id)
        return False, None
    savepoint.commit()
    return False, row


def _write_with_orm(session: Session, host_id: int, call: NewCall) -> Placed:
    host = session.get(StaffMember, host_id)
    assert host is not None
    call.request.owner_id = call.booking.host_id = host_id
    call.booking.meeting_url = link_with_host(call.booking.meeting_url, host.meeting_url)
    call.change.new_value = (call.change.new_value + host.name)[:CHANGE_VALUE_MAX]
    session.add(call.request)
    session.flush()
    assert call.request.id is not None
    for row in (call.booking, call.change):
        row.quote_request_id = call.request.id
    session.add(call.booking)
    session.flush()
    assert call.booking.id is not None
    session.add_all([call.change, call.job])
    session.commit()
    return Placed(host_id=host_id, request_id=call.request.id, booking_id=call.booking.id)


# A try's answer when the exclusion constraint refused it (None: the host was locked);
# a try whose host already has their day's calls answers Placed(host, 0, _FULL).
_TAKEN = Placed(host_id=0, request_id=0, booking_id=0)
_FULL = -1


def _lock_key(email_key: str) -> int:
    """The advisory lock of an address's bookings."""
    return advisory_key("booking-email", email_key)


def _try(
    session: Session, hosts: list[int], call: NewCall, limits: Limits, *, wait: bool
) -> Placed | None:
    """One try on PostgreSQL, committed: the new ids; _TAKEN when the exclusion
    constraint refused it; Placed(host, 0, _FULL) when the chosen host's day is full;
    None when no host was free and unlocked (not `wait`ing), or free at all (`wait`ing).

    Each statement sees what was committed before it began. So the caps are counted by
    the write, once the pick holds their locks: the host's row (their day) and an advisory
    lock on the address (its calls to come: one booking per address at a time)."""
    booking = call.booking
    picked = session.execute(
        _pick_statement(skip_locked=not wait),
        {
            "hosts": hosts,
            "starts_at": booking.starts_at,
            "blocked_until": booking.blocked_until,
            "email_lock": _lock_key(limits.email_key),
        },
    ).first()
    if picked is None:
        session.rollback()
        return None
    host_id = int(picked[0])
    day_from, day_until = limits.day_of(host_id)
    params = {
        **_values("request", call.request, linked=_REQUEST_LINKS),
        **_values("booking", booking, linked=_BOOKING_LINKS),
        "booking_meeting_url": link_with_host(booking.meeting_url, picked[3]),
        **_values("change", call.change, linked=_CHANGE_LINKS),
        **_values("job", call.job, linked=set()),
        "host_id": host_id,
        "host_name": picked[1],
        "day_from": day_from,
        "day_until": day_until,
        "calls_per_day": limits.calls_per_day,
        "email_key": limits.email_key,
        "now": limits.now,
        "upcoming_per_email": limits.upcoming_per_email,
        "change_new_value": call.change.new_value,
    }
    try:
        ids = session.execute(_statement(), params).first()
    except IntegrityError as error:
        session.rollback()
        if not is_overlap(error):
            raise
        logger.info("Booking: a host was taken meanwhile; trying again")
        return _TAKEN
    if ids is None:  # a cap was reached meanwhile: the address's, or the host's day
        upcoming = session.execute(
            _upcoming_statement(), {"email_key": limits.email_key, "now": limits.now}
        ).scalar_one()
        session.rollback()
        if upcoming >= limits.upcoming_per_email:
            raise TooManyUpcoming
        return Placed(host_id=host_id, request_id=0, booking_id=_FULL)
    session.commit()
    return Placed(host_id=host_id, request_id=int(ids[0]), booking_id=int(ids[1]))


def _table(model: type[SQLModel]) -> Table:
    table: Table = model.__table__  # type: ignore[attr-defined]
    return table


def _columns(model: type[SQLModel], linked: set[str]) -> list[Column[Any]]:
    """The columns a try binds from the row (every one but the id and the linked ids)."""
    return [c for c in _table(model).columns if not c.primary_key and c.name not in linked]


def _values(prefix: str, row: SQLModel, *, linked: set[str]) -> dict[str, Any]:
    return {
        f"{prefix}_{column.name}": getattr(row, column.key)
        for column in _columns(type(row), linked)
    }


def _bound(prefix: str, model: type[SQLModel], linked: set[str]) -> dict[str, Any]:
    return {
        column.name: bindparam(f"{prefix}_{column.name}", type_=column.type)
        for column in _columns(model, linked)
    }


# The columns a try fills from the chosen host or the rows written before, not the call.
_REQUEST_LINKS = {"owner_id"}
_BOOKING_LINKS = {"quote_request_id", "host_id"}
_CHANGE_LINKS = {"quote_request_id", "new_value"}
# What each insert of a try gives back, so that the final SELECT reads one row of one CTE.
_RETURNED = ("id", "owner_id", "quote_request_id", "host_id")


def _active(booking_table: Table) -> Any:
    return booking_table.c.active.is_(True)


def _sits_in_interview(member_id: Any, starts_at: Any, blocked_until: Any) -> Any:
    """Whether the member sits on an active interview overlapping [starts_at, blocked_until):
    no exclusion constraint spans two tables, so a write checks it once it holds the
    member's row lock, which booking an interview takes too (rcxsite/careers/interviews.py)."""
    interview, seat = _table(Interview), _table(InterviewSeat)
    return exists(
        select(seat.c.id)
        .join(interview, interview.c.id == seat.c.interview_id)
        .where(
            seat.c.staff_member_id == member_id,
            interview.c.active.is_(True),
            interview.c.starts_at < blocked_until,
            interview.c.blocked_until > starts_at,
        )
    )


@cache
def _upcoming_statement() -> Select[Any]:
    booking_table = _table(Booking)
    moment = booking_table.c.starts_at.type
    return select(func.count()).where(
        _active(booking_table),
        booking_table.c.email_key == bindparam("email_key"),
        booking_table.c.starts_at > bindparam("now", type_=moment),
    )


@cache
def _pick_statement(*, skip_locked: bool) -> Select[Any]:
    """The first of `hosts` with no active booking overlapping the call, whose row is
    then locked (skipped when another booking holds it and `skip_locked`): its id, name
    and own meeting link, or no row; and the address's advisory lock taken (waiting for
    another booking of the address to end)."""
    member, booking_table = _table(StaffMember), _table(Booking)
    moment = booking_table.c.starts_at.type
    overlapping = select(booking_table.c.id).where(
        booking_table.c.host_id == member.c.id,
        _active(booking_table),
        booking_table.c.starts_at < bindparam("blocked_until", type_=moment),
        booking_table.c.blocked_until > bindparam("starts_at", type_=moment),
    )
    hosts = bindparam("hosts", type_=ARRAY(Integer))
    return (
        select(
            member.c.id,
            member.c.name,
            func.pg_advisory_xact_lock(bindparam("email_lock", type_=BigInteger)),
            member.c.meeting_url,
        )
        .where(member.c.id == any_(hosts), ~exists(overlapping))
        .order_by(func.array_position(hosts, member.c.id))
        .limit(1)
        .with_for_update(key_share=True, skip_locked=skip_locked)
    )


@cache
def _statement() -> Select[Any]:
    """WITH host (the picked one, while their day has room and the address may hold
    another call), request, booking, change, job: SELECT the request's id and the
    booking's. No row when a cap is reached."""
    booking_table = _table(Booking)
    moment = booking_table.c.starts_at.type
    host_id = bindparam("host_id", type_=Integer)
    day_calls = select(func.count()).where(
        booking_table.c.host_id == host_id,
        _active(booking_table),
        booking_table.c.starts_at >= bindparam("day_from", type_=moment),
        booking_table.c.starts_at < bindparam("day_until", type_=moment),
    )
    host = (
        select(host_id.label("id"), bindparam("host_name", type_=String).label("name"))
        .where(
            day_calls.scalar_subquery() < bindparam("calls_per_day"),
            _upcoming_statement().scalar_subquery() < bindparam("upcoming_per_email"),
            ~_sits_in_interview(
                host_id,
                bindparam("booking_starts_at", type_=moment),
                bindparam("booking_blocked_until", type_=moment),
            ),
        )
        .cte("host")
    )

    def inserted(
        model: type[SQLModel], values: dict[str, Any], links: dict[str, Any], source: Any
    ) -> Any:
        columns = {**values, **links}
        table = _table(model)
        return (
            insert(table)
            .from_select(list(columns), select(*columns.values()).select_from(source))
            .returning(*(table.c[name] for name in _RETURNED if name in table.c))
            .cte(table.name)
        )

    request = inserted(
        QuoteRequest,
        _bound("request", QuoteRequest, _REQUEST_LINKS),
        {"owner_id": host.c.id},
        host,
    )
    booking = inserted(
        Booking,
        _bound("booking", Booking, _BOOKING_LINKS),
        {"quote_request_id": request.c.id, "host_id": request.c.owner_id},
        request,
    )
    # "Booked: <when> with " and the host's name, cut as the column is.
    history = func.substr(
        bindparam("change_new_value", type_=String) + host.c.name, 1, CHANGE_VALUE_MAX
    )
    change = inserted(
        QuoteChange,
        _bound("change", QuoteChange, _CHANGE_LINKS),
        {"quote_request_id": booking.c.quote_request_id, "new_value": history},
        booking.join(host, host.c.id == booking.c.host_id),
    )
    job = inserted(Job, _bound("job", Job, set()), {}, booking)
    return select(booking.c.quote_request_id, booking.c.id).add_cte(request, change, job)
