"""Book my call, as a buyer does it: a free time in their own zone, the invitation by
mail, a time taken meanwhile, the manage link's reschedule and cancel, at both widths."""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rcxsite import booking
from rcxsite.content import routes
from tests.support.booking_mail import invitation_in, parse_ics, plain_text
from tests.support.booking_site import only_host_on, rows_on
from tests.support.booking_ui import (
    MANAGE_LINK,
    api_book,
    fill_booking,
    first_free_time,
    quote_form,
)
from tests.support.browser import DESKTOP, PHONE, axe_violations, open_tab
from tests.support.live_server import LiveServer
from tests.support.smtp import Mailbox

NEW_YORK = "America/New_York"


@pytest.fixture
def host(live_site: LiveServer) -> str:
    """The one member who takes calls, at the default hours in London; their name."""
    name = f"Sam Host {uuid.uuid4().hex[:4]}"
    only_host_on(live_site, name)
    return name


@pytest.fixture
def new_yorker(browser, live_site: LiveServer) -> Iterator[Page]:
    with open_tab(browser, live_site, DESKTOP, time_zone=NEW_YORK) as tab:
        yield tab


def test_a_buyer_books_a_free_time_in_their_zone_and_gets_the_invitation(
    new_yorker: Page, live_site: LiveServer, site_mailbox: Mailbox, host: str
) -> None:
    form = quote_form(new_yorker)
    expect(
        form.get_by_text(re.compile(r"Times are shown in Eastern \w+ Time, New York"))
    ).to_be_visible()
    start = first_free_time(form)
    email = f"dana.{uuid.uuid4().hex[:6]}@example.com"
    fill_booking(form, email=email)
    form.get_by_role("button", name="Book my call").click()

    thanks = new_yorker.get_by_role("status").filter(has_text="Your call is booked.")
    expect(thanks).to_be_visible()
    expect(thanks).to_contain_text(f"Your call with {host} is on")
    expect(thanks).to_contain_text(f"({NEW_YORK}). It is a video call")
    expect(thanks).to_contain_text("An invitation has been emailed to you.")
    join = thanks.get_by_role("link", name="Join the video call")
    expect(join).to_have_attribute("href", re.compile(r"^https://meet\.jit\.si/RCX-[0-9a-f]{24}$"))
    room = join.get_attribute("href")
    begins = datetime.fromisoformat(start.replace("Z", "+00:00"))
    google = thanks.get_by_role("link", name="Add to Google Calendar")
    utc = f"{begins:%Y%m%dT%H%M%S}Z%2F{begins + timedelta(minutes=30):%Y%m%dT%H%M%S}Z"
    expect(google).to_have_attribute("href", re.compile(re.escape(f"dates={utc}")))
    outlook = thanks.get_by_role("link", name="Add to Outlook")
    expect(outlook).to_have_attribute("href", re.compile(f"startdt={begins:%Y-%m-%dT%H}%3A"))
    with new_yorker.expect_download() as saving:
        thanks.get_by_role("link", name="Download invitation (.ics)").click()
    saved = Path(saving.value.path()).read_text(encoding="utf-8")
    [saved_event] = parse_ics(saved).events
    assert saved_event.decoded("DTSTART") == begins
    change = thanks.get_by_role("link", name="Change or cancel")
    expect(change).to_have_attribute("href", re.compile(r"/booking/[A-Za-z0-9_-]+$"))

    [(status, host_name, owner)] = rows_on(
        live_site,
        "SELECT b.status, m.name, q.owner_id = m.id FROM booking b "
        "JOIN staff_member m ON m.id = b.host_id "
        "JOIN quote_request q ON q.id = b.quote_request_id WHERE b.email_key = :e",
        e=email,
    )
    assert (status, host_name, owner) == ("booked", host, 1)

    mail = site_mailbox.wait_for(email)
    assert NEW_YORK in str(mail["Subject"])
    assert MANAGE_LINK.search(plain_text(mail)), "no manage link in the visitor's mail"
    invitation = invitation_in(mail)
    assert invitation.method == "REQUEST"
    [event] = invitation.calendar.walk("VEVENT")
    assert event.decoded("DTSTART") == datetime.fromisoformat(start.replace("Z", "+00:00"))
    assert (str(event["LOCATION"]), str(event["URL"])) == (room, room)
    assert f"Join the video call here:\n{room}" in plain_text(mail).replace("\r\n", "\n")
    assert invitation.calendar.get_missing_tzids() == set()


