"""Forgotten passwords: mailing a reset link, checking it, and setting the new password."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from rcxsite import mail
from rcxsite.accounts import limits
from rcxsite.accounts.inputs import LINK_INVALID, ForgotPasswordInput, ResetPasswordInput
from rcxsite.accounts.locking import refuse_if_locked
from rcxsite.accounts.results import ResetCheck
from rcxsite.accounts.sessions import revoke_all_sessions, void_reset_links
from rcxsite.core import one_time_links, paths
from rcxsite.core.passwords import hash_password
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.tokens import token_digest
from rcxsite.core.validation import email_key, normalize_email, text
from rcxsite.models import Customer, PasswordResetToken, utcnow
from rcxsite.platform.db import get_engine, session_scope
from rcxsite.platform.logs import security_event
from rcxsite.platform.settings import get_settings

# The same answer whether or not the address has an account, so nobody can probe for one.
RESET_REQUESTED = "If an account exists for that email, a reset link has been sent."
PASSWORD_RESET = "Your password has been successfully reset!"


def reset_link(token: str) -> str:
    # Built from configuration only: a forged Host header must not redirect the link.
    return get_settings().site_url + paths.reset_password_path(token)


def issue_reset_link(session: Session, customer: Customer) -> None:
    """Within the caller's transaction: a new reset link for `customer`, only its digest
    stored, and its mail queued in the same transaction (the outbox): a link that rolls
    back is never mailed, one that commits always is. The forgot-password form and staff
    ("Send password reset") both issue links this way, so a customer gets the same mail
    whoever asked."""
    assert customer.id is not None
    minutes = get_settings().reset_token_minutes
    token = one_time_links.issue(
        session,
        PasswordResetToken,
        now=utcnow(),
        lifetime=timedelta(minutes=minutes),
        customer_id=customer.id,
    )
    mail.send_password_reset_mail(
        to=customer.email,
        user_name=customer.user_name,
        link=reset_link(token),
        valid_minutes=minutes,
        session=session,
    )


def request_password_reset(form: ForgotPasswordInput, *, client_ip: str) -> str:
    key = email_key(form.email)
    limits.count_reset_mail(account=key, client_ip=client_ip)

    with session_scope() as session:
        customer = session.exec(select(Customer).where(Customer.email_key == key)).first()
        if customer is None:
            security_event("reset_requested", "no_account", client_ip=client_ip, email=key)
            return RESET_REQUESTED
        if customer.locked_at is not None:
            # No link for a locked account, and the same answer, so the form tells nobody
            # which accounts are locked; the login says so once the password is right.
            security_event(
                "reset_requested", "locked", client_ip=client_ip, email=key, customer=customer.id
            )
            return RESET_REQUESTED
        issue_reset_link(session, customer)
        customer_id = customer.id
    security_event("reset_requested", "sent", client_ip=client_ip, email=key, customer=customer_id)
    return RESET_REQUESTED


def check_reset_token(*, token: str, client_ip: str) -> ResetCheck:
    """Whether a reset link can still be used, and for which address."""
    limits.count_reset_check(client_ip=client_ip)
    return _check(token_digest(text(token)))


def check_reset_link(*, link_digest: str | None, client_ip: str) -> ResetCheck:
    """As `check_reset_token`, for the screens, which see only the digest of the link's
    token (rcxsite/web/sealed_event_paths.py). Never offered to API clients: a digest read
    from the database must not work as a link."""
    limits.count_reset_check(client_ip=client_ip)
    return _check(link_digest)


def _check(digest: str | None) -> ResetCheck:
    if digest is None:
        return ResetCheck(is_valid=False)
    with Session(get_engine()) as session:
        email = session.exec(
            select(Customer.email)
            .join(PasswordResetToken, col(PasswordResetToken.customer_id) == Customer.id)
            .where(*one_time_links.open_link(PasswordResetToken, digest, utcnow()))
        ).first()
    return ResetCheck(is_valid=True, email=email) if email else ResetCheck(is_valid=False)


def _open_token_owner(digest: str) -> int | None:
    """The customer an unused, unexpired token belongs to, before any hashing is paid for."""
    with Session(get_engine()) as session:
        return session.exec(
            select(PasswordResetToken.customer_id).where(
                *one_time_links.open_link(PasswordResetToken, digest, utcnow())
            )
        ).first()


def reset_password(form: ResetPasswordInput, *, client_ip: str) -> str:
    limits.count_reset_submission(client_ip=client_ip)
    return _set_new_password(form, token_digest(form.token.strip()), client_ip)


def reset_password_for_link(
    form: ResetPasswordInput, *, link_digest: str | None, client_ip: str
) -> str:
    """As `reset_password`, for the screens, which see only the link token's digest (the
    form's token is not used)."""
    limits.count_reset_submission(client_ip=client_ip)
    return _set_new_password(form, link_digest, client_ip)


def _set_new_password(form: ResetPasswordInput, digest: str | None, client_ip: str) -> str:
    # The token is looked up first: hashing (the expensive part) is only paid for a live link.
    if digest is None or _open_token_owner(digest) is None:
        security_event("reset", "refused", client_ip=client_ip, email=form.email)
        raise ServiceError(400, LINK_INVALID)
    normalized = normalize_email(form.email)
    new_hash = hash_password(form.new_password)  # slow, so done before any row is locked

    now = utcnow()
    with session_scope() as session:
        customer = None
        if one_time_links.claim(session, PasswordResetToken, digest, now):
            customer = session.exec(
                select(Customer)
                .join(PasswordResetToken, col(PasswordResetToken.customer_id) == Customer.id)
                .where(PasswordResetToken.token_hash == digest)
            ).one()
        if customer is None or normalized is None or customer.email_key != email_key(normalized):
            # Raising rolls the claim back: a mistyped address does not burn the link.
            security_event("reset", "refused", client_ip=client_ip, email=form.email)
            raise ServiceError(400, LINK_INVALID)
        # A lock voids open links; this refuses one issued in a race with the lock.
        if customer.locked_at is not None:
            security_event(
                "reset", "locked", client_ip=client_ip, email=form.email, customer=customer.id
            )
            refuse_if_locked(customer)  # raising rolls the claim back, as above
        customer.password_hash = new_hash
        session.add(customer)
        assert customer.id is not None
        revoke_all_sessions(session, customer.id, now)  # whoever knew the old one is out
        void_reset_links(session, customer.id, now)
        recipient, user_name, customer_id = customer.email, customer.user_name, customer.id
        mail.send_password_changed_mail(to=recipient, user_name=user_name, session=session)
    security_event("reset", "used", client_ip=client_ip, email=recipient, customer=customer_id)
    return PASSWORD_RESET
