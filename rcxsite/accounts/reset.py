"""Forgotten passwords: mailing a reset link, checking it, and setting the new password."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, update
from sqlmodel import Session, col, select

from rcxsite import mail, routes
from rcxsite.accounts import ratelimit
from rcxsite.accounts.errors import AccountError
from rcxsite.accounts.passwords import hash_password
from rcxsite.accounts.results import ResetCheck
from rcxsite.accounts.tokens import new_reset_token, reset_token_digest
from rcxsite.accounts.validation import (
    EMAIL_REQUIRED,
    NEW_PASSWORD_REQUIRED,
    NEW_PASSWORD_TOO_SHORT,
    RESET_EMAIL_INVALID,
    email_key,
    normalize_email,
    password_problem,
    text,
)
from rcxsite.db import get_engine, session_scope
from rcxsite.models import Customer, PasswordResetToken, utcnow
from rcxsite.settings import get_settings

logger = logging.getLogger(__name__)

# The same answer whether or not the address has an account, so nobody can probe for one.
RESET_REQUESTED = "If an account exists for that email, a reset link has been sent."
PASSWORD_RESET = "Your password has been successfully reset!"
LINK_INVALID = "This reset link has expired or is invalid. Please request a new one."


def reset_link(token: str) -> str:
    # Built from configuration only: a forged Host header must not redirect the link.
    return get_settings().site_url + routes.reset_password_path(token)


def request_password_reset(*, email: str, client_ip: str) -> str:
    email = text(email)
    if not email:
        raise AccountError(422, EMAIL_REQUIRED)
    normalized = normalize_email(email)
    if normalized is None:
        raise AccountError(422, RESET_EMAIL_INVALID)
    key = email_key(normalized)
    ratelimit.consume_reset_mail(account=key)

    minutes = get_settings().reset_token_minutes
    token, digest = new_reset_token()
    with session_scope() as session:
        customer = session.exec(select(Customer).where(Customer.email_key == key)).first()
        if customer is None:
            logger.info("Reset requested for an address without account (client %s)", client_ip)
            return RESET_REQUESTED
        assert customer.id is not None
        session.add(
            PasswordResetToken(
                customer_id=customer.id,
                token_hash=digest,
                expires_at=utcnow() + timedelta(minutes=minutes),
            )
        )
        recipient, user_name, customer_id = customer.email, customer.user_name, customer.id
    mail.send_password_reset_mail(
        to=recipient, user_name=user_name, link=reset_link(token), valid_minutes=minutes
    )
    logger.info("Reset link queued for customer %d (client %s)", customer_id, client_ip)
    return RESET_REQUESTED


def _open_token_clause(digest: str, now: datetime) -> tuple[ColumnElement[bool], ...]:
    return (
        PasswordResetToken.token_hash == digest,
        col(PasswordResetToken.used_at).is_(None),
        PasswordResetToken.expires_at > now,
    )


def check_reset_token(*, token: str, client_ip: str) -> ResetCheck:
    """Whether a reset link can still be used, and for which address."""
    ratelimit.consume_reset_check(client_ip=client_ip)
    digest = reset_token_digest(text(token))
    if digest is None:
        return ResetCheck(is_valid=False)
    with Session(get_engine()) as session:
        email = session.exec(
            select(Customer.email)
            .join(PasswordResetToken, col(PasswordResetToken.customer_id) == Customer.id)
            .where(*_open_token_clause(digest, utcnow()))
        ).first()
    return ResetCheck(is_valid=True, email=email) if email else ResetCheck(is_valid=False)


def reset_password(*, email: str, new_password: str, token: str) -> str:
    password = new_password if isinstance(new_password, str) else ""
    problem = password_problem(
        password, required=NEW_PASSWORD_REQUIRED, too_short=NEW_PASSWORD_TOO_SHORT
    )
    if problem:
        raise AccountError(422, problem)
    email = text(email)
    if not email:
        raise AccountError(422, EMAIL_REQUIRED)
    digest = reset_token_digest(text(token))
    if digest is None:
        raise AccountError(400, LINK_INVALID)
    normalized = normalize_email(email)
    new_hash = hash_password(password)  # slow, so done before any row is locked

    now = utcnow()
    with session_scope() as session:
        # Claiming the token with a conditional UPDATE makes it single-use even when two
        # requests race: only one of them sees a row change.
        claimed = session.exec(
            update(PasswordResetToken).where(*_open_token_clause(digest, now)).values(used_at=now)
        )
        customer = None
        if claimed.rowcount == 1:
            customer = session.exec(
                select(Customer)
                .join(PasswordResetToken, col(PasswordResetToken.customer_id) == Customer.id)
                .where(PasswordResetToken.token_hash == digest)
            ).one()
        if customer is None or normalized is None or customer.email_key != email_key(normalized):
            # Raising rolls the claim back: a mistyped address does not burn the link.
            raise AccountError(400, LINK_INVALID)
        customer.password_hash = new_hash
        customer.tokens_valid_after = now  # every login token issued before now is revoked
        session.add(customer)
        # Any other link still in a mailbox could undo this reset; void them all.
        session.exec(
            update(PasswordResetToken)
            .where(
                PasswordResetToken.customer_id == customer.id,
                col(PasswordResetToken.used_at).is_(None),
            )
            .values(used_at=now)
        )
        recipient, user_name, customer_id = customer.email, customer.user_name, customer.id
    mail.send_password_changed_mail(to=recipient, user_name=user_name)
    logger.info("Password reset for customer %d", customer_id)
    return PASSWORD_RESET
