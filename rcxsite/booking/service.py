"""Booking a call, and the manage link's reschedule and cancel.

Framework-free and synchronous. Each change is one transaction: the quote request, the
booking, its history and the jobs that mail it exist together or not at all. No two
active bookings of one host overlap (call plus buffer):

- SQLite: the free check and the write run in one `session_scope(for_update=True)`
  (BEGIN IMMEDIATE), so a second booking of the same time waits, then sees the first;
- PostgreSQL: the free check runs alongside, and the exclusion constraint
  `ex_booking_host_overlap` refuses the loser's insert (SQLSTATE 23P01); the booking
  then tries the next free host, if any (rcxsite/booking/placement.py).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from sqlmodel import Session, col, select

from rcxsite.booking import hosting, meetings, notices, wording
from rcxsite.booking.availability import MemberAvailability
from rcxsite.booking.inputs import (
    LINK_INVALID,
    BookingInput,
    CancelInput,
    RescheduleInput,
    SlotQuery,
    utc_text,
)
from rcxsite.booking.links import manage_url
from rcxsite.booking.placement import (
    DayCap,
    Limits,
    NewCall,
    NoHostFree,
    TooManyUpcoming,
    place_moved,
    place_new,
)
from rcxsite.booking.rules import COMPANY_TIME_ZONE, Rules, rules
from rcxsite.booking.slots import ONE_DAY, SlotList, day_start, free_slots, hosts_free_at
from rcxsite.core import tokens
from rcxsite.core.attribution import Attribution, stamped
from rcxsite.core.ratelimit import Limit, client_key, hit, reserve
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Booking, QuoteChange, QuoteRequest, StaffMember
from rcxsite.models.booking import (
    BOOKED,
    CANCELLED,
    MOVED,
    VIDEO,
)
from rcxsite.models.staff import CHANGE_VALUE_MAX, STAFF_NAME_MAX
from rcxsite.platform.at_rest import SealBroken, seal, unseal
from rcxsite.platform.db import session_scope
from rcxsite.platform.metrics import BOOKING_CONFLICTS
from rcxsite.platform.settings import get_settings, keyed_hash

logger = logging.getLogger(__name__)

BOOKED_MESSAGE = "Your call is booked."
MOVED_MESSAGE = "Your call is moved."
TAKEN = "That time has just been booked. Please choose another."
CANCELLED_NOTICE = "This call was cancelled, so it can no longer be changed."
PAST_NOTICE = "This call has already taken place, so it can no longer be changed."
NOT_CANCELLED = "This call is still booked: to change its time, reschedule it."
ALREADY_BOOKED = (
    "You already have a call booked with us: the link in its invitation changes or cancels it."
)
MOVES_USED_UP = (
    "This call has been moved as often as it can be. To move it again, please reply to "
    "your invitation. You can still cancel it."
)
TOKEN_PURPOSE = "booking-token"
# The quote form's limit scope: one budget for the form and the booking.
LIMIT_SCOPE = "quote-request"
# The manage link's limits: one call's moves (keyed by its UID), a client's changes.
CHANGE_SCOPE = "booking-change"
CHANGE_CLIENT_SCOPE = "booking-change-client"

__all__ = [
    "ALREADY_BOOKED",
    "BOOKED_MESSAGE",
    "CANCELLED_NOTICE",
    "LINK_INVALID",
    "MOVED_MESSAGE",
    "MOVES_USED_UP",
    "NOT_CANCELLED",
    "PAST_NOTICE",
    "TAKEN",
    "BookingReceipt",
    "ManagedCall",
    "UpcomingCall",
    "book",
    "book_again",
    "cancel",
    "manage_url",
    "managed_call",
    "reschedule",
    "upcoming_for_email",
]


@dataclass(frozen=True, slots=True)
class BookingReceipt:
    booking_id: int
    quote_request_id: int
    start: datetime
    end: datetime
    # The visitor's zone.
    time_zone: str
    host_name: str
    message: str
    next_steps: str
    # The same words on a 12-hour clock ("4:30 PM"), for a visitor who reads times so.
    next_steps_12: str
    # The manage link's token: mailed to the visitor; the API does not return it.
    token: str
    call_kind: str = VIDEO
    # A video call's link ("" for a phone call).
    meeting_url: str = ""
    calendar: notices.VisitorCalendar | None = None
    # Where the call happens, in words.
    place: str = ""


@dataclass(frozen=True, slots=True)
class ManagedCall:
    """A call as its manage link shows it."""

    start: datetime
    end: datetime
    time_zone: str
    host_name: str
    status: str
    # Active and not yet begun: it may be rescheduled or cancelled.
    can_change: bool
    # "" or why it cannot change.
    notice: str
    # Where the call happens, in words, and a video call's link ("" for none).
    place: str = ""
    meeting_url: str = ""
    calendar: notices.VisitorCalendar | None = None
    # Cancelled: the link may book another time with the same details.
    can_book_again: bool = False


@dataclass(frozen=True, slots=True)
class UpcomingCall:
    """One of an address's calls to come, with its manage link (My account)."""

    booking_id: int
    start: datetime
    end: datetime
    time_zone: str
    host_name: str
    status: str
    manage_url: str
    place: str = ""
    meeting_url: str = ""


