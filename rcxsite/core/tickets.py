"""One-time cookie tickets. The screens sign in over the websocket, so the browser trades a
ticket for its HttpOnly cookie in an HTTP answer; customer logins and staff sign-ins claim
theirs with the same statement, so both close after the same minute and work once."""

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
