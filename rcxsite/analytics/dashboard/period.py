"""The query's first step: the span of UTC time a dashboard covers, and its buckets."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from rcxsite.analytics.inputs import PERIODS, DashboardQuery
from rcxsite.analytics.sql import Bucket, day_start


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


def month_start(day: date, months_back: int = 0) -> date:
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
        return Period(day_start(month_start(today)), tomorrow, "day", label)
    if query.period == "last_month":
        return Period(day_start(month_start(today, 1)), day_start(month_start(today)), "day", label)
    if query.period == "12m":
        return Period(day_start(month_start(today, 11)), tomorrow, "month", label)
    assert query.start is not None and query.end is not None
    days = (query.end - query.start).days + 1
    bucket: Bucket = "hour" if days == 1 else "day" if days <= 62 else "month"
    return Period(
        day_start(query.start),
        day_start(query.end) + timedelta(days=1),
        bucket,
        f"{query.start:%-d %b %Y} – {query.end:%-d %b %Y}",
    )


def buckets(period: Period) -> list[tuple[str, str]]:
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
            moment = day_start(month_start(moment.date(), -1))
    return found
