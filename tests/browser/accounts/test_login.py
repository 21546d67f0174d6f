"""/log-in: validation, login, the signed-in header, refusal of a second login, logout."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from rcxsite.content import routes
from tests.support.accounts_ui import (
    PASSWORD,
    header_action,
    header_entry,
    log_in,
    new_customer,
    record_button_states,
    recorded_button_states,
    session_cookie,
    wait_for_login_cookie,
    wait_for_logout_answer,
)
from tests.support.browser import expect_shown, watch_texts
from tests.support.live_server import HEADER_SESSION_SECONDS, LiveServer


def test_empty_login_form_shows_both_messages(any_page: Page) -> None:
    any_page.goto(routes.LOG_IN.path)
    form = any_page.get_by_role("form", name="Log in")
    form.get_by_role("button", name="Log in").click()
    expect(form.get_by_text("Email is required")).to_be_visible()
    expect(form.get_by_text("Password is required")).to_be_visible()
    expect(form.get_by_label("Email")).to_have_attribute("aria-invalid", "true")
    form.get_by_label("Email").fill("someone@example.com")
    form.get_by_role("button", name="Log in").click()
    expect(form.get_by_text("Email is required")).to_have_count(0)
    expect(form.get_by_text("Password is required")).to_be_visible()
    expect(form.get_by_label("Email")).to_have_value("someone@example.com")


def test_every_aria_reference_names_an_element_of_the_page(page: Page) -> None:
    """The closed result dialog (registration, log-in) points at no title or message that
    is not in the document."""
    page.goto(routes.LOG_IN.path)
    expect(page.get_by_role("form", name="Log in")).to_be_visible()
    missing = page.evaluate(
        """() => [...document.querySelectorAll('[aria-labelledby], [aria-describedby]')]
            .flatMap(el => ['aria-labelledby', 'aria-describedby']
                .flatMap(name => (el.getAttribute(name) || '').split(/\\s+/).filter(Boolean)
                    .filter(id => !document.getElementById(id))
                    .map(id => `${el.tagName.toLowerCase()} ${name}=${id}`)))"""
    )
    assert missing == []


def test_password_can_be_shown_and_hidden(page: Page) -> None:
    page.goto(routes.LOG_IN.path)
    password = page.get_by_label("Password", exact=True)
    expect(password).to_have_attribute("type", "password")
    page.get_by_role("button", name="Show password").click()
    expect(password).to_have_attribute("type", "text")
    page.get_by_role("button", name="Hide password").click()
    expect(password).to_have_attribute("type", "password")


def test_wrong_password_shows_the_service_message(page: Page, live_site: LiveServer) -> None:
    email = new_customer(live_site.url)
    page.goto(routes.LOG_IN.path)
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Password", exact=True).fill("not-the-password")
    form.get_by_role("button", name="Log in").click()
    expect(form.get_by_role("alert")).to_have_text("Invalid email or password.")
    expect(form.get_by_role("button", name="Log in")).to_be_enabled()
    expect(form.get_by_label("Password", exact=True)).to_have_value("not-the-password")


def test_login_session_header_refusal_and_logout(any_page: Page, live_site: LiveServer) -> None:
    page = any_page
    email = new_customer(live_site.url)
    page.goto(routes.LOG_IN.path)
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    record_button_states(page, "Log in")
    watch_texts(page, "Logged in successfully!", "You're already logged in!")
    started = time.time()
    form.get_by_role("button", name="Log in").click()
    expect_shown(page, "Logged in successfully!")
    expect(page).to_have_url(re.compile(r"://[^/]+/$"))
    assert time.time() - started >= 1.4
    assert ["Logging in...", True] in recorded_button_states(page)

    wait_for_login_cookie(page)
    cookie = session_cookie(page.context)
    assert cookie is not None
    assert set(cookie["data"]) == {"EmailAddress", "UserName", "Token", "CustomerId"}
    assert cookie["data"]["EmailAddress"] == email
    assert cookie["data"]["UserName"] == "Test Customer"
    assert cookie["path"] == "/" and cookie["sameSite"] == "Lax" and not cookie["secure"]
    assert 29 * 86400 < cookie["expires"] - time.time() <= 30 * 86400 + 60
    entry = header_entry(page)
    assert entry is not None and set(entry) == {"value", "expiry"}
    assert 0 < entry["expiry"] / 1000 - time.time() <= HEADER_SESSION_SECONDS + 1

    header_action(page, "Logout")
    page.goto(routes.LOG_IN.path)
    expect_shown(page, "You're already logged in!")
    expect(page).to_have_url(re.compile(r"://[^/]+/$"))

    header_action(page, "Logout").click()
    expect(page).to_have_url(re.compile(r"://[^/]+/$"))
    header_action(page, "Log in")
    wait_for_logout_answer(page)
    assert session_cookie(page.context) is None
    assert header_entry(page) is None


def test_expired_header_entry_signs_out_and_allows_a_new_login(
    page: Page, live_site: LiveServer
) -> None:
    email = new_customer(live_site.url)
    log_in(page, email)
    # The live site runs with a header lifetime of a few seconds (tests/conftest.py).
    page.wait_for_function(
        "JSON.parse(sessionStorage.getItem('userSession')).expiry < Date.now()",
        timeout=(HEADER_SESSION_SECONDS + 10) * 1000,
    )
    page.locator("footer").get_by_role("link", name="Careers").click()
    header_action(page, "Log in")
    assert header_entry(page) is None

    page.goto(routes.LOG_IN.path)
    form = page.get_by_role("form", name="Log in")
    expect(form.get_by_label("Email")).to_have_value(email)
    expect(page.get_by_text("You're already logged in!")).to_have_count(0)
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    watch_texts(page, "Logged in successfully!")
    form.get_by_role("button", name="Log in").click()
    expect_shown(page, "Logged in successfully!")
    header_action(page, "Logout")
