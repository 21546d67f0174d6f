"""The /verify-email/<token> screen's state: a link is used only by the signed-in owner of
the account it was sent for. Whoever else opens it (the person whose address someone else
registered, signed out or signed in to an account of their own) is told what to do, and the
link stays usable."""

from __future__ import annotations

import asyncio

from sqlmodel import Session, select

from rcxsite.content import routes
from rcxsite.core import tokens
from rcxsite.models import Customer, EmailVerificationToken
from rcxsite.platform.db import get_engine
from rcxsite.state.login import LoginState
from rcxsite.state.verify_email import VerifyEmailState
from tests.support.customers import register_customer
from tests.support.site import outbox_messages, verification_token_in
from tests.support.tabs import Tab, login_cookie

VERIFIED = "Your email address is verified."
LOG_IN_FIRST = (
    "Only the account's owner can verify its email address. Log in here, and this link verifies it."
)
OTHER_ACCOUNT = (
    "This link was sent for another account: log in to that account, then open the link again."
)


def _open_link(token: str, *, cookie: str = "") -> VerifyEmailState:
    """A tab opens the mailed link; the path reaches the state as
    rcxsite/web/sealed_event_paths.py leaves it (the token sealed)."""
    tab = Tab().open(routes.verify_email_path(tokens.marked(token)), cookie=cookie)
    asyncio.run(tab.run(VerifyEmailState.verify))
    return tab.state(VerifyEmailState)


def _squatted_link() -> tuple[int, str]:
    """Someone registered victim@example.com; the link went to that address."""
    customer_id = register_customer(email="victim@example.com", user_name="Squatter")
    assert customer_id is not None
    return customer_id, verification_token_in(outbox_messages(verification=True)[-1])


def _verified(customer_id: int) -> bool:
    with Session(get_engine()) as session:
        customer = session.get(Customer, customer_id)
        assert customer is not None
        return customer.email_verified_at is not None


def _link_used(customer_id: int) -> bool:
    with Session(get_engine()) as session:
        [link] = session.exec(
            select(EmailVerificationToken).where(EmailVerificationToken.customer_id == customer_id)
        ).all()
        return link.used_at is not None


def test_a_link_opened_signed_out_asks_for_a_login_and_uses_nothing_up() -> None:
    squatter, token = _squatted_link()

    shown = _open_link(token)

    assert (shown.status, shown.message) == ("log_in", LOG_IN_FIRST)
    assert not _verified(squatter) and not _link_used(squatter)
    # Logged in to the account it was sent for, the same link verifies it.
    shown = _open_link(token, cookie=login_cookie("victim@example.com"))
    assert shown.status == "verified"
    assert _verified(squatter)


def test_a_link_opened_by_another_signed_in_customer_is_refused_and_stays_usable() -> None:
    squatter, token = _squatted_link()
    victims_own = register_customer(email="victim.own@example.com")
    assert victims_own is not None

    shown = _open_link(token, cookie=login_cookie("victim.own@example.com"))

    assert (shown.status, shown.message) == ("failed", OTHER_ACCOUNT)
    assert not _verified(squatter) and not _verified(victims_own)
    assert not _link_used(squatter)
    assert _open_link(token, cookie=login_cookie("victim@example.com")).status == "verified"
    assert _verified(squatter) and not _verified(victims_own)


def test_no_event_a_client_may_send_sets_the_link_a_login_verifies() -> None:
    """A public method of a state is an event any client may send: the link waiting for a
    login (its digest) and the reset's notice are set only by the server's own states."""
    assert set(LoginState.event_handlers) == {
        "choose_plan",
        "load_page",
        "log_in",
        "setvar",
        "show_mode",
    }
