"""The mails of a booked call as visitor and host read them (times in their own zones,
the host, what happens next, the links, the invitation), and the reminders: due at the
right instant across the changes of the clocks, never for a cancelled or moved call,
never twice, and still sent by a runner that started after the booking."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import parseaddr

import pytest

from rcxsite.booking import notices
from rcxsite.booking.links import manage_url
from rcxsite.booking.wording import short_time
from rcxsite.jobs import queue
from rcxsite.jobs.runner import Runner
from rcxsite.leads.notification import staff_link
from rcxsite.models.types import utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings
from tests.support.booking_mail import (
    BookedCall,
    add_host,
    book_call,
    change_booking,
    invitation_in,
    plain_text,
    stored_booking,
)
from tests.support.customers import add_customer
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.site import jobs_of_kind, outbox_messages
from tests.support.smtp import Mailbox

# Monday 29 March 2027, 09:00 in London, the day after the UK clocks went forward
# (04:00 in New York, already on daylight time since 14 March).
AFTER_UK_CHANGE = datetime(2027, 3, 29, 8, 0, tzinfo=UTC)
# Monday 15 March 2027, 09:00 in New York, the day after the US clocks went forward.
AFTER_US_CHANGE = datetime(2027, 3, 15, 13, 0, tzinfo=UTC)


def _mails_to(address: str) -> list[EmailMessage]:
    return [m for m in outbox_messages() if parseaddr(str(m["To"]))[1] == address]


def _subject(message: EmailMessage) -> str:
    # Python's email folds a subject that fits on a line of its own onto the next line,
    # and reads it back with the folding space in front.
    return str(message["Subject"]).strip()


def _only_mail_to(address: str) -> EmailMessage:
    [message] = _mails_to(address)
    return message


def _notify(send: Callable[..., None], call: BookedCall, **extra: object) -> None:
    with session_scope() as session:
        send(
            session,
            booking=call.booking,
            host=call.host,
            request=call.request,
            token=call.token,
            **extra,
        )


def test_the_visitor_gets_their_time_the_host_what_happens_next_the_link_and_an_invitation() -> (
    None
):
    call = book_call(AFTER_UK_CHANGE)
    _notify(notices.send_booked, call)
    mail = _only_mail_to("alice@client.example")
    assert _subject(mail) == "Your call with RCX on Mon 29 Mar 2027, 04:00 (America/New_York)"
    assert parseaddr(str(mail["Reply-To"])) == ("Sam Sales", "sales@rcx.example")
    text = plain_text(mail)
    link = f"{get_settings().site_url}/booking/{call.token}"
    assert link == manage_url(call.token)
    for line in (
        "Hello,",
        "Your call with RCX is booked.",
        "When:  Monday 29 March 2027 at 04:00–04:30 (America/New_York)",
        "Host:  Sam Sales",
        "Sam Sales will email you a link for the video call before it starts.",
        "To add the call to your calendar, open the attached invitation.",
        "Need another time, or can no longer make it? Reschedule or cancel here:",
        link,
    ):
        assert line in text.splitlines(), line
    invitation = invitation_in(mail)
    assert invitation.method == "REQUEST"
    assert str(invitation.calendar["METHOD"]) == "REQUEST"
    [event] = invitation.calendar.events
    assert str(event["UID"]) == call.booking.uid and event.sequence == 0
    assert "DTSTART;TZID=America/New_York:20270329T040000" in invitation.attachment
    assert event.start == AFTER_UK_CHANGE
    assert event.end == AFTER_UK_CHANGE + timedelta(minutes=30)
    assert str(event["ORGANIZER"]) == "mailto:sales@rcx.example"
    assert event["ORGANIZER"].params["CN"] == "Sam Sales"
    assert [str(a) for a in event.attendees] == ["mailto:alice@client.example"]
    assert str(event["URL"]) == link
    assert f"To reschedule or cancel: {link}" in str(event["DESCRIPTION"])
    assert str(event["SUMMARY"]) == "Call with RCX (Sam Sales)"


def test_the_host_gets_their_time_the_request_its_staff_link_and_an_invitation() -> None:
    host = add_host("Priya Patel", "priya@rcx.example", time_zone="Asia/Kolkata")
    call = book_call(AFTER_UK_CHANGE, host=host)
    _notify(notices.send_booked, call)
    mail = _only_mail_to("priya@rcx.example")
    assert _subject(mail) == (
        "Call booked: Alice Smith, ACME GmbH on Mon 29 Mar 2027, 13:30 (Asia/Kolkata)"
    )
    assert parseaddr(str(mail["Reply-To"])) == ("Alice Smith", "alice@client.example")
    text = plain_text(mail)
    lines = text.splitlines()
    for line in (
        "A call was booked on the RCX website, and you are its host.",
        "When:       Monday 29 March 2027 at 13:30–14:00 (Asia/Kolkata)",
        "Their time: Mon 29 Mar 2027, 04:00 (America/New_York)",
        "Name:       Alice Smith",
        "Email:      alice@client.example",
        "Company:    ACME GmbH",
        "Phone:      +49 30 1234567",
        "We need a new customer portal with single sign-on.",
        f"Quote request #{call.request.id} in the staff inbox:",
        staff_link(call.request.id or 0),
    ):
        assert line in lines, line
    assert "Please email Alice Smith a link for the video call before it starts" in text
    assert call.token not in text  # the visitor's link is the visitor's
    invitation = invitation_in(mail)
    [event] = invitation.calendar.events
    assert "DTSTART;TZID=Asia/Kolkata:20270329T133000" in invitation.attachment
    assert event.start == AFTER_UK_CHANGE
    assert str(event["UID"]) == call.booking.uid
    assert str(event["ORGANIZER"]) == "mailto:priya@rcx.example"
    assert [str(a) for a in event.attendees] == ["mailto:alice@client.example"]
    assert str(event["URL"]) == staff_link(call.request.id or 0)
    assert call.token not in invitation.attachment
    assert str(event["SUMMARY"]) == "Call with Alice Smith, ACME GmbH"


def test_a_member_without_a_zone_reads_the_company_time() -> None:
    call = book_call(AFTER_UK_CHANGE)
    _notify(notices.send_booked, call)
    mail = _only_mail_to("sam@rcx.example")
    assert _subject(mail).endswith("on Mon 29 Mar 2027, 09:00 (Europe/London)")
    assert "DTSTART;TZID=Europe/London:20270329T090000" in invitation_in(mail).attachment


def test_a_moved_call_updates_both_calendars_and_leaves_the_previous_host_s() -> None:
    sam = add_host()
    call = book_call(AFTER_UK_CHANGE, host=sam)
    _notify(notices.send_booked, call)
    outbox_messages()
    kim = add_host("Kim Lee", "kim@rcx.example")
    later = AFTER_UK_CHANGE + timedelta(days=1, hours=1)
    booking = change_booking(
        call.booking.id or 0,
        starts_at=later,
        ends_at=later + timedelta(minutes=30),
        host_id=kim.id,
        sequence=1,
        status="moved",
    )
    moved = BookedCall(booking, kim, call.request, call.token)
    _notify(notices.send_moved, moved, previous_host=sam)

    [_, visitor] = _mails_to("alice@client.example")
    assert _subject(visitor) == (
        "Your call with RCX has moved to Tue 30 Mar 2027, 05:00 (America/New_York)"
    )
    text = plain_text(visitor)
    assert "When:  Tuesday 30 March 2027 at 05:00–05:30 (America/New_York)" in text
    assert "Your host is now Kim Lee." in text
    assert manage_url(call.token) in text
    [event] = invitation_in(visitor).calendar.events
    assert str(event["UID"]) == call.booking.uid
    assert event.sequence == 1 and str(event["STATUS"]) == "CONFIRMED"
    assert event.start == later
    assert str(event["ORGANIZER"]) == "mailto:sales@rcx.example"
    assert event["ORGANIZER"].params["CN"] == "Kim Lee"

    new_host = _only_mail_to("kim@rcx.example")
    assert (
        _subject(new_host)
        == "Call moved: Alice Smith, ACME GmbH on Tue 30 Mar 2027, 10:00 (Europe/London)"
    )
    assert "A call has moved to a new time, and you are now its host." in plain_text(new_host)
    invitation = invitation_in(new_host)
    assert invitation.method == "REQUEST"
    assert invitation.calendar.events[0].sequence == 1

    [_, previous] = _mails_to("sam@rcx.example")
    assert _subject(previous) == "Call handed over to Kim Lee: Alice Smith, ACME GmbH"
    assert "has moved to Tue 30 Mar 2027, 10:00 (Europe/London), and Kim Lee is its host now." in (
        plain_text(previous).replace("\n", " ")
    )
    invitation = invitation_in(previous)
    assert invitation.method == "CANCEL"
    [event] = invitation.calendar.events
    assert str(event["UID"]) == call.booking.uid and event.sequence == 1
    assert str(event["STATUS"]) == "CANCELLED"
    assert str(event["ORGANIZER"]) == "mailto:sam@rcx.example"  # as in Sam's calendar


def test_a_call_moved_with_the_same_host_mails_no_cancellation() -> None:
    call = book_call(AFTER_UK_CHANGE)
    later = AFTER_UK_CHANGE + timedelta(hours=2)
    booking = change_booking(
        call.booking.id or 0, starts_at=later, ends_at=later + timedelta(minutes=30), sequence=1
    )
    _notify(
        notices.send_moved,
        BookedCall(booking, call.host, call.request, call.token),
        previous_host=call.host,
    )
    host = _only_mail_to("sam@rcx.example")
    assert (
        _subject(host)
        == "Call moved: Alice Smith, ACME GmbH on Mon 29 Mar 2027, 11:00 (Europe/London)"
    )
    assert "Your call with Alice Smith has moved. The new time:" in plain_text(host)
    assert invitation_in(host).method == "REQUEST"
    visitor = _only_mail_to("alice@client.example")
    assert "Your host is now" not in plain_text(visitor)


def test_a_cancelled_call_is_taken_out_of_both_calendars() -> None:
    call = book_call(AFTER_UK_CHANGE)
    booking = change_booking(
        call.booking.id or 0, status="cancelled", active=False, sequence=call.booking.sequence + 1
    )
    _notify(notices.send_cancelled, BookedCall(booking, call.host, call.request, call.token))
    visitor = _only_mail_to("alice@client.example")
    assert _subject(visitor) == (
        "Cancelled: your call with RCX on Mon 29 Mar 2027, 04:00 (America/New_York)"
    )
    text = plain_text(visitor)
    assert (
        "Your call with RCX on Monday 29 March 2027 at 04:00–04:30 (America/New_York), "
        "with Sam Sales, is cancelled."
    ) in text
    # Back to the call's page, where another time is booked with what they told us.
    assert f"{get_settings().site_url}/booking/{call.token}\n" in text
    host = _only_mail_to("sam@rcx.example")
    assert _subject(host) == (
        "Call cancelled: Alice Smith, ACME GmbH on Mon 29 Mar 2027, 09:00 (Europe/London)"
    )
    assert "the time is free for other bookings again" in plain_text(host).replace("\n", " ")
    for mail in (visitor, host):
        invitation = invitation_in(mail)
        assert invitation.method == "CANCEL"
        assert str(invitation.calendar["METHOD"]) == "CANCEL"
        [event] = invitation.calendar.events
        assert str(event["UID"]) == call.booking.uid and event.sequence == 1
        assert str(event["STATUS"]) == "CANCELLED"


def test_an_invitation_arrives_over_smtp_as_a_calendar_part_and_an_attachment(
    mailbox: Mailbox,
) -> None:
    call = book_call(AFTER_US_CHANGE)
    _notify(notices.send_booked, call)
    for address in ("alice@client.example", "sam@rcx.example"):
        message = mailbox.wait_for(address)
        assert message.get_content_type() == "multipart/mixed"
        [alternative, attachment] = message.iter_parts()
        assert alternative.get_content_type() == "multipart/alternative"
        assert [part.get_content_type() for part in alternative.iter_parts()] == [
            "text/plain",
            "text/calendar",
        ]
        calendar_part = message.get_body(("calendar",))
        assert calendar_part is not None
        assert calendar_part.get_param("method") == "REQUEST"
        assert calendar_part.get_content_charset() == "utf-8"
        assert attachment.get_content_type() == "application/ics"
        assert attachment.get_content_disposition() == "attachment"
        assert attachment.get_filename() == "invite.ics"
        invitation = invitation_in(message)
        assert invitation.calendar.events[0].start == AFTER_US_CHANGE


# What a mail to the visitor's address may carry: the address is only typed, so the name
# typed with it is not greeted, and the host's own address is not handed out.


def _visitor_mails_over_the_call_s_life(mailbox: Mailbox, call: BookedCall) -> list[EmailMessage]:
    """What the visitor receives, as received: booked, reminded, moved (to Kim Lee), cancelled."""
    visitor = call.booking.visitor_email
    booking_id = call.booking.id or 0
    _notify(notices.send_booked, call)
    mails = [mailbox.wait_for(visitor)]
    start = call.booking.starts_at
    reminded = notices.send_reminder(
        booking_id=booking_id, sequence=0, hours=1, now=start - timedelta(hours=1)
    )
    assert reminded
    mails.append(mailbox.wait_for(visitor))
    kim = add_host("Kim Lee", "kim@rcx.example")
    later = start + timedelta(days=1)
    moved = change_booking(
        booking_id,
        starts_at=later,
        ends_at=later + timedelta(minutes=30),
        host_id=kim.id,
        sequence=1,
        status="moved",
    )
    _notify(
        notices.send_moved,
        BookedCall(moved, kim, call.request, call.token),
        previous_host=call.host,
    )
    mails.append(mailbox.wait_for(visitor))
    cancelled = change_booking(booking_id, status="cancelled", active=False, sequence=2)
    _notify(notices.send_cancelled, BookedCall(cancelled, kim, call.request, call.token))
    mails.append(mailbox.wait_for(visitor))
    subjects = [_subject(mail).split()[0].rstrip(":") for mail in mails]
    assert subjects == ["Your", "Reminder", "Your", "Cancelled"]
    return mails


def _attendee_names(mail: EmailMessage) -> list[str | None]:
    [event] = invitation_in(mail).calendar.events
    return [attendee.params.get("CN") for attendee in event.attendees]


def test_a_name_typed_with_an_address_is_greeted_in_none_of_the_visitor_s_mails(
    mailbox: Mailbox,
) -> None:
    """Anyone can book with anyone's address: what they typed as their name must not reach
    that inbox as the site's words, nor its calendar as the attendee's name."""
    # An account registered with the address, never verified, proves nothing either.
    add_customer("victim@client.example", name="Mallory Registered")
    call = book_call(AFTER_US_CHANGE, name="Mallory Typed", email="victim@client.example")
    mails = _visitor_mails_over_the_call_s_life(mailbox, call)
    for mail in mails:
        text = plain_text(mail)
        assert text.splitlines()[0] == "Hello,", _subject(mail)
        assert "Mallory" not in mail.as_string(), _subject(mail)
    for mail in (mails[0], mails[2], mails[3]):
        assert _attendee_names(mail) == [None]
    # The host needs the name the visitor gave.
    host = mailbox.wait_for("sam@rcx.example")
    assert "Name:       Mallory Typed" in plain_text(host).splitlines()


def test_a_verified_customer_is_greeted_by_their_account_s_name(mailbox: Mailbox) -> None:
    add_customer("alice@client.example", name="Alice Smith", verified=True)
    call = book_call(AFTER_US_CHANGE, name="Al from ACME", email="alice@client.example")
    mails = _visitor_mails_over_the_call_s_life(mailbox, call)
    for mail in mails:
        assert plain_text(mail).splitlines()[0] == "Hello Alice Smith,", _subject(mail)
    for mail in (mails[0], mails[2], mails[3]):
        assert _attendee_names(mail) == ["Alice Smith"]


# Set before `mailbox` starts its runner: a setting changed while the runner's thread
# reads the settings can be cached stale (tests/leads/conftest.py, leads_address).
@pytest.fixture
def deals_address(configure: Configure) -> None:
    configure(sales_email="deals@rcx.example")  # CALLS_EMAIL unset: the sales address


@pytest.fixture
def calls_address(configure: Configure) -> None:
    configure(calls_email="calls@rcx.example")


def test_the_visitor_replies_to_and_is_invited_by_the_calls_address_under_the_host_s_name(
    deals_address: None, mailbox: Mailbox
) -> None:
    """Every booking would otherwise hand a stranger the host's sign-in address."""
    call = book_call(AFTER_US_CHANGE)
    mails = _visitor_mails_over_the_call_s_life(mailbox, call)
    for mail, host in zip(mails, ["Sam Sales", "Sam Sales", "Kim Lee", "Kim Lee"], strict=True):
        assert parseaddr(str(mail["Reply-To"])) == (host, "deals@rcx.example"), _subject(mail)
        raw = mail.as_string()
        assert "sam@rcx.example" not in raw and "kim@rcx.example" not in raw, _subject(mail)
    for mail, host in ((mails[0], "Sam Sales"), (mails[2], "Kim Lee"), (mails[3], "Kim Lee")):
        [event] = invitation_in(mail).calendar.events
        assert str(event["ORGANIZER"]) == "mailto:deals@rcx.example"
        assert event["ORGANIZER"].params["CN"] == host
        assert str(event["UID"]) == call.booking.uid


