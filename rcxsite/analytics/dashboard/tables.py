"""The breakdown tables (pages, entry pages, sources, campaigns, countries, devices,
browsers): each row's visitors, visits and views, and its goals where a request or account
records the same column."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import distinct, func, select
from sqlmodel import Session, col

from rcxsite.analytics.dashboard.filters import GOAL_COLUMNS, in_period, views_of, visit_filters
from rcxsite.analytics.dashboard.goals import goal_counts
from rcxsite.analytics.dashboard.parts import Parts, parts_of
from rcxsite.analytics.dashboard.period import Period
from rcxsite.analytics.dimensions import PAGE
from rcxsite.models import AnalyticsView, AnalyticsVisit

TABLE_ROWS = 10  # on the page; a CSV has up to CSV_ROWS
CSV_ROWS = 1000

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
# The filter a table's row sets (and its dimension in AnalyticsDaily).
_FILTER_OF_TABLE = {"pages": "page", "entry": "entry", "source": "source"} | {
    name: name for name in ("campaign", "country", "device", "browser")
}


@dataclass(slots=True)
class Row:
    key: str  # what the row filters by
    label: str
    visitors: int = 0
    visits: int = 0
    views: int = 0
    goals: dict[str, int] = field(default_factory=dict)


def _raw_page_rows(
    session: Session, period: Period, filters: dict[str, str], limit: int
) -> list[Row]:
    path = col(AnalyticsView.path)
    views = func.count().label("views")
    rows = session.execute(
        views_of(
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
        .where(in_period(col(AnalyticsVisit.started_at), period), *visit_filters(filters))
        .group_by(column)
        .order_by(visitors.desc(), column)
        .limit(limit)
    )
    return [
        Row(key=value, label=value, visitors=int(v), visits=int(n), views=int(s or 0))
        for value, v, n, s in session.execute(statement)
    ]


def _counted_rows(session: Session, parts: Parts, dimension: str, limit: int) -> list[Row]:
    table, conditions = parts.rows(dimension)
    ranked = func.sum(col(table.views)) if dimension == PAGE else func.sum(col(table.visitors))
    rows = session.execute(
        select(
            col(table.value),
            func.sum(col(table.visitors)),
            func.sum(col(table.visits)),
            func.sum(col(table.views)),
        )
        .where(*conditions)
        .group_by(col(table.value))
        .order_by(ranked.desc(), col(table.value))
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
    parts = parts_of(session, period, filters)
    merged: dict[str, Row] = {}
    pieces: list[list[Row]] = []
    # Both parts are read past `limit`: a value may rank low in one and high in both.
    wider = max(limit, CSV_ROWS)
    if parts.counted is not None:
        pieces.append(_counted_rows(session, parts, dimension, wider))
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


def tables_of(
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
        goal_column = GOAL_COLUMNS.get(_FILTER_OF_TABLE[name])
        if goal_column is not None:
            by_value = {row.key: row for row in rows}
            for value, goals in goal_counts(session, period, filters, goal_column).items():
                if not value:
                    continue  # sent without a counted visit (the API, opted out)
                row = by_value.get(value)
                if row is None:
                    row = by_value[value] = Row(key=value, label=value)
                    rows.append(row)
                row.goals = goals
        tables[name] = rows
    return tables
