"""Periodic clean-up of what has expired: old sessions, used or expired links, finished
jobs. Each is a periodic job (rcxsite/jobs), run once a day across all runners.

Rows stay KEEP_DAYS after they stopped counting, so a support question about last week's
sign-in can still be answered; none of them lets anyone in by then.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import Delete, and_, delete, or_
from sqlmodel import col

from rcxsite.db import session_scope
from rcxsite.jobs import periodic
from rcxsite.jobs.queue import CANCELLED, DONE, FAILED
from rcxsite.models import (
    EmailVerificationToken,
    Job,
    LoginSession,
    PasswordResetToken,
    StaffInvitation,
    StaffSession,
    utcnow,
)
from rcxsite.settings import get_settings

logger = logging.getLogger(__name__)

KEEP_DAYS = 30
DAY = 24 * 3600


def _ended_sessions(
    model: type[LoginSession] | type[StaffSession], *, lifetime: timedelta, before: datetime
) -> Delete:
    """The sessions that ended (signed out, or past their `lifetime`) before `before`."""
    return delete(model).where(
        or_(col(model.revoked_at) < before, col(model.created_at) < before - lifetime)
    )


@periodic("prune_expired", every_seconds=DAY)
def prune_expired(*, now: datetime | None = None) -> dict[str, int]:
    """Delete what expired or ended over KEEP_DAYS ago; how many rows of each table."""
    now = now or utcnow()
    settings = get_settings()
    keep = timedelta(days=KEEP_DAYS)
    login_age = timedelta(days=settings.login_token_days)
    staff_age = timedelta(hours=settings.staff_session_hours)
    statements = {
        "login_session": _ended_sessions(LoginSession, lifetime=login_age, before=now - keep),
        "password_reset_token": delete(PasswordResetToken).where(
            col(PasswordResetToken.expires_at) < now - keep
        ),
        "email_verification_token": delete(EmailVerificationToken).where(
            col(EmailVerificationToken.expires_at) < now - keep
        ),
        "staff_session": _ended_sessions(StaffSession, lifetime=staff_age, before=now - keep),
        "staff_invitation": delete(StaffInvitation).where(
            col(StaffInvitation.expires_at) < now - keep
        ),
        # Failed ones too: a month is long enough to retry, and their sealed mail holds
        # names and addresses that must not outlive that.
        "job": delete(Job).where(
            and_(col(Job.state).in_((DONE, CANCELLED, FAILED)), col(Job.finished_at) < now - keep)
        ),
    }
    pruned = {}
    with session_scope() as session:
        for table, statement in statements.items():
            pruned[table] = int(session.exec(statement).rowcount or 0)
    if any(pruned.values()):
        logger.info("Pruned expired rows: %s", pruned)
    return pruned
