"""Where a call happens: a video call at the host's own link or a room of its own, or a
phone call to the visitor's number; in the invitation (LOCATION, URL, description), the
mails, the reminders, the manage link's view and My account; kept by a move."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest

from rcxsite import booking
from rcxsite.booking import hours, notices
from rcxsite.booking.hours_inputs import CallSettingsInput
from rcxsite.booking.inputs import PHONE_FOR_CALL
from rcxsite.booking.meetings import MEETING_URL_INVALID
from rcxsite.core.service_errors import ServiceError
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.state.booking.availability import SETTINGS_FIELDS, _fields
from tests.support.booking import (
    MONDAY,
    NOW,
    add_host,
    at,
    book,
    booking_database,
    reschedule,
    stored_booking,
)
from tests.support.booking_mail import invitation_in, plain_text
from tests.support.fixtures import Configure
from tests.support.site import outbox_messages
from tests.support.staff import add_member

OWN_ROOM = "https://meet.google.com/abc-defg-hij"
TUESDAY = MONDAY + timedelta(days=1)


def _mails_to(address: str) -> list:
    return [mail for mail in outbox_messages() if address in str(mail["To"]).lower()]


def test_a_video_call_gets_a_room_of_its_own_everywhere_the_visitor_looks(
    configure: Configure,
) -> None:
    configure(meeting_url_template="https://video.example/rcx/{room}")
    add_host("Sam Sales")
    receipt = book(at(TUESDAY, "10:00"))
    room = receipt.meeting_url
    assert re.fullmatch(r"https://video\.example/rcx/[0-9a-f]{24}", room)
    assert book(at(TUESDAY, "11:00"), email="bob@client.example").meeting_url != room
    assert wait_for_outgoing_mail(30)

    [visitor] = _mails_to("alice@client.example")
    assert f"Join the video call here:\n{room}" in plain_text(visitor)
    [event] = invitation_in(visitor).calendar.events
    assert (str(event["LOCATION"]), str(event["URL"])) == (room, room)
    assert room in str(event["DESCRIPTION"])
    [host] = [mail for mail in outbox_messages() if "Call booked" in str(mail["Subject"])][:1]
    assert room in plain_text(host)
    call = booking.managed_call(token=receipt.token, now=NOW)
    assert (call.place, call.meeting_url) == (f"Video call: {room}", room)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    """Both ways a call is written (rcxsite/booking/placement.py)."""
    with booking_database(request.param, configure) as kind:
        yield kind


def test_a_host_s_own_link_is_used_and_a_move_keeps_the_call_s_link(database: str) -> None:
    add_host("Sam Sales", meeting_url=OWN_ROOM)
    receipt = book(at(TUESDAY, "10:00"))
    assert receipt.meeting_url == OWN_ROOM
    moved = reschedule(receipt.token, at(TUESDAY, "14:00"))
    assert moved.meeting_url == OWN_ROOM
    assert stored_booking(receipt.booking_id).meeting_url == OWN_ROOM


def test_a_call_handed_to_another_host_leaves_the_old_host_s_own_room() -> None:
    sam = add_host("Sam Sales", meeting_url=OWN_ROOM, hours=[(1, "09:00", "12:00")])
    add_host("Ada Admin", role="admin", hours=[(1, "13:00", "17:00")])
    receipt = book(at(TUESDAY, "10:00"))
    assert stored_booking(receipt.booking_id).host_id == sam
    moved = reschedule(receipt.token, at(TUESDAY, "14:00"))
    assert moved.host_name == "Ada Admin"
    assert moved.meeting_url not in ("", OWN_ROOM)


def test_a_phone_call_needs_the_number_and_says_who_calls_whom() -> None:
    add_host("Sam Sales")
    with pytest.raises(ServiceError) as no_number:
        book(at(TUESDAY, "10:00"), call_kind="phone", phone="")
    assert no_number.value.fields["phone"] == PHONE_FOR_CALL
    receipt = book(at(TUESDAY, "10:00"), call_kind="phone", phone="+44 161 496 0000")
    assert (receipt.call_kind, receipt.meeting_url) == ("phone", "")
    assert "Sam Sales will call you on +44 161 496 0000." in receipt.next_steps
    assert wait_for_outgoing_mail(30)
    [visitor] = _mails_to("alice@client.example")
    assert "Sam Sales will call you on +44 161 496 0000." in plain_text(visitor)
    [event] = invitation_in(visitor).calendar.events
    assert str(event["LOCATION"]) == "Phone: +44 161 496 0000"
    [host] = [mail for mail in outbox_messages() if "Call booked" in str(mail["Subject"])]
    assert "Please call Alice Smith on +44 161 496 0000 at that time." in plain_text(host)


def test_a_reminder_carries_the_link() -> None:
    add_host("Sam Sales", meeting_url=OWN_ROOM)
    receipt = book(at(TUESDAY, "10:00"))
    row = stored_booking(receipt.booking_id)
    notices.send_reminder(
        booking_id=receipt.booking_id,
        sequence=row.sequence,
        hours=1,
        now=row.starts_at - timedelta(hours=1),
    )
    reminders = [mail for mail in outbox_messages() if "Reminder" in str(mail["Subject"])]
    assert reminders and f"Join the video call here:\n{OWN_ROOM}" in plain_text(reminders[-1])


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("http://meet.example/room", MEETING_URL_INVALID),
        ("meet.google.com/abc", MEETING_URL_INVALID),
        ("https://", MEETING_URL_INVALID),
        ("https://zoom.us/j/123 456", MEETING_URL_INVALID),
        ("javascript:alert(1)", MEETING_URL_INVALID),
        ("data:text/html,<script>alert(1)</script>", MEETING_URL_INVALID),
        ("https://meet.example/room\x00", MEETING_URL_INVALID),
        ("https://meet.example/\u202eroom", MEETING_URL_INVALID),
        ("https://user:secret@meet.example/room", MEETING_URL_INVALID),
        ("https://meet.example/" + "r" * 500, "The address must be at most 500 characters"),
    ],
)
def test_a_member_s_own_link_must_be_an_https_address(typed: str, message: str) -> None:
    with pytest.raises(ServiceError) as refused:
        CallSettingsInput.parse({"takes_calls": "on", "time_zone": "", "meeting_url": typed})
    assert refused.value.fields == {"meeting_url": message}


def test_a_member_sets_their_own_link_and_new_calls_use_it() -> None:
    admin = add_member("Ada Admin", "ada.own@rcx.example", "admin")
    sam = add_host("Sam Sales")
    change = CallSettingsInput.parse(
        {"takes_calls": "on", "time_zone": "", "meeting_url": f"  {OWN_ROOM}  "}
    )
    hours.set_call_settings(change, actor=admin, member_id=sam)
    assert hours.call_settings(actor=admin, member_id=sam).meeting_url == OWN_ROOM
    assert book(at(TUESDAY, "10:00")).meeting_url == OWN_ROOM


def test_a_long_teams_link_saved_on_the_page_is_kept_whole() -> None:
    teams = (
        "https://teams.microsoft.com/l/meetup-join/19%3ameeting_"
        + "N2Q4ZjM1YmEtZmU0OS00ZGM5LWI3NjEtYzQ5ZDE1NDhkMTNk" * 3
        + "%40thread.v2/0?context=%7b%22Tid%22%3a%22x%22%7d"
    )
    assert len(teams) > 150
    # What the Availability page hands to the input model (rcxsite/state/staff).
    form = _fields({"takes_calls": True, "time_zone": "", "meeting_url": teams}, SETTINGS_FIELDS)
    assert CallSettingsInput.parse(form).meeting_url == teams
