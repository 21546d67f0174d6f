"""What became of a booked call once its time came, and the calls as the staff inbox
shows them.

After the start, the host (or anyone who works the inbox) marks the call "held" or
"no-show"; either may be switched to the other later, a cancelled call is never marked.
Each mark is a line of the quote request's history and an audit entry, in one
transaction. A marked call no longer holds its host's time (`active` False): that time is
past anyway, and the exclusion constraint and the free times only look at active calls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement
from sqlmodel import Session, col, select

from rcxsite.core import audit
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Booking, QuoteChange, StaffMember
from rcxsite.models.booking import BOOKED, CANCELLED, HELD, MOVED, NO_SHOW
from rcxsite.models.staff import STAFF_NAME_MAX
from rcxsite.platform.db import session_scope

CALL_STATUS_LABELS: dict[str, str] = {
    BOOKED: "Booked",
    MOVED: "Moved",
    CANCELLED: "Cancelled",
    HELD: "Held",
    NO_SHOW: "No-show",
}
OUTCOMES = (HELD, NO_SHOW)
# The statuses a mark may replace: the call still to happen, or the other outcome.
MARKABLE = frozenset({BOOKED, MOVED, HELD, NO_SHOW})

NO_CALL = "This request has no booked call."
TOO_EARLY = "You can mark the call once its time has come."
CALL_CANCELLED = "This call was cancelled, so it cannot be marked as held or no-show."
BAD_OUTCOME = "Please mark the call as held or no-show."
NOTHING_CHANGED = "Nothing to change."
MARKED = {HELD: "Call marked as held.", NO_SHOW: "Call marked as no-show."}
# The history's field of every line about the call, as the booking service writes
# its own (booked, moved, cancelled: rcxsite/booking/service.py).
CALL_FIELD = "call"


@dataclass(frozen=True, slots=True)
class CallView:
    """A quote request's booked call, as the staff screens show it."""

    booking_id: int
    quote_request_id: int
    start: datetime
    end: datetime
    host_id: int
    host_name: str
    # booked | moved | cancelled | held | no-show
    status: str
    visitor_time_zone: str
    # The invitation's SEQUENCE: how often it was moved (or cancelled).
    sequence: int

    @property
    def status_label(self) -> str:
        return CALL_STATUS_LABELS.get(self.status, self.status)


def may_mark(call: CallView, *, now: datetime) -> bool:
    """Whether "Held" and "No-show" apply to the call now."""
    return call.status in MARKABLE and call.start <= now


def _views(session: Session, condition: ColumnElement[bool]) -> dict[int, CallView]:
    rows = session.exec(
        select(Booking, StaffMember.name)
        .join(StaffMember, col(StaffMember.id) == col(Booking.host_id))
        .where(condition)
    ).all()
    return {
        booking.quote_request_id: CallView(
            booking_id=booking.id,
            quote_request_id=booking.quote_request_id,
            start=booking.starts_at,
            end=booking.ends_at,
            host_id=booking.host_id,
            host_name=host_name,
            status=booking.status,
            visitor_time_zone=booking.visitor_time_zone,
            sequence=booking.sequence,
        )
        for booking, host_name in rows
        if booking.id is not None
    }


def calls_of_requests(session: Session, quote_request_ids: Iterable[int]) -> dict[int, CallView]:
    """The calls of these requests by request id (one query; a request without a call is
    absent). In the caller's session: the caller has checked who may read them."""
    ids = sorted(set(quote_request_ids))
    if not ids:
        return {}
    return _views(session, col(Booking.quote_request_id).in_(ids))


def call_of_request(session: Session, *, quote_request_id: int) -> CallView | None:
    """The request's call, if it has one (as `calls_of_requests`)."""
    return _views(session, col(Booking.quote_request_id) == quote_request_id).get(quote_request_id)


def mark_call(
    *,
    actor: StaffActor | None,
    quote_request_id: int,
    outcome: str,
    now: datetime | None = None,
) -> str:
    """Mark the request's call "held" or "no-show" once its start has come: 404 without a
    call, 409 before the start or for a cancelled call; the same mark again changes
    nothing. Returns the sentence the screen confirms it with."""
    member = require(actor, Permission.WORK_QUOTES)
    if outcome not in OUTCOMES:
        raise ServiceError(422, BAD_OUTCOME)
    now = now or datetime.now(UTC)
    with session_scope(for_update=True) as session:
        booking = session.exec(
            select(Booking)
            .where(col(Booking.quote_request_id) == quote_request_id)
            .with_for_update()
        ).first()
        if booking is None:
            raise ServiceError(404, NO_CALL)
        if booking.status not in MARKABLE:
            raise ServiceError(409, CALL_CANCELLED)
        if booking.starts_at > now:
            raise ServiceError(409, TOO_EARLY)
        if booking.status == outcome:
            return NOTHING_CHANGED
        old, new = CALL_STATUS_LABELS[booking.status], CALL_STATUS_LABELS[outcome]
        booking.status, booking.active, booking.updated_at = outcome, False, now
        session.add(booking)
        session.add(
            QuoteChange(
                quote_request_id=quote_request_id,
                # 0 is the command line (permissions.OPERATOR), which is no member row.
                actor_id=member.member_id or None,
                actor_name=member.name[:STAFF_NAME_MAX],
                field=CALL_FIELD,
                old_value=old,
                new_value=new,
            )
        )
        audit.record(
            session,
            action="call_marked",
            actor=member,
            target=f"quote #{quote_request_id}",
            detail=f"{old} → {new}",
        )
    return MARKED[outcome]


__all__ = [
    "BAD_OUTCOME",
    "CALL_CANCELLED",
    "CALL_STATUS_LABELS",
    "HELD",
    "MARKED",
    "NOTHING_CHANGED",
    "NO_CALL",
    "NO_SHOW",
    "OUTCOMES",
    "TOO_EARLY",
    "CallView",
    "call_of_request",
    "calls_of_requests",
    "mark_call",
    "may_mark",
]
