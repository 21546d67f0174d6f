"""The staff back office at work in Chromium: sales on a phone (search, paging, filters,
spam rescue, export), one request worked (status with a lost reason, owner, notes,
history), support acting on a customer, an admin's team changes and the audit log they
leave. axe and the Content-Security-Policy are checked on every page shown."""

from __future__ import annotations

import csv
import re
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from limits import parse
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

from rcxsite.accounts.locking import locked_message
from rcxsite.content import routes
from rcxsite.core.permissions import NO_ACCESS
from rcxsite.platform.settings import get_settings
from rcxsite.staff.inbox_inputs import REASON_REQUIRED
from rcxsite.staff.members import LAST_ADMIN
from tests.support.accounts_ui import (
    PASSWORD,
    create_customer,
    expect_signed_in_at_home,
    submit_login,
    unique_email,
)
from tests.support.browser import DESKTOP, PHONE, axe_violations, open_tab
from tests.support.csp import watch_csp
from tests.support.customers import mark_verified_on
from tests.support.live_server import LiveServer
from tests.support.quotes import add_quotes_on
from tests.support.smtp import Mailbox
from tests.support.staff_ui import (
    invite_on_team_page,
    invite_with_command,
    sign_in,
    signed_in_member,
)


def _table(page: Page, name: str):
    return page.get_by_role("table", name=name).locator("tbody tr")


def _no_axe(page: Page, what: str) -> None:
    expect(page.locator("h1")).to_be_visible()
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    assert axe_violations(page) == [], what


def test_sales_on_a_phone_search_page_export_and_rescue_spam(
    phone: Page, live_site: LiveServer
) -> None:
    page = phone
    csp = watch_csp(page)
    tag = f"Paging{uuid.uuid4().hex[:6]}"
    add_quotes_on(live_site, 55, company=f"{tag} Clinics")
    add_quotes_on(
        live_site, 1, company=f"{tag} Pharmacy", status="spam", message="Cheap pills, click here"
    )
    signed_in_member(page, live_site, "sales")
    _no_axe(page, "inbox at 375 px")

    # On a phone the filters other than Search are folded away.
    expect(page.get_by_label("Status", exact=True)).to_be_hidden()
    search = page.get_by_label("Search", exact=True)
    search.fill(tag)
    search.press("Enter")
    expect(page.get_by_text("Page 1 of 2 (55 requests)")).to_be_visible()
    expect(_table(page, "Quote requests")).to_have_count(50)
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Page 2 of 2 (55 requests)")).to_be_visible()
    expect(_table(page, "Quote requests")).to_have_count(5)

    # The export holds what the filter selects on every page, and nothing else.
    with page.expect_download() as download:
        page.get_by_role("button", name="Export CSV").click()
    with Path(download.value.path()).open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 55
    assert {row["company"] for row in rows} == {f"{tag} Clinics"}

    # The spam folder: the trapped request is there and can be rescued.
    page.get_by_text("Filters", exact=True).click()
    page.get_by_label("Status", exact=True).select_option("spam")
    expect(page.get_by_text("Page 1 of 1 (1 request)")).to_be_visible()
    _no_axe(page, "inbox with its filters open at 375 px")
    _table(page, "Quote requests").get_by_role("link").click()
    expect(page.get_by_role("heading", name="Quote request from Lead 000")).to_be_visible()
    expect(page.get_by_text("Cheap pills, click here")).to_be_visible()
    page.get_by_role("button", name="Not spam").click()
    expect(page.get_by_role("status")).to_have_text("Moved back to New.")
    expect(page.get_by_role("button", name="Mark as spam")).to_be_visible()
    _no_axe(page, "one request at 375 px")
    page.go_back()
    expect(page.get_by_role("heading", name="Quote requests")).to_be_visible()
    page.get_by_label("Search", exact=True).fill(f"{tag} Pharmacy")
    page.get_by_label("Search", exact=True).press("Enter")
    page.get_by_role("button", name=re.compile(r"^New \d+")).click()  # the status chip
    expect(page.get_by_text("Page 1 of 1 (1 request)")).to_be_visible()
    assert csp == []
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_a_request_is_worked_status_lost_reason_owner_notes_and_history(
    page: Page, live_site: LiveServer
) -> None:
    csp = watch_csp(page)
    customer = unique_email("staffquote")
    create_customer(live_site.url, customer, company="Northway Clinics")
    mark_verified_on(live_site, customer)  # only a verified address links a request to it
    [quote_id] = add_quotes_on(live_site, 1, company="Northway Clinics", email=customer)
    me = signed_in_member(page, live_site, "admin")
    page.goto(routes.staff_quote_path(quote_id))
    expect(page.get_by_role("heading", name="Quote request from Lead 000")).to_be_visible()
    _no_axe(page, "one request at 1280 px")

    status_form = page.locator("form").filter(has=page.get_by_label("Status", exact=True))
    page.get_by_label("Status", exact=True).select_option("lost")
    status_form.get_by_role("button", name="Save").click()
    expect(page.locator("#quote-reason-error")).to_have_text(re.compile(REASON_REQUIRED))
    _no_axe(page, "a refused status at 1280 px")
    page.get_by_label("Reason", exact=True).fill("Went with an agency in Leeds")
    status_form.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Status changed to Lost.")

    owner_form = page.locator("form").filter(has=page.get_by_label("Owner", exact=True))
    page.get_by_label("Owner", exact=True).select_option(label=me.name)
    owner_form.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text(f"Owner changed to {me.name}.")

    page.get_by_label("Note", exact=True).fill("Called back on Monday.\nBudget is firm.")
    page.get_by_role("button", name="Add note").click()
    expect(page.get_by_role("status")).to_have_text("Note added.")
    notes = page.locator("section").filter(has_text="Internal notes")
    expect(notes.get_by_text(me.name)).to_be_visible()
    expect(notes.get_by_text("Budget is firm.")).to_be_visible()
    expect(page.get_by_label("Note", exact=True)).to_have_value("")  # the form emptied

    history = page.locator("section").filter(has=page.get_by_role("heading", name="History"))
    expect(history.locator("li")).to_have_count(2)
    expect(history).to_contain_text("Lost: Went with an agency in Leeds")
    expect(history).to_contain_text(me.name)

    # A reply starts with its subject and greeting; a call made by phone leaves a trace.
    reply = page.get_by_role("link", name="Reply by email")
    expect(reply).to_have_attribute(
        "href", re.compile(r"^mailto:[^?]+\?subject=Your%20quote%20request%20to%20RCX%3A%20")
    )
    page.get_by_role("button", name="Log a call").click()
    expect(page.get_by_role("status")).to_have_text("Phone call logged.")
    expect(history.locator("li")).to_have_count(3)
    expect(history.locator("li").last).to_contain_text("Contact: Phone call")
    expect(history.locator("li").last).to_contain_text(me.name)

    # The requester has an account: the page links to it.
    page.get_by_role("link", name="Open the customer's account").click()
    expect(page.get_by_role("heading", name="Test Customer")).to_be_visible()
    expect(page.get_by_text(customer).first).to_be_visible()

    page.goto(routes.STAFF_AUDIT.path)
    audit = _table(page, "Audit entries")
    for action in ("Status changed", "Owner changed", "Note added"):
        expect(audit.filter(has_text=action).filter(has_text=f"quote #{quote_id}")).to_have_count(1)
    assert csp == []


