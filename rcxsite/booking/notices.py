"""The mails a booked call sends, with their invitations, and its reminders.

Every function takes the caller's session: the mails and reminder jobs are rows written
in the booking's own transaction, so they exist exactly when the change that causes them
does (rcxsite/jobs). The visitor's invitation is on their wall clock, the host's on
theirs; both carry the booking's UID and sequence, so a calendar keeps one entry per call.

Reminders are jobs of kind "booking-reminder" due `hours` before the call
(BOOKING_REMINDER_HOURS), about f"booking:{id}" so that `cancel_reminders` takes them
back. A due reminder looks at the booking again and sends nothing for a call that was
cancelled, moved since (its sequence differs) or has begun.

A new booking's mails and reminders are written by a job of kind "booking-booked" that
the booking queues in its transaction: two invitations cost more to compose than the rest
of a booking, and a visitor waits for the booking, not for its mail. Moves and cancels
write theirs at once (a moved call's mail must not overtake its booked one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import formataddr
from typing import Any

from sqlmodel import Session, col, select

from rcxsite import jobs
from rcxsite.booking import wording
from rcxsite.booking.calendar_links import CalendarEntry, google_link, outlook_link
from rcxsite.booking.calendars.copy_jobs import plan_copies
from rcxsite.booking.invitation import CallInvite, Method, invitation_ics
from rcxsite.booking.links import manage_url
from rcxsite.booking.rules import rules
from rcxsite.jobs.queue import DONE, QUEUED
from rcxsite.leads.notification import QUOTE_MAILED, staff_link
from rcxsite.mail import composes_mail, send_mail
from rcxsite.models import Booking, Customer, Job, QuoteRequest, StaffMember
from rcxsite.models.types import utcnow
from rcxsite.platform.at_rest import unseal
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

REMINDER = "booking-reminder"
BOOKED = "booking-booked"
# The at-rest purpose of Booking.token_sealed (rcxsite/platform/at_rest.py).
TOKEN_PURPOSE = "booking-token"


def reminder_ref(booking_id: int) -> str:
    """What a booking's reminders (and reminder mails still queued) are about."""
    return f"booking:{booking_id}"


def _visitor_name(session: Session, booking: Booking) -> str:
    """Whom the visitor's mails greet and their invitation names: the account's name of a
    customer who proved the address is theirs, else no one (""). A booking needs no
    account, so the name typed with it is a stranger's words until then, and must not
    reach someone else's inbox or calendar as ours (as the registration's verification
    mail, rcxsite.mail.messages)."""
    name = session.exec(
        select(Customer.user_name).where(
            col(Customer.email_key) == booking.email_key,
            col(Customer.email_verified_at).is_not(None),
        )
    ).first()
    return name or ""


def _host_for_visitor(host: StaffMember) -> tuple[str, str]:
    """The host as the visitor sees them, (name, address): the company's calls address
    (CALLS_EMAIL), never the host's own, which is their staff sign-in; a reply reaches
    the team, who pass it on."""
    return host.name, get_settings().calls_address


def place_of(booking: Booking, request: QuoteRequest) -> wording.Place:
    """Where the call happens, as the mails, invitations and pages say it."""
    return wording.Place(
        kind=booking.call_kind, meeting_url=booking.meeting_url, phone=request.phone
    )


@dataclass(frozen=True, slots=True)
class VisitorCalendar:
    """The call for the visitor's own calendar: template links and the .ics text."""

    google: str
    outlook: str
    ics: str


def visitor_calendar(booking: Booking, host: StaffMember, request: QuoteRequest) -> VisitorCalendar:
    """What the thank-you view and the manage page offer; no manage link in any of it (see
    rcxsite/booking/calendar_links.py)."""
    place = place_of(booking, request)
    details = f"Your call with {get_settings().company_name}. {place.for_visitor(host.name)}"
    entry = CalendarEntry(
        title=_summary_for_visitor(host),
        start=booking.starts_at,
        end=booking.ends_at,
        details=details,
        location=place.location,
    )
    invite = CallInvite(
        uid=booking.uid,
        sequence=booking.sequence,
        start=booking.starts_at,
        end=booking.ends_at,
        time_zone=wording.zone_name(booking.visitor_time_zone),
        summary=entry.title,
        description=details,
        location=place.location,
        manage_url=place.meeting_url,
        organizer_name=host.name,
        organizer_email=get_settings().calls_address,
        attendee_name="",
        attendee_email=booking.visitor_email,
        stamp=utcnow(),
    )
    return VisitorCalendar(
        google=google_link(entry),
        outlook=outlook_link(entry),
        ics=invitation_ics(invite, method="PUBLISH"),
    )


