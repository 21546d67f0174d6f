"""The daily clean-up of members' ended sign-ins and expired invitations."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlmodel import col

from rcxsite.core.pruning import DAY, KEEP_DAYS, ended_sessions, prune
from rcxsite.jobs import periodic
from rcxsite.models import StaffInvitation, StaffSession, utcnow
from rcxsite.platform.settings import get_settings


@periodic("prune_staff", every_seconds=DAY)
def prune_staff(*, now: datetime | None = None) -> dict[str, int]:
    """Delete staff sign-ins and invitations that ended over KEEP_DAYS ago."""
    now = now or utcnow()
    before = now - timedelta(days=KEEP_DAYS)
    lifetime = timedelta(hours=get_settings().staff_session_hours)
    return prune(
        "staff sign-ins and invitations",
        {
            "staff_session": ended_sessions(StaffSession, lifetime=lifetime, before=before),
            "staff_invitation": delete(StaffInvitation).where(
                col(StaffInvitation.expires_at) < before
            ),
        },
    )
