"""Logging in, and recognising the login tokens handed out."""

from __future__ import annotations

import logging

from sqlmodel import Session, select

from rcxsite.accounts import ratelimit
from rcxsite.accounts.errors import AccountError
from rcxsite.accounts.passwords import verify_password
from rcxsite.accounts.results import LoginResult
from rcxsite.accounts.tokens import decode_login_token, issue_login_token
from rcxsite.accounts.validation import (
    EMAIL_REQUIRED,
    MAX_DB_INTEGER,
    MAX_PASSWORD,
    PASSWORD_REQUIRED,
    PASSWORD_TOO_LONG,
    email_key,
    normalize_email,
    text,
)
from rcxsite.db import get_engine, session_scope
from rcxsite.models import Customer

logger = logging.getLogger(__name__)

# One message for unknown address and wrong password, so the answer reveals no accounts.
INVALID_CREDENTIALS = "Invalid email or password."


def authenticate(*, email: str, password: str, client_ip: str) -> LoginResult:
    email = text(email)
    if not email:
        raise AccountError(422, EMAIL_REQUIRED)
    if not isinstance(password, str) or not password:
        raise AccountError(422, PASSWORD_REQUIRED)
    if len(password) > MAX_PASSWORD:
        raise AccountError(422, PASSWORD_TOO_LONG)
    normalized = normalize_email(email)
    account = email_key(normalized) if normalized else email.lower()
    ratelimit.ensure_login_allowed(account=account, client_ip=client_ip)

    with session_scope() as session:
        customer = None
        if normalized is not None:  # an invalid address cannot be stored, so skip the query
            customer = session.exec(select(Customer).where(Customer.email_key == account)).first()
        matches, new_hash = verify_password(password, customer.password_hash if customer else None)
        if customer is None or not matches:
            ratelimit.record_login_failure(account=account, client_ip=client_ip)
            raise AccountError(401, INVALID_CREDENTIALS)
        if new_hash is not None:  # hashing parameters were raised since this hash was made
            customer.password_hash = new_hash
            session.add(customer)
        customer_id = customer.id
        assert customer_id is not None  # rows read from the table always have one
        result = LoginResult(
            email_address=customer.email,
            user_name=customer.user_name,
            token=issue_login_token(customer_id),
            customer_id=customer_id,
        )
    logger.info("Customer %d logged in", result.customer_id)
    return result


def verify_login_token(token: str) -> int | None:
    """The customer id a token stands for; None if it is forged, expired or revoked."""
    claims = decode_login_token(token)
    if claims is None or not 0 < claims.customer_id <= MAX_DB_INTEGER:
        return None
    with Session(get_engine()) as session:
        customer = session.get(Customer, claims.customer_id)
    if customer is None:
        return None
    revoked_before = customer.tokens_valid_after
    if revoked_before is not None and claims.issued_at < revoked_before.timestamp():
        return None
    return customer.id
