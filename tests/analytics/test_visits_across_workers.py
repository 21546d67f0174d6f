"""Several workers count one visitor as one visit: views served at once by different
workers open or extend a single visit and lose no count (SQLite and PostgreSQL); views
held for the browser's word travel with the tab, not in a worker's memory; and views
queued when a worker stops are written before it exits (rcxsite/analytics/recording.py,
rcxsite/state/analytics/page_views.py)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

import rcxsite.rcxsite
from rcxsite.analytics import recording
from rcxsite.analytics.recording import Recorder, store, written_at_shutdown
from rcxsite.models import AnalyticsView, AnalyticsVisit
from rcxsite.platform.db import session_scope
from rcxsite.state.analytics import page_views
from rcxsite.state.analytics.page_views import PageViewState
from tests.support.fixtures import Configure
from tests.support.page_views import Browser, page_view
from tests.support.postgres import sqlite_or_postgres

WORKERS = 4
ROUNDS = 8


def _visits() -> list[AnalyticsVisit]:
    with session_scope() as session:
        visits = list(session.exec(select(AnalyticsVisit)))
        session.expunge_all()
    return visits


def _views() -> list[AnalyticsView]:
    with session_scope() as session:
        views = list(session.exec(select(AnalyticsView)))
        session.expunge_all()
    return views


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_workers_writing_one_visitors_views_at_once_make_one_visit(
    database: str, configure: Configure
) -> None:
    with sqlite_or_postgres(database, configure):
        start = datetime.now(UTC).replace(microsecond=0)
        store([page_view(start - timedelta(minutes=1))])  # the day's salt, made once
        failures: list[BaseException] = []
        for round_ in range(ROUNDS):
            together = threading.Barrier(WORKERS)

            def worker(
                number: int, round_: int = round_, together: threading.Barrier = together
            ) -> None:
                try:
                    together.wait(10)
                    store([page_view(start + timedelta(seconds=round_ * WORKERS + number))])
                except BaseException as error:
                    failures.append(error)

            threads = [threading.Thread(target=worker, args=(n,)) for n in range(WORKERS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
        assert failures == []
        [visit] = _visits()
        assert visit.views == 1 + ROUNDS * WORKERS == len(_views())
        assert visit.last_at == start + timedelta(seconds=ROUNDS * WORKERS - 1)
        assert {view.visit_id for view in _views()} == {visit.id}


def test_views_held_for_the_browsers_word_travel_with_the_tab() -> None:
    browser = Browser()
    browser.load("/", {"utm_source": "newsletter"})
    browser.load("/about")
    state = browser.tab.state(PageViewState)
    # What Redis keeps of the tab (the next event may reach another worker) holds them.
    stored = type(state)._deserialize(state._serialize())
    assert [view.path for view in stored._held] == ["/", "/about"]
    assert recording.RECORDER._queue == type(recording.RECORDER._queue)()  # none in memory
    browser.arrive(referrer="https://duckduckgo.com/")
    assert browser.tab.state(PageViewState)._held == []
    recording.RECORDER.flush()
    assert [(v.path, v.source) for v in sorted(_views(), key=lambda v: v.at)] == [
        ("/", "newsletter"),
        ("/about", "Direct"),
    ]


def test_views_queued_when_a_worker_stops_are_written_before_it_exits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The app's lifespan (what SIGTERM ends) runs the step that writes the queue.
    assert written_at_shutdown in rcxsite.rcxsite.app.get_lifespan_tasks()
    # A recorder whose thread would write only in an hour: what is written is the stop's.
    slow = Recorder(flush_seconds=3600)
    monkeypatch.setattr(recording, "RECORDER", slow)
    monkeypatch.setattr(page_views, "RECORDER", slow)

    async def a_worker_serving_then_stopping() -> None:
        async with written_at_shutdown():
            now = datetime.now(UTC)
            for number in range(3):
                slow.offer(
                    f"tab-{uuid.uuid4()}", page_view(now + timedelta(seconds=number), "/about")
                )
            assert _views() == []

    asyncio.run(a_worker_serving_then_stopping())
    assert [view.path for view in _views()] == ["/about"] * 3
    assert len(_visits()) == 1
