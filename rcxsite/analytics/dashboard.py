"""The analytics dashboard (/staff/analytics, admins and sales): what a period's visitors
did, where they came from, and which of them sent requests, booked calls, registered and
became won deals. Days are UTC days.

Visitors over a period are the sum of each day's: a visitor id lasts one day (see
visitors.py), as in every cookieless counter.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, distinct, exists, func, literal, select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from rcxsite.analytics.inputs import PERIODS, DashboardQuery
from rcxsite.analytics.rollups import PAGE, TOTAL, counted_until
from rcxsite.analytics.sql import FORMATS, Bucket, bucket_of, day_start, seconds_between
from rcxsite.core import paths
from rcxsite.core.csv_cells import defuse
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.leads.statuses import SPAM, WON
from rcxsite.models import (
    AnalyticsDaily,
    AnalyticsView,
    AnalyticsVisit,
    Booking,
    Customer,
    QuoteRequest,
    utcnow,
)
from rcxsite.platform.db import session_scope

TABLE_ROWS = 10  # on the page; a CSV has up to CSV_ROWS
CSV_ROWS = 1000
NOW_MINUTES = 5

GOALS = ("Quote requests", "Calls booked", "Registrations", "Won")
# Each table: its title, what one row is, and the visit's column (None: "Pages", counted
# over views).
TABLES: dict[str, tuple[str, str, str | None]] = {
    "pages": ("Pages", "Page", None),
    "entry": ("Entry pages", "Entry page", "entry_path"),
    "source": ("Sources", "Source", "source"),
    "campaign": ("Campaigns", "Campaign", "campaign"),
    "country": ("Countries", "Country", "country"),
    "device": ("Devices", "Device", "device"),
    "browser": ("Browsers", "Browser", "browser"),
}
# A table's filter, and the column of a request or account that says the same thing.
_FILTER_OF_TABLE = {"pages": "page", "entry": "entry", "source": "source"} | {
    name: name for name in ("campaign", "country", "device", "browser")
}
_GOAL_COLUMNS = {"source": "source", "campaign": "campaign", "entry": "landing_page"}
UNKNOWN_TABLE = "There is no such table."


@dataclass(frozen=True, slots=True)
class Period:
    start: datetime
    end: datetime  # exclusive
    bucket: Bucket
    label: str

    def before(self, now: datetime) -> Period:
        """The same span as much as has passed of this one (today until this hour, this
        month until today), one period earlier."""
        span = self.end - self.start
        passed = max(min(self.end, now) - self.start, timedelta(0))
        start = self.start - span
        return Period(start, start + passed, self.bucket, "the period before")


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


@dataclass(slots=True)
class Row:
    key: str  # what the row filters by
    label: str
    visitors: int = 0
    visits: int = 0
    views: int = 0
    goals: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Goal:
    name: str
    count: int
    rate: float | None  # per 100 visitors; None when the goals are not the visitors' own


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


def _month_start(day: date, months_back: int = 0) -> date:
    month = day.year * 12 + day.month - 1 - months_back
    return date(month // 12, month % 12 + 1, 1)


def period_of(query: DashboardQuery, *, now: datetime) -> Period:
    today = now.astimezone(UTC).date()
    tomorrow = day_start(today + timedelta(days=1))
    label = PERIODS[query.period]
    if query.period == "today":
        return Period(day_start(today), tomorrow, "hour", label)
    if query.period in ("7d", "30d"):
        days = 7 if query.period == "7d" else 30
        return Period(day_start(today - timedelta(days=days - 1)), tomorrow, "day", label)
    if query.period == "month":  # the days so far
        return Period(day_start(_month_start(today)), tomorrow, "day", label)
    if query.period == "last_month":
        return Period(
            day_start(_month_start(today, 1)), day_start(_month_start(today)), "day", label
        )
    if query.period == "12m":
        return Period(day_start(_month_start(today, 11)), tomorrow, "month", label)
    assert query.start is not None and query.end is not None
    days = (query.end - query.start).days + 1
    bucket: Bucket = "hour" if days == 1 else "day" if days <= 62 else "month"
    return Period(
        day_start(query.start),
        day_start(query.end) + timedelta(days=1),
        bucket,
        f"{query.start:%-d %b %Y} – {query.end:%-d %b %Y}",
    )


def _visit_filters(filters: dict[str, str]) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    columns = {
        "entry": AnalyticsVisit.entry_path,
        "source": AnalyticsVisit.source,
        "campaign": AnalyticsVisit.campaign,
        "country": AnalyticsVisit.country,
        "device": AnalyticsVisit.device,
        "browser": AnalyticsVisit.browser,
    }
    for dimension, value in filters.items():
        if dimension == "page":
            # Its own name for the views: the outer query may be over views too.
            seen = aliased(AnalyticsView)
            conditions.append(
                exists()
                .where(col(seen.visit_id) == col(AnalyticsVisit.id), col(seen.path) == value)
                .correlate(AnalyticsVisit)
            )
        else:
            conditions.append(col(columns[dimension]) == value)
    return conditions


def _in(column: Any, period: Period) -> ColumnElement[bool]:
    return and_(column >= period.start, column < period.end)


def _views_of(statement: Any, period: Period, filters: dict[str, str]) -> Any:
    """`statement` over the period's views, of the filtered visits only."""
    statement = statement.where(_in(col(AnalyticsView.at), period))
    if filters:
        statement = statement.join(
            AnalyticsVisit, col(AnalyticsVisit.id) == col(AnalyticsView.visit_id)
        ).where(*_visit_filters(filters))
    return statement