def _taken() -> ServiceError:
    """The time was booked by someone else first (counted for operators: /metrics)."""
    BOOKING_CONFLICTS.inc()
    return ServiceError(409, TAKEN)


def _too_many_upcoming(limit: int) -> ServiceError:
    return ServiceError(
        429,
        f"You already have {limit} upcoming calls with us. "
        "Please manage them from the links in your invitations.",
    )


def _new_uid() -> str:
    """A booking's UID for its whole life: random, so it is known before the row's id."""
    host = urlsplit(get_settings().site_url).hostname or "localhost"
    return f"booking-{secrets.token_hex(12)}@{host}"


def _change(request_id: int, *, actor_name: str, field: str, old: str, new: str) -> QuoteChange:
    return QuoteChange(
        quote_request_id=request_id,
        actor_id=None,
        actor_name=actor_name[:STAFF_NAME_MAX],
        field=field,
        old_value=old[:CHANGE_VALUE_MAX],
        new_value=new[:CHANGE_VALUE_MAX],
    )


def _history(
    session: Session, request_id: int, *, actor_name: str, field: str, old: str, new: str
) -> None:
    session.add(_change(request_id, actor_name=actor_name, field=field, old=old, new=new))


def _call_text(start: datetime, host_name: str) -> str:
    return f"{wording.spoken_time(start, COMPANY_TIME_ZONE)} with {host_name}"


def _days_of(
    start: datetime, members: list[MemberAvailability]
) -> Callable[[int], tuple[datetime, datetime]]:
    """Each member's day around `start` on their own wall clock, as UTC bounds: what their
    calls per day count over."""
    zones = {member.member_id: member.zone for member in members}

    def day_of(member_id: int) -> tuple[datetime, datetime]:
        day = start.astimezone(zones[member_id]).date()
        return day_start(day, zones[member_id]), day_start(day + ONE_DAY, zones[member_id])

    return day_of


def _company_wall_clock(start: datetime) -> tuple[datetime, str]:
    local = start.astimezone(ZoneInfo(COMPANY_TIME_ZONE))
    return local, f"{local:%H:%M}"


def _new_call(
    booking: BookingInput,
    *,
    company: Rules,
    digest: str,
    token: str,
    client_ip: str,
    now: datetime,
    attribution: Attribution | None,
) -> NewCall:
    """The rows a booked call adds (its request, its booking, the request's history and the
    invitation's job), before a host is chosen."""
    local, call_time = _company_wall_clock(booking.start)
    uid = _new_uid()
    return NewCall(
        request=stamped(
            QuoteRequest(
                **booking.model_dump(
                    include={"name", "email", "company", "phone", "service", "budget"}
                    | {"timeline", "message"}
                ),
                call_date=local.date(),
                call_time=call_time,
                client_ip_hash=keyed_hash(client_ip),
                created_at=now,
            ),
            attribution,
        ),
        booking=Booking(
            quote_request_id=0,
            host_id=0,
            starts_at=booking.start,
            ends_at=booking.start + company.call,
            blocked_until=booking.start + company.blocked,
            status=BOOKED,
            active=True,
            visitor_name=booking.name,
            visitor_email=booking.email,
            email_key=booking.email.lower(),
            visitor_time_zone=booking.time_zone,
            token_hash=digest,
            token_sealed=seal(TOKEN_PURPOSE, token),
            uid=uid,
            call_kind=booking.call_kind,
            # The host's own link replaces it where they have one, as the call is
            # written (rcxsite/booking/placement.py): its invitation may leave at once.
            meeting_url=meetings.prepared_link(booking.call_kind),
            created_at=now,
            updated_at=now,
        ),
        change=_change(
            0,
            actor_name=booking.name,
            field="call",
            old="",
            new=f"Booked: {_call_text(booking.start, '')}",
        ),
        job=notices.announcement(uid=uid, now=now),
    )


