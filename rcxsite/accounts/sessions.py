"""Server-side login sessions: the one rule for "signed in", shared by screens and API.

A login stores a row with only the SHA-256 of a random session id; the client holds a JWT
naming that id (rcxsite.accounts.login_tokens): the `userSession` cookie's Token, the
API's `token`. A session counts while it is not revoked, was last used within
`HEADER_SESSION_MINUTES`, is younger than `LOGIN_TOKEN_DAYS` and its customer is not
locked by staff. Logging out revokes it; a password reset or change revokes all of a
customer's.

A login made on the screens reaches the browser through a one-time ticket: the page's
script trades it for an HttpOnly cookie in an HTTP answer (rcxsite/web/login_cookie.py),
so that no script ever holds the token itself. The session id is derived from the ticket
with the server's key, so the token can be made when the ticket is traded without storing
anything a database reader could use.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import func, update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from rcxsite.accounts import login_tokens
from rcxsite.core import one_time_links
from rcxsite.core.tickets import claim_ticket, end_by_digest
from rcxsite.core.tokens import new_token, token_digest
from rcxsite.models import (
    Customer,
    LoginSession,
    PasswordResetToken,
    utcnow,
)
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event
from rcxsite.platform.settings import get_settings, keyed_hash

# The browser's name for the login, which existing clients read: the cookie and the
# session-storage entry.
COOKIE_NAME = "userSession"
# A query of login sessions (their rows, or a count of them).
_Query = TypeVar("_Query", bound=SelectOfScalar[Any])


@dataclass(frozen=True, slots=True)
class NewSession:
    """A session just started: what the client gets (a JWT, or for the screens a one-time
    ticket) and the digest the server finds the session by."""

    token: str
    digest: str
    cookie_ticket: str = ""


def login_digest(token: object) -> str | None:
    """The digest of the session a genuine, unexpired login token names; None otherwise."""
    return token_digest(login_tokens.session_id(token))


def _token_for(session_id: str, now: datetime) -> str:
    lifetime = timedelta(days=get_settings().login_token_days)
    return login_tokens.issue(session_id, issued_at=now, lifetime=lifetime)


def _ticket_session_id(ticket: str) -> str:
    return keyed_hash("login-session-id:" + ticket)


def start_session(session: Session, customer_id: int, *, via_ticket: bool = False) -> NewSession:
    """Record a new session in `session`'s transaction. `via_ticket`: for the screens, the
    client gets a one-time ticket for its cookie (`claim_cookie`) instead of the token."""
    now = utcnow()
    ticket, ticket_hash = new_token() if via_ticket else ("", None)
    session_id = _ticket_session_id(ticket) if via_ticket else secrets.token_urlsafe(32)
    digest = token_digest(session_id)
    assert digest is not None  # made here: always ASCII and short
    session.add(
        LoginSession(
            customer_id=customer_id,
            token_hash=digest,
            cookie_ticket_hash=ticket_hash,
            created_at=now,
            last_seen_at=now,
        )
    )
    token = "" if via_ticket else _token_for(session_id, now)
    return NewSession(token=token, digest=digest, cookie_ticket=ticket)


@dataclass(frozen=True, slots=True)
class ClaimedLogin:
    """What the login cookie holds, as existing clients read it: EmailAddress, UserName, Token,
    CustomerId."""

    email_address: str
    user_name: str
    token: str
    customer_id: int


def claim_cookie(ticket: object, *, now: datetime | None = None) -> ClaimedLogin | None:
    """Trade a login's one-time ticket for its token, once, within `TICKET_SECONDS` of the
    login; None for anything else."""
    ticket_hash = token_digest(ticket)
    if ticket_hash is None or not isinstance(ticket, str):
        return None
    now = now or utcnow()
    with session_scope() as session:
        claimed = session.exec(
            claim_ticket(LoginSession, ticket_hash, now).returning(col(LoginSession.customer_id))
        ).first()
        customer = session.get(Customer, claimed[0]) if claimed else None
        if customer is None or customer.id is None or customer.locked_at is not None:
            return None
        return ClaimedLogin(
            email_address=customer.email,
            user_name=customer.user_name,
            token=_token_for(_ticket_session_id(ticket), now),
            customer_id=customer.id,
        )


def _live(query: _Query, now: datetime) -> _Query:
    """`query` narrowed to the sessions that let their holder in at `now`: not revoked,
    used within the idle limit, younger than a login's lifetime, of a customer who is not
    locked (whether or not the lock ended them). Letting a session in and counting the
    live ones for staff go by this one rule."""
    settings = get_settings()
    return query.join(Customer, col(Customer.id) == col(LoginSession.customer_id)).where(
        col(LoginSession.revoked_at).is_(None),
        LoginSession.last_seen_at >= now - timedelta(minutes=settings.header_session_minutes),
        LoginSession.created_at >= now - timedelta(days=settings.login_token_days),
        col(Customer.locked_at).is_(None),
    )


def session_customer(token: str, *, now: datetime | None = None) -> int | None:
    """The customer a live session belongs to, marking it used; None for anything else."""
    digest = login_digest(token)
    return None if digest is None else digest_customer(digest, now=now)


def digest_customer(digest: str, *, now: datetime | None = None) -> int | None:
    """As `session_customer`, for a caller that kept only the token's digest (the screens).
    A locked customer's sessions count for nothing (`_live`)."""
    now = now or utcnow()
    with session_scope() as session:
        row = session.exec(
            _live(select(LoginSession), now).where(LoginSession.token_hash == digest)
        ).first()
        if row is None:
            return None
        row.last_seen_at = now
        session.add(row)
        return row.customer_id


