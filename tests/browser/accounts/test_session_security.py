"""The login cookie is out of reach of page scripts, a tab's Reflex token is no login, and
logout leaves no personal data in the stored state (security review, points 3 and 4)."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from rcxsite.content import routes
from tests.support.accounts_ui import (
    PASSWORD,
    api_post,
    create_customer,
    header_action,
    log_in,
    log_in_by_cookie,
    new_customer,
    session_cookie,
    unique_email,
    wait_for_logout_answer,
)
from tests.support.browser import DESKTOP
from tests.support.live_server import LiveServer
from tests.support.waiting import wait_for


def test_the_login_cookie_is_httponly_and_no_script_sees_the_token(
    page: Page, live_site: LiveServer
) -> None:
    email = new_customer(live_site.url, "httponly")
    log_in(page, email)  # the form: this test is about the cookie the site sets

    cookie = session_cookie(page.context)
    assert cookie is not None
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Lax")
    assert set(cookie["data"]) == {"EmailAddress", "UserName", "Token", "CustomerId"}
    assert cookie["data"]["EmailAddress"] == email
    token = cookie["data"]["Token"]
    assert token.count(".") == 2  # a JWT
    seen_by_scripts = page.evaluate("document.cookie")
    assert "userSession=" not in seen_by_scripts and token not in seen_by_scripts
    assert "userSessionActive=1" in seen_by_scripts

    # A new connection (reload) and a new tab know the login from the cookie alone.
    page.reload()
    header_action(page, "Logout")
    other_tab = page.context.new_page()
    other_tab.goto(routes.ABOUT.path)
    header_action(other_tab, "Logout")
    other_tab.goto(routes.ACCOUNT.path)
    expect(other_tab.get_by_role("heading", name="Overview")).to_be_visible()

    header_action(page, "Logout").click()
    header_action(page, "Log in")
    wait_for_logout_answer(page)
    assert session_cookie(page.context) is None


def test_a_closed_tabs_reflex_token_signs_nobody_in(
    browser: Browser, live_site: LiveServer
) -> None:
    email = new_customer(live_site.url, "closedtab")
    first = browser.new_context(base_url=live_site.url, viewport=DESKTOP)
    tab = first.new_page()
    # The form: the tab's own record of a session started on its connection is what a
    # stranger presenting its Reflex token must not inherit.
    log_in(tab, email)
    tab.goto(routes.ACCOUNT.path)
    expect(tab.get_by_role("heading", name="Overview")).to_be_visible()
    reflex_token = tab.evaluate("sessionStorage.getItem('token')")
    assert reflex_token
    first.close()

    # Whoever holds the closed tab's token (it travels in the websocket URL), no cookie.
    stranger = browser.new_context(base_url=live_site.url, viewport=DESKTOP)
    try:
        stranger.add_init_script(f"sessionStorage.setItem('token', {json.dumps(reflex_token)})")
        page = stranger.new_page()
        page.goto(routes.ACCOUNT.path)
        expect(page).to_have_url(re.compile(re.escape(routes.LOG_IN.path)))
        assert page.evaluate("sessionStorage.getItem('token')") == reflex_token
        expect(page.get_by_role("heading", name="Overview")).to_have_count(0)
    finally:
        stranger.close()


def _stored_state_holds(states: Path, text: str) -> bool:
    return any(text.encode() in path.read_bytes() for path in states.rglob("*") if path.is_file())


def _wait_for_stored_state(states: Path, holds: bool, text: str, timeout_s: float = 20) -> bool:
    """Whether some stored state file holds `text`, once that is `holds` or at the deadline
    (Reflex writes its state files a moment after a change)."""
    wait_for(lambda: _stored_state_holds(states, text) == holds, timeout_s=timeout_s)
    return _stored_state_holds(states, text)


def _account_open_and_stored(page: Page, live_site: LiveServer, prefix: str) -> tuple[str, str]:
    """A customer with a company name of their own, signed in on /account, once Reflex's
    stored state holds it; returns the email and the company."""
    email, company = unique_email(prefix), f"Company {secrets.token_hex(6)}"
    create_customer(live_site.url, email, company=company)
    log_in_by_cookie(page, live_site.url, email)
    page.goto(routes.ACCOUNT.path)
    expect(page.get_by_text(company)).to_be_visible()
    assert _wait_for_stored_state(live_site.data_dir / "states", True, company)
    return email, company


def test_logout_leaves_no_personal_data_in_the_stored_state(
    page: Page, live_site: LiveServer
) -> None:
    _, company = _account_open_and_stored(page, live_site, "forget")

    header_action(page, "Logout").click()
    header_action(page, "Log in")

    assert not _wait_for_stored_state(live_site.data_dir / "states", False, company)


def test_a_session_ended_elsewhere_leaves_no_personal_data_in_the_stored_state(
    page: Page, live_site: LiveServer
) -> None:
    email, company = _account_open_and_stored(page, live_site, "ended")
    # Another device signs out everywhere through the API.
    login = api_post(live_site.url, "/Auth/Login", {"UserName": email, "Password": PASSWORD})
    ended = api_post(
        live_site.url,
        "/Auth/LogoutAll",
        {},
        headers={"Authorization": f"Bearer {login['data']['token']}"},
    )
    assert ended["status"] == 200

    page.get_by_role("button", name="Download my data").click()
    expect(page).to_have_url(re.compile(re.escape(routes.LOG_IN.path)))
    assert not _wait_for_stored_state(live_site.data_dir / "states", False, company)


def test_a_failing_event_with_a_password_leaves_no_password_in_the_server_log(
    page: Page, live_site: LiveServer
) -> None:
    secret = f"Leak-me-{secrets.token_hex(8)}"
    marker = f"surprise_{secrets.token_hex(4)}"

    def malformed_login(ws) -> None:
        # The page's login event, sent as a JSON string (Reflex then warns, quoting the
        # event's data) with an argument the handler does not take (so the event fails).
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and secret in message and message.startswith("42"):
                # Socket.IO: "42", maybe a namespace and an ack id, then the JSON array.
                start = message.index("[")
                name, event = json.loads(message[start:])
                event["payload"][marker] = 1
                message = message[:start] + json.dumps([name, json.dumps(event)])
            server.send(message)

        ws.on_message(from_page)
        server.on_message(ws.send)

    page.route_web_socket(re.compile(r".*/_event.*"), malformed_login)
    page.goto(routes.LOG_IN.path)
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("Email").fill(unique_email("leak"))
    form.get_by_label("Password", exact=True).fill(secret)
    form.get_by_role("button", name="Log in").click()

    # The relay above runs only while Playwright has control: the page's own pauses.
    def logged() -> str:
        return live_site.log_path.read_text(errors="replace")

    assert wait_for(lambda: marker in logged(), page=page, timeout_s=20), (
        "the malformed event never reached the log"
    )
    log = logged()
    assert secret not in log
    assert "[hidden]" in log