def _receipt(
    booking: Booking, host: StaffMember, request: QuoteRequest, token: str, *, moved: bool
) -> BookingReceipt:
    """What the visitor is told of a call just booked or moved: one mapping for both."""
    assert booking.id is not None and request.id is not None
    steps = partial(
        wording.next_steps,
        booking.starts_at,
        booking.visitor_time_zone,
        host.name,
        notices.place_of(booking, request),
        moved=moved,
    )
    return BookingReceipt(
        booking_id=booking.id,
        quote_request_id=request.id,
        start=booking.starts_at,
        end=booking.ends_at,
        time_zone=booking.visitor_time_zone,
        host_name=host.name,
        message=MOVED_MESSAGE if moved else BOOKED_MESSAGE,
        next_steps=steps(hour12=False),
        next_steps_12=steps(hour12=True),
        token=token,
        call_kind=booking.call_kind,
        meeting_url=booking.meeting_url,
        calendar=notices.visitor_calendar(booking, host, request),
        place=notices.place_of(booking, request).short(host.name),
    )


def book(
    booking: BookingInput,
    *,
    client_ip: str,
    now: datetime | None = None,
    attribution: Attribution | None = None,
    only_call: bool = False,
) -> BookingReceipt:
    """Book the call at `booking.start` with a free host: the quote request (owned by the
    host), the booking, the mails and reminders, in one transaction. 409 TAKEN when no
    member who takes calls is free then (or `start` is not one of the free times); 429
    over the client's limit or the address's upcoming calls. `only_call`: refused (409
    ALREADY_BOOKED) while the address has any call to come, checked with the same lock as
    the address's cap ("Book another time")."""
    now = now or datetime.now(UTC)
    company = rules()
    cap = 1 if only_call else company.upcoming_per_email
    too_many = ServiceError(409, ALREADY_BOOKED) if only_call else _too_many_upcoming(cap)
    email_key = booking.email.lower()
    token, digest = tokens.new_token()
    with session_scope(for_update=True) as session:
        hosts = hosting.for_new_call(
            session, start=booking.start, now=now, rules=company, email_key=email_key
        )
        if hosts.upcoming_for_email >= cap:
            raise too_many
        if not hosts.ranked:
            raise _taken()
        # Counted only for a call that can be booked: a visitor who picks a time taken
        # meanwhile may pick again.
        hit(Limit(get_settings().booking_limit, LIMIT_SCOPE, client_key(client_ip)))
        call = _new_call(
            booking,
            company=company,
            digest=digest,
            token=token,
            client_ip=client_ip,
            now=now,
            attribution=attribution,
        )
        limits = Limits(
            email_key=email_key,
            now=now,
            upcoming_per_email=cap,
            calls_per_day=company.calls_per_day,
            day_of=_days_of(booking.start, hosts.ranked),
        )
        try:
            placed = place_new(session, [member.member_id for member in hosts.ranked], call, limits)
        except NoHostFree:
            raise _taken() from None
        except TooManyUpcoming:
            raise too_many from None
        placed_row = session.get(Booking, placed.booking_id)
        placed_request = session.get(QuoteRequest, placed.request_id)
        assert placed_row is not None and placed_request is not None
        return _receipt(
            placed_row, _host(session, placed.host_id), placed_request, token, moved=False
        )


def _digest_of(token: str, link_digest: str | None) -> str | None:
    """The manage link's digest: given as such by a caller that never sees the token (the
    manage page, whose path is sealed before Reflex reads it), else the token's."""
    return link_digest or tokens.token_digest(token)


def _booking_by_digest(session: Session, digest: str | None, *, for_update: bool) -> Booking:
    if digest is None:
        raise ServiceError(404, LINK_INVALID)
    query = select(Booking).where(col(Booking.token_hash) == digest)
    if for_update:
        query = query.with_for_update()
    booking = session.exec(query).first()
    if booking is None:
        raise ServiceError(404, LINK_INVALID)
    return booking


def _token_of(booking: Booking) -> str:
    """The manage token, for the links in the mails a change sends."""
    try:
        return unseal(TOKEN_PURPOSE, booking.token_sealed)
    except SealBroken:
        # Sealed under another server secret: the change goes ahead, its mails say
        # nothing of a link that would not work.
        logger.warning("Booking %s: its manage token cannot be unsealed", booking.id)
        return ""


