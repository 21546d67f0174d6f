"""What a client cannot make the counter store: repeated loads of one page, more route
changes or tabs than a person makes, views of a tab that never said (in time) that it may
be counted, and campaign values of any length or make; and a visitor id that a copy of
the database alone cannot recompute.

A tab's page events go through the site's own middleware and `PageViewState` in process
(tests/support/tabs.py); the process's recorder is flushed as its thread would."""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
from datetime import UTC, datetime, timedelta

import pytest
import redis
from sqlmodel import select

from rcxsite.analytics.recording import RECORDER, PageView, Recorder, store
from rcxsite.analytics.sources import arrival_of, tags_of
from rcxsite.models import AnalyticsSalt, AnalyticsView, AnalyticsVisit
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings
from rcxsite.state.analytics.page_views import PageViewState
from tests.support.fixtures import Configure
from tests.support.page_views import ADDRESS, FIREFOX, Browser
from tests.support.rate_limits import forget_storage_connections


def _stored() -> list[AnalyticsView]:
    RECORDER.flush()
    with session_scope() as session:
        views = list(session.exec(select(AnalyticsView).order_by(AnalyticsView.id)))
        session.expunge_all()
    return views


def test_a_page_loaded_200_times_by_one_tab_is_one_view() -> None:
    browser = Browser()
    browser.load("/")
    browser.arrive()
    for _ in range(200):
        browser.load("/")
    assert [view.path for view in _stored()] == ["/"]


def test_route_changes_past_the_limit_per_tab_are_not_stored(
    configure: Configure, caplog: pytest.LogCaptureFixture
) -> None:
    configure(analytics_views_per_tab_per_minute=3)
    browser = Browser()
    browser.load("/")
    browser.arrive()
    for path in ["/about", "/pricing"] * 10:
        browser.load(path)
    with caplog.at_level(logging.INFO, logger="rcxsite.security"):
        assert [view.path for view in _stored()] == ["/", "/about", "/pricing"]
    # Views are counted, not defended against: no security-log line for each one refused.
    assert not [record for record in caplog.records if "rate_limit" in record.getMessage()]
    # Another tab has a budget of its own.
    other = Browser(ip="81.2.69.161")
    other.load("/careers")
    other.arrive()
    assert [view.path for view in _stored()][3:] == ["/careers"]


def test_views_past_the_cap_per_address_are_not_stored(configure: Configure) -> None:
    configure(analytics_views_per_client_per_minute=4)
    for _ in range(6):
        browser = Browser()
        browser.load("/")
        browser.arrive()
    elsewhere = Browser(ip="81.2.69.161")
    elsewhere.load("/")
    elsewhere.arrive()
    views = _stored()
    assert len(views) == 5
    assert sorted(
        sum(view.visitor == visitor for view in views) for visitor in {v.visitor for v in views}
    ) == [1, 4]


def test_the_cap_per_address_is_shared_by_workers_through_redis(
    configure: Configure, redis_limits: redis.Redis
) -> None:
    configure(analytics_views_per_client_per_minute=4)
    now = datetime.now(UTC)
    workers = [Recorder(flush_seconds=3600), Recorder(flush_seconds=3600)]
    for n in range(6):
        view = PageView(
            at=now + timedelta(seconds=n),
            path="/",
            address=f"2001:db8:1:2::{n:x}",  # one IPv6 line: one /64
            user_agent=FIREFOX,
            host="rcx.example",
            arrival=arrival_of({}),
        )
        workers[n % 2].offer(f"tab-{n}", view)
        forget_storage_connections()  # the next view reaches the other worker
    assert sum(worker.flush() for worker in workers) == 4
    prefix = get_settings().rate_limit_key_prefix
    keys = [key.decode() for key in redis_limits.scan_iter(f"{prefix}*")]
    assert keys and not any("2001" in key or "tab-" in key for key in keys)


def test_a_tab_that_never_says_it_arrived_stores_nothing(configure: Configure) -> None:
    configure(analytics_hold_seconds=0.2)
    browser = Browser()
    browser.load("/")
    browser.load("/about")
    time.sleep(0.3)
    assert _stored() == []
    # Its word, once the hold ran out, comes too late for this tab's later pages too.
    browser.arrive()
    browser.load("/pricing")
    time.sleep(0.3)
    assert _stored() == []


def test_a_tab_whose_word_came_late_keeps_where_it_came_from(configure: Configure) -> None:
    configure(analytics_hold_seconds=0.2)
    browser = Browser()
    browser.load("/", {"utm_source": "newsletter", "utm_campaign": "autumn"})
    time.sleep(0.3)
    browser.arrive(referrer="https://duckduckgo.com/")
    browser.load("/quote")
    assert _stored() == []
    attribution = browser.tab.state(PageViewState)._attribution()
    assert attribution is not None
    assert (attribution.first.source, attribution.first.campaign) == ("newsletter", "autumn")