def _buckets(period: Period) -> list[tuple[str, str]]:
    """Every bucket of the period: its key (as the database formats it) and its label."""
    found: list[tuple[str, str]] = []
    moment = period.start
    while moment < period.end:
        if period.bucket == "hour":
            found.append((moment.strftime("%Y-%m-%d %H:00"), moment.strftime("%H:00")))
            moment += timedelta(hours=1)
        elif period.bucket == "day":
            found.append((moment.strftime("%Y-%m-%d"), f"{moment:%-d %b}"))
            moment += timedelta(days=1)
        else:
            found.append((moment.strftime("%Y-%m"), f"{moment:%b %Y}"))
            moment = day_start(_month_start(moment.date(), -1))
    return found


@dataclass(frozen=True, slots=True)
class _Parts:
    """A period as the dashboard reads it: whole days already counted (`counted`, from
    AnalyticsDaily) and the rest (`raw`, from the views and visits themselves)."""

    counted: tuple[date, date] | None  # first day, day after the last
    raw: list[Period]


def _parts(session: Session, period: Period, filters: dict[str, str]) -> _Parts:
    """The whole days of `period` already counted, and the rest (either end)."""
    until = counted_until(session)
    # Filters and hours need the views themselves.
    if filters or period.bucket == "hour" or until is None:
        return _Parts(None, [period])
    first = period.start.date() + timedelta(
        days=0 if day_start(period.start.date()) == period.start else 1
    )
    last = min(period.end.date(), until)
    if first >= last:
        return _Parts(None, [period])
    raw = []
    if period.start < day_start(first):
        raw.append(Period(period.start, day_start(first), period.bucket, period.label))
    if day_start(last) < period.end:
        raw.append(Period(day_start(last), period.end, period.bucket, period.label))
    return _Parts((first, last), raw)


def _daily(dimension: str, days: tuple[date, date]) -> list[ColumnElement[bool]]:
    return [
        col(AnalyticsDaily.dimension) == dimension,
        col(AnalyticsDaily.day) >= days[0],
        col(AnalyticsDaily.day) < days[1],
    ]


def _raw_figures(session: Session, period: Period, filters: dict[str, str]) -> Figures:
    visit = AnalyticsVisit
    visits, bounces, seconds = session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(case((col(visit.views) == 1, 1), else_=0)), 0),
            func.coalesce(
                func.sum(seconds_between(session, col(visit.started_at), col(visit.last_at))), 0
            ),
        ).where(_in(col(visit.started_at), period), *_visit_filters(filters))
    ).one()
    views, visitors = session.execute(
        _views_of(
            select(func.count(), func.count(distinct(col(AnalyticsView.visitor)))),
            period,
            filters,
        )
    ).one()
    return Figures(int(visitors), int(visits), int(views), int(bounces), float(seconds))