def _refusal(booking: Booking, *, now: datetime) -> str:
    """Why the call can no longer change ("" when it can)."""
    if booking.status == CANCELLED:
        return CANCELLED_NOTICE
    if not booking.active or booking.starts_at <= now:
        return PAST_NOTICE
    return ""


def _changeable(session: Session, digest: str | None, *, now: datetime) -> Booking:
    booking = _booking_by_digest(session, digest, for_update=True)
    if refusal := _refusal(booking, now=now):
        raise ServiceError(410, refusal)
    return booking


def _client_changes(client_ip: str) -> Limit:
    return Limit(
        get_settings().booking_change_client_limit, CHANGE_CLIENT_SCOPE, client_key(client_ip)
    )


def _host(session: Session, host_id: int) -> StaffMember:
    host = session.get(StaffMember, host_id)
    assert host is not None  # RESTRICT: a member with bookings is never deleted
    return host


def _hosts_for_move(
    session: Session, free: list[MemberAvailability], current_host: int, now: datetime
) -> list[int]:
    """The members free at the new time, best first, the call's own host first of all."""
    ranked = [member.member_id for member in hosting.ranked(session, free, now=now)]
    if current_host in ranked:
        ranked.remove(current_host)
        ranked.insert(0, current_host)
    return ranked


def _record_move(
    session: Session,
    booking: Booking,
    request: QuoteRequest,
    *,
    old_start: datetime,
    previous: StaffMember,
    host: StaffMember,
) -> None:
    """The request's call time, history and (when the call changed hands) owner."""
    assert request.id is not None and host.id is not None
    local, request.call_time = _company_wall_clock(booking.starts_at)
    request.call_date = local.date()
    _history(
        session,
        request.id,
        actor_name=booking.visitor_name,
        field="call",
        old=_call_text(old_start, previous.name),
        new=f"Moved: {_call_text(booking.starts_at, host.name)}",
    )
    if request.owner_id != host.id:
        _history(
            session,
            request.id,
            actor_name=booking.visitor_name,
            field="owner",
            old=_owner_name(session, request.owner_id),
            new=host.name,
        )
        request.owner_id = host.id
    session.add(request)


def reschedule(
    change: RescheduleInput,
    *,
    client_ip: str,
    link_digest: str | None = None,
    now: datetime | None = None,
) -> BookingReceipt:
    """Move the call to `change.start`: same UID, sequence + 1, the host kept when free
    then (else another free host, who then owns the request), new invitations to both,
    the old reminders cancelled and new ones scheduled. 404 LINK_INVALID, 410 for a call
    cancelled or past, 409 TAKEN when no host is free at the new time; 429 past the call's
    moves in an hour (BOOKING_CHANGE_LIMIT) or in all (BOOKING_CHANGES_MAX: MOVES_USED_UP,
    no retry time) or the client's changes (BOOKING_CHANGE_CLIENT_LIMIT). The call is
    named by `change.token` or, from a caller that has only its digest, `link_digest`."""
    now = now or datetime.now(UTC)
    company = rules()
    settings = get_settings()
    digest = _digest_of(change.token, link_digest)
    with session_scope(for_update=True) as session:
        booking = _changeable(session, digest, now=now)
        # Each move mails both sides and may hand the call to another host: without a cap
        # one link could reach every sales inbox. The sequence counts the visitor's
        # changes, and only a move leaves the call changeable.
        if booking.sequence >= settings.booking_changes_max:
            raise ServiceError(429, MOVES_USED_UP)
        token = _token_of(booking)
        booking_id = booking.id
        assert booking_id is not None
        free = hosts_free_at(
            session, start=change.start, now=now, rules=company, excluding=booking_id
        )
        if not free:
            raise _taken()
        # Taken only for a time that is free, and given back if it is taken meanwhile: a
        # visitor who picks again has not moved the call.
        counted = reserve(
            Limit(settings.booking_change_limit, CHANGE_SCOPE, booking.uid),
            _client_changes(client_ip),
        )
        previous = _host(session, booking.host_id)
        request = _request_of(session, booking)
        notices.announce_if_pending(
            session, booking=booking, host=previous, request=request, token=token
        )
        old_start, sequence = booking.starts_at, booking.sequence + 1

        def put(host_id: int) -> Booking:
            # Set afresh on every try: a refused try's savepoint rollback expires the row.
            booking.host_id = host_id
            booking.starts_at = change.start
            booking.ends_at = change.start + company.call
            booking.blocked_until = change.start + company.blocked
            booking.status = MOVED
            booking.sequence = sequence
            booking.updated_at = now
            return booking

        cap = DayCap(
            calls_per_day=company.calls_per_day,
            day_of=_days_of(change.start, free),
            moving=booking_id,
        )
        try:
            booking = place_moved(
                session, _hosts_for_move(session, free, booking.host_id, now), put, cap
            )
        except NoHostFree:
            counted.give_back()
            raise _taken() from None
        host = _host(session, booking.host_id)
        booking.meeting_url = meetings.moved_meeting_url(
            booking.meeting_url, booking.call_kind, previous, host
        )
        session.add(booking)
        _record_move(session, booking, request, old_start=old_start, previous=previous, host=host)
        session.flush()
        notices.cancel_reminders(session, booking_id=booking_id)
        notices.send_moved(
            session,
            booking=booking,
            host=host,
            previous_host=previous if previous.id != host.id else None,
            request=request,
            token=token,
        )
        notices.schedule_reminders(session, booking=booking, token=token, now=now)
        return _receipt(booking, host, request, token, moved=True)


