"""The .ics invitation of a booked call, parsed back as a calendar would: no parser error,
every TZID with its VTIMEZONE, the same UID from the first invitation to the cancellation
with a growing SEQUENCE, and the right instant across a change of the clocks."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from icalendar import Event, Timezone

from rcxsite.booking.invitation import PRODID, CallInvite, invitation_ics
from tests.support.booking_mail import parse_ics

NEW_YORK = "America/New_York"
# Monday 15 March 2027, 09:00 in New York: the day after the US clocks went forward.
AFTER_US_CHANGE = datetime(2027, 3, 15, 13, 0, tzinfo=UTC)


def _invite(**changes: object) -> CallInvite:
    invite = CallInvite(
        uid="booking-7-3f9a1c2b4d5e@rcx.example",
        sequence=0,
        start=AFTER_US_CHANGE,
        end=AFTER_US_CHANGE + timedelta(minutes=30),
        time_zone=NEW_YORK,
        summary="Call with RCX (Sam Sales)",
        description="RCX call with Sam Sales.\n\nTo reschedule or cancel: https://rcx.example/booking/tok",
        location="https://meet.jit.si/RCX-0123456789abcdef01234567",
        manage_url="https://meet.jit.si/RCX-0123456789abcdef01234567",
        organizer_name="Sam Sales",
        organizer_email="sam@rcx.example",
        attendee_name="Alice Smith",
        attendee_email="alice@client.example",
        stamp=datetime(2027, 3, 1, 10, 15, 30, tzinfo=UTC),
    )
    return replace(invite, **changes)  # type: ignore[arg-type]


def _event(text: str) -> Event:
    calendar = parse_ics(text)
    [event] = calendar.events
    return event


def test_a_request_says_who_when_and_where_to_change_it() -> None:
    text = invitation_ics(_invite(), method="REQUEST")
    calendar = parse_ics(text)
    assert str(calendar["VERSION"]) == "2.0"
    assert str(calendar["PRODID"]) == PRODID == "-//RCX//Booking//EN"
    assert str(calendar["METHOD"]) == "REQUEST"
    assert "UID" not in calendar  # the event's UID is the one that counts
    event = _event(text)
    assert str(event["UID"]) == "booking-7-3f9a1c2b4d5e@rcx.example"
    assert event.sequence == 0
    assert str(event["STATUS"]) == "CONFIRMED"
    assert str(event["SUMMARY"]) == "Call with RCX (Sam Sales)"
    assert str(event["DESCRIPTION"]).endswith(
        "To reschedule or cancel: https://rcx.example/booking/tok"
    )
    assert str(event["URL"]) == "https://meet.jit.si/RCX-0123456789abcdef01234567"
    assert datetime(2027, 3, 1, 10, 15, 30, tzinfo=UTC) == event.DTSTAMP
    assert "DTSTAMP:20270301T101530Z\r\n" in text
    # On the reader's wall clock, with the zone named...
    assert "DTSTART;TZID=America/New_York:20270315T090000\r\n" in text
    assert "DTEND;TZID=America/New_York:20270315T093000\r\n" in text
    # ...and the same instant.
    assert event.start == AFTER_US_CHANGE and event.end == AFTER_US_CHANGE + timedelta(minutes=30)
    organizer = event["ORGANIZER"]
    assert str(organizer) == "mailto:sam@rcx.example" and organizer.params["CN"] == "Sam Sales"
    [attendee] = event.attendees
    assert str(attendee) == "mailto:alice@client.example"
    assert dict(attendee.params) == {
        "CN": "Alice Smith",
        "ROLE": "REQ-PARTICIPANT",
        "PARTSTAT": "NEEDS-ACTION",
        "RSVP": "TRUE",
    }


def test_lines_end_in_crlf_and_are_folded_at_75_octets() -> None:
    text = invitation_ics(_invite(description="A long line. " * 30), method="REQUEST")
    assert text.endswith("\r\n")
    lines = text.split("\r\n")
    assert "\n" not in "".join(lines), "a bare LF"
    assert max(len(line.encode()) for line in lines) <= 75


def test_names_and_texts_with_commas_semicolons_and_lines_come_back_unchanged() -> None:
    description = "First line, with a comma; and a semicolon.\nSecond line: done."
    invite = _invite(
        attendee_name='Zoë "Z" Müller, Jr; CEO',
        organizer_name="Sam O'Sales",
        description=description,
        summary="Call with RCX, Sam; and you",
    )
    event = _event(invitation_ics(invite, method="REQUEST"))
    assert str(event["DESCRIPTION"]) == description
    assert str(event["SUMMARY"]) == "Call with RCX, Sam; and you"
    assert event.attendees[0].params["CN"] == 'Zoë "Z" Müller, Jr; CEO'
    assert event["ORGANIZER"].params["CN"] == "Sam O'Sales"


def test_a_cancellation_keeps_the_uid_with_a_higher_sequence() -> None:
    first = _event(invitation_ics(_invite(), method="REQUEST"))
    later = AFTER_US_CHANGE + timedelta(days=1)
    moved = _event(
        invitation_ics(
            _invite(sequence=1, start=later, end=later + timedelta(minutes=30)), method="REQUEST"
        )
    )
    cancel_text = invitation_ics(_invite(sequence=2), method="CANCEL")
    cancelled = _event(cancel_text)
    assert str(first["UID"]) == str(moved["UID"]) == str(cancelled["UID"])
    assert first.sequence < moved.sequence < cancelled.sequence
    assert str(parse_ics(cancel_text)["METHOD"]) == "CANCEL"
    assert str(cancelled["STATUS"]) == "CANCELLED"
    # A cancellation still names the organizer and attendee (RFC 5546, 3.2.5).
    assert str(cancelled["ORGANIZER"]) == "mailto:sam@rcx.example"
    assert [str(a) for a in cancelled.attendees] == ["mailto:alice@client.example"]


def test_the_same_call_gives_the_same_text() -> None:
    # Nothing random (icalendar's `Calendar.new` adds a random calendar UID): a retried
    # mail or a test can compare invitations.
    assert invitation_ics(_invite(), method="REQUEST") == invitation_ics(
        _invite(), method="REQUEST"
    )


def _utc_by_its_own_vtimezone(text: str) -> tuple[datetime, datetime]:
    """DTSTART/DTEND as the invitation's own VTIMEZONE defines them, not this machine's
    zoneinfo: what a calendar without that zone's rules would make of them."""
    calendar = parse_ics(text)
    [timezone] = calendar.timezones
    assert isinstance(timezone, Timezone)
    rules = timezone.to_tz(lookup_tzid=False)
    event = calendar.events[0]
    assert isinstance(event.start, datetime) and isinstance(event.end, datetime)
    naive_start = event.start.replace(tzinfo=None)
    naive_end = event.end.replace(tzinfo=None)
    return (
        naive_start.replace(tzinfo=rules).astimezone(UTC),
        naive_end.replace(tzinfo=rules).astimezone(UTC),
    )