def test_calls_email_sets_the_address_the_visitor_replies_to(
    calls_address: None, mailbox: Mailbox
) -> None:
    call = book_call(AFTER_US_CHANGE)
    _notify(notices.send_booked, call)
    mail = mailbox.wait_for("alice@client.example")
    assert parseaddr(str(mail["Reply-To"])) == ("Sam Sales", "calls@rcx.example")
    [event] = invitation_in(mail).calendar.events
    assert str(event["ORGANIZER"]) == "mailto:calls@rcx.example"
    # The host's own invitation is theirs: they are its organizer in their calendar.
    host = mailbox.wait_for("sam@rcx.example")
    assert str(invitation_in(host).calendar.events[0]["ORGANIZER"]) == "mailto:sam@rcx.example"


# Reminders


@dataclass
class Clock:
    """The runners' and the reminders' now: what a test sets it to."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock(utcnow())
    # A due reminder reads the time to say "tomorrow" or "in 1 hour", as a runner would.
    monkeypatch.setattr(notices, "utcnow", clock)
    return clock


def _plan_reminders(call: BookedCall, *, now: datetime) -> None:
    with session_scope() as session:
        notices.schedule_reminders(session, booking=call.booking, token=call.token, now=now)


def _reminders_due(call: BookedCall) -> list[datetime]:
    ref = f"booking:{call.booking.id}"
    return sorted(job.due_at for job in jobs_of_kind(notices.REMINDER) if job.ref == ref)


def _reminder_mails() -> list[EmailMessage]:
    return [m for m in outbox_messages() if _subject(m).startswith("Reminder:")]


@pytest.mark.parametrize(
    ("start", "zone", "day_before"),
    [
        # New York, Sunday 14 March 2027: 02:00 EST became 03:00 EDT.
        (AFTER_US_CHANGE, "America/New_York", "Sun 14 Mar 2027, 09:00"),
        # A call on the change day itself: 24 hours before is 08:00 on the old clock.
        (datetime(2027, 3, 14, 13, 0, tzinfo=UTC), "America/New_York", "Sat 13 Mar 2027, 08:00"),
        # London, Sunday 28 March 2027: 01:00 GMT became 02:00 BST.
        (AFTER_UK_CHANGE, "Europe/London", "Sun 28 Mar 2027, 09:00"),
        (datetime(2027, 3, 28, 8, 0, tzinfo=UTC), "Europe/London", "Sat 27 Mar 2027, 08:00"),
    ],
)
def test_reminders_are_due_24_hours_and_1_hour_before_across_the_change_of_the_clocks(
    start: datetime, zone: str, day_before: str
) -> None:
    call = book_call(start, visitor_time_zone=zone)
    _plan_reminders(call, now=start - timedelta(days=10))
    assert _reminders_due(call) == [start - timedelta(hours=24), start - timedelta(hours=1)]
    assert short_time(start - timedelta(hours=24), zone) == f"{day_before} ({zone})"
    # Nothing secret waits in the job table.
    for job in jobs_of_kind(notices.REMINDER):
        assert call.token not in job.payload
        assert set(json.loads(job.payload)) == {"booking_id", "sequence", "hours"}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    """The package's SQLite file, or a scratch PostgreSQL database (skipped when absent)."""
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def test_each_reminder_is_mailed_at_its_time_once_even_when_runners_run_again(
    database: str, clock: Clock
) -> None:
    call = book_call(AFTER_US_CHANGE)
    _plan_reminders(call, now=AFTER_US_CHANGE - timedelta(days=3))
    runner = Runner(clock=clock)
    day_before = AFTER_US_CHANGE - timedelta(hours=24)

    clock.now = day_before - timedelta(seconds=1)
    runner.run_due()
    assert _reminder_mails() == []

    clock.now = day_before
    runner.run_due()
    runner.run_due()
    Runner(clock=clock).run_due()
    [reminder] = _reminder_mails()
    assert parseaddr(str(reminder["To"]))[1] == "alice@client.example"
    assert _subject(reminder) == (
        "Reminder: your call with RCX tomorrow, Mon 15 Mar 2027, 09:00 (America/New_York)"
    )
    text = plain_text(reminder)
    assert "A reminder: your call with RCX is tomorrow." in text
    assert "When:  Monday 15 March 2027 at 09:00–09:30 (America/New_York)" in text
    assert manage_url(call.token) in text  # unsealed from the booking, not from the job
    assert reminder.get_body(("calendar",)) is None

    clock.now = AFTER_US_CHANGE - timedelta(hours=1)
    runner.run_due()
    runner.run_due()
    [_, last] = _reminder_mails()
    assert _subject(last) == (
        "Reminder: your call with RCX in 1 hour, Mon 15 Mar 2027, 09:00 (America/New_York)"
    )
    clock.now = AFTER_US_CHANGE + timedelta(days=1)
    runner.run_due()
    assert len(_reminder_mails()) == 2
    assert {job.state for job in jobs_of_kind(notices.REMINDER)} == {"done"}