def book_again(
    change: RescheduleInput,
    *,
    client_ip: str,
    link_digest: str | None = None,
    now: datetime | None = None,
) -> BookingReceipt:
    """After a cancel, "Book another time": a new call at `change.start` for the cancelled
    call's visitor, with the same details (their request's fields, their time zone, how
    they meet), booked as `book` books one (a new request, invitation and manage link).
    404 LINK_INVALID; 409 NOT_CANCELLED for a call still booked, ALREADY_BOOKED when the
    address has a call to come (one link must not fill a calendar), TAKEN as `book`; 429
    as `book`. The call is named as for `reschedule`."""
    now = now or datetime.now(UTC)
    digest = _digest_of(change.token, link_digest)
    with session_scope() as session:
        cancelled = _booking_by_digest(session, digest, for_update=False)
        if cancelled.status != CANCELLED:
            raise ServiceError(409, NOT_CANCELLED)
        request = _request_of(session, cancelled)
        details = BookingInput.model_validate(
            {
                **request.model_dump(
                    include={"name", "email", "company", "phone", "service", "budget"}
                    | {"timeline", "message"}
                ),
                "start": change.start,
                "time_zone": cancelled.visitor_time_zone,
                "call_kind": cancelled.call_kind,
            }
        )
    return book(details, client_ip=client_ip, now=now, only_call=True)


def _owner_name(session: Session, owner_id: int | None) -> str:
    owner = session.get(StaffMember, owner_id) if owner_id else None
    return owner.name if owner else "Unassigned"


def cancel(
    change: CancelInput | None = None,
    *,
    client_ip: str,
    link_digest: str | None = None,
    now: datetime | None = None,
) -> ManagedCall:
    """Cancel the call: its time is free again, both are sent the cancellation
    (METHOD:CANCEL) and its reminders are taken back. 404 / 410 as `reschedule`, 429 past
    the client's changes (never for the call's own moves: a cancel is its last change);
    the call named as there."""
    now = now or datetime.now(UTC)
    digest = _digest_of(change.token if change else "", link_digest)
    reason = change.reason if change else ""
    with session_scope(for_update=True) as session:
        booking = _changeable(session, digest, now=now)
        hit(_client_changes(client_ip))
        assert booking.id is not None
        host = _host(session, booking.host_id)
        request = session.get(QuoteRequest, booking.quote_request_id)
        assert request is not None and request.id is not None
        notices.announce_if_pending(
            session, booking=booking, host=host, request=request, token=_token_of(booking)
        )
        booking.status = CANCELLED
        booking.active = False
        booking.sequence += 1
        booking.updated_at = now
        session.add(booking)
        _history(
            session,
            request.id,
            actor_name=booking.visitor_name,
            field="call",
            old=_call_text(booking.starts_at, host.name),
            new=f"Cancelled by the visitor: {reason}" if reason else "Cancelled by the visitor",
        )
        session.flush()
        notices.cancel_reminders(session, booking_id=booking.id)
        notices.send_cancelled(
            session,
            booking=booking,
            host=host,
            request=request,
            token=_token_of(booking),
            reason=reason,
        )
        return _managed(session, booking, host, now=now)


def _request_of(session: Session, booking: Booking) -> QuoteRequest:
    request = session.get(QuoteRequest, booking.quote_request_id)
    assert request is not None
    return request


