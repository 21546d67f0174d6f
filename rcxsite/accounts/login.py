"""Logging in, logging out, and recognising the session tokens handed out."""

from __future__ import annotations

import logging

from sqlmodel import select

from rcxsite.accounts import limits
from rcxsite.accounts.inputs import LoginInput
from rcxsite.accounts.locking import refuse_if_locked
from rcxsite.accounts.results import LoginResult
from rcxsite.accounts.sessions import end_session, session_customer, start_session
from rcxsite.core.passwords import verify_password
from rcxsite.core.ratelimit import RateLimited
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.validation import email_key, normalize_email
from rcxsite.models import Customer
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event

logger = logging.getLogger(__name__)

# One message for unknown address and wrong password, so the answer reveals no accounts.
INVALID_CREDENTIALS = "Invalid email or password."


def authenticate(form: LoginInput, *, client_ip: str, via_ticket: bool = False) -> LoginResult:
    """Check the password and start a session. `via_ticket` (the screens): the result
    carries a one-time cookie ticket instead of the token (see rcxsite.accounts.sessions).
    A locked account (rcxsite.accounts.locking) with the right password gets a 403 that
    says whom to contact."""
    normalized = normalize_email(form.email)
    account = email_key(normalized) if normalized else form.email.lower()
    # Counted before the password is checked, so parallel guesses cannot overrun the limit.
    try:
        attempt = limits.reserve_login_attempt(account=account, client_ip=client_ip)
    except RateLimited:
        security_event("login", "locked", client_ip=client_ip, email=account)
        raise

    # The password is checked outside any transaction: a hash takes tens of milliseconds,
    # and a pooled connection held that long is what runs out first under load.
    found = None
    if normalized is not None:  # an invalid address cannot be stored, so skip the query
        with session_scope() as session:
            customer = session.exec(select(Customer).where(Customer.email_key == account)).first()
            if customer is not None:
                found = (customer.id, customer.password_hash, customer.email, customer.user_name)
    stored_hash = found[1] if found else None
    matches, new_hash = verify_password(form.password, stored_hash)
    if found is None or not matches:
        security_event("login", "failure", client_ip=client_ip, email=account)
        raise ServiceError(401, INVALID_CREDENTIALS)
    customer_id, _, email_address, user_name = found
    assert customer_id is not None  # rows read from the table always have one
    try:
        attempt.give_back()  # only failures count towards the limit
    except Exception:  # a counter store hiccup must not fail a correct login
        logger.exception("could not give back a login slot")
    with session_scope(for_update=True) as session:
        # Read again, in the transaction that starts the session and serialised with a
        # staff lock (rcxsite.platform.db.session_scope): a lock made while the password was being
        # checked, or while this runs, must not let this login through.
        stored = session.get(Customer, customer_id, with_for_update=True)
        if stored is not None and stored.locked_at is not None:
            # Only now, with the password right: the lock is no oracle for a wrong one.
            security_event(
                "login", "account_locked", client_ip=client_ip, email=account, customer=customer_id
            )
            refuse_if_locked(stored)
        # Hashing parameters were raised since this hash was made: store the new one.
        if new_hash is not None and stored is not None and stored.password_hash == stored_hash:
            stored.password_hash = new_hash
            session.add(stored)
        started = start_session(session, customer_id, via_ticket=via_ticket)
        result = LoginResult(
            email_address=email_address,
            user_name=user_name,
            token=started.token,
            customer_id=customer_id,
            session_digest=started.digest,
            cookie_ticket=started.cookie_ticket,
        )
    security_event(
        "login", "success", client_ip=client_ip, email=account, customer=result.customer_id
    )
    return result


def verify_login_token(token: str) -> int | None:
    """The customer a session token stands for; None if it is unknown, idle, old or revoked."""
    return session_customer(token)


def log_out(token: str) -> None:
    """End the session a token names; the token is refused from now on, by screens and API."""
    end_session(token)