def _figures(session: Session, period: Period, filters: dict[str, str]) -> Figures:
    parts = _parts(session, period, filters)
    total = Figures()
    if parts.counted is not None:
        daily = AnalyticsDaily
        sums = session.execute(
            select(
                *(
                    func.coalesce(func.sum(column), 0)
                    for column in (
                        col(daily.visitors),
                        col(daily.visits),
                        col(daily.views),
                        col(daily.bounces),
                        col(daily.duration_seconds),
                    )
                )
            ).where(*_daily(TOTAL, parts.counted))
        ).one()
        visitors, visits, views, bounces, seconds = sums
        total += Figures(int(visitors), int(visits), int(views), int(bounces), float(seconds))
    for raw in parts.raw:
        total += _raw_figures(session, raw, filters)
    return total


def _series(session: Session, period: Period, filters: dict[str, str]) -> list[Point]:
    parts = _parts(session, period, filters)
    counted: dict[str, tuple[int, int]] = {}

    def add(key: str, visitors: int, views: int) -> None:
        before = counted.get(key, (0, 0))
        counted[key] = (before[0] + int(visitors), before[1] + int(views))

    if parts.counted is not None:
        pattern = FORMATS[period.bucket][1]
        for day, visitors, views in session.execute(
            select(
                col(AnalyticsDaily.day), col(AnalyticsDaily.visitors), col(AnalyticsDaily.views)
            ).where(*_daily(TOTAL, parts.counted))
        ):
            add(day.strftime(pattern), visitors, views)
    for raw in parts.raw:
        bucket = bucket_of(session, col(AnalyticsView.at), period.bucket).label("bucket")
        for key, visitors, views in session.execute(
            _views_of(
                select(bucket, func.count(distinct(col(AnalyticsView.visitor))), func.count()),
                raw,
                filters,
            ).group_by(bucket)
        ):
            add(key, visitors, views)
    return [Point(label, *counted.get(key, (0, 0))) for key, label in _buckets(period)]


def _raw_page_rows(
    session: Session, period: Period, filters: dict[str, str], limit: int
) -> list[Row]:
    path = col(AnalyticsView.path)
    views = func.count().label("views")
    rows = session.execute(
        _views_of(
            select(
                path,
                func.count(distinct(col(AnalyticsView.visitor))),
                func.count(distinct(col(AnalyticsView.visit_id))),
                views,
            ),
            period,
            filters,
        )
        .group_by(path)
        .order_by(views.desc(), path)
        .limit(limit)
    )
    return [
        Row(key=p, label=p, visitors=int(v), visits=int(n), views=int(w)) for p, v, n, w in rows
    ]


def _raw_visit_rows(
    session: Session, period: Period, filters: dict[str, str], column_name: str, limit: int
) -> list[Row]:
    column = getattr(AnalyticsVisit, column_name)
    visitors = func.count(distinct(col(AnalyticsVisit.visitor))).label("visitors")
    statement = (
        select(column, visitors, func.count(), func.sum(col(AnalyticsVisit.views)))
        .where(_in(col(AnalyticsVisit.started_at), period), *_visit_filters(filters))
        .group_by(column)
        .order_by(visitors.desc(), column)
        .limit(limit)
    )
    return [
        Row(key=value, label=value, visitors=int(v), visits=int(n), views=int(s or 0))
        for value, v, n, s in session.execute(statement)
    ]


def _counted_rows(
    session: Session, dimension: str, days: tuple[date, date], limit: int
) -> list[Row]:
    daily = AnalyticsDaily
    ranked = func.sum(col(daily.views)) if dimension == PAGE else func.sum(col(daily.visitors))
    rows = session.execute(
        select(
            col(daily.value),
            func.sum(col(daily.visitors)),
            func.sum(col(daily.visits)),
            func.sum(col(daily.views)),
        )
        .where(*_daily(dimension, days))
        .group_by(col(daily.value))
        .order_by(ranked.desc(), col(daily.value))
        .limit(limit)
    )
    return [
        Row(key=v, label=v, visitors=int(a), visits=int(b), views=int(c)) for v, a, b, c in rows
    ]