def test_a_time_taken_meanwhile_is_said_and_nothing_typed_is_lost(
    page: Page, live_site: LiveServer, host: str
) -> None:
    form = quote_form(page)
    start = first_free_time(form)
    email = f"late.{uuid.uuid4().hex[:6]}@example.com"
    fill_booking(form, email=email)
    # Someone else books that very time (through the API) while this visitor types.
    assert api_book(live_site.url, start, f"rival.{uuid.uuid4().hex[:6]}@example.com")[0] == 201
    form.get_by_role("button", name="Book my call").click()

    expect(form.get_by_role("alert")).to_have_text(booking.TAKEN)
    expect(form.get_by_label("Name")).to_have_value("Dana Buyer")
    expect(form.get_by_label("Work email")).to_have_value(email)
    expect(form.get_by_label("Tell us about your project")).to_have_value(
        "We need a booking site for 40 clinics."
    )
    # Fresh times: the taken one is no longer offered; another can be booked at once.
    expect(form.locator(f".slot-radio[value='{start}']")).to_have_count(0)
    first_free_time(form)
    form.get_by_role("button", name="Book my call").click()
    expect(page.get_by_role("status").filter(has_text="Your call is booked.")).to_be_visible()


def test_the_manage_link_moves_then_cancels_the_call_and_old_links_say_so(
    page: Page, live_site: LiveServer, site_mailbox: Mailbox, host: str
) -> None:
    form = quote_form(page)
    first = first_free_time(form)
    email = f"mover.{uuid.uuid4().hex[:6]}@example.com"
    fill_booking(form, email=email)
    form.get_by_role("button", name="Book my call").click()
    expect(page.get_by_role("status").filter(has_text="Your call is booked.")).to_be_visible()
    match = MANAGE_LINK.search(plain_text(site_mailbox.wait_for(email)))
    assert match is not None
    link = match.group(0).replace(live_site.url, "")

    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text(routes.BOOKING.title)
    expect(page.get_by_text(host, exact=True)).to_be_visible()
    join = page.get_by_role("link", name="Join the video call")
    expect(join).to_have_attribute("href", re.compile(r"^https://meet\.jit\.si/RCX-"))
    room = join.get_attribute("href")
    for name in ("Add to Google Calendar", "Add to Outlook", "Download invitation (.ics)"):
        expect(page.get_by_role("link", name=name)).to_be_visible()
    page.get_by_role("button", name="Reschedule").click()
    moved_to = page.locator(f".slot-radio:not([value='{first}'])").first
    expect(moved_to).to_be_attached()
    moved_to.check()
    page.get_by_role("button", name="Move my call").click()
    expect(page.get_by_role("status").filter(has_text="is now on")).to_be_visible()
    # The form that was above it is gone: the news is shown and read out.
    expect(page.get_by_role("status").filter(has_text="is now on")).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="is now on")).to_be_in_viewport()
    expect(page.get_by_text("Booked (moved)")).to_be_visible()
    # A move keeps the call's room.
    expect(page.get_by_role("link", name="Join the video call")).to_have_attribute(
        "href", room or ""
    )
    [(sequence, status)] = rows_on(
        live_site, "SELECT sequence, status FROM booking WHERE email_key = :e", e=email
    )
    assert (sequence, status) == (1, "moved")

    page.get_by_role("button", name="Cancel the call").click()
    page.get_by_label("Reason (optional)").fill("We found an in-house team.")
    page.get_by_role("button", name="Yes, cancel the call").click()
    expect(page.get_by_text("Your call is cancelled.", exact=False)).to_be_visible()
    [(latest,)] = rows_on(
        live_site,
        "SELECT new_value FROM quote_change WHERE field = 'call' ORDER BY id DESC LIMIT 1",
    )
    assert latest == "Cancelled by the visitor: We found an in-house team."
    expect(page.get_by_text(booking.CANCELLED_NOTICE)).to_be_visible()
    # The same link later, in a new tab: the call can no longer be changed from it.
    page.goto(link)
    expect(page.get_by_text(booking.CANCELLED_NOTICE)).to_be_visible()
    expect(page.get_by_role("button", name="Reschedule")).to_have_count(0)