def _summary_for_visitor(host: StaffMember) -> str:
    return f"Call with {get_settings().company_name} ({host.name})"


def _summary_for_host(booking: Booking, request: QuoteRequest) -> str:
    return f"Call with {booking.visitor_name}, {request.company}"


def _invite(
    booking: Booking,
    *,
    organizer: tuple[str, str],
    attendee_name: str,
    time_zone: str,
    summary: str,
    description: str,
    url: str,
    place: wording.Place,
) -> CallInvite:
    return CallInvite(
        uid=booking.uid,
        sequence=booking.sequence,
        start=booking.starts_at,
        end=booking.ends_at,
        time_zone=wording.zone_name(time_zone),
        summary=summary,
        description=description,
        # A video call's link is where it happens and what opening the entry joins.
        location=place.location,
        manage_url=place.meeting_url or url,
        organizer_name=organizer[0],
        organizer_email=organizer[1],
        attendee_name=attendee_name,
        attendee_email=booking.visitor_email,
        stamp=utcnow(),
    )


def _host_view(booking: Booking, host: StaffMember, request: QuoteRequest) -> dict[str, Any]:
    """The invitation's fields as its host's mail and calendar copy show the call."""
    link = staff_link(request.id or 0)
    place = place_of(booking, request)
    return {
        "organizer": (host.name, host.email),
        "attendee_name": booking.visitor_name,
        "time_zone": host.time_zone,
        "summary": _summary_for_host(booking, request),
        "description": wording.host_invite_description(
            booking, request, staff_link=link, place=place
        ),
        "url": link,
        "place": place,
    }


def host_copy_ics(booking: Booking, host: StaffMember, request: QuoteRequest) -> str:
    """The call as an event object for the host's own CalDAV calendar: the invitation the
    host is mailed, without the iTIP METHOD (a stored object carries none)."""
    ics = invitation_ics(_invite(booking, **_host_view(booking, host, request)), method="PUBLISH")
    return ics.replace("METHOD:PUBLISH\r\n", "")


def _send_invitation(
    session: Session,
    words: wording.Words,
    invite: CallInvite,
    *,
    to: str,
    reply_to: tuple[str, str],
    method: Method,
    **delivery: Any,
) -> None:
    """`words` mailed to `to` with the call as a calendar invitation (`method`: REQUEST
    for a new or moved call, CANCEL); replies go to `reply_to` (name, address), the other
    side of the call. `delivery`: `send_mail`'s order and reference."""
    send_mail(
        session=session,
        to=to,
        subject=words.subject,
        text=words.text,
        reply_to=formataddr(reply_to),
        calendar=(method, invitation_ics(invite, method=method)),
        **delivery,
    )


def _to_visitor(
    session: Session,
    booking: Booking,
    host: StaffMember,
    words: wording.Words,
    *,
    name: str,
    method: Method,
    link: str,
    place: wording.Place,
    ref: str = "",
) -> None:
    """The visitor's invitation: on their clock, organized by the host; `name` "" names
    the visitor by address only."""
    invite = _invite(
        booking,
        organizer=_host_for_visitor(host),
        attendee_name=name,
        time_zone=booking.visitor_time_zone,
        summary=_summary_for_visitor(host),
        description=wording.visitor_invite_description(host, link=link, place=place),
        url=link,
        place=place,
    )
    _send_invitation(
        session,
        words,
        invite,
        to=booking.visitor_email,
        reply_to=_host_for_visitor(host),
        method=method,
        ref=ref,
    )


def _to_host(
    session: Session,
    booking: Booking,
    host: StaffMember,
    request: QuoteRequest,
    words: wording.Words,
    *,
    method: Method,
    after: str = "",
    ref: str = "",
) -> None:
    _send_invitation(
        session,
        words,
        _invite(booking, **_host_view(booking, host, request)),
        to=host.email,
        reply_to=(booking.visitor_name, booking.visitor_email),
        method=method,
        after=after,
        after_ref=request.id or 0,
        ref=ref,
    )


