"""Booking, rescheduling and cancelling a call through the service: what the visitor is
told, what is stored, and every refusal with its status and text."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest
from prometheus_client import REGISTRY
from sqlmodel import Session, select

from rcxsite import booking
from rcxsite.core.attribution import Attribution, Touch
from rcxsite.core.service_errors import ServiceError
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import StaffMember
from rcxsite.platform.at_rest import unseal
from rcxsite.platform.db import get_engine
from tests.support.booking import (
    LONDON,
    MONDAY,
    NEW_YORK,
    NOW,
    VISITOR_IP,
    add_booking,
    add_day,
    add_host,
    at,
    book,
    booking_fields,
    cancel,
    history,
    reschedule,
    slot_starts,
    stored_booking,
    stored_bookings,
    stored_request,
    wall_times,
)
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.site import jobs_of_kind, outbox_messages
from tests.support.staff import invite

TUESDAY = MONDAY + timedelta(days=1)
TAKEN = "That time has just been booked. Please choose another."
LINK_INVALID = "This link is not valid. Please use the link in your latest invitation."
CANCELLED = "This call was cancelled, so it can no longer be changed."
PAST = "This call has already taken place, so it can no longer be changed."


@pytest.fixture(autouse=True, params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    """Every test here on both databases: PostgreSQL books through its own statements
    (rcxsite/booking/placement.py), SQLite through the ORM."""
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def refused(function, *args, **kwargs) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as error:
        function(*args, **kwargs)
    return error.value.status, error.value.message


def test_a_booked_call_keeps_where_its_visitor_came_from() -> None:
    add_host("Sam Sales")
    came = Attribution(
        first=Touch("newsletter", "email", "autumn", "/insights"),
        last=Touch("Google", "organic", "", "/services"),
    )
    receipt = book(at(TUESDAY, "10:00"), attribution=came)
    row = stored_request(receipt.quote_request_id)
    assert (row.source, row.medium, row.campaign, row.landing_page) == (
        "newsletter",
        "email",
        "autumn",
        "/insights",
    )
    assert (row.last_source, row.last_medium, row.last_campaign) == ("Google", "organic", "")
    unattributed = stored_request(
        book(at(TUESDAY, "11:00"), email="b@client.example").quote_request_id
    )
    assert (unattributed.source, unattributed.landing_page) == ("", "")


def test_a_booked_call_is_a_quote_request_owned_by_its_host() -> None:
    host = add_host("Sam Sales")
    start = at(TUESDAY, "10:00")
    receipt = book(start, time_zone=NEW_YORK, name="Alice Smith")

    assert receipt.message == "Your call is booked."
    assert receipt.next_steps == (
        "Your call with Sam Sales is on Tuesday 2 March 2027 at 05:00 (America/New_York). "
        "It is a video call: join it from the link here or in your invitation. "
        "An invitation has been emailed to you."
    )
    # A room of its own, as MEETING_URL_TEMPLATE makes them.
    assert receipt.call_kind == "video"
    assert re.fullmatch(r"https://meet\.jit\.si/RCX-[0-9a-f]{24}", receipt.meeting_url)
    assert (receipt.start, receipt.end) == (start, start + timedelta(minutes=30))
    assert (receipt.host_name, receipt.time_zone) == ("Sam Sales", NEW_YORK)

    row = stored_booking(receipt.booking_id)
    assert (row.host_id, row.status, row.active, row.sequence) == (host, "booked", True, 0)
    assert row.blocked_until == start + timedelta(minutes=45)
    assert (row.visitor_name, row.email_key, row.visitor_time_zone) == (
        "Alice Smith",
        "alice@client.example",
        NEW_YORK,
    )
    assert row.token_hash == hashlib.sha256(receipt.token.encode()).hexdigest()
    assert unseal("booking-token", row.token_sealed) == receipt.token
    assert re.fullmatch(r"booking-[0-9a-f]{24}@rcx\.test", row.uid)

    request = stored_request(receipt.quote_request_id)
    assert (request.owner_id, request.status, request.name) == (host, "new", "Alice Smith")
    assert (request.call_date, request.call_time) == (TUESDAY, "10:00")  # London's clock
    assert history(receipt.quote_request_id) == [
        ("call", "", "Booked: Tuesday 2 March 2027 at 10:00 (Europe/London) with Sam Sales")
    ]
    # The booking queues one job, which writes the invitations and a reminder 24 h and 1 h
    # before: the visitor waits for the booking, not for its mail.
    [announcement] = jobs_of_kind("booking-booked", state="queued")
    assert jobs_of_kind("mail") == [] and jobs_of_kind("booking-reminder") == []
    assert wait_for_outgoing_mail(30)
    assert jobs_of_kind("booking-booked", state="done")[0].id == announcement.id
    assert len(jobs_of_kind("mail")) == 2
    reminders = jobs_of_kind("booking-reminder", state="queued")
    assert sorted(job.due_at for job in reminders) == [
        start - timedelta(hours=24),
        start - timedelta(hours=1),
    ]
    assert {job.ref for job in reminders} == {f"booking:{row.id}"}
    managed = booking.managed_call(token=receipt.token, now=NOW)
    assert managed.calendar is not None and managed.calendar.google.startswith("https://")
    assert replace(managed, calendar=None) == booking.ManagedCall(
        start=start,
        end=start + timedelta(minutes=30),
        time_zone=NEW_YORK,
        host_name="Sam Sales",
        status="booked",
        can_change=True,
        notice="",
        place=f"Video call: {receipt.meeting_url}",
        meeting_url=receipt.meeting_url,
    )
    assert booking.manage_url(receipt.token) == f"https://rcx.test/booking/{receipt.token}"


def test_the_booked_time_is_no_longer_offered() -> None:
    add_host("Sam Sales")
    book(at(TUESDAY, "10:00"))
    assert {"09:30", "10:00", "10:30"}.isdisjoint(wall_times(slot_starts(TUESDAY)))


def test_a_time_that_is_no_free_slot_is_refused_as_taken(configure: Configure) -> None:
    configure(booking_limit="2 per hour")  # a refused time does not count
    host = add_host("Sam Sales")
    for start in (
        at(TUESDAY, "10:10"),  # off the grid
        at(TUESDAY, "17:30"),  # after hours
        at(MONDAY + timedelta(days=5), "10:00"),  # Saturday
        at(MONDAY, "09:00") + timedelta(days=70),  # beyond the window
        NOW + timedelta(hours=1),  # within the notice
    ):
        assert refused(book, start) == (409, TAKEN), start
    add_booking(host, at(TUESDAY, "10:00"))
    assert refused(book, at(TUESDAY, "10:30")) == (409, TAKEN)  # its buffer
    assert stored_bookings()[1:] == []


def test_a_second_visitor_gets_the_other_free_member() -> None:
    add_host("Sam Sales")
    add_host("Tom Sales")
    start = at(TUESDAY, "10:00")
    first = book(start, email="one@client.example")
    second = book(start, email="two@client.example")
    assert {first.host_name, second.host_name} == {"Sam Sales", "Tom Sales"}
    conflicts = REGISTRY.get_sample_value("rcx_booking_conflicts_total") or 0.0
    assert refused(book, start, email="three@client.example") == (409, TAKEN)
    # Operators see the conflict on /metrics.
    assert (REGISTRY.get_sample_value("rcx_booking_conflicts_total") or 0.0) - conflicts == 1


def test_the_host_is_the_one_with_fewest_calls_then_booked_least_recently() -> None:
    busy = add_host("Busy Bee")
    recent = add_host("Recent Rita")
    older = add_host("Older Olga")
    never = add_host("Never Ned")
    # Busy: two calls this week; the others one or none. Rita was booked after Olga.
    add_booking(busy, at(MONDAY, "09:00"))
    add_booking(busy, at(MONDAY, "11:00"))
    add_booking(recent, at(MONDAY, "13:00"), created_at=NOW - timedelta(hours=1))
    add_booking(older, at(MONDAY, "14:00"), created_at=NOW - timedelta(days=3))
    # Ned's only booking is beyond the next 7 days: it does not count, but he was booked.
    add_booking(never, at(MONDAY + timedelta(days=20), "09:00"), created_at=NOW)
    start = at(TUESDAY, "10:00")
    # Ned: no calls in the next 7 days, and Olga's latest (3 days ago) is older than his.
    assert book(start, email="a@client.example").host_name == "Never Ned"
    assert book(start, email="b@client.example").host_name == "Older Olga"
    assert book(start, email="c@client.example").host_name == "Recent Rita"
    assert book(start, email="d@client.example").host_name == "Busy Bee"


def test_a_member_never_booked_comes_first_and_ties_go_to_the_lowest_id() -> None:
    booked = add_host("Booked Before")
    add_booking(booked, at(MONDAY + timedelta(days=30), "09:00"), created_at=NOW)
    first_new = add_host("New One")
    add_host("New Two")
    receipt = book(at(TUESDAY, "10:00"))
    assert stored_booking(receipt.booking_id).host_id == first_new


def test_at_most_three_upcoming_calls_per_email(configure: Configure) -> None:
    add_host("Sam Sales")
    receipts = [
        book(at(TUESDAY, time), email="Alice@Client.example", client_ip=f"10.0.0.{number}")
        for number, time in enumerate(("09:00", "11:00", "13:00"))
    ]
    message = (
        "You already have 3 upcoming calls with us. "
        "Please manage them from the links in your invitations."
    )
    assert refused(book, at(TUESDAY, "15:00"), email="alice@client.example") == (429, message)
    # A cancelled call frees a place; a call past does not count.
    cancel(receipts[0].token)
    book(at(TUESDAY, "15:00"), email="alice@client.example")
    later = NOW + timedelta(days=2)
    book(at(MONDAY + timedelta(days=7), "10:00"), email="alice@client.example", now=later)
    configure(booking_upcoming_per_email=1)
    assert refused(book, at(MONDAY + timedelta(days=8), "10:00"), now=later)[0] == 429


def test_bookings_share_the_quote_forms_limit_per_client(configure: Configure) -> None:
    configure(booking_limit="2 per hour")
    add_host("Sam Sales")
    book(at(TUESDAY, "09:00"), email="a@client.example")
    book(at(TUESDAY, "10:00"), email="b@client.example")
    status, message = refused(book, at(TUESDAY, "11:00"), email="c@client.example")
    assert status == 429 and message.startswith("Too many")
    book(at(TUESDAY, "11:00"), email="c@client.example", client_ip="198.51.100.7")


def test_the_booking_form_messages() -> None:
    fields = booking_fields(at(TUESDAY, "10:00"))
    for start in ("", "tomorrow", "2027-03-02T10:00:00", "2027-02-30T10:00:00Z", 42):
        form, errors = booking.BookingInput.read({**fields, "start": start})
        assert form is None and errors == {"start": "Please choose a time for the call"}
    form, errors = booking.BookingInput.read({**fields, "time_zone": "Europe/Paris "})
    assert form is not None and form.time_zone == "Europe/Paris"
    assert booking.BookingInput.read({**fields, "time_zone": "Nowhere/City"})[1] == {
        "time_zone": "Unknown time zone"
    }
    parsed = booking.BookingInput.parse(
        {**fields, "time_zone": "", "start": "2027-03-02T15:30+05:30"}
    )
    assert parsed.time_zone == LONDON and parsed.start == at(TUESDAY, "10:00")
    # The quote form's own fields keep their messages; the order is the form's.
    _, errors = booking.BookingInput.read({})
    assert list(errors) == [
        "name",
        "email",
        "company",
        "service",
        "budget",
        "timeline",
        "start",
        "message",
    ]


def _subjects_to(address: str) -> list[str]:
    return [
        str(mail["Subject"]).strip() for mail in outbox_messages() if address in str(mail["To"])
    ]


def test_a_call_cancelled_before_its_job_ran_is_announced_then_cancelled() -> None:
    """The move or cancel sends the booked mails first: the visitor's invitation, and the
    request's mail to sales (its message, `mailed_at` once delivered); the job then sends
    nothing."""
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    cancel(receipt.token)
    assert _subjects_to("alice@client.example") == [
        "Your call with RCX on Tue 2 Mar 2027, 10:00 (Europe/London)",
        "Cancelled: your call with RCX on Tue 2 Mar 2027, 10:00 (Europe/London)",
    ]
    assert stored_request(receipt.quote_request_id).mailed_at is not None
    assert len(jobs_of_kind("booking-booked", state="done")) == 1
    assert jobs_of_kind("booking-reminder") == []


def test_a_call_moved_before_its_job_ran_is_announced_then_moved() -> None:
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    new_start = at(TUESDAY, "11:00")
    reschedule(receipt.token, new_start)
    assert _subjects_to("alice@client.example") == [
        "Your call with RCX on Tue 2 Mar 2027, 10:00 (Europe/London)",
        "Your call with RCX has moved to Tue 2 Mar 2027, 11:00 (Europe/London)",
    ]
    assert stored_request(receipt.quote_request_id).mailed_at is not None
    reminders = jobs_of_kind("booking-reminder", state="queued")
    assert sorted(job.due_at for job in reminders) == [
        new_start - timedelta(hours=24),
        new_start - timedelta(hours=1),
    ]


def test_the_booked_job_run_twice_mails_once() -> None:
    """A runner that dies after the job's work and before marking it done: the job runs
    again and finds its mails."""
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    uid = stored_booking(receipt.booking_id).uid
    assert booking.notices.send_announcement(uid=uid, sequence=0, booked_at=NOW)
    assert not booking.notices.send_announcement(uid=uid, sequence=0, booked_at=NOW)
    assert len(_subjects_to("alice@client.example")) == 1
    assert len(jobs_of_kind("booking-reminder")) == 2


def test_reschedule_keeps_the_uid_and_the_host_when_free() -> None:
    host = add_host("Sam Sales")
    add_host("Tom Sales")
    receipt = book(at(TUESDAY, "10:00"))
    assert wait_for_outgoing_mail(30)  # the invitation with the manage link went out
    uid = stored_booking(receipt.booking_id).uid
    new_start = at(TUESDAY, "10:30")  # overlaps its own old time: that does not count
    moved = reschedule(receipt.token, new_start)
    assert moved.message == "Your call is moved."
    assert moved.next_steps == (
        "Your call with Sam Sales is now on Tuesday 2 March 2027 at 10:30 (Europe/London). "
        "It is a video call: join it from the link here or in your invitation. "
        "A new invitation has been emailed to you."
    )
    assert moved.meeting_url == receipt.meeting_url  # a move keeps the room
    row = stored_booking(receipt.booking_id)
    assert (row.uid, row.sequence, row.status, row.host_id) == (uid, 1, "moved", host)
    assert (row.starts_at, row.blocked_until) == (new_start, new_start + timedelta(minutes=45))
    request = stored_request(receipt.quote_request_id)
    assert (request.call_date, request.call_time, request.owner_id) == (TUESDAY, "10:30", host)
    reminders = jobs_of_kind("booking-reminder")
    assert sorted(job.due_at for job in reminders if job.state == "queued") == [
        new_start - timedelta(hours=24),
        new_start - timedelta(hours=1),
    ]
    assert [job.state for job in reminders].count("cancelled") == 2
    assert history(receipt.quote_request_id)[-1] == (
        "call",
        "Tuesday 2 March 2027 at 10:00 (Europe/London) with Sam Sales",
        "Moved: Tuesday 2 March 2027 at 10:30 (Europe/London) with Sam Sales",
    )


def _times_to_move_to(token: str, day: date, *, now: datetime = NOW) -> list[str]:
    query = booking.SlotQuery.parse({"first_day": day.isoformat(), "days": 1})
    digest = hashlib.sha256(token.encode()).hexdigest()
    return wall_times(
        slot.start for slot in booking.slots_to_move_to(query, link_digest=digest, now=now).slots
    )


def test_the_times_offered_for_a_move_count_the_call_itself_as_free() -> None:
    add_host("Sam Sales", hours=[(TUESDAY.weekday(), "09:00", "12:00")])
    receipt = book(at(TUESDAY, "10:00"))
    # To a new visitor, 09:30 and 10:30 are taken by the call and its buffer.
    assert wall_times(slot_starts(TUESDAY)) == ["09:00", "11:00", "11:30"]
    # To the call itself they are free; its own time is no move at all.
    offered = _times_to_move_to(receipt.token, TUESDAY)
    assert offered == ["09:00", "09:30", "10:30", "11:00", "11:30"]
    moved = reschedule(receipt.token, at(TUESDAY, "09:30"))
    assert moved.start == at(TUESDAY, "09:30")
    cancel(receipt.token)
    assert refused(_times_to_move_to, receipt.token, TUESDAY) == (410, CANCELLED)


def test_a_member_at_their_days_cap_can_still_move_a_call_within_that_day(
    configure: Configure,
) -> None:
    configure(BOOKING_CALLS_PER_DAY="2")
    add_host("Sam Sales")
    first = book(at(TUESDAY, "10:00"), email="a@client.example")
    book(at(TUESDAY, "14:00"), email="b@client.example")
    assert wall_times(slot_starts(TUESDAY)) == []
    assert "16:00" in _times_to_move_to(first.token, TUESDAY)
    assert reschedule(first.token, at(TUESDAY, "16:00")).host_name == "Sam Sales"


def test_reschedule_to_a_time_the_host_cannot_do_moves_the_call_to_another() -> None:
    sam = add_host("Sam Sales")
    tom = add_host("Tom Sales")
    receipt = book(at(TUESDAY, "10:00"))
    assert stored_booking(receipt.booking_id).host_id == sam
    wednesday = TUESDAY + timedelta(days=1)
    add_day(sam, wednesday)  # Sam is off on Wednesday
    moved = reschedule(receipt.token, at(wednesday, "10:00"))
    assert moved.host_name == "Tom Sales"
    assert stored_booking(receipt.booking_id).host_id == tom
    assert stored_request(receipt.quote_request_id).owner_id == tom
    assert ("owner", "Sam Sales", "Tom Sales") in history(receipt.quote_request_id)


def test_reschedule_to_a_taken_time_is_refused() -> None:
    add_host("Sam Sales")
    mine = book(at(TUESDAY, "10:00"), email="a@client.example")
    book(at(TUESDAY, "14:00"), email="b@client.example")
    assert refused(reschedule, mine.token, at(TUESDAY, "14:00")) == (409, TAKEN)
    assert refused(reschedule, mine.token, at(TUESDAY, "14:10")) == (409, TAKEN)
    row = stored_booking(mine.booking_id)
    assert (row.starts_at, row.sequence, row.status) == (at(TUESDAY, "10:00"), 0, "booked")


def test_cancel_frees_the_time_and_every_old_link_says_so() -> None:
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    assert wait_for_outgoing_mail(30)  # the invitation with the manage link went out
    cancelled = cancel(receipt.token)
    assert (cancelled.status, cancelled.can_change, cancelled.notice) == (
        "cancelled",
        False,
        CANCELLED,
    )
    row = stored_booking(receipt.booking_id)
    assert (row.status, row.active, row.sequence) == ("cancelled", False, 1)
    assert {job.state for job in jobs_of_kind("booking-reminder")} == {"cancelled"}
    assert "10:00" in wall_times(slot_starts(TUESDAY))
    assert refused(cancel, receipt.token) == (410, CANCELLED)
    assert refused(reschedule, receipt.token, at(TUESDAY, "11:00")) == (410, CANCELLED)
    assert booking.managed_call(token=receipt.token, now=NOW).notice == CANCELLED
    assert history(receipt.quote_request_id)[-1][2] == "Cancelled by the visitor"


def test_a_call_that_has_begun_can_no_longer_change() -> None:
    add_host("Sam Sales")
    start = at(TUESDAY, "10:00")
    receipt = book(start)
    later = start + timedelta(minutes=1)
    call = booking.managed_call(token=receipt.token, now=later)
    assert (call.can_change, call.notice, call.status) == (False, PAST, "booked")
    assert refused(cancel, receipt.token, now=later) == (410, PAST)
    assert refused(reschedule, receipt.token, start + timedelta(days=1), now=later) == (410, PAST)


def test_an_unknown_link_is_not_valid() -> None:
    add_host("Sam Sales")
    book(at(TUESDAY, "10:00"))
    for token in ("", "nope", "é" * 20, "x" * 100):
        assert refused(booking.managed_call, token=token) == (404, LINK_INVALID)
        assert refused(cancel, token) == (404, LINK_INVALID)
        assert refused(reschedule, token, at(TUESDAY, "11:00")) == (404, LINK_INVALID)
    too_long = booking.CancelInput.read({"token": "x" * 101})[1]
    assert too_long == {"token": LINK_INVALID}


def test_upcoming_calls_of_an_address() -> None:
    add_host("Sam Sales")
    first = book(at(TUESDAY, "10:00"), email="Alice@Client.example")
    second = book(at(MONDAY, "10:00"), email="alice@client.example")
    gone = book(at(TUESDAY, "14:00"), email="alice@client.example")
    cancel(gone.token)
    book(at(TUESDAY, "16:00"), email="bob@client.example")
    calls = booking.upcoming_for_email(email=" ALICE@client.example", now=NOW)
    assert [call.booking_id for call in calls] == [second.booking_id, first.booking_id]
    assert calls[1].manage_url == f"https://rcx.test/booking/{first.token}"
    assert (calls[1].host_name, calls[1].status, calls[1].time_zone) == (
        "Sam Sales",
        "booked",
        LONDON,
    )
    assert booking.upcoming_for_email(email="alice@client.example", now=at(TUESDAY, "11:00")) == ()


def test_a_caller_with_only_the_links_digest_manages_the_call() -> None:
    # The manage page never sees the token: its path is sealed before Reflex reads it.
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    digest = hashlib.sha256(receipt.token.encode()).hexdigest()
    assert booking.managed_call(link_digest=digest, now=NOW).status == "booked"
    change = booking.RescheduleInput.parse({"start": "2027-03-02T11:00:00Z"})
    moved = booking.reschedule(change, link_digest=digest, client_ip=VISITOR_IP, now=NOW)
    assert moved.token == receipt.token and moved.host_name == "Sam Sales"
    assert booking.cancel(link_digest=digest, client_ip=VISITOR_IP, now=NOW).status == "cancelled"
    assert refused(booking.cancel, link_digest=None, client_ip=VISITOR_IP) == (404, LINK_INVALID)
    assert refused(booking.managed_call, link_digest="0" * 64) == (404, LINK_INVALID)


def test_new_sales_members_take_calls_and_others_do_not() -> None:
    invite("seller@rcx.example", "sales", "Sam Seller")
    invite("helper@rcx.example", "support", "Sue Support")
    invite("boss@rcx.example", "admin", "Ada Admin")
    with Session(get_engine()) as session:
        takes = {m.email: m.takes_calls for m in session.exec(select(StaffMember))}
    assert takes == {
        "seller@rcx.example": True,
        "helper@rcx.example": False,
        "boss@rcx.example": False,
    }


def test_a_reason_given_with_a_cancel_reaches_the_host_and_the_history() -> None:
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    assert wait_for_outgoing_mail(30)
    cancel(receipt.token, reason="  We chose another supplier.\r\nThanks for your time.  ")

    reason = "We chose another supplier.\nThanks for your time."
    assert history(receipt.quote_request_id)[-1][2] == f"Cancelled by the visitor: {reason}"
    [to_host] = [
        mail
        for mail in outbox_messages()
        if "sam" in str(mail["To"]).lower() and "Call cancelled" in str(mail["Subject"])
    ]
    assert f"Their reason: {reason}" in to_host.get_body(("plain",)).get_content()  # type: ignore[union-attr]


def test_a_cancel_reason_longer_than_its_limit_is_refused_and_cancels_nothing() -> None:
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    with pytest.raises(ServiceError) as too_long:
        cancel(receipt.token, reason="x" * (booking.inputs.CANCEL_REASON_MAX + 1))
    assert too_long.value.fields == {"reason": booking.inputs.REASON_TOO_LONG}
    assert stored_booking(receipt.booking_id).status == "booked"


def _book_again(token: str, start: datetime) -> booking.BookingReceipt:
    change = booking.RescheduleInput.parse({"token": token, "start": start.isoformat()})
    return booking.book_again(change, client_ip=VISITOR_IP, now=NOW)


def test_after_a_cancel_the_link_books_another_time_with_the_same_details() -> None:
    add_host("Sam Sales")
    first = book(
        at(TUESDAY, "10:00"), time_zone=NEW_YORK, call_kind="phone", phone="+1 212 555 0100"
    )
    assert wait_for_outgoing_mail(30)
    assert booking.managed_call(token=first.token, now=NOW).can_book_again is False
    assert cancel(first.token).can_book_again is True

    again = _book_again(first.token, at(TUESDAY, "14:00"))
    assert (again.start, again.time_zone, again.call_kind) == (
        at(TUESDAY, "14:00"),
        NEW_YORK,
        "phone",
    )
    assert again.token != first.token and again.booking_id != first.booking_id
    assert "14:00" not in wall_times(slot_starts(TUESDAY))
    old, new = stored_request(first.quote_request_id), stored_request(again.quote_request_id)
    fields = ("name", "email", "company", "phone", "service", "budget", "timeline", "message")
    assert [getattr(new, name) for name in fields] == [getattr(old, name) for name in fields]
    assert wait_for_outgoing_mail(30)
    assert booking.managed_call(token=again.token, now=NOW).status == "booked"
    # The cancelled call stays cancelled; its link books no second call while one is to come.
    assert stored_booking(first.booking_id).status == "cancelled"
    assert refused(_book_again, first.token, at(TUESDAY, "16:00")) == (409, booking.ALREADY_BOOKED)


def test_two_clicks_on_book_another_time_at_once_book_one_call() -> None:
    """The "only call to come" rule is checked with the address's cap, in the booking's
    own transaction: two clicks racing for two free times still make one call."""
    add_host("Sam Sales")
    add_host("Kim Sales")
    first = book(at(TUESDAY, "10:00"))
    cancel(first.token)
    barrier = threading.Barrier(2)
    answers: list[tuple[int, str]] = []

    def click(start: datetime) -> None:
        barrier.wait()
        try:
            _book_again(first.token, start)
            answers.append((201, ""))
        except ServiceError as error:
            answers.append((error.status, error.message))

    clicks = [threading.Thread(target=click, args=(at(TUESDAY, t),)) for t in ("14:00", "15:00")]
    for thread in clicks:
        thread.start()
    for thread in clicks:
        thread.join()
    assert sorted(answers) == [(201, ""), (409, booking.ALREADY_BOOKED)]
    assert len([row for row in stored_bookings() if row.status == "booked"]) == 1


def test_only_a_cancelled_call_books_again() -> None:
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    assert refused(_book_again, receipt.token, at(TUESDAY, "14:00")) == (
        409,
        booking.NOT_CANCELLED,
    )
    assert refused(_book_again, "nope", at(TUESDAY, "14:00")) == (404, LINK_INVALID)
    assert len(stored_bookings()) == 1
