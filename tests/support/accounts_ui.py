"""Steps the account browser tests share: API set-up, reading the browser's session."""

from __future__ import annotations

import itertools
import json
import re
import time
import urllib.parse
import urllib.request
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page, expect

from rcxsite.accounts import sessions
from rcxsite.content import routes
from rcxsite.web.login_cookie import HINT_COOKIE_NAME, cookie_json
from tests.support.waiting import wait_for

_counter = itertools.count()
PASSWORD = "first-pass"
RESET_LINK = re.compile(r"https?://[^\s\"'<>]+/authentication/reset-password/[A-Za-z0-9_\-]+")


def unique_email(prefix: str = "customer") -> str:
    return f"{prefix}.{time.time_ns()}.{next(_counter)}@example.com"


def api_post(
    base_url: str, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base_url}/api/v1{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def create_customer(
    base_url: str, email: str, password: str = PASSWORD, company: str = "Acme Ltd"
) -> None:
    answer = api_post(
        base_url,
        "/User/CreateCustomer",
        {
            "UserName": "Test Customer",
            "EmailAddress": email,
            "MobileNumber": "0123456789",
            "Password": password,
            "CompanyName": company,
            "Location": "Leeds",
        },
    )
    assert answer["status"] == 201, answer


def new_customer(base_url: str, prefix: str = "customer") -> str:
    """A customer created through the API under an address of its own; returns the address."""
    email = unique_email(prefix)
    create_customer(base_url, email)
    return email


REGISTRATION_LABELS = {
    "user_name": "Username",
    "email": "Email",
    "mobile": "Mobile number",
    "password": "Password",
    "company": "Company name",
    "location": "Location",
}


def open_registration(page: Page) -> Locator:
    """The log-in page switched to its registration form; the form."""
    page.goto(routes.LOG_IN.path)
    page.get_by_role("button", name="Create an account").click()
    return page.get_by_role("form", name="Register")


def fill_registration(form: Locator, **values: str) -> None:
    """Types `values` into the registration form's fields, named as in
    REGISTRATION_LABELS; what is sent and checked after is the caller's."""
    for key, value in values.items():
        form.get_by_label(REGISTRATION_LABELS[key], exact=True).fill(value)


def register(
    page: Page,
    form: Locator,
    *,
    email: str,
    user_name: str,
    mobile: str = "0712345678",
    company: str = "Acme",
    location: str = "Leeds",
    password: str = PASSWORD,
) -> Locator:
    """Fills in and sends the registration form; waits for the success dialog and
    returns it, still open."""
    fill_registration(
        form,
        user_name=user_name,
        email=email,
        mobile=mobile,
        password=password,
        company=company,
        location=location,
    )
    form.get_by_role("button", name="Register").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Registration successful!")
    return dialog


def submit_login(page: Page, email: str, password: str = PASSWORD) -> None:
    """Fill in and send the log-in form of the page shown; what follows is the caller's."""
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("Email").fill(email)
    form.get_by_label("Password", exact=True).fill(password)
    form.get_by_role("button", name="Log in").click()


def log_in(page: Page, email: str, password: str = PASSWORD) -> None:
    page.goto(routes.LOG_IN.path)
    submit_login(page, email, password)
    expect_signed_in_at_home(page)


def log_in_by_cookie(page: Page, base_url: str, email: str, password: str = PASSWORD) -> None:
    """Where `log_in` ends (home, signed in, the login cookie held), without the form: for
    tests of what comes after a login. The API's login answers the token the login cookie
    carries; the cookie goes into the browser as the site sets it (HttpOnly, SameSite=Lax,
    with its script-readable hint; a session cookie, where the site's lasts 30 days), and
    home is opened on it. Unlike a form login, the tab's state records no session started
    on its own connection, so tests of that record log in on the form. The form's own way
    in, its message and its redirect have their tests (test_login.py, test_account.py)."""
    login = api_post(base_url, "/Auth/Login", {"UserName": email, "Password": password})["data"]
    value = cookie_json(
        sessions.ClaimedLogin(
            email_address=login["emailAddress"],
            user_name=login["userName"],
            token=login["token"],
            customer_id=login["id"],
        )
    )
    login_cookie = (sessions.COOKIE_NAME, urllib.parse.quote(value), True)
    page.context.add_cookies(
        [
            {"name": name, "value": held, "url": base_url, "httpOnly": secret, "sameSite": "Lax"}
            for name, held, secret in (login_cookie, (HINT_COOKIE_NAME, "1", False))
        ]
    )
    page.goto("/")
    expect_signed_in_at_home(page)


def signed_in_customer(page: Page, base_url: str, prefix: str = "customer") -> str:
    """A new customer (`new_customer`) logged in on `page` (`log_in_by_cookie`); their
    address."""
    email = new_customer(base_url, prefix)
    log_in_by_cookie(page, base_url, email)
    return email


def expect_signed_in_at_home(page: Page) -> None:
    """Where every successful login ends: home, with Logout in the header. (The
    "Logged in successfully!" text in between shows for a second only; on a busy machine
    a check for it can come too late.) Returns once the browser holds the login cookie too,
    which a new connection (a reload, a reconnect) needs."""
    expect(page).to_have_url(re.compile(r"://[^/]+/$"))
    header_action(page, "Logout")
    wait_for_login_cookie(page)


def header_action(page: Page, name: str):
    """The Log in / Logout control of whichever header (desktop or phone) is showing."""
    if page.viewport_size and page.viewport_size["width"] < 1024:
        page.get_by_role("button", name="Open menu").click()
        control = page.get_by_role("dialog").get_by_role(
            "button" if name == "Logout" else "link", name=name, exact=True
        )
    else:
        control = page.get_by_role("navigation", name="Main").get_by_role(
            "button" if name == "Logout" else "link", name=name, exact=True
        )
    expect(control).to_be_visible()
    return control


def session_cookie(context: BrowserContext) -> dict[str, Any] | None:
    for cookie in context.cookies():
        if cookie["name"] == "userSession" and cookie["value"]:
            return {**cookie, "data": json.loads(urllib.parse.unquote(cookie["value"]))}
    return None


def wait_for_login_cookie(page: Page, *, replacing: str = "") -> str:
    """The header names the customer as soon as the login event is handled; the login
    cookie comes with the answer to the request the page sends after it (trading the
    event's ticket), which a loaded machine may delay. Waits until the browser holds a
    login cookie whose Token is not `replacing` (or until the deadline); returns the Token
    held then ("" for none)."""

    def token() -> str:
        cookie = session_cookie(page.context)
        return str(cookie["data"].get("Token", "")) if cookie else ""

    wait_for(lambda: token() not in ("", replacing), page=page)
    return token()


def wait_for_logout_answer(page: Page) -> None:
    """The header changes with the logout event; the login cookies go with the answer to
    the request the page sends after it (all in one answer, with the script-visible
    `userSessionActive`), which a loaded machine may delay. Returns once the browser holds
    neither, or at the deadline."""
    wait_for(
        lambda: (
            session_cookie(page.context) is None
            and "userSessionActive" not in page.evaluate("document.cookie")
        ),
        page=page,
    )


def header_entry(page: Page) -> dict[str, Any] | None:
    raw = page.evaluate("sessionStorage.getItem('userSession')")
    return json.loads(raw) if raw else None


def record_button_states(page: Page, form_name: str) -> None:
    """Remembers every text/disabled state the form's submit button goes through."""
    page.get_by_role("form", name=form_name).locator("button[type=submit]").evaluate(
        """button => { window.__states = [];
           new MutationObserver(() => window.__states.push([button.textContent, button.disabled]))
             .observe(button, {childList: true, subtree: true, characterData: true,
                               attributes: true}); }"""
    )


def recorded_button_states(page: Page) -> list[list[Any]]:
    return page.evaluate("window.__states")