def test_a_private_arrival_drops_the_views_queued_before_it(configure: Configure) -> None:
    configure(analytics_hold_seconds=0.2)
    browser = Browser()
    browser.load("/")
    browser.load("/about")  # a second page before the browser's word came
    browser.arrive(private=True)
    browser.load("/pricing")
    time.sleep(0.3)
    assert _stored() == []


def test_views_before_the_arrival_are_stored_once_it_says_they_may_count() -> None:
    browser = Browser()
    browser.load("/", {"utm_source": "newsletter"})
    browser.load("/about")
    assert _stored() == []
    browser.arrive(referrer="https://duckduckgo.com/")
    views = _stored()
    assert [(v.path, v.source, v.referrer_host) for v in views] == [
        ("/", "newsletter", "duckduckgo.com"),
        ("/about", "Direct", ""),
    ]


def test_campaign_values_are_bounded_and_normalised() -> None:
    for raw, stored in [
        ("A" * 5000, "a" * 100),
        ("Spring\x00\n\t2026", "spring-2026"),
        ("<script>alert(1)</script>", "script-alert-1-script"),
        ('"><img src=x onerror=alert(1)>', "img-src-x-onerror-alert-1"),
        ("Frühling Sale!", "fruhling-sale"),
        ("autumn-2026_v1.2", "autumn-2026_v1.2"),
        ("\u202egoogle\u200b", "google"),
        ("!!!", ""),
        ("jane@client.example", ""),  # never an address
    ]:
        assert arrival_of({"utm_campaign": raw}).campaign == stored, raw[:40]
    tagged = arrival_of(
        {"utm_source": "News Letter", "utm_medium": "E-Mail", "utm_term": "Web Apps"}
    )
    assert (tagged.source, tagged.medium, tagged.term) == ("news-letter", "e-mail", "web-apps")
    assert tags_of({"utm_content": "x" * 5000}) == {"utm_content": "x" * 100}

    browser = Browser()
    browser.load("/", {"utm_source": "Newsletter", "utm_campaign": "<b>Autumn</b>\n" + "x" * 5000})
    browser.arrive()
    [view] = _stored()
    expected = ("b-autumn-b-" + "x" * 100)[:100]
    assert (view.source, view.campaign) == ("newsletter", expected)
    with session_scope() as session:
        visit = session.exec(select(AnalyticsVisit)).one()
        assert visit.campaign == expected


def _expected_visitor(secret: str, salt: str, view: PageView) -> str:
    # The design: the day's key is HMAC-SHA256(server secret, label || stored salt); the
    # visitor is a 16-byte BLAKE2b of address, user agent and host under that key.
    day_key = hmac.new(
        secret.encode(), b"rcx analytics visitor\x00" + bytes.fromhex(salt), hashlib.sha256
    ).digest()
    text = f"{view.address}\n{view.user_agent}\n{view.host}".encode()
    return hashlib.blake2b(text, key=day_key, digest_size=16).hexdigest()


def test_the_visitor_id_needs_the_server_secret_as_well_as_the_stored_salt(
    configure: Configure,
) -> None:
    at = datetime.now(UTC).replace(hour=12, minute=0)

    def view(minutes: int) -> PageView:
        return PageView(
            at=at + timedelta(minutes=minutes),
            path="/",
            address=ADDRESS,
            user_agent=FIREFOX,
            host="rcx.example",
            arrival=arrival_of({}),
        )

    old_secret = get_settings().signing_key()
    store([view(0)])
    configure(secret_key="another-server-secret-" + "y" * 40)
    store([view(1)])
    with session_scope() as session:
        [salt] = [row.salt for row in session.exec(select(AnalyticsSalt))]
        visitors = [
            v.visitor for v in session.exec(select(AnalyticsView).order_by(AnalyticsView.id))
        ]
    assert visitors == [
        _expected_visitor(old_secret, salt, view(0)),
        _expected_visitor(get_settings().signing_key(), salt, view(1)),
    ]
    assert visitors[0] != visitors[1]  # same salt, same person: another secret, another id


def test_a_campaign_naming_a_known_source_is_stored_under_the_referrers_name() -> None:
    for sent in ("LinkedIn", "linkedin", "LINKEDIN"):
        assert arrival_of({"utm_source": sent}).source == "LinkedIn"
    assert arrival_of({"utm_source": "Hacker News"}).source == "Hacker News"
    assert arrival_of({"utm_source": "Newsletter"}).source == "newsletter"