def _place(session: Session, booking: Booking) -> wording.Place:
    return notices.place_of(booking, _request_of(session, booking))


def _managed(
    session: Session, booking: Booking, host: StaffMember, *, now: datetime
) -> ManagedCall:
    refusal = _refusal(booking, now=now)
    place = _place(session, booking)
    return ManagedCall(
        start=booking.starts_at,
        end=booking.ends_at,
        time_zone=booking.visitor_time_zone,
        host_name=host.name,
        status=booking.status,
        can_change=not refusal,
        notice=refusal,
        place=place.short(host.name),
        # A cancelled or past call has no room to join.
        meeting_url="" if refusal else place.meeting_url,
        # Only a call still to come goes into a calendar.
        calendar=None
        if refusal
        else notices.visitor_calendar(booking, host, _request_of(session, booking)),
        can_book_again=booking.status == CANCELLED,
    )


def managed_call(
    *, token: str = "", link_digest: str | None = None, now: datetime | None = None
) -> ManagedCall:
    """The call the manage link names (its token, or its digest), or 404 LINK_INVALID."""
    now = now or datetime.now(UTC)
    with session_scope() as session:
        booking = _booking_by_digest(session, _digest_of(token, link_digest), for_update=False)
        return _managed(session, booking, _host(session, booking.host_id), now=now)


def slots_to_move_to(
    query: SlotQuery, *, link_digest: str | None, now: datetime | None = None
) -> SlotList:
    """The times the manage link's call can move to: the free times as if the call were
    not booked (so times over or next to it are offered), less the time it has now.
    404 LINK_INVALID, 410 for a call cancelled or past."""
    now = now or datetime.now(UTC)
    with session_scope() as session:
        booking = _booking_by_digest(session, link_digest, for_update=False)
        if refusal := _refusal(booking, now=now):
            raise ServiceError(410, refusal)
        booking_id, current = booking.id, booking.starts_at
    found = free_slots(query, now=now, excluding=booking_id)
    return replace(found, slots=tuple(slot for slot in found.slots if slot.start != current))


def calls_for_export(session: Session, *, email: str, now: datetime) -> list[dict[str, Any]]:
    """Every call booked under the address (a customer's data export), oldest first: the
    times, the host, where it happens and, while it can still change, its manage link."""
    rows = session.exec(
        select(Booking, StaffMember)
        .join(StaffMember, col(StaffMember.id) == col(Booking.host_id))
        .where(col(Booking.email_key) == email.strip().lower())
        .order_by(col(Booking.starts_at), col(Booking.id))
    ).all()
    calls = []
    for booking, host in rows:
        place = _place(session, booking)
        token = _token_of(booking) if booking.active and booking.starts_at > now else ""
        calls.append(
            {
                "start": utc_text(booking.starts_at),
                "end": utc_text(booking.ends_at),
                "timeZone": booking.visitor_time_zone,
                "host": host.name,
                "status": booking.status,
                "callKind": booking.call_kind,
                "meetingUrl": place.meeting_url or None,
                "manageUrl": manage_url(token) if token else None,
                "bookedAt": utc_text(booking.created_at),
            }
        )
    return calls


def upcoming_for_email(*, email: str, now: datetime | None = None) -> tuple[UpcomingCall, ...]:
    """The address's active calls to come, soonest first, with their manage links (for
    My account: the caller makes sure the address is the customer's, verified)."""
    now = now or datetime.now(UTC)
    with session_scope() as session:
        rows = session.exec(
            select(Booking, StaffMember)
            .join(StaffMember, col(StaffMember.id) == col(Booking.host_id))
            .where(
                col(Booking.email_key) == email.strip().lower(),
                col(Booking.active).is_(True),
                col(Booking.starts_at) > now,
            )
            .order_by(col(Booking.starts_at), col(Booking.id))
        ).all()
        calls = []
        for booking, host in rows:
            if not (token := _token_of(booking)):
                continue
            assert booking.id is not None
            place = _place(session, booking)
            calls.append(
                UpcomingCall(
                    booking_id=booking.id,
                    start=booking.starts_at,
                    end=booking.ends_at,
                    time_zone=booking.visitor_time_zone,
                    host_name=host.name,
                    status=booking.status,
                    manage_url=manage_url(token),
                    place=place.short(host.name),
                    meeting_url=place.meeting_url,
                )
            )
        return tuple(calls)