def test_a_runner_started_after_the_booking_sends_its_reminders(
    clock: Clock, configure: Configure
) -> None:
    """The reminder is a row: the runner that was up when the call was booked is gone
    (one even died holding the reminder's claim), and a new one sends it, once."""
    configure(job_lease_seconds=30)
    call = book_call(AFTER_US_CHANGE)
    _plan_reminders(call, now=AFTER_US_CHANGE - timedelta(days=3))
    Runner(clock=clock).run_due()  # a runner of the booking's time: nothing due yet
    clock.now = AFTER_US_CHANGE - timedelta(hours=24)
    claimed = queue.claim(runner="died-holding-it", kinds=(notices.REMINDER,), now=clock.now)
    assert len(claimed) == 1
    Runner(clock=clock).run_due()
    assert _reminder_mails() == [], "claimed by the dead runner until its lease runs out"
    clock.now += timedelta(seconds=31)
    Runner(clock=clock).run_due()
    assert len(_reminder_mails()) == 1


def test_reminders_held_up_past_the_next_one_s_time_mail_once(clock: Clock) -> None:
    """Runners down from before the 24-hour reminder until half an hour before the call:
    one mail that says "in 30 minutes", not a "tomorrow" followed by an "in 1 hour"."""
    call = book_call(AFTER_US_CHANGE)
    _plan_reminders(call, now=AFTER_US_CHANGE - timedelta(days=3))
    clock.now = AFTER_US_CHANGE - timedelta(minutes=30)
    Runner(clock=clock).run_due()
    [reminder] = _reminder_mails()
    assert _subject(reminder) == (
        "Reminder: your call with RCX in 30 minutes, Mon 15 Mar 2027, 09:00 (America/New_York)"
    )
    # Two runners, the 1-hour reminder done before a slower one gets to the 24-hour one.
    later = book_call(AFTER_US_CHANGE, host=add_host("Kim Lee", "kim@rcx.example"))
    _plan_reminders(later, now=AFTER_US_CHANGE - timedelta(days=3))
    Runner(clock=clock).run_due()
    held_up = notices.send_reminder(
        booking_id=later.booking.id or 0, sequence=0, hours=24, now=clock.now
    )
    assert held_up is False
    assert len(_reminder_mails()) == 2


