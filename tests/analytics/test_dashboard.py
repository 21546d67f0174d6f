"""The dashboard's figures, tables, goals and funnel over views, visits and the requests
they led to, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import delete, text

from rcxsite.analytics.dashboard import dashboard, table_csv
from rcxsite.analytics.inputs import DashboardQuery
from rcxsite.analytics.pair_rollups import BACKFILL_DAYS, pairs_from, roll_up_pairs
from rcxsite.analytics.recording import PageView, store
from rcxsite.analytics.rollups import counted_until, roll_up, roll_up_day
from rcxsite.analytics.sources import arrival_of, host_of, tags_of
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import AnalyticsDailyPair, AnalyticsSalt
from rcxsite.platform.db import session_scope
from tests.support.booking import booking_row
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.quotes import add_quotes
from tests.support.staff import add_member, support_actor

NOW = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
CHROME = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36"
)
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
)


@pytest.fixture(autouse=True, params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def _visit(start: datetime, paths: list[str], *, ip: str, ua: str = CHROME, **query: str) -> None:
    store(
        [
            PageView(
                at=start + timedelta(minutes=n),
                path=path,
                address=ip,
                user_agent=ua,
                host="rcx.example",
                arrival=arrival_of(query if n == 0 else {}),
            )
            for n, path in enumerate(paths)
        ]
    )


def _seed() -> None:
    today = NOW - timedelta(hours=3)
    _visit(
        today,
        ["/", "/about", "/request-a-quote"],
        ip="81.2.69.160",
        utm_source="newsletter",
        utm_medium="email",
        utm_campaign="autumn",
    )
    _visit(today, ["/insights"], ip="81.2.69.161", ua=IPHONE)
    _visit(
        today - timedelta(days=2),
        ["/", "/request-a-quote"],
        ip="8.8.8.8",
        utm_source="newsletter",
        utm_campaign="autumn",
    )
    _visit(today - timedelta(days=40), ["/"], ip="8.8.4.4")  # the period before
    add_quotes(
        [
            {
                "created_at": today,
                "source": "newsletter",
                "campaign": "autumn",
                "landing_page": "/",
                "status": "won",
                "email": "a@client.example",
            },
            {
                "created_at": today,
                "source": "Direct",
                "landing_page": "/insights",
                "email": "b@client.example",
            },
            {"created_at": today, "status": "spam", "source": "newsletter", "campaign": "autumn"},
        ]
    )


@pytest.fixture
def admin() -> StaffActor:
    return add_member("Ada Admin", "ada@rcx.example", "admin")


def test_figures_tables_goals_and_funnel_of_the_last_30_days(admin: StaffActor) -> None:
    _seed()
    board = dashboard(DashboardQuery(period="30d"), actor=admin, now=NOW)
    figures = board.figures
    assert (figures.visitors, figures.visits, figures.views) == (3, 3, 6)
    assert figures.bounces == 1 and round(figures.bounce_rate) == 33
    assert figures.views_per_visit == 2
    assert round(figures.duration_seconds) == round((2 * 60 + 1 * 60 + 0) / 3)
    assert (board.before.visitors, board.before.views) == (1, 1)
    assert len(board.series) == 30 and sum(p.views for p in board.series) == 6
    pages = {row.label: (row.visitors, row.views) for row in board.tables["pages"]}
    assert pages == {"/": (2, 2), "/request-a-quote": (2, 2), "/about": (1, 1), "/insights": (1, 1)}
    campaigns = {row.label: row for row in board.tables["campaign"]}
    assert (campaigns["autumn"].visitors, campaigns["autumn"].views) == (2, 5)
    assert campaigns["autumn"].goals == {"Quote requests": 1, "Won": 1}
    sources = {row.label: row for row in board.tables["source"]}
    assert sources["Direct"].goals == {"Quote requests": 1}
    devices = {row.label: row.visitors for row in board.tables["device"]}
    assert devices == {"Desktop": 2, "Mobile": 1}
    countries = {row.label for row in board.tables["country"]}
    assert countries == {"GB", "US"}
    goals = {goal.name: goal.count for goal in board.goals}
    assert goals == {"Quote requests": 2, "Calls booked": 0, "Registrations": 0, "Won": 1}
    assert board.funnel == [
        ("Visits", 3),
        ("Viewed Request a Quote", 2),
        ("Requests sent", 2),
        ("Won", 1),
    ]


def test_requests_no_counted_visit_brought_are_apart_and_rates_stay_within_100(
    admin: StaffActor,
) -> None:
    """Issue 45: five requests through the API (no source) once made "Quote requests"
    550% of the visitors; and a request that booked a call was not a quote request."""
    _seed()
    today = NOW - timedelta(hours=3)
    [booked, *_] = add_quotes(
        [{"created_at": today, "source": "newsletter", "email": "c@client.example"}]
        + [{"created_at": today, "source": "Direct", "email": "d@client.example"}]
        + [{"created_at": today, "email": f"api{n}@client.example"} for n in range(4)]
        + [{"created_at": today, "status": "won", "email": "api@client.example"}]
    )
    with session_scope() as session:
        session.add(booking_row(booked, admin.member_id, NOW, email="c@client.example"))

    board = dashboard(DashboardQuery(period="30d"), actor=admin, now=NOW)

    goals = {goal.name: (goal.count, goal.not_attributed, goal.rate) for goal in board.goals}
    # 4 attributed requests of 3 visitors: a visitor sent two; the rate stops at 100%.
    assert goals["Quote requests"] == (9, 5, 100.0)
    assert goals["Calls booked"] == (1, 0, pytest.approx(100 / 3))
    assert goals["Won"] == (2, 1, pytest.approx(100 / 3))
    assert board.funnel[2:] == [("Requests sent", 4), ("Won", 1)]
    sources = {row.label: row.goals for row in board.tables["source"]}
    assert sources["newsletter"] == {"Quote requests": 2, "Calls booked": 1, "Won": 1}
    assert "" not in sources and "Unknown" not in sources


def test_counted_days_give_the_same_dashboard_as_the_views(admin: StaffActor) -> None:
    _seed()
    queries = [
        DashboardQuery(period=period) for period in ("7d", "30d", "month", "last_month", "12m")
    ]
    from_views = [dashboard(query, actor=admin, now=NOW) for query in queries]
    assert roll_up(now=NOW) >= 40  # every day from the oldest view to yesterday
    with session_scope() as session:
        assert counted_until(session) == NOW.date()
    assert [dashboard(query, actor=admin, now=NOW) for query in queries] == from_views
    assert table_csv(queries[1], "pages", actor=admin, now=NOW)[1].count("\n") == 5
    # A late view of yesterday (a visit that went on past midnight): counted again.
    _visit(NOW - timedelta(days=1), ["/careers"], ip="81.2.69.190")
    assert roll_up(now=NOW) == 1
    board = dashboard(queries[1], actor=admin, now=NOW)
    assert board.figures.views == from_views[1].figures.views + 1


# One filter of each dimension, a page's twice, and a value the visits lack.
_ONE_FILTER = [
    {"campaign": "autumn"},
    {"source": "newsletter"},
    {"entry": "/"},
    {"device": "Mobile"},
    {"country": "US"},
    {"browser": "Chrome"},
    {"page": "/request-a-quote"},
    {"page": "/insights"},
    {"campaign": ""},
]


def test_a_filtered_month_reads_the_same_from_the_counted_days_alone(admin: StaffActor) -> None:
    """Issue 45: a filter once read the views themselves (6-7 s for a month at 12M views a
    year). Counted, each filtered month is the same dashboard with the views gone (and a
    page filter's funnel keeps its filter: it once counted every visit to the quote page)."""
    first = NOW.replace(day=1) - timedelta(days=20)  # 11 October, 15:00
    for n, day in enumerate((first, first + timedelta(days=3))):
        _visit(
            day,
            ["/", "/about", "/request-a-quote"],
            ip=f"81.2.69.{160 + n}",
            utm_source="newsletter",
            utm_campaign="autumn",
        )
        _visit(day + timedelta(hours=1), ["/insights", "/"], ip=f"8.8.8.{n + 1}", ua=IPHONE)
        _visit(day + timedelta(hours=2), ["/request-a-quote"], ip=f"81.2.69.{170 + n}")
    queries = [DashboardQuery(period="last_month", filters=chosen) for chosen in _ONE_FILTER]
    from_views = [dashboard(query, actor=admin, now=NOW) for query in queries]
    assert dict(from_views[7].funnel)["Viewed Request a Quote"] == 0
    with session_scope() as session:
        for offset in range(4):  # the days that hold views, as the hourly job counts them
            roll_up_day(session, first.date() + timedelta(days=offset))
        session.execute(text("DELETE FROM analytics_view"))
        session.execute(text("DELETE FROM analytics_visit"))

    for query, expected in zip(queries, from_views, strict=True):
        assert dashboard(query, actor=admin, now=NOW) == expected, query.filters
    # Two filters read the views: gone, they show nothing.
    both = DashboardQuery(period="last_month", filters={"source": "newsletter", "device": "Mobile"})
    assert dashboard(both, actor=admin, now=NOW).figures.views == 0


def test_days_counted_before_the_filters_were_get_theirs_from_later_runs(
    admin: StaffActor,
) -> None:
    """A site upgraded with a year counted: the days' counts under each filter come
    BACKFILL_DAYS a run, newest first, and a filter reads the views until then."""
    _seed()
    query = DashboardQuery(period="30d", filters={"campaign": "autumn"})
    from_views = dashboard(query, actor=admin, now=NOW)
    roll_up(now=NOW)
    with session_scope() as session:
        # As before migration 0021: only the last day counted again by the next run.
        session.execute(delete(AnalyticsDailyPair))
        roll_up_pairs(session, NOW.date() - timedelta(days=1))
    assert dashboard(query, actor=admin, now=NOW) == from_views  # the views fill in

    roll_up(now=NOW)

    with session_scope() as session:
        first = pairs_from(session)
    assert first == NOW.date() - timedelta(days=1 + BACKFILL_DAYS)
    assert dashboard(query, actor=admin, now=NOW) == from_views


def test_a_filter_narrows_every_figure_and_the_goals_it_can(admin: StaffActor) -> None:
    _seed()
    board = dashboard(
        DashboardQuery(period="30d", filters={"campaign": "autumn"}), actor=admin, now=NOW
    )
    assert (board.figures.visitors, board.figures.visits, board.figures.views) == (2, 2, 5)
    assert {goal.name: goal.count for goal in board.goals}["Quote requests"] == 1
    assert board.goals_filtered
    by_page = dashboard(
        DashboardQuery(period="30d", filters={"page": "/insights"}), actor=admin, now=NOW
    )
    assert (by_page.figures.visits, by_page.figures.views) == (1, 1)
    assert not by_page.goals_filtered


def test_today_is_by_hour_and_visitors_now_are_the_last_5_minutes(admin: StaffActor) -> None:
    _seed()
    _visit(NOW - timedelta(minutes=2), ["/pricing"], ip="81.2.69.170")
    board = dashboard(DashboardQuery(period="today"), actor=admin, now=NOW)
    assert len(board.series) == 24 and board.series[12].label == "12:00"
    assert board.visitors_now == 1
    # Compared with yesterday until the same hour.
    _visit(NOW - timedelta(hours=29), ["/"], ip="81.2.69.171")  # yesterday 10:00
    _visit(NOW - timedelta(hours=19), ["/"], ip="81.2.69.172")  # yesterday 20:00
    assert dashboard(DashboardQuery(period="today"), actor=admin, now=NOW).before.visits == 1
    month = dashboard(DashboardQuery(period="month"), actor=admin, now=NOW)
    assert len(month.series) == 20  # 1 to 20 November: no days to come


def test_the_csv_of_a_table(admin: StaffActor) -> None:
    _seed()
    name, text = table_csv(DashboardQuery(period="30d"), "campaign", actor=admin, now=NOW)
    assert name == "analytics-campaign-2026-10-22-2026-11-20.csv"
    assert text.splitlines()[:2] == [
        "Campaign,Visitors,Visits,Views,Quote requests,Calls booked,Registrations,Won",
        "autumn,2,2,5,1,0,0,1",
    ]


def test_only_admins_and_sales_see_it_and_periods_are_checked() -> None:
    with pytest.raises(ServiceError) as refused:
        dashboard(DashboardQuery(), actor=support_actor(), now=NOW)
    assert refused.value.status == 403
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    assert dashboard(DashboardQuery(), actor=sales, now=NOW).figures.visits == 0
    query, messages = DashboardQuery.read(
        {"period": "custom", "start": date(2026, 11, 10), "end": date(2026, 11, 1)}
    )
    assert query is None and messages == {"end": "The first date must not be after the last."}
    _, messages = DashboardQuery.read({"period": "custom", "start": date(2026, 11, 1)})
    assert messages == {"end": "Please choose both dates."}
    _, messages = DashboardQuery.read({"period": "forever"})
    assert messages == {"period": "Please choose a period."}
    _, messages = DashboardQuery.read({"filters": {"email": "x"}})
    assert messages == {"filters": "This filter is not one the dashboard knows."}


def test_values_are_cut_to_their_columns_and_odd_hosts_refused() -> None:
    long_host = "a" * 150 + ".example"
    arrival = arrival_of({"utm_campaign": "c" * 500}).referred_by(
        host_of(f"https://{long_host}/page")
    )
    view = PageView(
        at=NOW,
        path="/",
        address="81.2.69.160",
        user_agent=CHROME,
        host="rcx.example",
        arrival=arrival,
    )
    assert store([view]) == 1  # PostgreSQL refuses a value longer than its column
    board = dashboard(
        DashboardQuery(period="today"),
        actor=add_member("Ada Admin", "ada@rcx.example", "admin"),
        now=NOW,
    )
    [source] = board.tables["source"]
    assert source.label == long_host[:100]
    assert host_of("https://\u202egoogle.com.evil/") == ""
    assert tags_of({"utm_term": "jane@client.example", "token": "secret", "gclid": "x"}) == {
        "gclid": "x"
    }
    # A salt is committed before any batch uses it.
    with session_scope() as session:
        assert session.get(AnalyticsSalt, NOW.date()) is not None


def test_a_filtered_day_counts_the_views_of_a_visit_begun_the_day_before(
    admin: StaffActor,
) -> None:
    """The filtered views are joined to visits begun at most two days before the period
    (a visit never outlives the day after its start): one begun a minute before midnight
    still brings today's views."""
    midnight = NOW.replace(hour=0)
    _visit(
        midnight - timedelta(minutes=1),
        ["/", "/about", "/pricing"],
        ip="81.2.69.170",
        utm_source="newsletter",
    )

    today = DashboardQuery(period="today", filters={"source": "newsletter"})
    board = dashboard(today, actor=admin, now=NOW)

    assert (board.figures.views, board.figures.visitors) == (2, 1)
    pages = {row.label: row.views for row in board.tables["pages"]}
    assert pages == {"/about": 1, "/pricing": 1}
