"""Links that work once: a password reset, an address verification, a staff invitation.

One way for the three tables (each with `token_hash`, `used_at` and `expires_at`): a link
is issued with only its token's digest stored; it is open while unused and unexpired; it
is claimed with a conditional UPDATE, so of two requests with one link only one sees a row
change; and it is voided when a newer link or a change (a new password, a lock) makes it
moot. A booked call's manage link is not one of them: it works until the call is over.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, update
from sqlmodel import Session, col

from rcxsite.core.tokens import new_token


def issue(
    session: Session,
    model: Any,
    *,
    now: datetime,
    lifetime: timedelta,
    replacing: bool = False,
    **owner: Any,
) -> str:
    """Within the caller's transaction: a new link's row (its token's digest only) for
    `owner` (e.g. `customer_id=...`); the token for the mail. `replacing`: the owner's
    older open links stop working, so only the newest mail counts."""
    if replacing:
        void(
            session,
            model,
            now,
            *(col(getattr(model, key)) == value for key, value in owner.items()),
        )
    token, digest = new_token()
    session.add(model(token_hash=digest, expires_at=now + lifetime, created_at=now, **owner))
    return token


def open_link(model: Any, digest: str, now: datetime) -> tuple[ColumnElement[bool], ...]:
    """The clauses of an unused, unexpired link with this digest."""
    return (
        col(model.token_hash) == digest,
        col(model.used_at).is_(None),
        col(model.expires_at) > now,
    )


def claim(session: Session, model: Any, digest: str, now: datetime, *where: Any) -> bool:
    """Marks the open link used (and matching `where`); False when it was not open, or
    another request claimed it first. Raising afterwards rolls the claim back."""
    claimed = session.exec(
        update(model).where(*open_link(model, digest, now), *where).values(used_at=now)
    )
    return bool(claimed.rowcount == 1)


def void(session: Session, model: Any, now: datetime, *where: Any) -> None:
    """Within the caller's transaction: every unused link matching `where` stops working."""
    statement = update(model).where(col(model.used_at).is_(None), *where).values(used_at=now)
    session.exec(statement)
