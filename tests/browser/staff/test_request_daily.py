"""One quote request worked as a salesperson's day needs it, in Chromium at 1280 and
375 px: tap to mail or call, "Assign to me", status, reason and owner in one form with one
Save (history and audit as before), a note box as wide as its column, "Mark as spam" a
quiet button after the form, the sender's account summary without the customers pages,
and every time on the member's own clock with its zone named. axe and the
Content-Security-Policy are checked on every state shown."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import create_engine, text

from rcxsite.content import routes
from rcxsite.staff.inbox_inputs import REASON_REQUIRED
from tests.support.accounts_ui import create_customer, unique_email
from tests.support.browser import axe_violations
from tests.support.csp import watch_csp
from tests.support.customers import mark_verified_on
from tests.support.live_server import LiveServer
from tests.support.quotes import add_quotes_on
from tests.support.staff_ui import signed_in_member

MEMBER_ZONE = "Asia/Kolkata"
IN_MEMBER_ZONE = re.compile(r"\d{2} \w{3} \d{4}, \d{2}:\d{2} \(Asia/Kolkata\)")
PHONE_TYPED = "+44 (20) 7946-0000"


def _no_axe(page: Page, what: str) -> None:
    expect(page.locator("h1")).to_be_visible()
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    assert axe_violations(page) == [], what


def _sql(site: LiveServer, statement: str, **values: object) -> None:
    engine = create_engine(site.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text(statement), values)
    finally:
        engine.dispose()


def _member_zone(site: LiveServer, email: str, zone: str) -> None:
    """The member's own time zone, as they would set it on their availability page."""
    _sql(
        site,
        "UPDATE staff_member SET time_zone = :zone WHERE email = :email",
        zone=zone,
        email=email,
    )


def _request(site: LiveServer, email: str, company: str) -> int:
    [quote_id] = add_quotes_on(site, 1, company=company, email=email)
    _sql(
        site,
        "UPDATE quote_request SET phone = :phone WHERE id = :id",
        phone=PHONE_TYPED,
        id=quote_id,
    )
    return quote_id


def _fact(page: Page, term: str) -> Locator:
    """The value of one of the request's facts."""
    return (
        page.locator(".staff-facts .account-fact")
        .filter(has=page.locator("dt", has_text=re.compile(f"^{re.escape(term)}$")))
        .locator("dd")
    )


def _section(page: Page, heading: str) -> Locator:
    return page.locator("section").filter(has=page.get_by_role("heading", name=heading))


def _fits_the_width(page: Page) -> bool:
    return page.evaluate(
        "document.scrollingElement.scrollWidth <= document.documentElement.clientWidth"
    )


def _note_box_fills_its_column(page: Page) -> None:
    note_box = page.get_by_label("Note", exact=True).bounding_box()
    notes_column = _section(page, "Internal notes").bounding_box()
    assert note_box and notes_column and note_box["width"] >= 0.95 * notes_column["width"]


def _assign_to_me(page: Page, my_name: str) -> None:
    page.get_by_role("button", name="Assign to me").click()
    expect(page.get_by_role("status")).to_have_text("Assigned to you.")
    expect(_fact(page, "Current owner")).to_have_text(my_name)