def test_after_a_cancel_the_page_books_another_time_with_the_same_details(
    any_page: Page, live_site: LiveServer, site_mailbox: Mailbox, host: str
) -> None:
    page = any_page
    form = quote_form(page)
    first = first_free_time(form)
    email = f"again.{uuid.uuid4().hex[:6]}@example.com"
    fill_booking(form, email=email)
    form.get_by_role("button", name="Book my call").click()
    expect(page.get_by_role("status").filter(has_text="Your call is booked.")).to_be_visible()
    match = MANAGE_LINK.search(plain_text(site_mailbox.wait_for(email)))
    assert match is not None

    page.goto(match.group(0).replace(live_site.url, ""))
    page.get_by_role("button", name="Cancel the call").click()
    page.get_by_role("button", name="Yes, cancel the call").click()
    expect(page.get_by_text("Your call is cancelled.", exact=False)).to_be_visible()
    page.get_by_role("button", name="Book another time").click()
    again = page.get_by_role("form", name="Book another time")
    expect(again.locator(".slot-radio").first).to_be_attached()
    assert axe_violations(page) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"  # type: ignore[index]
    # The cancelled call's time is free again: the visitor may even take it back.
    again.locator(f".slot-radio[value='{first}']").check()
    again.get_by_role("button", name="Book this time").click()
    done = page.get_by_role("status").filter(has_text="Your call with")
    expect(done).to_be_focused()
    expect(done).to_be_in_viewport()
    expect(page.get_by_text("To change or cancel the new call", exact=False)).to_be_visible()
    expect(page.get_by_role("link", name="Add to Google Calendar")).to_be_visible()
    expect(page.get_by_role("button", name="Book another time")).to_have_count(0)
    # After the cancellation's mail, a new invitation with a manage link of its own, for a
    # call with the same details.
    after = [plain_text(site_mailbox.wait_for(email)) for _ in range(2)]
    # The cancellation's mail leads back to this page, where what they told us is kept.
    assert "is cancelled" in after[0] and match.group(0) in after[0]
    second = MANAGE_LINK.search(after[1])
    assert second is not None and second.group(0) != match.group(0)
    rows = rows_on(
        live_site,
        "SELECT b.status, q.company, q.message FROM booking b "
        "JOIN quote_request q ON q.id = b.quote_request_id WHERE b.email_key = :e ORDER BY b.id",
        e=email,
    )
    assert [status for status, _, _ in rows] == ["cancelled", "booked"]
    assert rows[0][1:] == rows[1][1:]


def test_the_slot_picker_fits_a_phone_and_has_no_axe_violation(
    browser, live_site: LiveServer, host: str
) -> None:
    with open_tab(browser, live_site, PHONE) as phone:
        form = quote_form(phone)
        first_free_time(form)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
        assert axe_violations(phone) == []
        phone.keyboard.press("Tab")  # the radios are reachable and named by their time
        slots = form.locator(".slot-picker")
        expect(slots.get_by_role("radio").first).to_have_accessible_name(
            re.compile(r"^(\d\d:\d\d|\d{1,2}:\d\d (AM|PM))$")
        )


def test_a_phone_call_asks_for_the_number_and_says_who_calls(
    any_page: Page, live_site: LiveServer, host: str
) -> None:
    page = any_page
    form = quote_form(page)
    form.get_by_role("radio", name="Phone call", exact=True).check()
    first_free_time(form)
    fill_booking(form, email=f"phoner.{uuid.uuid4().hex[:6]}@example.com")
    form.get_by_role("button", name="Book my call").click()
    expect(form.get_by_text("Please give the number we should call")).to_be_visible()
    # Chosen a phone call, the number is required, and its label says so.
    expect(form.get_by_label("Phone", exact=True)).to_be_focused()
    expect(form.get_by_label("Phone", exact=True)).to_have_attribute("aria-required", "true")
    form.get_by_label("Phone", exact=True).fill("+44 161 496 0000")
    form.get_by_role("button", name="Book my call").click()
    thanks = page.get_by_role("status").filter(has_text="Your call is booked.")
    expect(thanks).to_contain_text(f"{host} will call you on +44 161 496 0000.")
    expect(thanks.get_by_role("link", name="Join the video call")).to_have_count(0)


