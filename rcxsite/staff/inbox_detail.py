"""One quote request as the staff page shows it: every field, the call slot in the
company's and the member's time zone, the booked call, the customer it belongs to, notes
and history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session, col, select

from rcxsite.booking import wording
from rcxsite.booking.outcomes import CallView, call_of_request, may_mark
from rcxsite.content.quote import (
    BUDGETS,
    CALL_TIMEZONE,
    SERVICE_CHOICES,
    TIMELINES,
    label_of,
)
from rcxsite.core.attribution import source_text
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.leads.notification import call_slot
from rcxsite.leads.statuses import STATUS_LABELS
from rcxsite.leads.validation import NO_CALL
from rcxsite.models import Customer, QuoteChange, QuoteNote, QuoteRequest, StaffMember
from rcxsite.platform.db import session_scope

NO_QUOTE = "This quote request does not exist."


@dataclass(frozen=True, slots=True)
class NoteView:
    id: int
    author_name: str
    created_at: datetime
    body: str


@dataclass(frozen=True, slots=True)
class ChangeView:
    """One history line: `field` is "status", "owner" or "call", values as people read
    them ("" old value: there was none, as for a call just booked)."""

    id: int
    actor_name: str
    created_at: datetime
    field: str
    old_value: str
    new_value: str


@dataclass(frozen=True, slots=True)
class CallDetail:
    """The call the visitor booked, if they did."""

    # "Monday 29 March 2027 at 09:00–09:30 (Europe/Berlin)": on the member's own clock.
    when: str
    # The start on the visitor's clock, their zone named.
    visitor_time: str
    visitor_time_zone: str
    host_id: int
    host_name: str
    status: str
    status_label: str
    # Its time has come and it was not cancelled: "Held" and "No-show" apply.
    can_mark: bool


@dataclass(frozen=True, slots=True)
class QuoteDetail:
    id: int
    received: datetime
    mailed_at: datetime | None
    name: str
    email: str
    company: str
    phone: str
    service: str
    service_label: str
    budget: str
    budget_label: str
    timeline: str
    timeline_label: str
    message: str
    # None for a request sent without a call.
    call_date: date | None
    call_time: str
    # The slot as the visitor chose it ("Tuesday, 5 January 2027 at 10:00 UK time"), and
    # the same moment in the member's own zone (equal when theirs is unknown or the same).
    call_company: str
    call_member: str
    member_time_zone: str
    # The customer account with this email address, if its owner proved the address is
    # theirs (rcxsite.accounts.verification); None otherwise.
    customer_id: int | None
    status: str
    status_label: str
    lost_reason: str
    owner_id: int | None
    # Where the visitor came from (rcxsite/analytics): "" when it was not recorded.
    source: str
    campaign: str
    landing_page: str
    owner_name: str
    notes: Sequence[NoteView]
    history: Sequence[ChangeView]
    # None for a request whose time was only a preference (no booking).
    call: CallDetail | None


def quote_or_404(session: Session, quote_id: int, *, for_update: bool = False) -> QuoteRequest:
    """The request, or ServiceError 404; `for_update` locks its row (PostgreSQL) so two
    members changing it at once write a history that follows one another."""
    quote = session.get(QuoteRequest, quote_id, with_for_update=for_update)
    if quote is None:
        raise ServiceError(404, NO_QUOTE)
    return quote


def _zone(name: str) -> ZoneInfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _clock(call_time: str) -> tuple[int, int] | None:
    """Hours and minutes of a stored "HH:MM", None when there is no valid time."""
    try:
        parsed = datetime.strptime(call_time, "%H:%M")
    except ValueError:
        return None
    return parsed.hour, parsed.minute


def preferred_start(call_date: date | None, call_time: str) -> datetime | None:
    """The slot as a moment (chosen on the company's clock); None when it has no time."""
    clock = _clock(call_time)
    if call_date is None or clock is None:
        return None
    return datetime(
        call_date.year, call_date.month, call_date.day, *clock, tzinfo=ZoneInfo(CALL_TIMEZONE)
    )


def call_in_company_zone(call_date: date | None, call_time: str) -> str:
    """The slot as the visitor chose it; a bot-trapped form may have no valid time."""
    if call_date is None:
        return NO_CALL
    if _clock(call_time) is None:
        return f"{call_date:%A}, {call_date.day} {call_date:%B %Y} (no time given)"
    return call_slot(call_date, call_time)


def call_in_member_zone(call_date: date | None, call_time: str, zone_name: str) -> tuple[str, str]:
    """The slot in the member's zone and that zone's name; the company's wording and zone
    when the member's zone is unknown or the company's own, or the slot has no time."""
    zone = _zone(zone_name)
    start = preferred_start(call_date, call_time)
    if zone is None or zone_name == CALL_TIMEZONE or start is None:
        return call_in_company_zone(call_date, call_time), CALL_TIMEZONE
    moment = start.astimezone(zone)
    return f"{moment:%A}, {moment.day} {moment:%B %Y} at {moment:%H:%M} ({zone_name})", zone_name


def call_detail(call: CallView, *, member_time_zone: str, now: datetime) -> CallDetail:
    return CallDetail(
        when=wording.long_time(call.start, call.end, member_time_zone),
        visitor_time=wording.short_time(call.start, call.visitor_time_zone),
        visitor_time_zone=wording.zone_name(call.visitor_time_zone),
        host_id=call.host_id,
        host_name=call.host_name,
        status=call.status,
        status_label=call.status_label,
        can_mark=may_mark(call, now=now),
    )


def verified_customer(session: Session, email: str) -> Customer | None:
    """The customer account with this email address, if its owner proved the address is
    theirs. Registration proves nothing: an account made with someone else's address must
    not be taken for the sender of their requests."""
    return session.exec(
        select(Customer).where(
            col(Customer.email_key) == email.strip().lower(),
            col(Customer.email_verified_at).is_not(None),
        )
    ).first()


def _notes(session: Session, quote_id: int) -> list[NoteView]:
    notes = session.exec(
        select(QuoteNote)
        .where(col(QuoteNote.quote_request_id) == quote_id)
        .order_by(col(QuoteNote.created_at), col(QuoteNote.id))
    ).all()
    return [
        NoteView(
            id=note.id, author_name=note.author_name, created_at=note.created_at, body=note.body
        )
        for note in notes
        if note.id is not None
    ]


def _history(session: Session, quote_id: int) -> list[ChangeView]:
    changes = session.exec(
        select(QuoteChange)
        .where(col(QuoteChange.quote_request_id) == quote_id)
        .order_by(col(QuoteChange.created_at), col(QuoteChange.id))
    ).all()
    return [
        ChangeView(
            id=change.id,
            actor_name=change.actor_name,
            created_at=change.created_at,
            field=change.field,
            old_value=change.old_value,
            new_value=change.new_value,
        )
        for change in changes
        if change.id is not None
    ]


def quote_detail(
    *, actor: StaffActor | None, quote_id: int, now: datetime | None = None
) -> QuoteDetail:
    """Everything the quote page shows, or ServiceError 404 for an unknown id."""
    member = require(actor, Permission.READ_QUOTES)
    now = now or datetime.now(UTC)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id)
        assert quote.id is not None
        call = call_of_request(session, quote_request_id=quote.id)
        owner = session.get(StaffMember, quote.owner_id) if quote.owner_id else None
        call_member, zone_name = call_in_member_zone(
            quote.call_date, quote.call_time, member.time_zone
        )
        customer = verified_customer(session, quote.email)
        return QuoteDetail(
            id=quote.id,
            received=quote.created_at,
            mailed_at=quote.mailed_at,
            name=quote.name,
            email=quote.email,
            company=quote.company,
            phone=quote.phone,
            service=quote.service,
            service_label=label_of(SERVICE_CHOICES, quote.service),
            budget=quote.budget,
            budget_label=label_of(BUDGETS, quote.budget),
            timeline=quote.timeline,
            timeline_label=label_of(TIMELINES, quote.timeline),
            message=quote.message,
            call_date=quote.call_date,
            call_time=quote.call_time,
            call_company=call_in_company_zone(quote.call_date, quote.call_time),
            call_member=call_member,
            member_time_zone=zone_name,
            customer_id=customer.id if customer else None,
            status=quote.status,
            status_label=STATUS_LABELS.get(quote.status, quote.status),
            lost_reason=quote.lost_reason,
            owner_id=quote.owner_id,
            source=source_text(quote),
            campaign=quote.campaign,
            landing_page=quote.landing_page,
            owner_name=owner.name if owner else "",
            notes=_notes(session, quote.id),
            history=_history(session, quote.id),
            call=(
                call_detail(call, member_time_zone=member.time_zone, now=now)
                if call is not None
                else None
            ),
        )
