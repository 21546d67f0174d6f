"""The analytics dashboard (/staff/analytics, admins and sales): what a period's visitors
did, where they came from, and which of them sent requests, booked calls, registered and
became won deals. Days are UTC days. A query runs in steps, a module each: the period, the
filters, the figures, the tables, the goals and funnel, and a table's CSV.

Visitors over a period are the sum of each day's: a visitor id lasts one day (see
visitors.py), as in every cookieless counter.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from rcxsite.analytics.dashboard.export import UNKNOWN_TABLE, table_csv
from rcxsite.analytics.dashboard.figures import (
    NOW_MINUTES,
    Figures,
    Point,
    figures_of,
    series,
    visitors_now,
)
from rcxsite.analytics.dashboard.filters import goals_filtered
from rcxsite.analytics.dashboard.goals import (
    GOALS,
    Goal,
    by_attribution,
    funnel,
    goals_of,
    rate,
    requests_by_bucket,
)
from rcxsite.analytics.dashboard.period import Period, period_of
from rcxsite.analytics.dashboard.tables import CSV_ROWS, TABLE_ROWS, TABLES, Row, tables_of
from rcxsite.analytics.inputs import DashboardQuery
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.models import utcnow
from rcxsite.platform.db import session_scope

__all__ = [
    "CSV_ROWS",
    "GOALS",
    "NOW_MINUTES",
    "TABLES",
    "TABLE_ROWS",
    "UNKNOWN_TABLE",
    "Dashboard",
    "Figures",
    "Goal",
    "Period",
    "Point",
    "Row",
    "dashboard",
    "period_of",
    "rate",
    "table_csv",
]


@dataclass(frozen=True, slots=True)
class Dashboard:
    period: Period
    figures: Figures
    before: Figures
    visitors_now: int
    series: list[Point]
    tables: dict[str, list[Row]]
    goals: list[Goal]
    # False when a filter the requests do not record (page, country, device, browser) is
    # on: the goals are then the period's, unfiltered.
    goals_filtered: bool
    # A step's count is None when it cannot be told under the filters (see goals_filtered).
    funnel: list[tuple[str, int | None]]


def dashboard(
    query: DashboardQuery, *, actor: StaffActor | None, now: datetime | None = None
) -> Dashboard:
    require(actor, Permission.READ_ANALYTICS)
    now = now or utcnow()
    period = period_of(query, now=now)
    filters = dict(query.filters)
    with session_scope() as session:
        figures = figures_of(session, period, filters)
        before = figures_of(session, period.before(now), filters)
        now_count = visitors_now(session, now)
        attributed, others = by_attribution(session, period, filters)
        own = goals_filtered(filters)
        goals = goals_of(attributed, others, figures, own=own)
        requests = requests_by_bucket(session, period, filters)
        steps = funnel(session, period, filters, figures=figures, totals=attributed, own=own)
        return Dashboard(
            period=period,
            figures=figures,
            before=before,
            visitors_now=now_count,
            series=[
                replace(point, requests=requests.get(point.key, 0))
                for point in series(session, period, filters)
            ],
            tables=tables_of(session, period, filters),
            goals=goals,
            goals_filtered=own,
            funnel=steps,
        )
