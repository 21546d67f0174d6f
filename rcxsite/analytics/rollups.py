"""Each UTC day's counts, once the day is over: what the dashboard reads for whole days,
so that a year of ten million views costs a few thousand rows. A periodic job, hourly: it
counts every day since the last one counted up to yesterday, and counts the last one again
(a visit that began before midnight may have gone on after it)."""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import case, delete, distinct, func, insert, select
from sqlmodel import Session, col

from rcxsite.analytics.dimensions import PAGE, TOTAL, VISIT_DIMENSIONS
from rcxsite.analytics.pair_rollups import days_to_backfill, roll_up_pairs
from rcxsite.analytics.sql import day_start, seconds_between
from rcxsite.jobs import periodic
from rcxsite.models import AnalyticsDaily, AnalyticsView, AnalyticsVisit, utcnow
from rcxsite.platform.db import session_scope

logger = logging.getLogger(__name__)

HOUR = 3600


def _visit_counts(
    session: Session, column: Any | None, start: datetime, end: datetime
) -> list[tuple[Any, ...]]:
    """Visitors, visits, views, bounces and seconds of the visits begun in [start, end):
    one row per value of `column`, or one row in all (`column` None)."""
    visit = AnalyticsVisit
    counts = (
        func.count(distinct(col(visit.visitor))),
        func.count(),
        func.coalesce(func.sum(col(visit.views)), 0),
        func.coalesce(func.sum(case((col(visit.views) == 1, 1), else_=0)), 0),
        func.coalesce(
            func.sum(seconds_between(session, col(visit.started_at), col(visit.last_at))), 0
        ),
    )
    statement = select(*counts).where(col(visit.started_at) >= start, col(visit.started_at) < end)
    if column is not None:
        statement = statement.add_columns(column).group_by(column)
    return [tuple(row) for row in session.execute(statement)]


def roll_up_day(session: Session, day: date) -> int:
    """Count `day` (again), its filters' counts too; how many rows it took."""
    start, end = day_start(day), day_start(day + timedelta(days=1))
    view = AnalyticsView
    in_day = (col(view.at) >= start, col(view.at) < end)
    session.execute(delete(AnalyticsDaily).where(col(AnalyticsDaily.day) == day))
    rows: list[dict[str, Any]] = []

    def add(
        dimension: str,
        value: str,
        visitors: int,
        visits: int,
        views: int,
        bounces: int = 0,
        duration: float = 0.0,
    ) -> None:
        rows.append(
            {
                "day": day,
                "dimension": dimension,
                "value": value,
                "visitors": int(visitors),
                "visits": int(visits),
                "views": int(views),
                "bounces": int(bounces),
                "duration_seconds": float(duration),
            }
        )

    views, visitors = session.execute(
        select(func.count(), func.count(distinct(col(view.visitor)))).where(*in_day)
    ).one()
    [(_, visits, _, bounces, duration)] = _visit_counts(session, None, start, end)
    # Written for a day without views too: it says the day was counted.
    add(TOTAL, "", visitors, visits, views, bounces, duration)
    for path, page_visitors, page_views, page_visits in session.execute(
        select(
            col(view.path),
            func.count(distinct(col(view.visitor))),
            func.count(),
            func.count(distinct(col(view.visit_id))),
        )
        .where(*in_day)
        .group_by(col(view.path))
    ):
        add(PAGE, path, page_visitors, page_visits, page_views)
    for dimension, column_name in VISIT_DIMENSIONS.items():
        column = getattr(AnalyticsVisit, column_name)
        for *counts, value in _visit_counts(session, column, start, end):
            add(dimension, value, *counts)
    if rows:
        session.execute(insert(AnalyticsDaily), rows)
    return len(rows) + roll_up_pairs(session, day)


def counted_until(session: Session) -> date | None:
    """The day after the last day counted; None before the first count."""
    last = session.execute(select(func.max(col(AnalyticsDaily.day)))).scalar_one()
    return None if last is None else last + timedelta(days=1)


@periodic("analytics_rollup", every_seconds=HOUR)
def roll_up(*, now: datetime | None = None) -> int:
    """Count the days not counted yet (and the last one again); how many days."""
    yesterday = (now or utcnow()).date() - timedelta(days=1)
    with session_scope() as session:
        until = counted_until(session)
        if until is not None:
            first = until - timedelta(days=1)
        else:
            oldest = session.execute(select(func.min(col(AnalyticsView.at)))).scalar_one()
            if oldest is None:
                return 0
            first = oldest.date()
    days = 0
    day = first
    while day <= yesterday:
        # One transaction a day: a year's first count is not one long lock.
        with session_scope() as session:
            roll_up_day(session, day)
        day += timedelta(days=1)
        days += 1
    if days > 1:
        logger.info("Counted %d days of analytics", days)
    with session_scope() as session:
        first_counted = session.execute(select(func.min(col(AnalyticsDaily.day)))).scalar_one()
        earlier = days_to_backfill(session, first_counted) if first_counted else []
    for day in earlier:
        with session_scope() as session:
            roll_up_pairs(session, day)
    if earlier:
        logger.info("Counted the filters of %d earlier days of analytics", len(earlier))
    return days
