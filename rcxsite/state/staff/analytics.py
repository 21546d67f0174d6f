"""/staff/analytics (admins and sales): a thin adapter over rcxsite.analytics.dashboard.

The view is the page's address (/staff/analytics?period=7d&source=newsletter&metric=
visitors): a link or a bookmark opens it, and Back undoes a change (see address.py)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from rcxsite.analytics import dashboard as board
from rcxsite.analytics.inputs import DIMENSIONS, FILTER_INVALID, PERIODS, DashboardQuery
from rcxsite.content import routes
from rcxsite.core.permissions import Permission
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.address import arrived, going_to, moved

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
DEFAULT_PERIOD = "30d"
# What the chart can show, and the series' field of each.
METRICS = {"views": "Page views", "visitors": "Visitors", "requests": "Quote requests"}
DEFAULT_METRIC = "views"
# A value in the address is cut to a little over what a filter may hold (the query
# model refuses the rest with its message).
_URL_VALUE_MAX = 2100
# A filter on a value the visits lack (an "Unknown" country) in the address: a blank
# parameter does not come back from the browser's address.
_UNKNOWN_IN_URL = "(unknown)"


def analytics_url(
    period: str, start: str, end: str, filters: Mapping[str, str], metric: str
) -> str:
    """The dashboard's address for a view (the plain path for the last 30 days' views)."""
    params: dict[str, str] = {}
    if period != DEFAULT_PERIOD:
        params["period"] = period
    if period == "custom":
        params |= {"start": start, "end": end}
    params |= {name: filters[name] or _UNKNOWN_IN_URL for name in DIMENSIONS if name in filters}
    if metric != DEFAULT_METRIC:
        params["metric"] = metric
    query = urllib.parse.urlencode(params)
    return routes.STAFF_ANALYTICS.path + (f"?{query}" if query else "")


def view_from_url(params: Mapping[str, Any]) -> tuple[str, str, str, dict[str, str], str]:
    """period, start, end, filters and metric as an address gives them."""

    def value(name: str) -> str:
        return str(params.get(name, ""))[:_URL_VALUE_MAX]

    period = value("period") or DEFAULT_PERIOD
    filters: dict[str, str] = {
        name: "" if value(name) == _UNKNOWN_IN_URL else value(name)
        for name in DIMENSIONS
        if name in params
    }
    metric = value("metric") if value("metric") in METRICS else DEFAULT_METRIC
    return period, value("start"), value("end"), filters, metric


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


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}%"


def _rows(name: str, rows: list[board.Row]) -> list[dict[str, str]]:
    return [
        {
            "key": row.key,
            "label": row.label,
            "visitors": _number(row.visitors),
            "visits": _number(row.visits),
            "views": _number(row.views),
            **{goal: _number(row.goals.get(goal, 0)) for goal in board.GOALS},
            # Of the row's visitors, how many sent a request.
            "conversion": _percent(board.rate(row.goals.get("Quote requests", 0), row.visitors)),
            "filter_label": f"Show only {FILTER_LABELS[TABLE_FILTERS[name]].lower()}",
        }
        for row in rows
    ]


@staff_screen
class StaffAnalyticsState(rx.State):
    period: str = DEFAULT_PERIOD
    start: str = ""
    end: str = ""
    filters: dict[str, str] = {}
    metric: str = DEFAULT_METRIC
    period_label: str = ""
    error: str = ""
    figures: list[dict[str, str]] = []
    visitors_now: str = ""
    bucket: str = "day"
    # Per point: label, views, visitors, requests.
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
    # The requests and won deals no counted visit brought, which the funnel leaves out.
    not_attributed_note: str = ""
    funnel: list[dict[str, str]] = []
    # Said to screen readers once the page shows a new period or filter.
    updated: str = ""
    # The addresses changes moved the tab to whose loads have not come (address.py).
    _moves: list[str] = []

    def _chips(self) -> list[dict[str, str]]:
        return [
            {"dimension": key, "text": f"{FILTER_LABELS.get(key, key)}: {value or UNKNOWN}"}
            for key, value in self.filters.items()
        ]

    @rx.var
    def chips(self) -> list[dict[str, str]]:
        return self._chips()

    @rx.var
    def metric_label(self) -> str:
        return METRICS.get(self.metric, METRICS[DEFAULT_METRIC])

    @rx.var
    def chart(self) -> list[dict[str, str]]:
        """The series under the chosen metric: each bar's height and its tooltip."""
        field = self.metric if self.metric in METRICS else DEFAULT_METRIC
        peak = max((int(point[field]) for point in self.series), default=0) or 1
        label = METRICS[field].lower()
        return [
            {
                "height": f"{100 * int(point[field]) / peak:.1f}%",
                "tip": f"{point['label']}: {int(point[field]):,} {label}",
            }
            for point in self.series
        ]

    @rx.var
    def axis(self) -> list[str]:
        """The y axis's marks, top to bottom: the peak, its half, 0."""
        field = self.metric if self.metric in METRICS else DEFAULT_METRIC
        peak = max((int(point[field]) for point in self.series), default=0)
        # The middle line is marked only where half the peak is a whole number.
        half = _number(peak // 2) if peak and peak % 2 == 0 else ""
        return [_number(peak) if peak else "", half, "0"]

    @rx.var
    def x_labels(self) -> list[str]:
        """The first, middle and last bucket's labels."""
        labels = [point["label"] for point in self.series]
        return [labels[0], labels[len(labels) // 2], labels[-1]] if len(labels) > 2 else labels

    def _query(self) -> tuple[DashboardQuery | None, str]:
        raw: dict[str, Any] = {"period": self.period, "filters": dict(self.filters)}
        if self.period == "custom":
            raw |= {"start": self.start or None, "end": self.end or None}
        query, messages = DashboardQuery.read(raw)
        return query, next(iter(messages.values()), "")

    def _url(self) -> str:
        return analytics_url(self.period, self.start, self.end, self.filters, self.metric)

    def _move(self) -> EventSpec | None:
        """The address follows the view shown (a new entry in the browser's history)."""
        url = self._url()
        if self.error or (self.period == "custom" and not (self.start and self.end)):
            return None  # not a view the address can open
        shown_at = analytics_url(*view_from_url(self.router.url.query_parameters))
        if url == going_to(self._moves, shown_at):
            return None
        self._moves = moved(self._moves, url)
        return rx.redirect(url)

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
        self.bucket = result.period.bucket
        self.series = [
            {
                "label": point.label,
                "views": str(point.views),
                "visitors": str(point.visitors),
                "requests": str(point.requests),
            }
            for point in result.series
        ]
        for name, rows in result.tables.items():
            setattr(self, name, _rows(name, rows))
        self.goals = [
            {
                "name": goal.name,
                "count": _number(goal.count),
                "not_attributed": _number(goal.not_attributed),
                "rate": _percent(goal.rate),
            }
            for goal in result.goals
        ]
        others = {goal.name: goal.not_attributed for goal in result.goals}
        self.not_attributed_note = (
            f"Not in the funnel, not attributed: {_number(others['Quote requests'])} "
            f"requests, {_number(others['Won'])} won."
            if others["Quote requests"] or others["Won"]
            else ""
        )
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
                "share": "" if count is None else f" ({min(100 * count / first, 100):.0f}%)",
                # A visitor may send two requests: the share and the bar stop at 100%.
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
        """The page's address says the view (a link, a bookmark, a reload, Back)."""
        values = view_from_url(self.router.url.query_parameters)
        left = arrived(self._moves, analytics_url(*values))
        if left is not None:  # a change's own move: its figures are shown already
            self._moves = left
            return
        self.period, self.start, self.end, self.filters, self.metric = values
        self.period = self.period if self.period in PERIODS else DEFAULT_PERIOD
        await self._reload()

    @staff_event(Permission.READ_ANALYTICS)
    async def choose_period(self, period: str):
        self.period = period if isinstance(period, str) and period in PERIODS else DEFAULT_PERIOD
        if self.period == "custom":
            return None  # the dates come next
        await self._reload()
        return self._move()

    @staff_event(Permission.READ_ANALYTICS)
    async def apply_dates(self, form: dict[str, Any]):
        form = form if isinstance(form, dict) else {}
        self.period = "custom"
        self.start, self.end = str(form.get("start", ""))[:10], str(form.get("end", ""))[:10]
        await self._reload()
        return self._move()

    @staff_event(Permission.READ_ANALYTICS)
    async def filter_by(self, table: str, key: str):
        dimension = TABLE_FILTERS.get(str(table))
        filters = {**self.filters, dimension: key} if dimension and isinstance(key, str) else None
        # Checked before it is kept: a filter refused stays off the page.
        if filters is None or DashboardQuery.read({"filters": filters})[0] is None:
            self.error = FILTER_INVALID
            return None
        self.filters = filters
        await self._reload()
        return self._move()

    @staff_event(Permission.READ_ANALYTICS)
    async def unfilter(self, dimension: str):
        self.filters = {key: value for key, value in self.filters.items() if key != dimension}
        await self._reload()
        move = self._move()
        if not self.filters:  # the chip that had focus is gone with its row
            return [rx.set_focus("analytics-figures-heading"), *([move] if move else [])]
        return move

    @staff_event(Permission.READ_ANALYTICS)
    async def choose_metric(self, metric: str):
        """The chart's metric: its own figures are loaded already."""
        self.metric = metric if isinstance(metric, str) and metric in METRICS else DEFAULT_METRIC
        return self._move()

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
