"""Each UTC day's counts under one filter: for every value of every dimension a dashboard
filters by (a page, an entry page, a source, a campaign, a country, a device, a browser),
the day's figures of the visits it selects, in total and by each dimension. A dashboard
with one filter reads these for whole days, as an unfiltered one reads AnalyticsDaily
(rollups.py), instead of the views: a month under a filter at twelve million views a year
is then a few thousand rows, not a million views.

What a filter selects is what the dashboard's own queries select (dashboard/filters.py):
the visits begun that day with that value (for a page, the visits that viewed it), and
the day's views of those visits. Visit counts by another dimension of the visit hold
for both filters of the pair, so each pair is read once and written both ways.

Days counted before this table existed get theirs from the hourly job, BACKFILL_DAYS a
run, newest first (`days_to_backfill`); until then a filter reads those days from the
views.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta
from itertools import combinations
from typing import Any

from sqlalchemy import case, delete, distinct, func, insert, select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from rcxsite.analytics.dimensions import PAGE, TOTAL, VISIT_DIMENSIONS
from rcxsite.analytics.sql import day_start, seconds_between
from rcxsite.models import AnalyticsDailyPair, AnalyticsView, AnalyticsVisit

# The row that says a day's pairs were counted (written for a day without views too).
MARKER = {"filter": TOTAL, "filter_value": "", "dimension": TOTAL, "value": ""}
# How many days without pairs one run counts, going back from the first with them: a
# day of twelve million views a year takes some 5 s on PostgreSQL, so a run stays near a
# minute and thirteen months are done within two days.
BACKFILL_DAYS = 12

_Key = tuple[str, str, str, str]


class _Counts:
    """The rows of one day, each added to as the queries come back."""

    def __init__(self) -> None:
        self.rows: dict[_Key, dict[str, float]] = {}

    def add(self, key: _Key, **figures: Any) -> None:
        row = self.rows.setdefault(
            key, {"visitors": 0, "visits": 0, "views": 0, "bounces": 0, "duration_seconds": 0.0}
        )
        for name, value in figures.items():
            row[name] += float(value or 0)

    def records(self, day: date) -> Iterator[dict[str, Any]]:
        for (filter_name, filter_value, dimension, value), figures in self.rows.items():
            yield {
                "filter": filter_name,
                "filter_value": filter_value,
                "dimension": dimension,
                "day": day,
                "value": value,
                "visitors": int(figures["visitors"]),
                "visits": int(figures["visits"]),
                "views": int(figures["views"]),
                "bounces": int(figures["bounces"]),
                "duration_seconds": float(figures["duration_seconds"]),
            }


def _visit_figures(session: Session) -> tuple[Any, ...]:
    """Visitors, visits, views, bounces and seconds of a group of visits."""
    visit = AnalyticsVisit
    return (
        func.count(distinct(col(visit.visitor))),
        func.count(),
        func.coalesce(func.sum(col(visit.views)), 0),
        func.coalesce(func.sum(case((col(visit.views) == 1, 1), else_=0)), 0),
        func.coalesce(
            func.sum(seconds_between(session, col(visit.started_at), col(visit.last_at))), 0
        ),
    )


def _visit_pairs(session: Session, start: datetime, end: datetime, counts: _Counts) -> None:
    """Under each visit dimension's filter: its visits in total (the views and visitors
    come from `_view_parts`) and by each dimension, its own included."""
    begun = (col(AnalyticsVisit.started_at) >= start, col(AnalyticsVisit.started_at) < end)
    for name, column_name in VISIT_DIMENSIONS.items():
        value = getattr(AnalyticsVisit, column_name)
        statement = select(value, *_visit_figures(session)).where(*begun).group_by(value)
        for chosen, visitors, visits, views, bounces, seconds in session.execute(statement):
            counts.add(
                (name, chosen, TOTAL, ""), visits=visits, bounces=bounces, duration_seconds=seconds
            )
            counts.add((name, chosen, name, chosen), visitors=visitors, visits=visits, views=views)
    # Visits by two dimensions are the same figures under either one's filter.
    for first, second in combinations(VISIT_DIMENSIONS, 2):
        a = getattr(AnalyticsVisit, VISIT_DIMENSIONS[first])
        b = getattr(AnalyticsVisit, VISIT_DIMENSIONS[second])
        statement = select(a, b, *_visit_figures(session)).where(*begun).group_by(a, b)
        for value_a, value_b, visitors, visits, views, _, _ in session.execute(statement):
            figures = {"visitors": visitors, "visits": visits, "views": views}
            counts.add((first, value_a, second, value_b), **figures)
            counts.add((second, value_b, first, value_a), **figures)


def _view_parts(session: Session, start: datetime, end: datetime, counts: _Counts) -> None:
    """Under each visit dimension's filter: the day's views of its visits, in total and
    by page."""
    view, visit = AnalyticsView, AnalyticsVisit
    in_day = (col(view.at) >= start, col(view.at) < end)
    for name, column_name in VISIT_DIMENSIONS.items():
        value = getattr(visit, column_name)
        joined = (
            select(value)
            .select_from(view)
            .join(visit, col(visit.id) == col(view.visit_id))
            .where(*in_day)
        )
        total = joined.add_columns(func.count(), func.count(distinct(col(view.visitor))))
        for chosen, views, visitors in session.execute(total.group_by(value)):
            counts.add((name, chosen, TOTAL, ""), views=views, visitors=visitors)
        by_page = joined.add_columns(
            col(view.path),
            func.count(distinct(col(view.visitor))),
            func.count(distinct(col(view.visit_id))),
            func.count(),
        ).group_by(value, col(view.path))
        for chosen, path, visitors, visits, views in session.execute(by_page):
            counts.add((name, chosen, PAGE, path), visitors=visitors, visits=visits, views=views)


def _page_filter(session: Session, start: datetime, end: datetime, counts: _Counts) -> None:
    """Under each page's filter (the visits that viewed it): their figures, in total and
    by each dimension."""
    view, visit = AnalyticsView, AnalyticsVisit
    in_day = (col(view.at) >= start, col(view.at) < end)
    viewed = select(col(view.visit_id), col(view.path)).where(*in_day).distinct().subquery()
    begun = (col(visit.started_at) >= start, col(visit.started_at) < end)
    from_visits = (
        select(viewed.c.path)
        .select_from(viewed)
        .join(visit, col(visit.id) == viewed.c.visit_id)
        .where(*begun)
    )
    for page, _, visits, _, bounces, seconds in session.execute(
        from_visits.add_columns(*_visit_figures(session)).group_by(viewed.c.path)
    ):
        counts.add(
            (PAGE, page, TOTAL, ""), visits=visits, bounces=bounces, duration_seconds=seconds
        )
    for name, column_name in VISIT_DIMENSIONS.items():
        value = getattr(visit, column_name)
        statement = from_visits.add_columns(value, *_visit_figures(session)).group_by(
            viewed.c.path, value
        )
        for page, chosen, visitors, visits, views, _, _ in session.execute(statement):
            counts.add((PAGE, page, name, chosen), visitors=visitors, visits=visits, views=views)
    seen = aliased(AnalyticsView, name="seen")
    from_views = (
        select(viewed.c.path)
        .select_from(viewed)
        .join(seen, col(seen.visit_id) == viewed.c.visit_id)
        .where(col(seen.at) >= start, col(seen.at) < end)
    )
    for page, views, visitors in session.execute(
        from_views.add_columns(func.count(), func.count(distinct(col(seen.visitor)))).group_by(
            viewed.c.path
        )
    ):
        counts.add((PAGE, page, TOTAL, ""), views=views, visitors=visitors)
    by_page = from_views.add_columns(
        col(seen.path),
        func.count(distinct(col(seen.visitor))),
        func.count(distinct(col(seen.visit_id))),
        func.count(),
    ).group_by(viewed.c.path, col(seen.path))
    for page, path, visitors, visits, views in session.execute(by_page):
        counts.add((PAGE, page, PAGE, path), visitors=visitors, visits=visits, views=views)


def roll_up_pairs(session: Session, day: date) -> int:
    """Count `day`'s pairs (again); how many rows it took."""
    start, end = day_start(day), day_start(day + timedelta(days=1))
    session.execute(delete(AnalyticsDailyPair).where(col(AnalyticsDailyPair.day) == day))
    counts = _Counts()
    _visit_pairs(session, start, end, counts)
    _view_parts(session, start, end, counts)
    _page_filter(session, start, end, counts)
    counts.add((MARKER["filter"], MARKER["filter_value"], MARKER["dimension"], MARKER["value"]))
    rows = list(counts.records(day))
    session.execute(insert(AnalyticsDailyPair), rows)
    return len(rows)


def pairs_from(session: Session) -> date | None:
    """The first day whose pairs were counted (every later counted day has them too)."""
    first: date | None = session.execute(
        select(func.min(col(AnalyticsDailyPair.day))).where(col(AnalyticsDailyPair.filter) == TOTAL)
    ).scalar_one()
    return first


def days_to_backfill(session: Session, first_counted: date) -> list[date]:
    """The days before the first with pairs, newest first, back to the oldest view or
    the first counted day, at most BACKFILL_DAYS of them."""
    first = pairs_from(session)
    if first is None:
        return []
    oldest = session.execute(select(func.min(col(AnalyticsView.at)))).scalar_one()
    if oldest is None:
        return []
    floor = max(oldest.date(), first_counted)
    days: list[date] = []
    day = first - timedelta(days=1)
    while day >= floor and len(days) < BACKFILL_DAYS:
        days.append(day)
        day -= timedelta(days=1)
    return days
