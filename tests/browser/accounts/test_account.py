"""My account in Chromium, at 1280 and 375 px: every action, its messages and its effects."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Locator, Page, expect

from rcxsite.content import routes
from rcxsite.models import utcnow
from tests.support.accounts_ui import (
    PASSWORD,
    api_post,
    create_customer,
    header_action,
    log_in_by_cookie,
    new_customer,
    submit_login,
    unique_email,
    wait_for_login_cookie,
)
from tests.support.browser import axe_violations, expect_shown, open_tab, watch_texts
from tests.support.customers import mark_verified_on
from tests.support.live_server import LiveServer
from tests.support.quotes import add_quotes
from tests.support.smtp import Mailbox

NEW_PASSWORD = "second-long-pass"
ACCOUNT_URL = re.compile(re.escape(routes.ACCOUNT.path) + "/?$")


def _log_in_here(page: Page, email: str, password: str = PASSWORD) -> None:
    watch_texts(page, "Logged in successfully!")
    submit_login(page, email, password)
    expect_shown(page, "Logged in successfully!")


def _open_account(page: Page, email: str, password: str = PASSWORD) -> str:
    """Signed out, /account asks for a login and comes back to /account after it. Returns
    the Token of the login cookie, once the browser holds it (a reload needs it)."""
    page.goto(routes.ACCOUNT.path)
    expect(page).to_have_url(re.compile(re.escape(routes.LOG_IN.path) + r"/?\?next=/account$"))
    _log_in_here(page, email, password)
    expect(page).to_have_url(ACCOUNT_URL)
    expect(page.get_by_role("heading", name="Overview")).to_be_visible()
    return wait_for_login_cookie(page)


def _signed_in_at_account(page: Page, base_url: str, email: str) -> str:
    """`email` signed in (`log_in_by_cookie`) with /account open. Returns the Token of the
    login cookie."""
    log_in_by_cookie(page, base_url, email)
    page.goto(routes.ACCOUNT.path)
    expect(page.get_by_role("heading", name="Overview")).to_be_visible()
    return wait_for_login_cookie(page)


def _signed_out(page: Page) -> None:
    page.goto(routes.ACCOUNT.path)
    expect(page).to_have_url(re.compile(re.escape(routes.LOG_IN.path)))


def _sent_empty(page: Page, name: str, *messages: str) -> tuple[Locator, Locator]:
    """The form called `name` and its button of the same name, clicked with nothing filled
    in: each of `messages` shows in the form."""
    form = page.get_by_role("form", name=name)
    button = form.get_by_role("button", name=name)
    button.click()
    for message in messages:
        expect(form.get_by_text(message)).to_be_visible()
    return form, button


@pytest.fixture
def other_browser(browser, live_site: LiveServer) -> Iterator[Page]:
    with open_tab(browser, live_site) as tab:
        yield tab


def test_signed_out_visitors_log_in_and_come_back(any_page: Page, live_site: LiveServer) -> None:
    email = new_customer(live_site.url, "account")

    _open_account(any_page, email)

    overview = any_page.get_by_role("region", name="Overview")
    for text in (email, "Test Customer", "0123456789", "Acme Ltd", "Leeds"):
        expect(overview).to_contain_text(text)
    expect(overview).to_contain_text("You have not chosen a plan yet.")
    expect(overview.get_by_role("link", name="Pick a plan")).to_have_attribute(
        "href", routes.PRICING.path
    )
    # Registration proves no address: until its link is opened, no request shows as theirs.
    expect(overview).to_contain_text("Email not verified")
    expect(overview).to_contain_text(
        "Verify your email address to see the quote requests sent from it."
    )
    assert any_page.locator("meta[name=robots]").get_attribute("content") == "noindex"


def test_the_header_links_to_my_account_when_signed_in(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    email = new_customer(live_site.url, "header")
    page.goto(routes.LOG_IN.path)
    _log_in_here(page, email)
    expect(page).to_have_url(re.compile(r"://[^/]+/$"))

    header_action(page, "My account").click()

    expect(page).to_have_url(ACCOUNT_URL)
    expect(page.get_by_role("heading", name="Overview")).to_be_visible()
    header_action(page, "Logout")


def test_the_overview_names_the_plan_and_the_quote_requests(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    email = unique_email("plan")
    api_post(
        live_site.url,
        "/User/CreateCustomer",
        {
            "UserName": "Plan Customer",
            "EmailAddress": email,
            "MobileNumber": "0123456789",
            "Password": PASSWORD,
            "CompanyName": "Acme Ltd",
            "Location": "Leeds",
            "ProjectId": 12,
            "SubscriptionPlanId": 102,
            "PlanDurationId": 2,
            "IsTrial": True,
        },
    )
    add_quotes(
        [
            {
                "name": "Plan Customer",
                "email": email.upper(),
                "company": "Acme Ltd",
                "phone": "",
                "message": "A portal.",
                "call_date": (utcnow() + timedelta(days=7)).date(),
                "created_at": utcnow(),
            }
        ],
        database_url=live_site.database_url,
    )
    mark_verified_on(live_site, email)  # only a verified address shows its requests

    _signed_in_at_account(page, live_site.url, email)

    overview = page.get_by_role("region", name="Overview")
    expect(overview).to_contain_text("Growth plan (Yearly, free trial)")
    row = overview.get_by_role("row").nth(1)
    expect(row).to_contain_text("Web Development")
    expect(row).to_contain_text("Received")


def test_details_are_checked_like_registration_and_saved(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    email = new_customer(live_site.url, "details")
    _signed_in_at_account(page, live_site.url, email)
    form = page.get_by_role("form", name="Edit details")

    form.get_by_label("User name").fill("Al")
    form.get_by_label("Mobile number").fill("12345")
    form.get_by_label("Company").fill(" ")
    form.get_by_label("Location").fill("")
    form.get_by_role("button", name="Save details").click()
    for message in (
        "Min 3 characters",
        "Invalid mobile number",
        "Company name is required",
        "Location is required",
    ):
        expect(form.get_by_text(message)).to_be_visible()
    expect(form.get_by_label("User name")).to_have_attribute("aria-invalid", "true")

    form.get_by_label("User name").fill("Renamed Customer")
    form.get_by_label("Mobile number").fill("9123456789")
    form.get_by_label("Company").fill("Beta Ltd")
    form.get_by_label("Location").fill("York")
    form.get_by_label("Location").press("Enter")  # from the keyboard, as a person would

    expect(form.get_by_text("Your details have been saved.")).to_be_visible()
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-hydrated", "true")
    overview = page.get_by_role("region", name="Overview")
    for text in ("Renamed Customer", "9123456789", "Beta Ltd", "York", email):
        expect(overview).to_contain_text(text)


def test_a_password_change_ends_the_other_browsers_session(
    any_page: Page, other_browser: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    page = any_page
    email = new_customer(live_site.url, "change")
    _signed_in_at_account(other_browser, live_site.url, email)
    token = _signed_in_at_account(page, live_site.url, email)

    form, button = _sent_empty(
        page,
        "Change password",
        "Please enter your current password.",
        "Please enter a new password.",
        "Please confirm your new password.",
    )
    form.get_by_label("Current password", exact=True).fill("wrong-pass")
    form.get_by_label("New password", exact=True).fill("abc")
    form.get_by_label("Confirm new password", exact=True).fill("abc")
    button.click()
    expect(form.get_by_text("Password must be at least 4 characters long.")).to_be_visible()
    form.get_by_label("New password", exact=True).fill("password")
    form.get_by_label("Confirm new password", exact=True).fill("password")
    button.click()
    expect(form.get_by_text(re.compile("too common"))).to_be_visible()
    form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    form.get_by_label("Confirm new password", exact=True).fill(NEW_PASSWORD + "x")
    button.click()
    expect(form.get_by_text("Passwords do not match.")).to_be_visible()
    form.get_by_label("Confirm new password", exact=True).fill(NEW_PASSWORD)
    button.click()
    expect(form.get_by_text("Your current password is incorrect.")).to_be_visible()

    form.get_by_label("Current password", exact=True).fill(PASSWORD)
    form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    form.get_by_label("Confirm new password", exact=True).fill(NEW_PASSWORD)
    button.click()

    expect(page.get_by_text(re.compile("Your password has been changed"))).to_be_visible()
    assert "changed" in site_mailbox.wait_for(email, timeout=20)["Subject"]
    _signed_out(other_browser)
    wait_for_login_cookie(page, replacing=token)  # the new session's, traded after the change
    page.reload()
    expect(page.get_by_role("heading", name="Overview")).to_be_visible()  # this one stays


def test_sign_out_everywhere_ends_this_and_every_other_session(
    any_page: Page, other_browser: Page, live_site: LiveServer
) -> None:
    page = any_page
    email = new_customer(live_site.url, "everywhere")
    _signed_in_at_account(other_browser, live_site.url, email)
    _signed_in_at_account(page, live_site.url, email)

    page.get_by_role("button", name="Sign out everywhere").click()

    expect(page.get_by_text("You have been signed out everywhere.")).to_be_visible()
    header_action(page, "Log in")
    _signed_out(page)
    _signed_out(other_browser)


def test_download_my_data(any_page: Page, live_site: LiveServer) -> None:
    page = any_page
    email = new_customer(live_site.url, "export")
    _signed_in_at_account(page, live_site.url, email)

    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download my data").click()
    download = download_info.value

    assert download.suggested_filename == "rcx-account-data.json"
    with open(download.path(), encoding="utf-8") as exported:
        data = json.load(exported)
    assert data["account"]["emailAddress"] == email
    assert data["account"]["companyName"] == "Acme Ltd"
    assert data["sessions"] and all("lastSeenAt" in row for row in data["sessions"])
    assert "argon2" not in json.dumps(data) and PASSWORD not in json.dumps(data)


def test_delete_account_then_register_again(
    any_page: Page, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    page = any_page
    email = new_customer(live_site.url, "delete")
    _signed_in_at_account(page, live_site.url, email)

    form, button = _sent_empty(
        page,
        "Delete account",
        "Password is required",
        "Please confirm that the account should be deleted.",
    )
    form.get_by_label("Password", exact=True).fill("wrong-pass")
    form.get_by_label(re.compile("I understand")).check()
    button.click()
    expect(form.get_by_text("The password is incorrect.")).to_be_visible()

    form.get_by_label("Password", exact=True).fill(PASSWORD)
    form.get_by_label(re.compile("I understand")).check()
    button.click()

    expect(page.get_by_text("Your account has been deleted.")).to_be_visible()
    header_action(page, "Log in")
    assert "deleted" in site_mailbox.wait_for(email, timeout=20)["Subject"]
    _signed_out(page)
    create_customer(live_site.url, email)  # the address is free again
    _log_in_here(page, email)


def test_no_axe_violations_with_every_form_showing_its_errors(
    any_page: Page, live_site: LiveServer
) -> None:
    page = any_page
    email = new_customer(live_site.url, "axe")
    _signed_in_at_account(page, live_site.url, email)
    assert axe_violations(page) == []

    details = page.get_by_role("form", name="Edit details")
    details.get_by_label("User name").fill("")
    details.get_by_role("button", name="Save details").click()
    expect(details.get_by_text("Username is required")).to_be_visible()
    page.get_by_role("form", name="Change password").get_by_role(
        "button", name="Change password"
    ).click()
    page.get_by_role("form", name="Delete account").get_by_role(
        "button", name="Delete account"
    ).click()
    expect(page.get_by_text("Please confirm that the account should be deleted.")).to_be_visible()
    expect(page.get_by_text("Please confirm your new password.")).to_be_visible()
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    assert axe_violations(page) == []


def test_a_login_returns_only_to_pages_named_in_the_route_table(
    page: Page, live_site: LiveServer
) -> None:
    email = new_customer(live_site.url, "next")
    page.goto(routes.LOG_IN.path + "?next=https://evil.example/")
    _log_in_here(page, email)
    expect(page).to_have_url(re.compile(r"://localhost:\d+/$"))
