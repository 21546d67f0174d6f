"""How long analytics keeps what it counted: page views and visits ANALYTICS_KEEP_MONTHS
(13 by default: a year compared with the one before), and the daily counts under each
filter as long (pair_rollups.py), the daily counts
ANALYTICS_DAILY_MONTHS (25: two years compared), salts two days. A periodic job, run
once a day across all runners."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlmodel import col

from rcxsite.analytics.visitors import forget_old_salts
from rcxsite.jobs import periodic
from rcxsite.models import (
    AnalyticsDaily,
    AnalyticsDailyPair,
    AnalyticsView,
    AnalyticsVisit,
    utcnow,
)
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

DAY = 24 * 3600
# Months as the calendar counts them, near enough for a retention limit.
_MONTH = timedelta(days=365.25 / 12)


@periodic("analytics_retention", every_seconds=DAY)
def forget_old_views(*, now: datetime | None = None) -> dict[str, int]:
    """Delete the views and visits older than the limit and the old salts; how many rows."""
    now = now or utcnow()
    settings = get_settings()
    oldest = now - settings.analytics_keep_months * _MONTH
    oldest_day = (now - settings.analytics_daily_months * _MONTH).date()
    with session_scope() as session:
        pruned = {
            "analytics_view": int(
                session.exec(delete(AnalyticsView).where(col(AnalyticsView.at) < oldest)).rowcount
                or 0
            ),
            "analytics_visit": int(
                session.exec(
                    delete(AnalyticsVisit).where(col(AnalyticsVisit.last_at) < oldest)
                ).rowcount
                or 0
            ),
            "analytics_daily": int(
                session.exec(
                    delete(AnalyticsDaily).where(col(AnalyticsDaily.day) < oldest_day)
                ).rowcount
                or 0
            ),
            # Kept as long as the views: past them a filter has nothing to narrow anyway.
            "analytics_daily_pair": int(
                session.exec(
                    delete(AnalyticsDailyPair).where(col(AnalyticsDailyPair.day) < oldest.date())
                ).rowcount
                or 0
            ),
            "analytics_salt": forget_old_salts(session, now=now),
        }
    if any(pruned.values()):
        logger.info("Forgot old analytics: %s", pruned)
    return pruned
