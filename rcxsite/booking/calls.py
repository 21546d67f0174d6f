"""The staff side of booked calls: "My calls" (the calls to come, by day) and each member's
private calendar feed.

The feed is an .ics subscription URL with a secret token (only its SHA-256 is stored, as
`StaffMember.calendar_feed_hash`), so Google, Outlook or Apple calendars show the calls
without signing in; "Regenerate" makes a new token, and the old URL stops working at
once. It is served only while its member is enabled and their role takes calls, and it
ends for good (`end_feed`) when the member is disabled, demoted to a role without calls or
has their sign-in reset. The feed carries what the member needs for the call (who, when,
the request's staff link) and never the visitor's manage link.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event
from icalendar.enums import STATUS
from sqlmodel import col, select

from rcxsite.booking.availability import member_zone
from rcxsite.booking.hours import NO_MEMBER, may_edit
from rcxsite.booking.rules import COMPANY_TIME_ZONE
from rcxsite.core import audit, paths, tokens
from rcxsite.core.permissions import GRANTS, Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Booking, QuoteRequest, StaffMember
from rcxsite.models.booking import MOVED
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

# "My calls" lists this far ahead; the feed holds calls this far back and ahead.
UPCOMING = timedelta(days=60)
FEED_PAST = timedelta(days=30)
FEED_AHEAD = timedelta(days=60)
FEED_PATH = paths.STAFF_CALENDAR_FEED
FEED_SUFFIX = ".ics"
FEED_PRODID = "-//RCX//Calls feed//EN"
# How often a calendar should fetch the feed again (calendars that honour it).
FEED_REFRESH = timedelta(minutes=15)
STATUS_LABELS = {MOVED: "Moved"}


@dataclass(frozen=True, slots=True)
class CallRow:
    booking_id: int
    quote_request_id: int
    start: datetime  # UTC
    end: datetime
    time: str  # "09:00–09:30" on the reader's clock
    visitor_name: str
    company: str
    host_id: int
    host_name: str
    status: str  # "Booked" or "Moved"
    staff_path: str  # the request's page in the staff office


@dataclass(frozen=True, slots=True)
class CallDay:
    day: date
    label: str  # "Monday 29 March 2027"
    calls: tuple[CallRow, ...]


@dataclass(frozen=True, slots=True)
class UpcomingCalls:
    time_zone: str  # the reader's: the days and times are on this clock
    member_id: int | None  # whose calls (None: every member's, for an admin)
    days: tuple[CallDay, ...]
    # Whether the reader has a calendar feed (its URL is shown only when made).
    has_feed: bool

    @property
    def total(self) -> int:
        return sum(len(day.calls) for day in self.days)


def _day_label(day: date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def _row(booking: Booking, company: str, host_name: str, zone: ZoneInfo) -> CallRow:
    assert booking.id is not None
    start, end = booking.starts_at.astimezone(zone), booking.ends_at.astimezone(zone)
    return CallRow(
        booking_id=booking.id,
        quote_request_id=booking.quote_request_id,
        start=booking.starts_at,
        end=booking.ends_at,
        time=f"{start:%H:%M}–{end:%H:%M}",
        visitor_name=booking.visitor_name,
        company=company,
        host_id=booking.host_id,
        host_name=host_name,
        status=STATUS_LABELS.get(booking.status, "Booked"),
        staff_path=paths.staff_quote_path(booking.quote_request_id),
    )


def upcoming_calls(
    *, actor: StaffActor | None, member_id: int | None = None, now: datetime | None = None
) -> UpcomingCalls:
    """The active calls from now to 60 days ahead (a call under way included), grouped by
    day on the reader's clock: the actor's own, or for an admin every member's (or
    `member_id`'s). A member who is not an admin may name only themselves."""
    actor = require(actor, Permission.TAKE_CALLS)
    if actor.role != "admin":
        may_edit(actor, actor.member_id if member_id is None else member_id)
        member_id = actor.member_id
    now = now or datetime.now(UTC)
    with session_scope() as session:
        reader = session.get(StaffMember, actor.member_id)
        zone_name = member_zone(reader) if reader is not None else COMPANY_TIME_ZONE
        query = (
            select(Booking, QuoteRequest.company, StaffMember.name)
            .join(QuoteRequest, col(QuoteRequest.id) == col(Booking.quote_request_id))
            .join(StaffMember, col(StaffMember.id) == col(Booking.host_id))
            .where(
                col(Booking.active).is_(True),
                col(Booking.ends_at) > now,
                col(Booking.starts_at) < now + UPCOMING,
            )
            .order_by(col(Booking.starts_at), col(Booking.id))
        )
        if member_id is not None:
            query = query.where(Booking.host_id == member_id)
        has_feed = bool(reader and reader.calendar_feed_hash)
        zone = ZoneInfo(zone_name)
        by_day: dict[date, list[CallRow]] = defaultdict(list)
        for booking, company, host_name in session.exec(query):
            row = _row(booking, company, host_name, zone)
            by_day[row.start.astimezone(zone).date()].append(row)
    return UpcomingCalls(
        time_zone=zone_name,
        member_id=member_id,
        days=tuple(
            CallDay(day=day, label=_day_label(day), calls=tuple(calls))
            for day, calls in sorted(by_day.items())
        ),
        has_feed=has_feed,
    )


