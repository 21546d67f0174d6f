"""What the login page's state keeps of a customer's address: the one it fills in from the
browser's own login cookie, while the page needs it, and nothing once the customer has
logged in or out. Reflex stores a tab's state and hands it to whoever presents the tab's
token."""

from __future__ import annotations

import asyncio

from rcxsite import accounts
from rcxsite.content import routes
from rcxsite.state.login import LoginState
from rcxsite.state.registration import RegistrationState
from rcxsite.state.session import SessionState
from tests.support.customers import PASSWORD, register_customer
from tests.support.tabs import CLIENT_IP, Tab, login_cookie

EMAIL = "alice@example.com"


def _form(email: str, password: str = PASSWORD) -> dict[str, str]:
    return {"email": email, "password": password}


def test_a_login_leaves_no_address_in_the_tabs_state() -> None:
    register_customer(email=EMAIL)
    tab = Tab().open(routes.LOG_IN.path)
    login = tab.state(LoginState)
    asyncio.run(tab.run(LoginState.load_page))

    asyncio.run(tab.run(LoginState.log_in, _form(EMAIL, "not-the-password")))
    assert (login.error, login.email) == ("Invalid email or password.", "")
    asyncio.run(tab.run(LoginState.log_in, _form(EMAIL)))

    assert login.notice == "Logged in successfully!"
    assert login.email == ""


def test_logging_out_forgets_the_address_registration_filled_in() -> None:
    tab = Tab().open(routes.LOG_IN.path)
    asyncio.run(
        tab.run(
            RegistrationState.register,
            {
                "UserName": "Alice",
                "EmailAddress": EMAIL,
                "MobileNumber": "9876543210",
                "Password": PASSWORD,
                "CompanyName": "ACME",
                "Location": "Pune",
            },
        )
    )
    login = tab.state(LoginState)
    assert login.email == EMAIL  # the login form shows the address just registered
    # Logged in meanwhile (another tab of the browser); this tab's connection carries it.
    tab.reconnect(cookie=login_cookie(EMAIL))

    asyncio.run(tab.run(SessionState.log_out))

    assert login.email == ""


def test_the_login_page_still_fills_in_the_address_of_a_lapsed_login() -> None:
    """The session was ended elsewhere, the browser's login cookie is still there: the
    login page fills in its address, and the session check that follows each page load
    (which finds the session ended and forgets the customer's data) leaves it."""
    customer_id = register_customer(email=EMAIL)
    assert customer_id is not None
    cookie = login_cookie(EMAIL)
    accounts.sign_out_everywhere(customer_id=customer_id, client_ip=CLIENT_IP)
    tab = Tab().open(routes.LOG_IN.path, cookie=cookie)
    login = tab.state(LoginState)

    asyncio.run(tab.run(LoginState.load_page))
    asyncio.run(tab.run(SessionState.check))

    assert (login.email, login.notice) == (EMAIL, "")
    assert tab.state(SessionState).signed_in is False
