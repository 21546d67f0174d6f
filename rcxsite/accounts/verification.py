"""Proving that a customer's email address is theirs: a mailed, single-use, expiring link.

As django-allauth's optional verification: an unverified customer still logs in and uses
My account, but quote requests, which carry nothing but an email address, are shown as
the customer's (My account, the staff inbox's link to the account, the customer card)
only once the address is verified. Otherwise anyone could register someone else's
address and read which requests it sent.

A link works only for the customer it was sent for, signed in (the screens' login cookie,
the API's bearer token): anyone can register someone else's address, and the person who
then opens the mailed link must not thereby verify that account (and show it their quote
requests). The account's owner knows its password; that person does not. Opened by anyone
else, a link is not used up. The mail greets nobody by name: whoever registered the
address typed the name.

Links are stored like reset links (rcxsite.accounts.reset): only the SHA-256 of the token,
an expiry (`EMAIL_VERIFICATION_DAYS`), used once, and a new link voids the older ones. A
link verifies the account's address as it is when the link is used: the address cannot be
changed today, and whatever changes it must clear `email_verified_at` and issue a new link
(`issue_verification_link`), which voids the links mailed to the old address.
"""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from rcxsite import mail
from rcxsite.accounts import limits
from rcxsite.accounts.inputs import VERIFY_LINK_INVALID, VerifyEmailInput
from rcxsite.accounts.my_account import SIGNED_OUT
from rcxsite.core import one_time_links, paths
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.tokens import token_digest
from rcxsite.models import Customer, EmailVerificationToken, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event
from rcxsite.platform.settings import get_settings

EMAIL_VERIFIED = "Your email address is verified."
ALREADY_VERIFIED = "Your email address is already verified."
# The screen's answer to a visitor who is not signed in; the link is not used.
LOG_IN_TO_VERIFY = (
    "Only the account's owner can verify its email address. Log in here, and this link verifies it."
)
OTHER_ACCOUNT = (
    "This link was sent for another account: log in to that account, then open the link again."
)


def link_sent(email: str) -> str:
    return f"A new link has been sent to {email}."


def verification_link(token: str) -> str:
    # Built from configuration only: a forged Host header must not redirect the link.
    return get_settings().site_url + paths.verify_email_path(token)


def issue_verification_link(session: Session, customer: Customer) -> None:
    """Within the caller's transaction: a new link for the customer's current address, only
    its digest stored, its mail queued in the same transaction (the outbox); every older
    open link stops working, so only the newest mail counts."""
    assert customer.id is not None
    days = get_settings().email_verification_days
    now = utcnow()
    token = one_time_links.issue(
        session,
        EmailVerificationToken,
        now=now,
        lifetime=timedelta(days=days),
        replacing=True,
        customer_id=customer.id,
    )
    mail.send_email_verification_mail(
        to=customer.email, link=verification_link(token), valid_days=days, session=session
    )


def verify_email(form: VerifyEmailInput, *, customer_id: int, client_ip: str) -> str:
    """The API's verification: the link's token itself, for the signed-in `customer_id`."""
    limits.count_verification_link(client_ip=client_ip)
    return _verify(token_digest(form.token.strip()), customer_id, client_ip)


def verify_email_link(*, link_digest: str | None, customer_id: int, client_ip: str) -> str:
    """As `verify_email`, for the screens, which see only the digest of the link's token
    (rcxsite/web/sealed_event_paths.py). Never offered to API clients: a digest read from
    the database must not work as a link."""
    limits.count_verification_link(client_ip=client_ip)
    return _verify(link_digest, customer_id, client_ip)


def _verify(digest: str | None, customer_id: int, client_ip: str) -> str:
    now = utcnow()
    with session_scope() as session:
        # A link works exactly once, and only for its own customer.
        claimed = digest is not None and one_time_links.claim(
            session,
            EmailVerificationToken,
            digest,
            now,
            col(EmailVerificationToken.customer_id) == customer_id,
        )
        customer = session.get(Customer, customer_id) if claimed else None
        if customer is None:
            if (
                digest is not None
                and session.exec(
                    select(EmailVerificationToken.id).where(
                        *one_time_links.open_link(EmailVerificationToken, digest, now)
                    )
                ).first()
                is not None
            ):
                # Another account's live link: left as it is, for that account's owner.
                security_event(
                    "email_verification", "other_account", client_ip=client_ip, customer=customer_id
                )
                raise ServiceError(403, OTHER_ACCOUNT)
            security_event("email_verification", "refused", client_ip=client_ip)
            raise ServiceError(400, VERIFY_LINK_INVALID)
        if customer.email_verified_at is None:
            customer.email_verified_at = now
            session.add(customer)
        email = customer.email
    security_event(
        "email_verification", "verified", client_ip=client_ip, email=email, customer=customer_id
    )
    return EMAIL_VERIFIED


def send_verification_again(*, customer_id: int, client_ip: str) -> str:
    """My account's "Send the link again": a new link to the account's address (older
    ones stop working); nothing is sent once the address is verified."""
    limits.count_verification_mail(customer_id=customer_id, client_ip=client_ip)
    with session_scope() as session:
        customer = session.get(Customer, customer_id)
        if customer is None:  # deleted while a session was still being checked
            raise ServiceError(401, SIGNED_OUT)
        if customer.email_verified_at is not None:
            return ALREADY_VERIFIED
        issue_verification_link(session, customer)
        address = customer.email
    security_event(
        "email_verification", "sent", client_ip=client_ip, email=address, customer=customer_id
    )
    return link_sent(address)