def feed_url(token: str) -> str:
    """SITE_URL/staff/calendar/<token>.ics"""
    return f"{get_settings().site_url}{FEED_PATH}/{token}{FEED_SUFFIX}"


def regenerate_feed(*, actor: StaffActor | None) -> str:
    """A new secret URL of the actor's calendar feed; the previous one stops working."""
    actor = require(actor, Permission.TAKE_CALLS)
    token, digest = tokens.new_token()
    with session_scope() as session:
        member = session.get(StaffMember, actor.member_id)
        if member is None:
            raise ServiceError(404, NO_MEMBER)
        replaced = bool(member.calendar_feed_hash)
        member.calendar_feed_hash = digest
        session.add(member)
        audit.record(
            session,
            action="calendar_feed_regenerated" if replaced else "calendar_feed_created",
            actor=actor,
            target=f"member {member.email}",
        )
    return feed_url(token)


def end_feed(member: StaffMember) -> None:
    """In the caller's transaction: the member's feed URL stops working for good, for a
    member who loses the calls or their sign-in. `feed_ics` already refuses it while they
    lack the calls, but the URL may have got out (that can be why they lost them): it must
    not start working again when they get them back. They make a new one on My calls."""
    member.calendar_feed_hash = ""


def _event(booking: Booking, company: str, site_url: str) -> Event:
    link = site_url + paths.staff_quote_path(booking.quote_request_id)
    return Event.new(
        uid=booking.uid,
        sequence=booking.sequence,
        stamp=booking.updated_at.astimezone(UTC),
        start=booking.starts_at.astimezone(UTC),
        end=booking.ends_at.astimezone(UTC),
        summary=f"Call: {booking.visitor_name} ({company})",
        description=(
            f"Call with {booking.visitor_name} ({company}, {booking.visitor_email}).\n\n"
            f"Quote request #{booking.quote_request_id}: {link}"
        ),
        url=link,
        status=STATUS.CONFIRMED,
    )


def feed_ics(token: str, *, now: datetime | None = None) -> str | None:
    """The member's calls from 30 days ago to 60 days ahead as an iCalendar feed; None for
    a token that names no feed, or the feed of a member who is disabled or whose role
    takes no calls."""
    digest = tokens.token_digest(token)
    if digest is None:
        return None
    now = now or datetime.now(UTC)
    settings = get_settings()
    with session_scope() as session:
        member = session.exec(
            select(StaffMember).where(
                StaffMember.calendar_feed_hash == digest,
                col(StaffMember.disabled_at).is_(None),
                col(StaffMember.role).in_(GRANTS[Permission.TAKE_CALLS]),
            )
        ).first()
        if member is None:
            return None
        rows = session.exec(
            select(Booking, QuoteRequest.company)
            .join(QuoteRequest, col(QuoteRequest.id) == col(Booking.quote_request_id))
            .where(
                Booking.host_id == member.id,
                col(Booking.active).is_(True),
                col(Booking.starts_at) >= now - FEED_PAST,
                col(Booking.starts_at) < now + FEED_AHEAD,
            )
            .order_by(col(Booking.starts_at), col(Booking.id))
        ).all()
        events = [_event(booking, company, settings.site_url) for booking, company in rows]
    calendar = Calendar.new(
        prodid=FEED_PRODID,
        name=f"{settings.company_name} calls",
        refresh_interval=FEED_REFRESH,
        subcomponents=events,
    )
    # A feed is a calendar, not an iTIP message: no METHOD; and the same calls give the
    # same text (no random calendar UID).
    calendar.pop("UID", None)
    # Outlook reads its refresh hint from this older property.
    calendar.add("X-PUBLISHED-TTL", FEED_REFRESH)
    ics: bytes = calendar.to_ical()
    return ics.decode("utf-8")


__all__ = [
    "FEED_PATH",
    "FEED_SUFFIX",
    "CallDay",
    "CallRow",
    "UpcomingCalls",
    "end_feed",
    "feed_ics",
    "feed_url",
    "regenerate_feed",
    "upcoming_calls",
]
