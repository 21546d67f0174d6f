"""The period's totals (visitors, visits, views, bounces, time) and its series."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import case, distinct, func, select
from sqlmodel import Session, col

from rcxsite.analytics.dashboard.filters import in_period, views_of, visit_filters
from rcxsite.analytics.dashboard.parts import parts_of
from rcxsite.analytics.dashboard.period import Period, buckets
from rcxsite.analytics.dimensions import TOTAL
from rcxsite.analytics.sql import FORMATS, bucket_of, seconds_between
from rcxsite.models import AnalyticsView, AnalyticsVisit

NOW_MINUTES = 5


@dataclass(frozen=True, slots=True)
class Figures:
    visitors: int = 0
    visits: int = 0
    views: int = 0
    bounces: int = 0
    seconds: float = 0.0  # all visits' durations together

    def __add__(self, other: Figures) -> Figures:
        return Figures(
            self.visitors + other.visitors,
            self.visits + other.visits,
            self.views + other.views,
            self.bounces + other.bounces,
            self.seconds + other.seconds,
        )

    @property
    def duration_seconds(self) -> float:
        return self.seconds / self.visits if self.visits else 0.0

    @property
    def views_per_visit(self) -> float:
        return self.views / self.visits if self.visits else 0.0

    @property
    def bounce_rate(self) -> float:
        return 100 * self.bounces / self.visits if self.visits else 0.0


@dataclass(frozen=True, slots=True)
class Point:
    label: str
    visitors: int
    views: int
    requests: int = 0  # quote requests sent in the bucket (see goals.requests_by_bucket)
    key: str = ""  # the bucket as the database formats it


def _raw_figures(session: Session, period: Period, filters: dict[str, str]) -> Figures:
    visit = AnalyticsVisit
    visits, bounces, seconds = session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(case((col(visit.views) == 1, 1), else_=0)), 0),
            func.coalesce(
                func.sum(seconds_between(session, col(visit.started_at), col(visit.last_at))), 0
            ),
        ).where(in_period(col(visit.started_at), period), *visit_filters(filters))
    ).one()
    views, visitors = session.execute(
        views_of(
            select(func.count(), func.count(distinct(col(AnalyticsView.visitor)))),
            period,
            filters,
        )
    ).one()
    return Figures(int(visitors), int(visits), int(views), int(bounces), float(seconds))


def figures_of(session: Session, period: Period, filters: dict[str, str]) -> Figures:
    parts = parts_of(session, period, filters)
    total = Figures()
    if parts.counted is not None:
        table, conditions = parts.rows(TOTAL)
        sums = session.execute(
            select(
                *(
                    func.coalesce(func.sum(column), 0)
                    for column in (
                        col(table.visitors),
                        col(table.visits),
                        col(table.views),
                        col(table.bounces),
                        col(table.duration_seconds),
                    )
                )
            ).where(*conditions)
        ).one()
        visitors, visits, views, bounces, seconds = sums
        total += Figures(int(visitors), int(visits), int(views), int(bounces), float(seconds))
    for raw in parts.raw:
        total += _raw_figures(session, raw, filters)
    return total


def visitors_now(session: Session, now: datetime) -> int:
    """Visitors seen in the last NOW_MINUTES, whatever the period and filters."""
    return int(
        session.execute(
            select(func.count(distinct(col(AnalyticsView.visitor)))).where(
                col(AnalyticsView.at) >= now - timedelta(minutes=NOW_MINUTES)
            )
        ).scalar_one()
    )


def series(session: Session, period: Period, filters: dict[str, str]) -> list[Point]:
    parts = parts_of(session, period, filters)
    counted: dict[str, tuple[int, int]] = {}

    def add(key: str, visitors: int, views: int) -> None:
        before = counted.get(key, (0, 0))
        counted[key] = (before[0] + int(visitors), before[1] + int(views))

    if parts.counted is not None:
        pattern = FORMATS[period.bucket][1]
        table, conditions = parts.rows(TOTAL)
        for day, visitors, views in session.execute(
            select(col(table.day), col(table.visitors), col(table.views)).where(*conditions)
        ):
            add(day.strftime(pattern), visitors, views)
    for raw in parts.raw:
        bucket = bucket_of(session, col(AnalyticsView.at), period.bucket).label("bucket")
        for key, visitors, views in session.execute(
            views_of(
                select(bucket, func.count(distinct(col(AnalyticsView.visitor))), func.count()),
                raw,
                filters,
            ).group_by(bucket)
        ):
            add(key, visitors, views)
    return [Point(label, *counted.get(key, (0, 0)), key=key) for key, label in buckets(period)]