def test_reminders_whose_time_has_passed_are_not_planned(configure: Configure) -> None:
    call = book_call(AFTER_US_CHANGE)
    _plan_reminders(call, now=AFTER_US_CHANGE - timedelta(hours=5))
    assert _reminders_due(call) == [AFTER_US_CHANGE - timedelta(hours=1)]
    configure(booking_reminder_hours="48, 2.5")
    other = book_call(AFTER_US_CHANGE, host=add_host("Kim Lee", "kim@rcx.example"))
    _plan_reminders(other, now=AFTER_US_CHANGE - timedelta(days=3))
    assert _reminders_due(other) == [
        AFTER_US_CHANGE - timedelta(hours=48),
        AFTER_US_CHANGE - timedelta(hours=2.5),
    ]
    configure(booking_reminder_hours="")
    third = book_call(AFTER_US_CHANGE, host=add_host("Lee Kim", "lee@rcx.example"))
    _plan_reminders(third, now=AFTER_US_CHANGE - timedelta(days=3))
    assert _reminders_due(third) == []


def test_a_call_that_has_begun_gets_no_reminder() -> None:
    start = utcnow() - timedelta(minutes=1)
    call = book_call(start)
    _plan_reminders(call, now=start - timedelta(days=2))
    Runner().run_due()
    assert _reminder_mails() == []
    assert {job.state for job in jobs_of_kind(notices.REMINDER)} == {"done"}


