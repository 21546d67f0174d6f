"""Staff sessions: server-side rows, like customer logins, but never interchangeable.

The `staffSession` cookie holds a random token; only its SHA-256 is stored. A session
counts while it is not revoked, was used within `STAFF_IDLE_MINUTES`, is younger than
`STAFF_SESSION_HOURS`, and its member is not disabled. The screens sign in over the
websocket, so the browser trades a one-time ticket for the HttpOnly cookie in an HTTP
answer (rcxsite/web/staff_cookie.py), as the customer login does; the token is derived
from the ticket with the server's key, so nothing a database reader could use is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import update
from sqlmodel import Session, col, select

from rcxsite.core.permissions import StaffActor
from rcxsite.core.tickets import claim_ticket, end_by_digest
from rcxsite.core.tokens import new_token, token_digest
from rcxsite.models import StaffMember, StaffSession, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings, keyed_hash

COOKIE_NAME = "staffSession"


@dataclass(frozen=True, slots=True)
class NewStaffSession:
    digest: str
    cookie_ticket: str


def actor_of(
    member: StaffMember, *, client_address: str, time_zone: str | None = None
) -> StaffActor:
    """The member as the services name whoever acts, from their row (`time_zone`: the
    zone just stored, when the row was read before it)."""
    assert member.id is not None
    return StaffActor(
        member_id=member.id,
        name=member.name,
        email=member.email,
        role=member.role,
        time_zone=member.time_zone if time_zone is None else time_zone,
        client_address=client_address,
    )


def _ticket_token(ticket: str) -> str:
    return keyed_hash("staff-session-token:" + ticket)


def start_session(session: Session, member_id: int, now: datetime | None = None) -> NewStaffSession:
    """Record a new session in the caller's transaction; the browser gets a ticket."""
    now = now or utcnow()
    ticket, ticket_hash = new_token()
    digest = token_digest(_ticket_token(ticket))
    assert digest is not None
    session.add(
        StaffSession(
            staff_member_id=member_id,
            token_hash=digest,
            cookie_ticket_hash=ticket_hash,
            created_at=now,
            last_seen_at=now,
        )
    )
    return NewStaffSession(digest=digest, cookie_ticket=ticket)


def claim_cookie(ticket: object, *, now: datetime | None = None) -> str | None:
    """The cookie's token for a ticket presented once, within a minute; None otherwise."""
    ticket_hash = token_digest(ticket)
    if ticket_hash is None or not isinstance(ticket, str):
        return None
    now = now or utcnow()
    with session_scope() as session:
        claimed = session.exec(claim_ticket(StaffSession, ticket_hash, now))
        return _ticket_token(ticket) if claimed.rowcount else None


def session_digest(token: object) -> str | None:
    return token_digest(token)


def digest_actor(
    digest: str, *, client_address: str = "", now: datetime | None = None
) -> StaffActor | None:
    """The member a live session belongs to, marking it used; None for anything else."""
    settings = get_settings()
    now = now or utcnow()
    with session_scope() as session:
        found = session.exec(
            select(StaffSession, StaffMember)
            .join(StaffMember, col(StaffMember.id) == col(StaffSession.staff_member_id))
            .where(
                StaffSession.token_hash == digest,
                col(StaffSession.revoked_at).is_(None),
                StaffSession.last_seen_at >= now - timedelta(minutes=settings.staff_idle_minutes),
                StaffSession.created_at >= now - timedelta(hours=settings.staff_session_hours),
                col(StaffMember.disabled_at).is_(None),
            )
        ).first()
        if found is None:
            return None
        row, member = found
        row.last_seen_at = now
        session.add(row)
        return actor_of(member, client_address=client_address)


def end_session(digest: str) -> bool:
    """Sign out: whether a live session was ended."""
    with session_scope() as session:
        ended = session.exec(end_by_digest(StaffSession, digest, utcnow()))
        return bool(ended.rowcount)


def end_member_sessions(session: Session, member_id: int) -> None:
    """In the caller's transaction: every session of a member ends (disabled, role changed,
    two-factor reset)."""
    session.exec(
        update(StaffSession)
        .where(
            col(StaffSession.staff_member_id) == member_id, col(StaffSession.revoked_at).is_(None)
        )
        .values(revoked_at=utcnow())
    )
