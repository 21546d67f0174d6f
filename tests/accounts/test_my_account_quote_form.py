""" "Request a quote" starts with a signed-in customer's own name, email, company and phone;
everyone else's form starts empty, and nothing of the customer stays in the tab once they
are signed out."""

from __future__ import annotations

import asyncio

from rcxsite import accounts
from rcxsite.content import routes
from rcxsite.state.quote import QuotePrefillState
from rcxsite.state.session import SessionState
from tests.support.customers import register_customer
from tests.support.tabs import CLIENT_IP, Tab, login_cookie

EMAIL = "alice@example.com"


def _details(state: QuotePrefillState) -> tuple[str, str, str, str]:
    return (state.name, state.email, state.company, state.phone)


def test_a_signed_in_customer_starts_with_their_own_details() -> None:
    register_customer(
        EMAIL, user_name="Alice Smith", company_name="ACME", mobile_number="98765 43210"
    )
    tab = Tab().open(routes.QUOTE.path, cookie=login_cookie(EMAIL))
    prefill = tab.state(QuotePrefillState)

    asyncio.run(tab.run(QuotePrefillState.load))

    assert _details(prefill) == ("Alice Smith", EMAIL, "ACME", "9876543210")
    version = prefill.version
    assert version > 0
    # Loaded again with the same details: the fields are not started over (and whatever
    # the visitor typed stays).
    asyncio.run(tab.run(QuotePrefillState.load))
    assert prefill.version == version


def test_signed_out_the_form_starts_empty() -> None:
    tab = Tab().open(routes.QUOTE.path)
    prefill = tab.state(QuotePrefillState)

    asyncio.run(tab.run(QuotePrefillState.load))

    assert (_details(prefill), prefill.version) == (("", "", "", ""), 0)


def test_logging_out_or_a_session_ended_elsewhere_forgets_the_details() -> None:
    customer_id = register_customer(EMAIL)
    assert customer_id is not None
    tab = Tab().open(routes.QUOTE.path, cookie=login_cookie(EMAIL))
    prefill = tab.state(QuotePrefillState)
    asyncio.run(tab.run(QuotePrefillState.load))
    assert prefill.email == EMAIL

    asyncio.run(tab.run(SessionState.log_out))
    assert _details(prefill) == ("", "", "", "")

    tab.reconnect(cookie=login_cookie(EMAIL))
    asyncio.run(tab.run(QuotePrefillState.load))
    assert prefill.email == EMAIL
    accounts.sign_out_everywhere(customer_id=customer_id, client_ip=CLIENT_IP)
    asyncio.run(tab.run(QuotePrefillState.load))
    assert _details(prefill) == ("", "", "", "")


def test_a_tab_handed_to_another_customer_shows_only_theirs() -> None:
    register_customer(EMAIL, company_name="ACME")
    register_customer("bob@example.com", user_name="Bob Brown", company_name="Beta Ltd")
    tab = Tab().open(routes.QUOTE.path, cookie=login_cookie(EMAIL))
    prefill = tab.state(QuotePrefillState)
    asyncio.run(tab.run(QuotePrefillState.load))

    tab.reconnect(cookie=login_cookie("bob@example.com"))
    asyncio.run(tab.run(QuotePrefillState.load))

    assert _details(prefill) == ("Bob Brown", "bob@example.com", "Beta Ltd", "9876543210")