def _rows(
    session: Session, period: Period, filters: dict[str, str], table: str, limit: int
) -> list[Row]:
    """A table's rows, most visitors first (pages: most views), `limit` of them."""
    column_name = TABLES[table][2]
    dimension = PAGE if column_name is None else _FILTER_OF_TABLE[table]
    parts = _parts(session, period, filters)
    merged: dict[str, Row] = {}
    pieces: list[list[Row]] = []
    # Both parts are read past `limit`: a value may rank low in one and high in both.
    wider = max(limit, CSV_ROWS)
    if parts.counted is not None:
        pieces.append(_counted_rows(session, dimension, parts.counted, wider))
    for raw in parts.raw:
        if column_name is None:
            pieces.append(_raw_page_rows(session, raw, filters, wider))
        else:
            pieces.append(_raw_visit_rows(session, raw, filters, column_name, wider))
    for piece in pieces:
        for row in piece:
            known = merged.setdefault(row.key, Row(key=row.key, label=row.label))
            known.visitors += row.visitors
            known.visits += row.visits
            known.views += row.views
    rows = [row for row in merged.values() if not (table == "campaign" and row.key == "")]
    for row in rows:
        row.label = row.label or "Unknown"
    rows.sort(key=lambda row: (-(row.views if column_name is None else row.visitors), row.key))
    return rows[:limit]


def _goal_filters(model: Any, filters: dict[str, str]) -> list[ColumnElement[bool]]:
    return [
        getattr(model, _GOAL_COLUMNS[dimension]) == value
        for dimension, value in filters.items()
        if dimension in _GOAL_COLUMNS
    ]


def _goal_counts(
    session: Session, period: Period, filters: dict[str, str], by: str | None
) -> dict[str, dict[str, int]]:
    """Each goal's count, by the value of a request's or account's column `by` (all under
    "" when None)."""
    booked = select(col(Booking.quote_request_id))
    request_of = col(QuoteRequest.created_at)
    statements: dict[str, tuple[Any, Any]] = {}
    quote_key = getattr(QuoteRequest, by) if by else literal("")
    customer_key = getattr(Customer, by) if by else literal("")
    statements["Quote requests"] = (
        quote_key,
        select(quote_key, func.count()).where(
            _in(request_of, period),
            col(QuoteRequest.status) != SPAM,
            col(QuoteRequest.id).not_in(booked),
            *_goal_filters(QuoteRequest, filters),
        ),
    )
    statements["Calls booked"] = (
        quote_key,
        select(quote_key, func.count())
        .select_from(QuoteRequest)
        .where(
            _in(request_of, period),
            col(QuoteRequest.id).in_(booked),
            col(QuoteRequest.status) != SPAM,
            *_goal_filters(QuoteRequest, filters),
        ),
    )
    statements["Registrations"] = (
        customer_key,
        select(customer_key, func.count()).where(
            _in(col(Customer.created_at), period), *_goal_filters(Customer, filters)
        ),
    )
    statements["Won"] = (
        quote_key,
        select(quote_key, func.count()).where(
            _in(request_of, period),
            col(QuoteRequest.status) == WON,
            *_goal_filters(QuoteRequest, filters),
        ),
    )
    counts: dict[str, dict[str, int]] = {}
    for goal, (key, statement) in statements.items():
        for value, count in session.execute(statement.group_by(key)):
            counts.setdefault(str(value), {})[goal] = int(count)
    return counts


def _tables(
    session: Session,
    period: Period,
    filters: dict[str, str],
    *,
    only: str | None = None,
    limit: int = TABLE_ROWS,
) -> dict[str, list[Row]]:
    tables: dict[str, list[Row]] = {}
    for name, (_, _, column_name) in TABLES.items():
        if only is not None and name != only:
            continue
        rows = _rows(session, period, filters, name, limit)
        if column_name is None:
            tables[name] = rows
            continue
        goal_column = _GOAL_COLUMNS.get(_FILTER_OF_TABLE[name])
        if goal_column is not None:
            by_value = {row.key: row for row in rows}
            for value, goals in _goal_counts(session, period, filters, goal_column).items():
                if not value:
                    continue  # sent without a counted visit (the API, opted out)
                row = by_value.get(value)
                if row is None:
                    row = by_value[value] = Row(key=value, label=value)
                    rows.append(row)
                row.goals = goals
        tables[name] = rows
    return tables