def test_a_cancelled_call_gets_no_reminder(clock: Clock) -> None:
    call = book_call(AFTER_US_CHANGE)
    kept = book_call(AFTER_US_CHANGE, host=add_host("Kim Lee", "kim@rcx.example"))
    for each in (call, kept):
        _plan_reminders(each, now=AFTER_US_CHANGE - timedelta(days=3))
    with session_scope() as session:
        notices.cancel_reminders(session, booking_id=call.booking.id or 0)
    change_booking(call.booking.id or 0, status="cancelled", active=False, sequence=1)
    states = {job.ref: job.state for job in jobs_of_kind(notices.REMINDER)}
    assert states == {
        f"booking:{call.booking.id}": "cancelled",
        f"booking:{kept.booking.id}": "queued",
    }
    clock.now = AFTER_US_CHANGE - timedelta(minutes=30)
    Runner(clock=clock).run_due()
    # One mail for the call kept (the 24-hour reminder held up past the 1-hour one's
    # time: one reminder, not two in a row), none for the cancelled one.
    [reminder] = _reminder_mails()
    assert parseaddr(str(reminder["To"]))[1] == kept.booking.visitor_email


def test_a_reminder_left_queued_for_a_cancelled_call_mails_nothing(clock: Clock) -> None:
    """Even a reminder that was not taken back (the call cancelled another way) looks at
    the booking when it is due."""
    call = book_call(AFTER_US_CHANGE)
    _plan_reminders(call, now=AFTER_US_CHANGE - timedelta(days=3))
    change_booking(call.booking.id or 0, status="cancelled", active=False, sequence=1)
    clock.now = AFTER_US_CHANGE - timedelta(hours=1)
    Runner(clock=clock).run_due()
    assert _reminder_mails() == []
    assert {job.state for job in jobs_of_kind(notices.REMINDER)} == {"done"}


