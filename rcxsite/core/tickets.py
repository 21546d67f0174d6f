"""The statements customer logins and staff sign-ins share (their rows have the same
session columns), so that both kinds open and end by one rule.

One-time cookie tickets: the screens sign in over the websocket, so the browser trades a
ticket for its HttpOnly cookie in an HTTP answer; both kinds claim theirs with the same
statement, so both close after the same minute and work once."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import Update, update
from sqlmodel import col

from rcxsite.models import LoginSession, StaffSession

# How long a login's ticket can be traded for the cookie: the page does it at once.
TICKET_SECONDS = 60


def claim_ticket(
    table: type[LoginSession] | type[StaffSession], ticket_hash: str, now: datetime
) -> Update:
    """The statement that clears a session's one-time cookie ticket, if it is still open
    (unrevoked, within `TICKET_SECONDS`): customer logins and staff sign-ins alike."""
    return (
        update(table)
        .where(
            col(table.cookie_ticket_hash) == ticket_hash,
            col(table.revoked_at).is_(None),
            col(table.created_at) >= now - timedelta(seconds=TICKET_SECONDS),
        )
        .values(cookie_ticket_hash=None)
    )


def end_by_digest(
    table: type[LoginSession] | type[StaffSession], token_hash: str, now: datetime
) -> Update:
    """The statement that ends the session whose token has this digest (sign-out), if it is
    not ended already: its row count says whether one was."""
    return (
        update(table)
        .where(col(table.token_hash) == token_hash, col(table.revoked_at).is_(None))
        .values(revoked_at=now)
    )