TWELVE_HOUR = re.compile(r"^(1[0-2]|[1-9]):[0-5][0-9] (AM|PM)$")
TWENTY_FOUR_HOUR = re.compile(r"^[0-2][0-9]:[0-5][0-9]$")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_a_visitor_in_calcutta_sees_kolkata_on_their_clock_and_finds_another_zone(
    browser, live_site: LiveServer, host: str, viewport: dict[str, int]
) -> None:
    with open_tab(browser, live_site, viewport, time_zone="Asia/Calcutta", locale="en-US") as tab:
        form = quote_form(tab)
        expect(
            form.get_by_text("Times are shown in India Standard Time, Kolkata (GMT+5:30)")
        ).to_be_visible()
        expect(form.locator("input[name=time_zone]")).to_have_value("Asia/Kolkata")
        first = form.locator(".slot-time").first
        expect(first).to_have_text(TWELVE_HOUR)  # en-US reads "4:30 PM"
        form.get_by_role("button", name="24-hour").click()
        expect(first).to_have_text(TWENTY_FOUR_HOUR)
        form.get_by_role("button", name="12-hour").click()
        expect(first).to_have_text(TWELVE_HOUR)

        form.get_by_role("button", name="Change time zone").click()
        search = form.get_by_label("Find your time zone")
        expect(search).to_be_focused()
        expect(
            form.get_by_text(re.compile(r"^\d+ time zones: the first 40 are shown"))
        ).to_be_visible()
        search.fill("GMT+5:30")
        expect(form.get_by_text("2 time zones found.")).to_be_visible()
        search.fill("new york")
        expect(form.get_by_text("1 time zone found.")).to_be_visible()
        width = tab.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the form is {width} px wide with the zone search"
        assert axe_violations(tab) == []
        if shots := os.environ.get("RCX_SCREENSHOTS"):
            tab.screenshot(path=f"{shots}/zone-search-{viewport['width']}.png", full_page=True)
        form.get_by_role("button", name=re.compile(r"^Eastern \w+ Time, New York")).click()
        expect(
            form.get_by_text(re.compile(r"Times are shown in Eastern \w+ Time, New York"))
        ).to_be_visible()
        expect(form.locator("input[name=time_zone]")).to_have_value(NEW_YORK)

        first_free_time(form)
        email = f"kiran.{uuid.uuid4().hex[:6]}@example.com"
        fill_booking(form, email=email)
        form.get_by_role("button", name="Book my call").click()
        thanks = tab.get_by_role("status").filter(has_text="Your call is booked.")
        expect(thanks).to_contain_text(
            re.compile(r" at (1[0-2]|[1-9]):[0-5][0-9] (AM|PM) \(America/New_York\)")
        )
        if shots := os.environ.get("RCX_SCREENSHOTS"):
            tab.screenshot(path=f"{shots}/confirmation-{viewport['width']}.png", full_page=True)
        [(zone,)] = rows_on(
            live_site, "SELECT visitor_time_zone FROM booking WHERE email_key = :e", e=email
        )
        assert zone == NEW_YORK


def test_an_en_gb_visitor_reads_a_24_hour_clock(browser, live_site: LiveServer, host: str) -> None:
    with open_tab(browser, live_site, time_zone="Europe/Kiev", locale="en-GB") as tab:
        form = quote_form(tab)
        expect(
            form.get_by_text(re.compile(r"Times are shown in Eastern European \w+ Time, Kyiv"))
        ).to_be_visible()
        expect(form.locator(".slot-time").first).to_have_text(TWENTY_FOUR_HOUR)