def test_support_signs_out_resets_locks_unlocks_and_deletes_a_customer(
    browser, page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    csp = watch_csp(page)
    customer = unique_email("supported")
    create_customer(live_site.url, customer)
    signed_in_member(page, live_site, "support")
    with open_tab(browser, live_site) as customer_tab:
        customer_tab.goto(routes.LOG_IN.path)
        submit_login(customer_tab, customer)
        expect_signed_in_at_home(customer_tab)

        page.get_by_role("navigation", name="Staff").get_by_role("link", name="Customers").click()
        expect(page.get_by_role("heading", name="Customers")).to_be_visible()
        page.get_by_label("Search", exact=True).fill(customer)
        page.get_by_role("button", name="Search").click()
        expect(_table(page, "Customers")).to_have_count(1)
        _no_axe(page, "customers at 1280 px")
        # The customer uses their login just before the card counts it: the site under test
        # idles a login out after HEADER_SESSION_SECONDS.
        customer_tab.goto(routes.ACCOUNT.path)
        expect(customer_tab.get_by_role("heading", name="Overview")).to_be_visible()
        _table(page, "Customers").get_by_role("link").click()
        expect(page.get_by_role("heading", name="Test Customer")).to_be_visible()
        expect(page.locator("dd").filter(has_text=re.compile(r"^1$"))).to_have_count(1)
        _no_axe(page, "one customer at 1280 px")

        page.get_by_role("button", name="Sign out everywhere").click()
        expect(page.get_by_role("status")).to_have_text(
            f"{customer} has been signed out everywhere."
        )
        customer_tab.goto(routes.ACCOUNT.path)
        expect(customer_tab).to_have_url(re.compile(re.escape(routes.LOG_IN.path)))

        page.get_by_role("button", name="Send password reset").click()
        expect(page.get_by_role("status")).to_have_text(
            f"A password reset link has been sent to {customer}."
        )
        mail = site_mailbox.wait_for(customer, timeout=20)
        assert (
            "/authentication/reset-password/"
            in mail.get_body(preferencelist=("plain",)).get_content()
        )

        page.get_by_role("button", name="Lock account").click()
        expect(page.get_by_role("status")).to_have_text(
            f"{customer} is locked and has been signed out everywhere."
        )
        customer_tab.goto(routes.LOG_IN.path)
        submit_login(customer_tab, customer)
        expect(customer_tab.get_by_role("alert")).to_have_text(locked_message())
        page.get_by_role("button", name="Unlock account").click()
        expect(page.get_by_role("status")).to_have_text(
            f"{customer} is unlocked and can log in again."
        )

        delete_form = page.locator("form").filter(
            has=page.get_by_role("button", name="Delete account")
        )
        delete_form.get_by_role("textbox").fill("someone.else@example.com")
        delete_form.get_by_role("button", name="Delete account").click()
        expect(delete_form.locator(".field-error")).not_to_have_text("")
        _no_axe(page, "a refused deletion at 1280 px")
        delete_form.get_by_role("textbox").fill(customer)
        delete_form.get_by_role("button", name="Delete account").click()
        expect(page.get_by_role("heading", name="Customers")).to_be_visible()
        expect(page.get_by_role("status")).to_have_text(
            f"The account of {customer} has been deleted."
        )
        customer_tab.goto(routes.LOG_IN.path)
        submit_login(customer_tab, customer, PASSWORD)
        expect(customer_tab.get_by_role("alert")).to_be_visible()
        expect(customer_tab.get_by_role("alert")).not_to_have_text(locked_message())
    assert csp == []


def test_an_admin_invites_changes_roles_disables_and_cannot_remove_the_last_admin(
    browser, page: Page, live_site: LiveServer
) -> None:
    csp = watch_csp(page)
    admin = signed_in_member(page, live_site, "admin")
    page.goto(routes.STAFF_TEAM.path)
    expect(page.get_by_role("heading", name="Team")).to_be_visible()
    invited = f"new-{uuid.uuid4().hex[:8]}@rcx.example"
    invite_on_team_page(page, invited, "Nia Newcomer", "support")
    team = _table(page, "Staff members")
    row = team.filter(has_text=invited)
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Support")

    # A role is asked for first: kept, nothing changes; confirmed, it does.
    row.get_by_label("Role of Nia Newcomer").select_option("sales")
    question = page.get_by_role("alertdialog", name="Change the role?")
    expect(question).to_contain_text("Change Nia Newcomer's role from Support to Sales?")
    question.get_by_role("button", name="Keep the role").click()
    expect(question).to_have_count(0)
    expect(row.get_by_label("Role of Nia Newcomer")).to_have_value("support")
    expect(row).to_contain_text("Support")
    row.get_by_label("Role of Nia Newcomer").select_option("sales")
    question.get_by_role("button", name="Change role").click()
    expect(page.get_by_role("status")).to_have_text("Nia Newcomer is now Sales.")
    expect(question).to_have_count(0)
    row.get_by_role("button", name="Disable").click()
    expect(page.get_by_role("status")).to_have_text("Nia Newcomer is disabled.")
    row.get_by_role("button", name="Enable").click()
    expect(page.get_by_role("status")).to_have_text("Nia Newcomer is enabled.")
    row.get_by_role("button", name="Reset two-factor").click()
    expect(page.get_by_role("status")).to_contain_text("Two-factor sign-in was reset")
    _no_axe(page, "team after changes at 1280 px")

    # Every other enabled admin (earlier tests made some) is disabled: this one is the last.
    others = (
        team.filter(has_text="Admin")
        .filter(has=page.get_by_role("button", name="Disable"))
        .filter(has_not_text=admin.email)
    )
    remaining = others.count()
    while remaining:
        others.first.get_by_role("button", name="Disable").click()
        remaining -= 1
        expect(others).to_have_count(remaining)
    mine = team.filter(has_text=admin.email)
    mine.get_by_role("button", name="Disable").click()
    expect(page.get_by_role("alert")).to_have_text(LAST_ADMIN)
    mine.get_by_label(f"Role of {admin.name}").select_option("sales")
    page.get_by_role("alertdialog", name="Change the role?").get_by_role(
        "button", name="Change role"
    ).click()
    expect(page.get_by_role("alert")).to_have_text(LAST_ADMIN)
    expect(mine).to_contain_text("Admin")

    page.goto(routes.STAFF_AUDIT.path)
    audit = _table(page, "Audit entries")
    for action in (
        "Member invited",
        "Role changed",
        "Member disabled",
        "Member enabled",
        "Two-factor reset",
    ):
        expect(audit.filter(has_text=action).filter(has_text=invited).first).to_be_visible()
    # The filter reads in words too.
    page.get_by_label("Action").select_option(label="Member enabled")
    page.get_by_role("button", name="Filter").click()
    expect(audit.filter(has_not_text="Member enabled")).to_have_count(0)
    _no_axe(page, "audit log filtered at 1280 px")
    assert csp == []


def test_every_staff_page_has_no_axe_violation_at_both_widths(
    page: Page, live_site: LiveServer
) -> None:
    csp = watch_csp(page)
    customer = unique_email("axe")
    create_customer(live_site.url, customer)
    [quote_id] = add_quotes_on(live_site, 1, company="Axe Check Ltd", email=customer)
    _, _, link = invite_with_command(live_site, "support")
    pages = [link, routes.STAFF_LOG_IN.path]
    signed_in_member(page, live_site, "admin")
    page.goto(routes.STAFF_CUSTOMERS.path)
    page.get_by_label("Search", exact=True).fill(customer)
    page.get_by_role("button", name="Search").click()
    expect(_table(page, "Customers")).to_have_count(1)
    _table(page, "Customers").get_by_role("link").click()
    expect(page.get_by_role("heading", name="Test Customer")).to_be_visible()
    pages += [
        routes.STAFF_INBOX.path,
        routes.staff_quote_path(quote_id),
        routes.STAFF_CUSTOMERS.path,
        page.url,
        routes.STAFF_TEAM.path,
        routes.STAFF_AUDIT.path,
    ]
    for path in pages:
        if path == routes.STAFF_LOG_IN.path:
            continue  # signed in, the sign-in page sends the member on: checked below
        page.goto(path)
        for width, height in (
            (DESKTOP["width"], DESKTOP["height"]),
            (PHONE["width"], PHONE["height"]),
        ):
            page.set_viewport_size({"width": width, "height": height})
            _no_axe(page, f"{path} at {width} px")
        page.set_viewport_size({"width": DESKTOP["width"], "height": DESKTOP["height"]})
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()
    for width, height in ((DESKTOP["width"], DESKTOP["height"]), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        _no_axe(page, f"sign-in at {width} px")
    assert csp == []


def test_an_idle_session_ends_and_sign_in_brings_the_member_back(
    phone: Page, live_site: LiveServer
) -> None:
    page = phone
    member = signed_in_member(page, live_site, "sales")
    # 31 minutes without a click, as the server's clock sees it.
    engine = create_engine(live_site.database_url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE staff_session SET last_seen_at = :idle WHERE staff_member_id ="
                " (SELECT id FROM staff_member WHERE email = :email)"
            ),
            {
                "idle": datetime.now(UTC).replace(tzinfo=None) - timedelta(minutes=31),
                "email": member.email,
            },
        )
    engine.dispose()
    page.goto(routes.STAFF_CUSTOMERS.path)
    page.wait_for_url(re.compile(r"/staff/log-in\?next="))
    sign_in(page, member.email, member.recovery[0], navigate=False)
    # Back where they were (a page sales may not open).
    expect(page).to_have_url(re.compile(re.escape(routes.STAFF_CUSTOMERS.path) + "/?$"))
    expect(page.get_by_role("alert")).to_have_text(NO_ACCESS)


def test_repeated_wrong_codes_lock_the_sign_in(page: Page, live_site: LiveServer) -> None:
    member = signed_in_member(page, live_site, "support")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()
    limit = parse(get_settings().staff_login_failure_limit).amount
    for _ in range(limit):
        sign_in(page, member.email, "000000", navigate=False)
        expect(page.get_by_role("alert")).to_be_visible()
    # Locked now: even the right code is refused, with the time to wait.
    sign_in(page, member.email, member.recovery[0], navigate=False)
    expect(page.get_by_role("alert")).to_have_text(re.compile(r"^Too many requests\."))
    expect(page.get_by_role("heading", name="Staff sign-in")).to_be_visible()
    assert axe_violations(page) == []
