"""Booked calls in the staff office, as a salesperson works them: turning calls on, the
booked call in My calls, the inbox and its request, the private calendar feed, at both
widths."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect

from rcxsite.content import routes
from tests.support.booking_site import nobody_takes_calls_on, rows_on
from tests.support.browser import DESKTOP, PHONE, axe_violations
from tests.support.calendars import calendar_text, event, ics_server
from tests.support.live_server import LiveServer
from tests.support.quotes import quote_fields
from tests.support.staff_ui import Member, signed_in_member


def _book_first_free_time(site: LiveServer, email: str) -> str:
    answer = urllib.request.urlopen(site.url + "/api/v1/Booking/Slots?days=14", timeout=20)
    start = json.load(answer)["data"]["slots"][0]["start"]
    fields = {
        key: value
        for key, value in quote_fields(
            email=email, name="Robin Visitor", company="Fernhill Labs"
        ).items()
        if key not in ("call_date", "call_time")
    }
    request = urllib.request.Request(
        site.url + "/api/v1/Booking",
        data=json.dumps({**fields, "start": start, "timeZone": "Asia/Kolkata"}).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=20) as booked:
        assert booked.status == 201
    return start


def _feed_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_salesperson_takes_calls_and_finds_the_booked_one_everywhere(
    page: Page, live_site: LiveServer
) -> None:
    member = signed_in_member(page, live_site, "sales")
    nobody_takes_calls_on(live_site)
    page.goto(routes.STAFF_AVAILABILITY.path)
    takes = page.get_by_label("Takes calls")
    expect(takes).not_to_be_checked()
    takes.check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text(re.compile(r"^Saved: you take calls"))).to_be_visible()

    _book_first_free_time(live_site, "robin@fernhill.example")
    [(host,)] = rows_on(
        live_site,
        "SELECT m.name FROM booking b JOIN staff_member m ON m.id = b.host_id "
        "WHERE b.email_key = 'robin@fernhill.example'",
    )
    assert host == member.name

    page.goto(routes.STAFF_CALLS.path)
    call = page.get_by_role("link", name=re.compile("Robin Visitor"))
    expect(call).to_be_visible()
    call.click()
    panel = page.get_by_role("region", name="Call")
    expect(panel).to_contain_text(member.name)
    expect(panel).to_contain_text("Asia/Kolkata")
    # The host marks the call once its time has come, not before.
    expect(page.get_by_role("button", name="Held")).to_have_count(0)

    # The private feed: shown once, fetched by a calendar app, revoked by "Regenerate".
    page.goto(routes.STAFF_CALLS.path)
    page.get_by_role("button", name="Create feed address").click()
    address = page.locator(".staff-link").filter(has_text="/staff/calendar/")
    expect(address).to_be_visible()
    feed = address.inner_text().strip()
    with urllib.request.urlopen(feed, timeout=20) as answer:
        assert answer.headers["Content-Type"].startswith("text/calendar")
        assert "Robin Visitor" in answer.read().decode()
    page.get_by_role("button", name="Regenerate feed address").click()
    expect(address).not_to_have_text(feed)
    assert _feed_status(feed) == 404


def test_availability_and_my_calls_fit_a_phone_without_axe_violations(
    page: Page, live_site: LiveServer
) -> None:
    signed_in_member(page, live_site, "sales")
    page.set_viewport_size(PHONE)
    for route in (routes.STAFF_AVAILABILITY, routes.STAFF_CALLS):
        page.goto(route.path)
        expect(page.get_by_role("heading", level=1)).to_have_text(route.title)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{route.path} is {width} px wide on a phone"
        assert axe_violations(page) == [], route.path
        if shots := os.environ.get("RCX_SCREENSHOTS"):
            name = route.path.strip("/").replace("/", "-")
            for viewport in (PHONE, DESKTOP):
                page.set_viewport_size(viewport)
                page.screenshot(path=f"{shots}/{name}-{viewport['width']}.png", full_page=True)
            page.set_viewport_size(PHONE)


LUNCH_BREAK = "09:00-12:30, 13:30-17:30"


def _company_wall_times(site: LiveServer) -> set[str]:
    """The wall times (company zone, the member's) of the free slots of the next 14 days."""
    answer = urllib.request.urlopen(site.url + "/api/v1/Booking/Slots?days=14", timeout=20)
    zone = ZoneInfo("Europe/London")
    return {
        datetime.fromisoformat(slot["start"]).astimezone(zone).strftime("%H:%M")
        for slot in json.load(answer)["data"]["slots"]
    }


def _the_only_host(page: Page, live_site: LiveServer, viewport: dict[str, int]) -> Member:
    """A salesperson signed in on Availability at `viewport`, who turned calls on there
    and is the only member taking calls."""
    member = signed_in_member(page, live_site, "sales")
    nobody_takes_calls_on(live_site)
    page.set_viewport_size(viewport)
    page.goto(routes.STAFF_AVAILABILITY.path)
    page.get_by_label("Takes calls").check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text(re.compile(r"^Saved: you take calls"))).to_be_visible()
    return member


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_a_lunch_break_copied_to_every_weekday_leaves_its_gap(
    page: Page, live_site: LiveServer, viewport: dict[str, int]
) -> None:
    member = _the_only_host(page, live_site, viewport)

    monday = page.get_by_label("Monday", exact=True)
    expect(monday).to_have_value("09:00-17:30")  # the default week until saved
    # Overlapping intervals: the field's message, and what was typed stays.
    monday.fill("09:00-12:30, 12:00-17:00")
    page.get_by_role("button", name="Save weekly hours").click()
    expect(page.get_by_text("09:00-12:30 and 12:00-17:00 overlap")).to_be_visible()
    expect(monday).to_have_attribute("aria-invalid", "true")
    expect(monday).to_have_value("09:00-12:30, 12:00-17:00")

    monday.fill(LUNCH_BREAK)
    page.get_by_label("Saturday", exact=True).fill("10:00-12:00")
    page.get_by_role("button", name="Copy Monday’s hours to every weekday").click()
    for day in ("Tuesday", "Wednesday", "Thursday", "Friday"):
        expect(page.get_by_label(day, exact=True)).to_have_value(LUNCH_BREAK)
    expect(page.get_by_label("Saturday", exact=True)).to_have_value("10:00-12:00")
    expect(page.get_by_label("Sunday", exact=True)).to_have_value("")
    page.get_by_role("button", name="Save weekly hours").click()
    expect(page.get_by_text("Your weekly hours are saved.")).to_be_visible()
    page.reload()
    expect(page.get_by_label("Thursday", exact=True)).to_have_value(LUNCH_BREAK)
    [(rows,)] = rows_on(
        live_site,
        "SELECT count(*) FROM member_hours h JOIN staff_member m ON m.id = h.staff_member_id"
        " WHERE m.email = :email",
        email=member.email,
    )
    assert rows == 5 * 2 + 1
    # The visitors' times: the morning up to 12:00 and the afternoon from 13:30, no lunch.
    times = _company_wall_times(live_site)
    assert {"09:00", "12:00", "13:30", "17:00"} <= times
    assert not {"12:30", "13:00"} & times

    # A date override with two intervals, listed with both.
    day = date.today() + timedelta(days=20)
    page.get_by_label("Date", exact=True).fill(day.isoformat())
    page.get_by_label("Hours", exact=True).fill("14:00-15:00, 10:00-11:00")
    page.get_by_role("button", name="Add date").click()
    expect(page.get_by_text(re.compile(r": 10:00–11:00, 14:00–15:00 saved\.$"))).to_be_visible()
    expect(page.get_by_text(re.compile(r": 10:00–11:00 and 14:00–15:00$"))).to_be_visible()

    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide"
    assert axe_violations(page) == []
    if shots := os.environ.get("RCX_SCREENSHOTS"):
        page.screenshot(path=f"{shots}/availability-{viewport['width']}.png", full_page=True)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_a_member_connects_a_calendar_and_its_busy_times_leave_the_visitors_times(
    page: Page, live_site: LiveServer, viewport: dict[str, int]
) -> None:
    _the_only_host(page, live_site, viewport)
    before = _company_wall_times(live_site)
    assert "10:00" in before
    # A busy hour every day of the next weeks, 10:00-11:00 in London.
    today = date.today()
    with ics_server() as files:
        files.files["secret/basic.ics"] = calendar_text(
            event(
                "daily",
                f"{today:%Y%m%d}T100000",
                f"{today:%Y%m%d}T110000",
                zone="Europe/London",
                rrule="FREQ=DAILY;COUNT=20",
            )
        )
        section = page.get_by_role("region", name="Your calendars")
        expect(section.get_by_text("No calendars connected.")).to_be_visible()
        address = section.get_by_label("Address")
        address.fill(f"{files.url}/missing.ics")
        section.get_by_role("button", name="Connect calendar").click()
        expect(
            section.get_by_text("There is no calendar at this address (HTTP 404).")
        ).to_be_visible()
        expect(address).to_have_attribute("aria-invalid", "true")
        expect(address).to_have_value(f"{files.url}/missing.ics")  # nothing typed is lost
        address.fill(f"{files.url}/secret/basic.ics")
        section.get_by_role("button", name="Connect calendar").click()
        expect(
            page.get_by_text(re.compile(r"^Calendar connected\. Synced: \d+ busy times? found\.$"))
        ).to_be_visible()
        expect(section.get_by_text("iCal address 127.0.0.1/…")).to_be_visible()
        expect(section.get_by_text(re.compile(r"^Synced .*: \d+ busy times?\.$"))).to_be_visible()
        after = _company_wall_times(live_site)
        assert "10:00" not in after and "10:30" not in after and "11:00" in after
        # CalDAV asks for its sign-in.
        section.get_by_label("Kind").select_option("caldav")
        expect(section.get_by_label("User name")).to_be_visible()
        expect(section.get_by_label("App password")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the page is {width} px wide"
        assert axe_violations(page) == []
        if shots := os.environ.get("RCX_SCREENSHOTS"):
            page.screenshot(path=f"{shots}/calendars-{viewport['width']}.png", full_page=True)
        section.get_by_role("button", name=re.compile("^Remove calendar")).click()
        expect(section.get_by_text("No calendars connected.")).to_be_visible()
    assert "10:00" in _company_wall_times(live_site)