@dataclass(frozen=True, slots=True)
class SessionActivity:
    """What staff see of a customer's sessions: how many still count as signed in, and
    when any of them, live or not, was last used."""

    live: int
    last_seen: datetime | None


def session_activity(
    session: Session, customer_id: int, *, now: datetime | None = None
) -> SessionActivity:
    """A customer's sessions by the one rule of `digest_customer`, so the count staff see
    is the number of devices that would be let in right now."""
    live = session.exec(
        _live(select(func.count(col(LoginSession.id))), now or utcnow()).where(
            LoginSession.customer_id == customer_id
        )
    ).one()
    last_seen = session.exec(
        select(func.max(LoginSession.last_seen_at)).where(LoginSession.customer_id == customer_id)
    ).one()
    return SessionActivity(live=live, last_seen=last_seen)


def end_session(token: str) -> None:
    """Revoke the session a token names (logout); unknown tokens are ignored."""
    digest = login_digest(token)
    if digest is not None:
        end_digest_session(digest)


def end_digest_session(digest: str) -> None:
    with session_scope() as session:
        ended = session.exec(end_by_digest(LoginSession, digest, utcnow()))
    security_event("logout", "success" if ended.rowcount else "no_session")


def void_reset_links(session: Session, customer_id: int, now: datetime) -> None:
    """After a reset, a password change or sign out everywhere: a reset link still in a
    mailbox must not undo it."""
    one_time_links.void(
        session, PasswordResetToken, now, col(PasswordResetToken.customer_id) == customer_id
    )


def revoke_all_sessions(session: Session, customer_id: int, now: datetime) -> None:
    """Within the caller's transaction: end every session of a customer (password reset
    or change, sign out everywhere)."""
    session.exec(
        update(LoginSession)
        .where(col(LoginSession.customer_id) == customer_id, col(LoginSession.revoked_at).is_(None))
        .values(revoked_at=now)
    )


def end_all_access(session: Session, customer_id: int, now: datetime) -> None:
    """Within the caller's transaction: every session of a customer ends and every open
    reset link stops working. Sign out everywhere (by the customer or by staff) and a lock
    do exactly this, so a stolen session or a link in a stolen mailbox is useless after."""
    revoke_all_sessions(session, customer_id, now)
    void_reset_links(session, customer_id, now)