def test_a_moved_call_is_reminded_at_its_new_time_only(database: str, clock: Clock) -> None:
    call = book_call(AFTER_US_CHANGE)
    _plan_reminders(call, now=AFTER_US_CHANGE - timedelta(days=3))
    later = AFTER_US_CHANGE + timedelta(days=2)
    # Moved without taking the old reminders back: their sequence is what stops them.
    moved = change_booking(
        call.booking.id or 0,
        starts_at=later,
        ends_at=later + timedelta(minutes=30),
        sequence=1,
        status="moved",
    )
    _plan_reminders(BookedCall(moved, call.host, call.request, call.token), now=clock.now)
    runner = Runner(clock=clock)
    for moment in (AFTER_US_CHANGE - timedelta(hours=24), AFTER_US_CHANGE - timedelta(hours=1)):
        clock.now = moment
        runner.run_due()
    assert _reminder_mails() == []
    clock.now = later - timedelta(hours=24)
    runner.run_due()
    [reminder] = _reminder_mails()
    assert _subject(reminder) == (
        "Reminder: your call with RCX tomorrow, Wed 17 Mar 2027, 09:00 (America/New_York)"
    )


def test_a_reminder_mail_not_yet_sent_is_taken_back_with_the_call(clock: Clock) -> None:
    call = book_call(AFTER_US_CHANGE)
    _plan_reminders(call, now=AFTER_US_CHANGE - timedelta(days=3))
    clock.now = AFTER_US_CHANGE - timedelta(hours=1)
    Runner(clock=clock, kinds=(notices.REMINDER,)).run_due()
    [mail] = jobs_of_kind("mail")
    assert mail.state == "queued" and mail.ref == f"booking:{call.booking.id}"
    with session_scope() as session:
        notices.cancel_reminders(session, booking_id=call.booking.id or 0)
    assert [job.state for job in jobs_of_kind("mail")] == ["cancelled"]
    assert _reminder_mails() == []


def test_confirmation_mails_are_not_taken_back_with_the_reminders() -> None:
    call = book_call(AFTER_US_CHANGE)
    with session_scope() as session:
        notices.send_booked(
            session, booking=call.booking, host=call.host, request=call.request, token=call.token
        )
        notices.cancel_reminders(session, booking_id=call.booking.id or 0)
    assert {job.state for job in jobs_of_kind("mail")} == {"queued"}
    # About the booking's announcement, not its reminders (which a cancel takes back).
    assert {job.ref for job in jobs_of_kind("mail")} == {notices.booked_ref(call.booking.id or 0)}
    assert stored_booking(call.booking.id or 0).uid == call.booking.uid
