"""Server-side login sessions: the one rule for "signed in", shared by screens and API.

A login stores a row with only the SHA-256 of a random token; the token itself goes to
the client (the `userSession` cookie's Token, the API's `token`). A session counts while
it is not revoked, was last used within `HEADER_SESSION_MINUTES` and is younger than
`LOGIN_TOKEN_DAYS`. Logging out revokes it; a password reset revokes all of a customer's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, col, select

from rcxsite.accounts.tokens import new_token, token_digest
from rcxsite.db import session_scope
from rcxsite.logs import security_event
from rcxsite.models import LoginSession, PasswordResetToken, utcnow
from rcxsite.settings import get_settings

# The browser's name for the login: the cookie (spec §3) and the session-storage entry.
COOKIE_NAME = "userSession"


def start_session(session: Session, customer_id: int) -> str:
    """Record a new session in `session`'s transaction; returns the token to hand out."""
    token, digest = new_token()
    now = utcnow()
    session.add(
        LoginSession(customer_id=customer_id, token_hash=digest, created_at=now, last_seen_at=now)
    )
    return token


def _live_since(now: datetime) -> tuple[datetime, datetime]:
    settings = get_settings()
    return (
        now - timedelta(minutes=settings.header_session_minutes),
        now - timedelta(days=settings.login_token_days),
    )


def session_customer(token: str, *, now: datetime | None = None) -> int | None:
    """The customer a live session belongs to, marking it used; None for anything else."""
    digest = token_digest(token)
    return None if digest is None else digest_customer(digest, now=now)


def digest_customer(digest: str, *, now: datetime | None = None) -> int | None:
    """As `session_customer`, for a caller that kept only the token's digest (the screens)."""
    now = now or utcnow()
    idle_limit, age_limit = _live_since(now)
    with session_scope() as session:
        row = session.exec(
            select(LoginSession).where(
                LoginSession.token_hash == digest,
                col(LoginSession.revoked_at).is_(None),
                LoginSession.last_seen_at >= idle_limit,
                LoginSession.created_at >= age_limit,
            )
        ).first()
        if row is None:
            return None
        row.last_seen_at = now
        session.add(row)
        return row.customer_id


def end_session(token: str) -> None:
    """Revoke the session a token names (logout); unknown tokens are ignored."""
    digest = token_digest(token)
    if digest is not None:
        end_digest_session(digest)


def end_digest_session(digest: str) -> None:
    with session_scope() as session:
        ended = session.exec(
            update(LoginSession)
            .where(col(LoginSession.token_hash) == digest, col(LoginSession.revoked_at).is_(None))
            .values(revoked_at=utcnow())
        )
    security_event("logout", "success" if ended.rowcount else "no_session")


def void_reset_links(session: Session, customer_id: int, now: datetime) -> None:
    """Within the caller's transaction: every unused reset link of a customer stops working
    (after a reset, a password change or sign out everywhere, a link still in a mailbox
    must not undo it)."""
    session.exec(
        update(PasswordResetToken)
        .where(
            col(PasswordResetToken.customer_id) == customer_id,
            col(PasswordResetToken.used_at).is_(None),
        )
        .values(used_at=now)
    )


def revoke_all_sessions(
    session: Session, customer_id: int, now: datetime, *, keep: str | None = None
) -> None:
    """Within the caller's transaction: end every session of a customer (password reset,
    sign out everywhere), but the one whose digest is `keep` (a password change)."""
    statement = update(LoginSession).where(
        col(LoginSession.customer_id) == customer_id, col(LoginSession.revoked_at).is_(None)
    )
    if keep:
        statement = statement.where(col(LoginSession.token_hash) != keep)
    session.exec(statement.values(revoked_at=now))