def send_booked(
    session: Session,
    *,
    booking: Booking,
    host: StaffMember,
    request: QuoteRequest,
    token: str,
) -> None:
    """The invitation (METHOD:REQUEST) to the visitor, with the manage link, and to the host;
    about `booked_ref`, which says from then on that they were sent."""
    link = manage_url(token)
    ref = booked_ref(booking.id or 0)
    name = _visitor_name(session, booking)
    place = place_of(booking, request)
    _to_visitor(
        session,
        booking,
        host,
        wording.visitor_booked(booking, host, name=name, link=link, place=place),
        name=name,
        method="REQUEST",
        link=link,
        place=place,
        ref=ref,
    )
    words = wording.host_booked(
        booking, host, request, staff_link=staff_link(request.id or 0), place=place
    )
    # The host is the request's salesperson: their mail is the request's mail to sales.
    _to_host(session, booking, host, request, words, method="REQUEST", after=QUOTE_MAILED, ref=ref)
    plan_copies(session, booking_id=booking.id or 0)


def booked_ref(booking_id: int) -> str:
    """What a booking's first invitations are about: once queued, the booking is announced."""
    return f"booked:{booking_id}"


def _announced(session: Session, booking_id: int) -> bool:
    found = session.exec(select(Job.id).where(col(Job.ref) == booked_ref(booking_id)).limit(1))
    return found.first() is not None


def announce_if_pending(
    session: Session, *, booking: Booking, host: StaffMember, request: QuoteRequest, token: str
) -> None:
    """Before a move or a cancel (the booking locked, not yet changed): the booked mails if
    the booking's job has not sent them, so the visitor and the host get every mail of the
    call, in order, and sales the request's message. The job then finds them and sends
    nothing."""
    if not _announced(session, booking.id or 0):
        send_booked(session, booking=booking, host=host, request=request, token=token)


def send_moved(
    session: Session,
    *,
    booking: Booking,
    host: StaffMember,
    previous_host: StaffMember | None,
    request: QuoteRequest,
    token: str,
) -> None:
    """The updated invitation (same UID, the booking's new sequence) to the visitor and the
    host; a host who no longer has the call gets a METHOD:CANCEL that removes it."""
    link = manage_url(token)
    handed_over = previous_host is not None and previous_host.id != host.id
    name = _visitor_name(session, booking)
    place = place_of(booking, request)
    words = wording.visitor_moved(
        booking,
        host,
        name=name,
        previous_host=previous_host if handed_over else None,
        link=link,
        place=place,
    )
    _to_visitor(session, booking, host, words, name=name, method="REQUEST", link=link, place=place)
    inbox = staff_link(request.id or 0)
    words = wording.host_moved(
        booking, host, request, staff_link=inbox, taken_over=handed_over, place=place
    )
    _to_host(session, booking, host, request, words, method="REQUEST")
    if previous_host is not None and handed_over:
        words = wording.previous_host_moved(booking, previous_host, host, request, staff_link=inbox)
        _to_host(session, booking, previous_host, request, words, method="CANCEL")
    plan_copies(session, booking_id=booking.id or 0)


def send_cancelled(
    session: Session,
    *,
    booking: Booking,
    host: StaffMember,
    request: QuoteRequest,
    token: str,
    reason: str = "",
) -> None:
    """METHOD:CANCEL (STATUS:CANCELLED, the booking's new sequence) to the visitor and the
    host, who also reads the visitor's `reason`."""
    name = _visitor_name(session, booking)
    _to_visitor(
        session,
        booking,
        host,
        wording.visitor_cancelled(booking, host, name=name, link=manage_url(token)),
        name=name,
        method="CANCEL",
        link=manage_url(token),
        place=place_of(booking, request),
    )
    words = wording.host_cancelled(
        booking, host, request, staff_link=staff_link(request.id or 0), reason=reason
    )
    _to_host(session, booking, host, request, words, method="CANCEL")
    plan_copies(session, booking_id=booking.id or 0)


def announcement(*, uid: str, now: datetime) -> Job:
    """The job (a row not yet written) that sends a new booking's invitations and plans
    its reminders; the booking is named by its UID, which is known before it is written."""
    return jobs.new(kind=BOOKED, payload={"uid": uid, "sequence": 0, "booked_at": now.isoformat()})


