"""Abuse in the browser: logout ends the session for good, and no value, however long,
stalls a screen or the site for other visitors."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Page, expect

from rcxsite.content import routes
from rcxsite.templates.layouts import TOO_MUCH_TEXT
from tests.support.accounts_ui import (
    RESET_LINK,
    header_action,
    log_in,
    new_customer,
    session_cookie,
    unique_email,
)
from tests.support.live_server import LiveServer
from tests.support.smtp import Mailbox

HUGE = 200_000  # over the 64 KiB websocket message limit
OVER_LIMIT = 20_000  # over every field's limit, under the websocket's
RESET_ANSWER = "If an account exists for that email, a reset link has been sent."


def _hydrated(page: Page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("html[data-hydrated=true]", state="attached")


def test_a_session_replayed_after_logout_is_signed_out(
    page: Page, browser: Browser, live_site: LiveServer
) -> None:
    email = new_customer(live_site.url, "replay")
    log_in(page, email)  # the form: the cookie and entry replayed are the ones the site sets
    cookie = session_cookie(page.context)
    entry = page.evaluate("sessionStorage.getItem('userSession')")
    assert cookie is not None and entry
    header_action(page, "Logout").click()
    header_action(page, "Log in")

    replay = browser.new_context(base_url=live_site.url, viewport={"width": 1280, "height": 900})
    try:
        replay.add_cookies([{key: cookie[key] for key in ("name", "value", "domain", "path")}])
        replay.add_init_script(f"sessionStorage.setItem('userSession', {json.dumps(entry)})")
        tab = replay.new_page()
        _hydrated(tab, routes.ABOUT.path)
        # The server checked the replayed token, found its session revoked and cleared the
        # header entry: that is the moment the header's state is decided.
        tab.wait_for_function("!sessionStorage.getItem('userSession')")
        header_action(tab, "Log in")
        expect(
            tab.get_by_role("navigation", name="Main").get_by_role("button", name="Logout")
        ).to_have_count(0)

        _hydrated(tab, routes.LOG_IN.path)
        form = tab.get_by_role("form", name="Log in")
        # Prefilled from the replayed cookie: the login page's check has run, and refused.
        expect(form.get_by_label("Email")).to_have_value(email)
        expect(tab.get_by_text("You're already logged in!")).to_have_count(0)
        expect(form.get_by_role("button", name="Log in")).to_be_enabled()
        assert tab.url.rstrip("/").endswith(routes.LOG_IN.path)
    finally:
        replay.close()


@dataclass(frozen=True)
class Screen:
    open: Callable[[Page, LiveServer, Mailbox], None]
    form: str
    field: str  # the CSS selector of the control that gets the long value
    message: str  # what that field says for a value over its limit
    submit: str


def _open_register(page: Page, live_site: LiveServer, mailbox: Mailbox) -> None:
    _hydrated(page, routes.LOG_IN.path)
    page.get_by_role("button", name="Create an account").click()


def _open_reset(page: Page, live_site: LiveServer, mailbox: Mailbox) -> None:
    email = new_customer(live_site.url, "long-reset")
    _hydrated(page, routes.FORGOT_PASSWORD.path)
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Send reset link").click()
    page.get_by_role("alertdialog").get_by_role("button", name="OK").click()
    body = mailbox.wait_for(email, timeout=20).get_body(preferencelist=("plain",)).get_content()
    link = RESET_LINK.search(body)
    assert link, body
    _hydrated(page, link.group(0))


SCREENS = {
    "login": Screen(
        lambda page, *_: _hydrated(page, routes.LOG_IN.path),
        "Log in",
        "#login-email",
        "Max 254 characters",
        "Log in",
    ),
    "register": Screen(
        _open_register, "Register", "#register-UserName", "Max 100 characters", "Register"
    ),
    "forgot": Screen(
        lambda page, *_: _hydrated(page, routes.FORGOT_PASSWORD.path),
        "Request a reset link",
        "#forgot-email",
        "Max 254 characters",
        "Send reset link",
    ),
    "reset": Screen(
        _open_reset,
        "Reset password",
        "#reset-new",
        "Password must be at most 128 characters long.",
        "Reset password",
    ),
    "quote": Screen(
        lambda page, *_: _hydrated(page, routes.QUOTE.path),
        "Request a quote",
        "#quote-message",
        "Message must be at most 5000 characters",
        "Book my call",
    ),
}


def _force_value(page: Page, selector: str, length: int) -> None:
    """What a script can do and a person cannot: drop maxlength, then fill the field."""
    control = page.locator(selector)
    control.evaluate("element => element.removeAttribute('maxlength')")
    control.fill("9" * length)


@pytest.mark.parametrize("name", SCREENS)
def test_an_oversized_value_never_stalls_a_screen_or_the_site(
    name: str, page: Page, browser: Browser, live_site: LiveServer, site_mailbox: Mailbox
) -> None:
    screen = SCREENS[name]
    screen.open(page, live_site, site_mailbox)
    form = page.get_by_role("form", name=screen.form)
    control = page.locator(screen.field)
    error = page.locator(f"{screen.field}-error")

    # A person pasting a huge text gets what the server accepts, cut at the model's limit.
    limit = int(control.get_attribute("maxlength") or 0)
    assert limit > 0
    control.fill("9" * OVER_LIMIT)
    expect(control).to_have_value("9" * limit)

    # Past maxLength but within the socket limit: the model's message.
    _force_value(page, screen.field, OVER_LIMIT)
    form.get_by_role("button", name=screen.submit).click()
    expect(error).to_have_text(screen.message)

    other_context = browser.new_context(base_url=live_site.url)
    try:
        other = other_context.new_page()
        _hydrated(other, routes.FORGOT_PASSWORD.path)
        other.get_by_label("Email").fill(unique_email("bystander"))

        # 200,000 characters, over the 64 KiB websocket message limit: the visitor is told
        # by the page, nothing is sent; meanwhile another visitor is answered. (How fast is
        # the bench's to measure, not a test's.)
        _force_value(page, screen.field, HUGE)
        form.get_by_role("button", name=screen.submit).click()
        expect(page.get_by_role("alert").filter(has_text=TOO_MUCH_TEXT)).to_be_visible()
        other.get_by_role("button", name="Send reset link").click()
        expect(other.get_by_role("alertdialog")).to_contain_text(RESET_ANSWER)
    finally:
        other_context.close()

    # The screen is usable again: the same over-limit value gets its message.
    expect(page.get_by_text("Connection to the server lost")).to_have_count(0)
    _force_value(page, screen.field, OVER_LIMIT)
    form.get_by_role("button", name=screen.submit).click()
    expect(error).to_have_text(screen.message)
    assert page.page_errors == []  # type: ignore[attr-defined]
