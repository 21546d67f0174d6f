"""/staff/analytics (admins and sales): a thin adapter over rcxsite.analytics.dashboard."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventSpec

from rcxsite.analytics import dashboard as board
from rcxsite.analytics.inputs import FILTER_INVALID, PERIODS, DashboardQuery
from rcxsite.core.permissions import Permission
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen

# What a filter chip says before the value: "Source: newsletter".
FILTER_LABELS = {
    "page": "Page",
    "entry": "Entry page",
    "source": "Source",
    "campaign": "Campaign",
    "country": "Country",
    "device": "Device",
    "browser": "Browser",
}
# Which filter a click on a row of each table sets.
TABLE_FILTERS = {
    "pages": "page",
    "entry": "entry",
    "source": "source",
    "campaign": "campaign",
    "country": "country",
    "device": "device",
    "browser": "browser",
}


UNKNOWN = "Unknown"


def _number(value: float) -> str:
    return f"{value:,.0f}"


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _change(now: float, before: float, *, lower_is_better: bool = False) -> tuple[str, str]:
    """ "+12% on the period before", and whether that is good news ("up"/"down"/"")."""
    if before == 0:
        return ("none before" if now else "no change"), ""
    percent = round(100 * (now - before) / before)
    if percent == 0:
        return "no change", ""
    good = (percent > 0) != lower_is_better
    return f"{percent:+d}%", "better" if good else "worse"


def _figures(result: board.Dashboard) -> list[dict[str, str]]:
    now, before = result.figures, result.before
    rows = [
        ("Visitors", now.visitors, before.visitors, _number(now.visitors), False),
        ("Visits", now.visits, before.visits, _number(now.visits), False),
        ("Page views", now.views, before.views, _number(now.views), False),
        (
            "Views per visit",
            now.views_per_visit,
            before.views_per_visit,
            f"{now.views_per_visit:.1f}",
            False,
        ),
        ("Bounce rate", now.bounce_rate, before.bounce_rate, f"{now.bounce_rate:.0f}%", True),
        (
            "Visit duration",
            now.duration_seconds,
            before.duration_seconds,
            _duration(now.duration_seconds),
            False,
        ),
    ]
    figures = []
    for name, value, earlier, shown, lower_is_better in rows:
        change, tone = _change(value, earlier, lower_is_better=lower_is_better)
        figures.append({"name": name, "value": shown, "change": change, "tone": tone})
    return figures


def _rows(name: str, rows: list[board.Row]) -> list[dict[str, str]]:
    return [
        {
            "key": row.key,
            "label": row.label,
            "visitors": _number(row.visitors),
            "visits": _number(row.visits),
            "views": _number(row.views),
            **{goal: _number(row.goals.get(goal, 0)) for goal in board.GOALS},
            "filter_label": f"Show only {FILTER_LABELS[TABLE_FILTERS[name]].lower()}",
        }
        for row in rows
    ]


@staff_screen
class StaffAnalyticsState(rx.State):
    period: str = "30d"
    start: str = ""
    end: str = ""
    filters: dict[str, str] = {}
    period_label: str = ""
    error: str = ""
    figures: list[dict[str, str]] = []
    visitors_now: str = ""
    peak: str = ""
    bucket: str = "day"
    series: list[dict[str, str]] = []
    pages: list[dict[str, str]] = []
    entry: list[dict[str, str]] = []
    source: list[dict[str, str]] = []
    campaign: list[dict[str, str]] = []
    country: list[dict[str, str]] = []
    device: list[dict[str, str]] = []
    browser: list[dict[str, str]] = []
    goals: list[dict[str, str]] = []
    goals_note: str = ""
    funnel: list[dict[str, str]] = []
    # Said to screen readers once the page shows a new period or filter.
    updated: str = ""

    def _chips(self) -> list[dict[str, str]]:
        return [
            {"dimension": key, "text": f"{FILTER_LABELS.get(key, key)}: {value or UNKNOWN}"}
            for key, value in self.filters.items()
        ]

    @rx.var
    def chips(self) -> list[dict[str, str]]:
        return self._chips()

    def _query(self) -> tuple[DashboardQuery | None, str]:
        raw: dict[str, Any] = {"period": self.period, "filters": dict(self.filters)}
        if self.period == "custom":
            raw |= {"start": self.start or None, "end": self.end or None}
        query, messages = DashboardQuery.read(raw)
        return query, next(iter(messages.values()), "")

    async def _reload(self) -> None:
        query, problem = self._query()
        if query is None:
            self.error = problem
            return
        outcome = await call_service(board.dashboard, query, actor=acting())
        if not outcome.ok:
            self.error = outcome.message()
            return
        self.error = ""
        result = outcome.result()
        self.period_label = result.period.label
        self.figures = _figures(result)
        self.visitors_now = _number(result.visitors_now)
        peak = max((point.views for point in result.series), default=0)
        self.peak, self.bucket = _number(peak), result.period.bucket
        peak = peak or 1
        self.series = [
            {
                "label": point.label,
                "views": str(point.views),
                "visitors": str(point.visitors),
                "height": f"{100 * point.views / peak:.1f}%",
            }
            for point in result.series
        ]
        for name, rows in result.tables.items():
            setattr(self, name, _rows(name, rows))
        self.goals = [
            {
                "name": goal.name,
                "count": _number(goal.count),
                "rate": "—" if goal.rate is None else f"{goal.rate:.1f}%",
            }
            for goal in result.goals
        ]
        self.goals_note = (
            ""
            if result.goals_filtered
            else "Requests, calls and accounts keep their source, campaign and landing page "
            "only: the goals are the whole period's, without the page, country, device or "
            "browser filter, so they have no conversion rate here."
        )
        first = result.funnel[0][1] or 1
        self.funnel = [
            {
                "name": name,
                "count": "—" if count is None else _number(count),
                "share": "" if count is None else f" ({100 * count / first:.0f}%)",
                # A later step can outnumber the visits (requests sent through the API, or
                # by visitors who are not counted): its bar stops at the track's end.
                "width": "0%"
                if count is None
                else f"{min(max(100 * count / first, 0.5), 100):.1f}%",
            }
            for name, count in result.funnel
        ]
        self.updated = f"Showing {result.period.label.lower()}" + (
            f", filtered by {', '.join(chip['text'] for chip in self._chips())}."
            if self.filters
            else "."
        )

    @staff_event(Permission.READ_ANALYTICS)
    async def load(self):
        await self._reload()

    @staff_event(Permission.READ_ANALYTICS)
    async def choose_period(self, period: str):
        self.period = period if period in PERIODS else "30d"
        if self.period != "custom":
            await self._reload()

    @staff_event(Permission.READ_ANALYTICS)
    async def apply_dates(self, form: dict[str, Any]):
        self.period = "custom"
        self.start, self.end = str(form.get("start", "")), str(form.get("end", ""))
        await self._reload()

    @staff_event(Permission.READ_ANALYTICS)
    async def filter_by(self, table: str, key: str):
        dimension = TABLE_FILTERS.get(str(table))
        filters = {**self.filters, dimension: key} if dimension and isinstance(key, str) else None
        # Checked before it is kept: a filter refused stays off the page.
        if filters is None or DashboardQuery.read({"filters": filters})[0] is None:
            self.error = FILTER_INVALID
            return
        self.filters = filters
        await self._reload()

    @staff_event(Permission.READ_ANALYTICS)
    async def unfilter(self, dimension: str):
        self.filters = {key: value for key, value in self.filters.items() if key != dimension}
        await self._reload()
        if not self.filters:  # the chip that had focus is gone with its row
            return rx.set_focus("analytics-figures-heading")

    @staff_event(Permission.READ_ANALYTICS)
    async def export(self, table: str) -> EventSpec | None:
        query, problem = self._query()
        if query is None:
            self.error = problem
            return None
        outcome = await call_service(board.table_csv, query, table, actor=acting())
        if not outcome.ok:
            self.error = outcome.message()
            return None
        filename, text = outcome.result()
        return rx.download(data=text, filename=filename)


__all__ = ["StaffAnalyticsState"]