def send_announcement(*, uid: str, sequence: int, booked_at: datetime) -> bool:
    """The booked job's work: the invitations and the reminders; whether sent. Nothing
    when they were sent already: by a move or cancel that came first (which sent them
    before its own), or by a run of this job whose runner died before marking it done.
    Reminders already due when the job runs (runners held up for hours) are not planned,
    as at booking time."""
    with session_scope(for_update=True) as session:
        # Locked, so a move or cancel of the call waits for these mails, never overtakes.
        booking = session.exec(
            select(Booking).where(col(Booking.uid) == uid).with_for_update()
        ).first()
        if booking is None or booking.id is None or _announced(session, booking.id):
            return False
        if not booking.active or booking.sequence != sequence:
            return False  # moved or cancelled, which announced it first
        host = session.get(StaffMember, booking.host_id)
        request = session.get(QuoteRequest, booking.quote_request_id)
        if host is None or request is None:
            return False
        token = unseal(TOKEN_PURPOSE, booking.token_sealed)
        send_booked(session, booking=booking, host=host, request=request, token=token)
        schedule_reminders(session, booking=booking, token=token, now=max(booked_at, utcnow()))
        return True


@jobs.handler(BOOKED)
@composes_mail(BOOKED)
def _announce(payload: dict[str, Any]) -> None:
    send_announcement(
        uid=str(payload["uid"]),
        sequence=int(payload["sequence"]),
        booked_at=datetime.fromisoformat(str(payload["booked_at"])),
    )


def schedule_reminders(session: Session, *, booking: Booking, token: str, now: datetime) -> None:
    """A reminder job per BOOKING_REMINDER_HOURS, due that long before the call; none whose
    time has already passed at `now`. The payload holds no secret (`token` is not in it:
    the reminder reads the sealed one from the booking when it is due)."""
    if booking.id is None:
        session.flush()
    booking_id = int(booking.id or 0)
    for hours in rules().reminder_hours:
        due = booking.starts_at - timedelta(hours=hours)
        if due <= now:
            continue
        jobs.add(
            session,
            kind=REMINDER,
            payload={"booking_id": booking_id, "sequence": booking.sequence, "hours": hours},
            due_at=due,
            ref=reminder_ref(booking_id),
        )


def cancel_reminders(session: Session, *, booking_id: int) -> None:
    """Take back the booking's queued reminders (and reminder mails not yet delivered)."""
    jobs.cancel(session, ref=reminder_ref(booking_id))


def send_reminder(*, booking_id: int, sequence: int, hours: float, now: datetime) -> bool:
    """Queue the reminder mail of a due reminder job; whether one was queued. Nothing for
    a call no longer active, moved since the reminder was planned (its sequence differs)
    or already begun, nor for a reminder held up (runners down) past the time of the next
    one, which says it better: one mail, not two in a row."""
    with session_scope(for_update=True) as session:
        # Locked, so a reschedule or cancel of this call waits for this reminder or wins
        # before it is read (and then takes back the mail this queued, if still queued).
        booking = session.exec(
            select(Booking).where(col(Booking.id) == booking_id).with_for_update()
        ).first()
        if (
            booking is None
            or not booking.active
            or booking.sequence != sequence
            or booking.starts_at <= now
        ):
            return False
        due = booking.starts_at - timedelta(hours=hours)
        if _later_reminder_due(session, booking=booking, after=due, now=now):
            return False
        host = session.get(StaffMember, booking.host_id)
        if host is None:
            return False
        request = session.get(QuoteRequest, booking.quote_request_id)
        if request is None:
            return False
        link = manage_url(unseal(TOKEN_PURPOSE, booking.token_sealed))
        name = _visitor_name(session, booking)
        words = wording.visitor_reminder(
            booking, host, name=name, link=link, now=now, place=place_of(booking, request)
        )
        send_mail(
            session=session,
            to=booking.visitor_email,
            subject=words.subject,
            text=words.text,
            reply_to=formataddr(_host_for_visitor(host)),
            ref=reminder_ref(booking_id),
        )
        return True


def _later_reminder_due(
    session: Session, *, booking: Booking, after: datetime, now: datetime
) -> bool:
    """Whether a later reminder of this call (same sequence) is due by `now` too, or done.
    A done job's payload is erased, but one due after `after` can only be of this
    sequence: a reschedule takes the old reminders back and plans none already due."""
    later = session.exec(
        select(Job).where(
            col(Job.kind) == REMINDER,
            col(Job.ref) == reminder_ref(booking.id or 0),
            col(Job.state).in_((QUEUED, DONE)),
            col(Job.due_at) > after,
            col(Job.due_at) <= now,
        )
    ).all()
    return any(
        job.state == DONE or json.loads(job.payload).get("sequence") == booking.sequence
        for job in later
    )


@jobs.handler(REMINDER)
def _remind(payload: dict[str, Any]) -> None:
    send_reminder(
        booking_id=int(payload["booking_id"]),
        sequence=int(payload["sequence"]),
        hours=float(payload["hours"]),
        now=utcnow(),
    )