def test_sales_work_a_request_in_one_form_with_links_account_and_their_own_clock(
    page: Page, live_site: LiveServer
) -> None:
    csp = watch_csp(page)
    customer = unique_email("dailylead")
    create_customer(live_site.url, customer, company="Harbour Dental")
    mark_verified_on(live_site, customer)
    _sql(
        live_site,
        "UPDATE customer SET subscription_plan_id = 102, plan_duration_id = 2, is_trial = :no"
        " WHERE email_key = :email",
        no=False,
        email=customer.lower(),
    )
    quote_id = _request(live_site, customer, "Harbour Dental")
    me = signed_in_member(page, live_site, "sales")
    _member_zone(live_site, me.email, MEMBER_ZONE)

    page.goto(routes.staff_quote_path(quote_id))
    expect(page.get_by_role("heading", name="Quote request from Lead 000")).to_be_visible()
    _no_axe(page, "one request at 1280 px")

    # Mail and call at a tap, the text as the visitor typed it.
    mail = _fact(page, "Email").get_by_role("link")
    expect(mail).to_have_text(customer)
    expect(mail).to_have_attribute("href", f"mailto:{customer}")
    call = _fact(page, "Phone").get_by_role("link")
    expect(call).to_have_text(PHONE_TYPED)
    expect(call).to_have_attribute("href", "tel:+442079460000")
    # Times on the member's clock, the zone named.
    expect(_fact(page, "Received")).to_have_text(IN_MEMBER_ZONE)

    # The sender's account, read-only; its customer page stays closed to sales.
    account = _section(page, "Customer account")
    expect(account.locator("dd").nth(0)).to_have_text("Test Customer")
    expect(account.locator("dd").nth(1)).to_have_text("Growth (Yearly)")
    expect(account.locator("dd").nth(2)).to_have_text(re.compile(r"^\d{2} \w{3} \d{4}$"))
    expect(page.get_by_role("link", name="Open the customer's account")).to_have_count(0)

    # "Mark as spam" is a quiet button after the form, not in the heading.
    work = page.get_by_role("form", name="Work on this request")
    spam = page.get_by_role("button", name="Mark as spam")
    expect(page.locator(".staff-heading").get_by_role("button")).to_have_count(0)
    expect(spam).not_to_have_class(re.compile(r"button-primary"))
    save = work.get_by_role("button", name="Save")
    assert spam.bounding_box()["y"] > save.bounding_box()["y"]  # type: ignore[index]

    # The note box is as wide as its column.
    _note_box_fills_its_column(page)

    # One click makes the request the member's.
    _assign_to_me(page, me.name)
    expect(page.get_by_role("button", name="Assign to me")).to_have_count(0)
    expect(work.get_by_label("Owner", exact=True)).to_have_value(re.compile(r"^\d+$"))

    # Status, reason and owner: one form, one Save, the separate forms' messages.
    work.get_by_label("Status", exact=True).select_option("lost")
    save.click()
    expect(page.locator("#quote-reason-error")).to_have_text(REASON_REQUIRED)
    _no_axe(page, "a refused save at 1280 px")
    work.get_by_label("Reason", exact=True).fill("Chose a local agency")
    work.get_by_label("Owner", exact=True).select_option(label="Unassigned")
    save.click()
    expect(page.get_by_role("status")).to_have_text(
        "Status changed to Lost. Owner changed to Unassigned."
    )
    expect(_fact(page, "Current status")).to_have_text("Lost: Chose a local agency")
    expect(page.get_by_role("button", name="Assign to me")).to_be_visible()
    _no_axe(page, "a saved request at 1280 px")

    # Each change is its own history line, on the member's clock.
    history = _section(page, "History").locator("li")
    expect(history).to_have_count(3)
    expect(history.nth(0)).to_contain_text(f"Owner: Unassigned → {me.name}")
    expect(history.nth(1)).to_contain_text("Status: New → Lost: Chose a local agency")
    expect(history.nth(2)).to_contain_text(f"Owner: {me.name} → Unassigned")
    for line in range(3):
        expect(history.nth(line).locator(".staff-entry-meta")).to_have_text(
            re.compile(re.escape(me.name) + r" · " + IN_MEMBER_ZONE.pattern)
        )

    page.get_by_label("Note", exact=True).fill("Their budget returns in spring.")
    page.get_by_role("button", name="Add note").click()
    expect(page.get_by_role("status")).to_have_text("Note added.")
    expect(_section(page, "Internal notes").locator(".staff-entry-meta")).to_have_text(
        re.compile(IN_MEMBER_ZONE.pattern)
    )
    assert csp == []
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_sales_on_a_phone_assign_and_mark_spam(phone: Page, live_site: LiveServer) -> None:
    page = phone
    csp = watch_csp(page)
    # An account whose owner never proved the address is theirs counts as none.
    unproven = unique_email("unproven")
    create_customer(live_site.url, unproven, company="Quay Pharmacy")
    quote_id = _request(live_site, unproven, "Quay Pharmacy")
    me = signed_in_member(page, live_site, "sales")
    _member_zone(live_site, me.email, MEMBER_ZONE)

    page.goto(routes.staff_quote_path(quote_id))
    expect(page.get_by_role("heading", name="Quote request from Lead 000")).to_be_visible()
    expect(_section(page, "Customer account")).to_contain_text("No account")
    expect(_fact(page, "Phone").get_by_role("link")).to_have_attribute("href", "tel:+442079460000")
    expect(_fact(page, "Email").get_by_role("link")).to_have_attribute("href", f"mailto:{unproven}")
    assert _fits_the_width(page)
    _no_axe(page, "one request at 375 px")

    _note_box_fills_its_column(page)

    _assign_to_me(page, me.name)

    # The quiet spam button still works, and the request can be rescued from the top.
    page.get_by_role("button", name="Mark as spam").click()
    expect(page.get_by_role("status")).to_have_text("Marked as spam.")
    expect(page.locator(".staff-heading").get_by_role("button", name="Not spam")).to_be_visible()
    expect(page.get_by_role("button", name="Mark as spam")).to_have_count(0)
    assert _fits_the_width(page)
    _no_axe(page, "a spam request at 375 px")
    page.get_by_role("button", name="Not spam").click()
    expect(page.get_by_role("status")).to_have_text("Moved back to New.")
    expect(page.get_by_role("button", name="Mark as spam")).to_be_visible()
    expect(_section(page, "History").locator("li")).to_have_count(3)
    assert csp == []
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_support_read_the_summary_and_may_open_the_account_but_not_work_the_request(
    page: Page, live_site: LiveServer
) -> None:
    csp = watch_csp(page)
    customer = unique_email("supportlead")
    create_customer(live_site.url, customer, company="Fenwick Clinics")
    mark_verified_on(live_site, customer)
    quote_id = _request(live_site, customer, "Fenwick Clinics")
    signed_in_member(page, live_site, "support")

    page.goto(routes.staff_quote_path(quote_id))
    expect(page.get_by_role("heading", name="Quote request from Lead 000")).to_be_visible()
    account = _section(page, "Customer account")
    expect(account.locator("dd").nth(0)).to_have_text("Test Customer")
    expect(account.locator("dd").nth(1)).to_have_text("No plan")
    # Times in the company's zone for a member who chose none.
    expect(_fact(page, "Received")).to_have_text(re.compile(r"\(Europe/London\)$"))
    expect(page.get_by_role("form", name="Work on this request")).to_have_count(0)
    expect(page.get_by_role("button", name="Assign to me")).to_have_count(0)
    expect(page.get_by_role("button", name="Mark as spam")).to_have_count(0)
    _no_axe(page, "one request as support at 1280 px")

    account.get_by_role("link", name="Open the customer's account").click()
    expect(page.get_by_role("heading", name="Test Customer")).to_be_visible()
    assert csp == []
