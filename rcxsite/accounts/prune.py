"""The daily clean-up of customers' ended sign-ins and used or expired links."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlmodel import col

from rcxsite.core.pruning import DAY, KEEP_DAYS, ended_sessions, prune
from rcxsite.jobs import periodic
from rcxsite.models import EmailVerificationToken, LoginSession, PasswordResetToken, utcnow
from rcxsite.platform.settings import get_settings


@periodic("prune_accounts", every_seconds=DAY)
def prune_accounts(*, now: datetime | None = None) -> dict[str, int]:
    """Delete sign-ins and links that ended over KEEP_DAYS ago; how many of each."""
    now = now or utcnow()
    before = now - timedelta(days=KEEP_DAYS)
    lifetime = timedelta(days=get_settings().login_token_days)
    return prune(
        "customer sign-ins and links",
        {
            "login_session": ended_sessions(LoginSession, lifetime=lifetime, before=before),
            "password_reset_token": delete(PasswordResetToken).where(
                col(PasswordResetToken.expires_at) < before
            ),
            "email_verification_token": delete(EmailVerificationToken).where(
                col(EmailVerificationToken.expires_at) < before
            ),
        },
    )
