"""The call for the visitor's own calendar: Google's and Outlook's template links with the
right UTC times, and the .ics file; none of them holds the manage link."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, unquote, urlsplit

from rcxsite import booking
from rcxsite.booking.calendar_links import (
    CalendarEntry,
    google_link,
    ics_data_url,
    outlook_link,
)
from tests.support.booking import MONDAY, NOW, add_host, at, book, cancel
from tests.support.booking_mail import parse_ics

# 10:00 in London in summer (BST) is 09:00 UTC.
SUMMER = datetime(2027, 6, 1, 9, 0, tzinfo=UTC)
ENTRY = CalendarEntry(
    title="Call with RCX (Sam Sales)",
    start=SUMMER,
    end=SUMMER + timedelta(minutes=30),
    details="Your call with RCX. Join the video call here:\nhttps://meet.jit.si/RCX-abc",
    location="https://meet.jit.si/RCX-abc",
)


def _query(link: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(link).query).items()}


def test_google_s_link_carries_the_utc_start_and_end() -> None:
    link = google_link(ENTRY)
    assert link.startswith("https://calendar.google.com/calendar/render?")
    query = _query(link)
    assert query["action"] == "TEMPLATE"
    assert query["dates"] == "20270601T090000Z/20270601T093000Z"
    assert (query["text"], query["location"]) == (ENTRY.title, ENTRY.location)
    assert query["details"] == ENTRY.details


def test_outlook_s_link_carries_the_utc_start_and_end() -> None:
    query = _query(outlook_link(ENTRY))
    assert (query["startdt"], query["enddt"]) == ("2027-06-01T09:00:00Z", "2027-06-01T09:30:00Z")
    assert (query["subject"], query["rru"]) == (ENTRY.title, "addevent")


def test_a_booked_call_s_calendar_has_its_time_and_room_and_no_manage_link() -> None:
    add_host("Sam Sales")
    start = at(MONDAY + timedelta(days=1), "10:00")
    receipt = book(start)
    calendar = receipt.calendar
    assert calendar is not None
    for text in (calendar.google, calendar.outlook, calendar.ics):
        assert receipt.token not in text and "/booking/" not in text
    assert receipt.meeting_url in unquote(calendar.google)
    href = ics_data_url(calendar.ics)
    assert href.startswith("data:text/calendar;charset=utf-8,")
    parsed = parse_ics(unquote(href.partition(",")[2]))
    [event] = parsed.events
    assert event.decoded("DTSTART") == start
    assert str(event["LOCATION"]) == receipt.meeting_url
    assert str(parsed["METHOD"]) == "PUBLISH"
    cancel(receipt.token)
    assert booking.managed_call(token=receipt.token, now=NOW).calendar is None
