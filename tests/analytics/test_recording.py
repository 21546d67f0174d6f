"""Counting page views: who is counted, as which visitor and visit, from which source."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from rcxsite.analytics.agents import agent_of
from rcxsite.analytics.recording import PageView, Recorder, store
from rcxsite.analytics.retention import forget_old_views
from rcxsite.analytics.rollups import roll_up
from rcxsite.analytics.sources import arrival_of, host_of
from rcxsite.models import AnalyticsDaily, AnalyticsSalt, AnalyticsView, AnalyticsVisit
from rcxsite.platform.db import session_scope

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
)
GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
HEADLESS = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "HeadlessChrome/131.0.0.0 Safari/537.36"
)
NOON = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)


def _view(
    at: datetime,
    path: str = "/",
    *,
    ua: str = FIREFOX,
    ip: str = "81.2.69.160",
    query: dict[str, str] | None = None,
    referrer: str = "",
) -> PageView:
    return PageView(
        at=at,
        path=path,
        address=ip,
        user_agent=ua,
        host="rcx.example",
        arrival=arrival_of(query or {}).referred_by(referrer),
    )


def _rows() -> tuple[list[AnalyticsView], list[AnalyticsVisit]]:
    with session_scope() as session:
        views = list(session.exec(select(AnalyticsView).order_by(AnalyticsView.at)))
        visits = list(session.exec(select(AnalyticsVisit).order_by(AnalyticsVisit.started_at)))
        session.expunge_all()
    return views, visits


def test_campaign_tags_click_ids_and_referrers_name_the_source() -> None:
    tagged = arrival_of(
        {
            "utm_source": "newsletter",
            "utm_medium": "email",
            "utm_campaign": "autumn",
            "utm_term": "x",
            "utm_content": "top",
        }
    )
    assert (tagged.source, tagged.medium, tagged.campaign, tagged.term, tagged.content) == (
        "newsletter",
        "email",
        "autumn",
        "x",
        "top",
    )
    assert arrival_of({"gclid": "abc"}).source == "Google Ads"
    assert arrival_of({"msclkid": "abc"}).source == "Microsoft Ads"
    assert arrival_of({"fbclid": "abc"}).source == "Facebook"
    assert arrival_of({}).referred_by("google.co.uk").source == "Google"
    assert arrival_of({}).referred_by("google.co.uk").medium == "organic"
    assert arrival_of({}).referred_by("lnkd.in").source == "LinkedIn"
    assert arrival_of({}).referred_by("blog.example.org").source == "blog.example.org"
    # Tags win over the referrer, which is still kept.
    assert arrival_of({"utm_source": "ad"}).referred_by("bing.com").source == "ad"
    assert arrival_of({}).source == "Direct"
    assert host_of("https://www.google.com/search?q=rcx") == "google.com"
    assert host_of("https://rcx.example/about", own_host="rcx.example") == ""
    assert host_of("javascript:alert(1)") == ""


def test_browsers_devices_and_crawlers() -> None:
    assert agent_of(IPHONE).device == "Mobile"
    assert agent_of(IPHONE).os == "iOS"
    assert (agent_of(FIREFOX).browser, agent_of(FIREFOX).device) == ("Firefox", "Desktop")
    assert agent_of(GOOGLEBOT).bot
    assert agent_of("curl/8.5.0").bot
    assert agent_of("").bot
    assert agent_of(HEADLESS).automation


def test_views_make_visits_that_end_after_30_quiet_minutes() -> None:
    store(
        [
            _view(NOON, "/", query={"utm_source": "newsletter", "utm_campaign": "autumn"}),
            _view(NOON + timedelta(minutes=5), "/about"),
            _view(NOON + timedelta(minutes=34), "/request-a-quote"),
            _view(NOON + timedelta(minutes=65), "/"),  # 31 minutes later: a new visit
            _view(NOON + timedelta(minutes=1), "/", ua=IPHONE),
        ]
    )
    views, visits = _rows()
    assert len(views) == 5
    assert [(v.entry_path, v.views, v.source, v.campaign, v.device) for v in visits] == [
        ("/", 3, "newsletter", "autumn", "Desktop"),
        ("/", 1, "Direct", "", "Mobile"),
        ("/", 1, "Direct", "", "Desktop"),
    ]
    assert visits[0].last_at == NOON + timedelta(minutes=34)
    assert views[0].country == "GB"
    # No address and no user agent in any column.
    for row in (*views, *visits):
        assert "81.2.69.160" not in repr(row.model_dump())
        assert "Firefox/140" not in repr(row.model_dump())
    assert len({v.visitor for v in views if v.device == "Desktop"}) == 1


def test_crawlers_and_automation_are_not_counted(configure) -> None:
    assert (
        store(
            [
                _view(NOON, ua=GOOGLEBOT),
                _view(NOON, ua="python-httpx/0.28"),
                _view(NOON, ua=HEADLESS),
            ]
        )
        == 0
    )
    assert _rows() == ([], [])
    configure(analytics_exclude_automation=False)
    assert store([_view(NOON, ua=HEADLESS)]) == 1


def test_the_visitor_id_changes_daily_and_old_salts_are_forgotten() -> None:
    days = [NOON + timedelta(days=n) for n in range(4)]
    store([_view(day) for day in days])
    views, _ = _rows()
    assert len({v.visitor for v in views}) == 4  # the same person, a new id each day
    with session_scope() as session:
        assert len(session.exec(select(AnalyticsSalt)).all()) == 4
    forget_old_views(now=days[-1])
    with session_scope() as session:
        kept = sorted(s.day for s in session.exec(select(AnalyticsSalt)))
    assert kept == [days[2].date(), days[3].date()]


def test_a_visit_over_midnight_stays_one_visit() -> None:
    late = datetime(2026, 11, 2, 23, 50, tzinfo=UTC)
    store([_view(late), _view(late + timedelta(minutes=20))])
    views, visits = _rows()
    assert len(visits) == 1 and visits[0].views == 2
    assert views[0].visitor != views[1].visitor


def test_views_older_than_the_limit_are_forgotten() -> None:
    store([_view(NOON), _view(NOON + timedelta(days=400))])
    assert roll_up(now=NOON + timedelta(days=2)) == 2
    with session_scope() as session:
        daily = len(session.exec(select(AnalyticsDaily)).all())
    pruned = forget_old_views(now=NOON + timedelta(days=401))
    assert pruned["analytics_view"] == 1
    # The counts under each filter go with the views (two days: a view and the markers).
    assert pruned["analytics_daily_pair"] > 2
    views, visits = _rows()
    assert [v.at for v in views] == [NOON + timedelta(days=400)]
    assert len(visits) == 1
    # The daily counts stay 25 months.
    assert forget_old_views(now=NOON + timedelta(days=700))["analytics_daily"] == 0
    assert forget_old_views(now=NOON + timedelta(days=770))["analytics_daily"] == daily > 2


def test_unreachable_storage_drops_the_views_and_says_how_many(caplog) -> None:
    def unreachable(views: object) -> int:
        raise ConnectionError("database down")

    failing = Recorder(write=unreachable, flush_seconds=3600)
    failing.offer("tab-3", _view(NOON))
    failing.offer("tab-3", _view(NOON))
    with caplog.at_level(logging.WARNING):
        assert failing.flush() == 0
    assert "Dropped 2 page views" in caplog.text
    assert failing.flush() == 0  # not retried: dropped


@pytest.mark.parametrize("gap_minutes", [29, 31])
def test_the_gap_that_ends_a_visit(gap_minutes: int) -> None:
    store([_view(NOON), _view(NOON + timedelta(minutes=gap_minutes))])
    assert len(_rows()[1]) == (1 if gap_minutes < 30 else 2)
