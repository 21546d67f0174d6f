"""The export: one breakdown table as a CSV file, up to CSV_ROWS rows."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime, timedelta

from rcxsite.analytics.dashboard.goals import GOALS
from rcxsite.analytics.dashboard.period import period_of
from rcxsite.analytics.dashboard.tables import CSV_ROWS, TABLES, tables_of
from rcxsite.analytics.inputs import DashboardQuery
from rcxsite.core.csv_cells import defuse
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import utcnow
from rcxsite.platform.db import session_scope

UNKNOWN_TABLE = "There is no such table."


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
        rows = tables_of(session, period, dict(query.filters), only=table, limit=CSV_ROWS)[table]
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