def _visits_that_viewed(
    session: Session, period: Period, filters: dict[str, str], path: str
) -> int:
    """Visits that viewed `path` (counted days: each day's visits that viewed it)."""
    parts = _parts(session, period, filters)
    total = 0
    if parts.counted is not None:
        total += int(
            session.execute(
                select(func.coalesce(func.sum(col(AnalyticsDaily.visits)), 0)).where(
                    *_daily(PAGE, parts.counted), col(AnalyticsDaily.value) == path
                )
            ).scalar_one()
        )
    for raw in parts.raw:
        total += int(
            session.execute(
                select(func.count()).where(
                    _in(col(AnalyticsVisit.started_at), raw),
                    *_visit_filters({**filters, "page": path}),
                )
            ).scalar_one()
        )
    return total


def dashboard(
    query: DashboardQuery, *, actor: StaffActor | None, now: datetime | None = None
) -> Dashboard:
    require(actor, Permission.READ_ANALYTICS)
    now = now or utcnow()
    period = period_of(query, now=now)
    filters = dict(query.filters)
    with session_scope() as session:
        figures = _figures(session, period, filters)
        before = _figures(session, period.before(now), filters)
        visitors_now = int(
            session.execute(
                select(func.count(distinct(col(AnalyticsView.visitor)))).where(
                    col(AnalyticsView.at) >= now - timedelta(minutes=NOW_MINUTES)
                )
            ).scalar_one()
        )
        totals = _goal_counts(session, period, filters, None).get("", {})
        own = all(dimension in _GOAL_COLUMNS for dimension in filters)
        goals = [
            Goal(
                name,
                totals.get(name, 0),
                (100 * totals.get(name, 0) / figures.visitors if figures.visitors else 0.0)
                if own
                else None,
            )
            for name in GOALS
        ]
        funnel: list[tuple[str, int | None]] = [
            ("Visits", figures.visits),
            (
                f"Viewed {paths.QUOTE_TITLE}",
                _visits_that_viewed(session, period, filters, paths.QUOTE),
            ),
            (
                "Requests sent",
                totals.get("Quote requests", 0) + totals.get("Calls booked", 0) if own else None,
            ),
            ("Won", totals.get("Won", 0) if own else None),
        ]
        return Dashboard(
            period=period,
            figures=figures,
            before=before,
            visitors_now=visitors_now,
            series=_series(session, period, filters),
            tables=_tables(session, period, filters),
            goals=goals,
            goals_filtered=own,
            funnel=funnel,
        )


def _csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([defuse(str(cell)) for cell in row])
    return out.getvalue()


def table_csv(
    query: DashboardQuery, table: str, *, actor: StaffActor | None, now: datetime | None = None
) -> tuple[str, str]:
    """One table of the dashboard as CSV: its file name and text."""
    require(actor, Permission.READ_ANALYTICS)
    if table not in TABLES:
        raise ServiceError(404, UNKNOWN_TABLE)
    period = period_of(query, now=now or utcnow())
    with session_scope() as session:
        rows = _tables(session, period, dict(query.filters), only=table, limit=CSV_ROWS)[table]
    _, one, column_name = TABLES[table]
    header = (
        [one, "Visitors", "Views"]
        if column_name is None
        else [one, "Visitors", "Visits", "Views", *GOALS]
    )
    cells = [
        [row.label, row.visitors, row.views]
        if column_name is None
        else [row.label, row.visitors, row.visits, row.views, *(row.goals.get(g, 0) for g in GOALS)]
        for row in rows
    ]
    name = (
        f"analytics-{table}-{period.start:%Y-%m-%d}-{period.end - timedelta(days=1):%Y-%m-%d}.csv"
    )
    return name, _csv(header, cells)
