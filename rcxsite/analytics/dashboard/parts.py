"""Where a period is read from: whole days already counted (AnalyticsDaily, see
rollups.py; under one filter AnalyticsDailyPair, see pair_rollups.py) and the rest, from
the views and visits themselves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import ColumnElement
from sqlmodel import Session, col

from rcxsite.analytics.dashboard.period import Period
from rcxsite.analytics.pair_rollups import pairs_from
from rcxsite.analytics.rollups import counted_until
from rcxsite.analytics.sql import day_start
from rcxsite.models import AnalyticsDaily, AnalyticsDailyPair


@dataclass(frozen=True, slots=True)
class Parts:
    counted: tuple[date, date] | None  # first day, day after the last
    raw: list[Period]
    # The one filter (dimension, value) the counted days are read under, if any.
    under: tuple[str, str] | None = None

    def rows(self, dimension: str) -> tuple[Any, list[ColumnElement[bool]]]:
        """The table of the counted days and the conditions of their rows of one
        dimension ("" for the totals). Both tables have the same figures' columns."""
        assert self.counted is not None
        if self.under is None:
            table: Any = AnalyticsDaily
            conditions = [col(AnalyticsDaily.dimension) == dimension]
        else:
            table = AnalyticsDailyPair
            conditions = [
                col(AnalyticsDailyPair.filter) == self.under[0],
                col(AnalyticsDailyPair.filter_value) == self.under[1],
                col(AnalyticsDailyPair.dimension) == dimension,
            ]
        first, after = self.counted
        return table, [*conditions, col(table.day) >= first, col(table.day) < after]


def parts_of(session: Session, period: Period, filters: dict[str, str]) -> Parts:
    """The whole days of `period` already counted, and the rest (either end). With two
    filters or more, or by the hour, everything is read from the views."""
    until = counted_until(session)
    if len(filters) > 1 or period.bucket == "hour" or until is None:
        return Parts(None, [period])
    first = period.start.date() + timedelta(
        days=0 if day_start(period.start.date()) == period.start else 1
    )
    under = next(iter(filters.items()), None)
    if under is not None:
        counted_from = pairs_from(session)
        if counted_from is None:
            return Parts(None, [period])
        first = max(first, counted_from)
    last = min(period.end.date(), until)
    if first >= last:
        return Parts(None, [period])
    raw = []
    if period.start < day_start(first):
        raw.append(Period(period.start, day_start(first), period.bucket, period.label))
    if day_start(last) < period.end:
        raw.append(Period(day_start(last), period.end, period.bucket, period.label))
    return Parts((first, last), raw, under)