def test_new_york_times_across_the_us_change_of_2027_03_14_give_the_right_utc() -> None:
    zone = ZoneInfo(NEW_YORK)
    for wall, utc in (
        (datetime(2027, 3, 12, 9, 0, tzinfo=zone), datetime(2027, 3, 12, 14, 0, tzinfo=UTC)),
        (datetime(2027, 3, 15, 9, 0, tzinfo=zone), datetime(2027, 3, 15, 13, 0, tzinfo=UTC)),
        # The change day itself: 03:30 exists only in daylight time.
        (datetime(2027, 3, 14, 3, 30, tzinfo=zone), datetime(2027, 3, 14, 7, 30, tzinfo=UTC)),
    ):
        start = wall.astimezone(UTC)
        assert start == utc
        text = invitation_ics(
            _invite(start=start, end=start + timedelta(minutes=30)), method="REQUEST"
        )
        assert f"DTSTART;TZID=America/New_York:{wall:%Y%m%dT%H%M%S}\r\n" in text
        assert _event(text).start == utc
        assert _utc_by_its_own_vtimezone(text) == (utc, utc + timedelta(minutes=30))


def test_a_call_across_midnight_before_the_change_ends_at_the_right_time() -> None:
    # 01:45-02:15 EST would end in the skipped hour: it ends 03:15 EDT, still 30 minutes.
    start = datetime(2027, 3, 14, 6, 45, tzinfo=UTC)  # 01:45 EST
    text = invitation_ics(_invite(start=start, end=start + timedelta(minutes=30)), method="REQUEST")
    assert "DTEND;TZID=America/New_York:20270314T031500\r\n" in text
    assert _utc_by_its_own_vtimezone(text) == (start, start + timedelta(minutes=30))


def test_each_recipient_gets_their_own_zone_and_utc_needs_no_vtimezone() -> None:
    london = invitation_ics(_invite(time_zone="Europe/London"), method="REQUEST")
    assert "DTSTART;TZID=Europe/London:20270315T130000\r\n" in london
    assert [str(tz["TZID"]) for tz in parse_ics(london).timezones] == ["Europe/London"]
    utc = invitation_ics(_invite(time_zone="UTC"), method="REQUEST")
    assert "DTSTART:20270315T130000Z\r\n" in utc and "VTIMEZONE" not in utc
    company = invitation_ics(_invite(time_zone=""), method="REQUEST")
    assert "TZID=Europe/London" in company  # "" = the company's zone


def test_the_call_s_place_is_its_location_and_a_phone_call_names_the_number() -> None:
    event = _event(invitation_ics(_invite(), method="REQUEST"))
    assert str(event["LOCATION"]) == "https://meet.jit.si/RCX-0123456789abcdef01234567"
    assert str(event["URL"]) == "https://meet.jit.si/RCX-0123456789abcdef01234567"
    phone = _event(invitation_ics(_invite(location="Phone: +44 161 496 0000"), method="REQUEST"))
    assert str(phone["LOCATION"]) == "Phone: +44 161 496 0000"
    assert "LOCATION" not in _event(invitation_ics(_invite(location=""), method="REQUEST"))
