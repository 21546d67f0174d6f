"""Where a period is read from: whole days already counted (AnalyticsDaily, see
rollups.py) and the rest, from the views and visits themselves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import ColumnElement
from sqlmodel import Session, col

from rcxsite.analytics.dashboard.period import Period
from rcxsite.analytics.rollups import counted_until
from rcxsite.analytics.sql import day_start
from rcxsite.models import AnalyticsDaily


@dataclass(frozen=True, slots=True)
class Parts:
    counted: tuple[date, date] | None  # first day, day after the last
    raw: list[Period]


def parts_of(session: Session, period: Period, filters: dict[str, str]) -> Parts:
    """The whole days of `period` already counted, and the rest (either end)."""
    until = counted_until(session)
    # Filters and hours need the views themselves.
    if filters or period.bucket == "hour" or until is None:
        return Parts(None, [period])
    first = period.start.date() + timedelta(
        days=0 if day_start(period.start.date()) == period.start else 1
    )
    last = min(period.end.date(), until)
    if first >= last:
        return Parts(None, [period])
    raw = []
    if period.start < day_start(first):
        raw.append(Period(period.start, day_start(first), period.bucket, period.label))
    if day_start(last) < period.end:
        raw.append(Period(day_start(last), period.end, period.bucket, period.label))
    return Parts((first, last), raw)


def daily(dimension: str, days: tuple[date, date]) -> list[ColumnElement[bool]]:
    """The counted rows of one dimension over `days` (first day, day after the last)."""
    return [
        col(AnalyticsDaily.dimension) == dimension,
        col(AnalyticsDaily.day) >= days[0],
        col(AnalyticsDaily.day) < days[1],
    ]
