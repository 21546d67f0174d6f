"""Recording page views off the event path: a page event only appends to a queue; a thread
in each worker writes the queue to the database every second. When the database cannot be
reached the views are dropped and a log line says how many: a page never waits for, or
fails because of, its own counting.

A tab's views are held (in the tab's state: rcxsite/state/analytics/page_views.py) until
the browser has said where it came from (the referring page is known only to the
browser) and whether it wants to be counted at all; if it has not said so within
ANALYTICS_HOLD_SECONDS, they are dropped. The queue is written once more when the process
stops (`written_at_shutdown`: a SIGTERM or a restart loses nothing queued).

Whatever a client sends, a tab and a client address count at most a few views a minute (the settings
ANALYTICS_VIEWS_PER_TAB_PER_MINUTE and ANALYTICS_VIEWS_PER_CLIENT_PER_MINUTE), checked
as the queue is written, off the page's event, in the rate limits' storage that every
worker shares (rcxsite/core/ratelimit.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import iptocc
from sqlalchemy import insert, text
from sqlmodel import Session, col, select

from rcxsite.analytics.agents import agent_of
from rcxsite.analytics.sources import Arrival
from rcxsite.analytics.visitors import day_key, salt_for, visitor_id
from rcxsite.core.ratelimit import Limit, client_key, fits
from rcxsite.models.analytics import PATH_MAX, AnalyticsView, AnalyticsVisit
from rcxsite.platform.db import session_scope
from rcxsite.platform.metrics import ANALYTICS_DROPS
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

VISIT_GAP = timedelta(minutes=30)
# How long after its start a visit's last view can be: a view finds its visit under today's
# visitor id or yesterday's (`ids` below), so a visit never outlives the day after its start.
VISIT_SPAN_MAX = timedelta(days=2)
FLUSH_SECONDS = 1.0
QUEUE_MAX = 100_000


@dataclass(frozen=True, slots=True)
class PageView:
    """A view as the page event saw it; the address and user agent never reach a table."""

    at: datetime
    path: str
    address: str
    user_agent: str
    host: str
    arrival: Arrival


def _country(address: str) -> str:
    try:
        return iptocc.country_code(address) or ""
    except ValueError:
        return ""


def _open_visit(session: Session, visitors: list[str], at: datetime) -> AnalyticsVisit | None:
    return session.exec(
        select(AnalyticsVisit)
        .where(col(AnalyticsVisit.visitor).in_(visitors), AnalyticsVisit.last_at >= at - VISIT_GAP)
        .order_by(col(AnalyticsVisit.last_at).desc())
        .limit(1)
    ).first()


def _key_of(salt: str | None) -> bytes | None:
    return None if salt is None else day_key(salt)


def within_limits(queued: Sequence[tuple[str, PageView]]) -> list[PageView]:
    """The views of `queued` (each with its tab) that their tab's and their client
    address's limits still let count; a view refused counts against neither."""
    settings = get_settings()
    per_tab = f"{settings.analytics_views_per_tab_per_minute} per minute"
    per_client = f"{settings.analytics_views_per_client_per_minute} per minute"
    counted = []
    for tab, view in queued:
        if fits(
            Limit(per_tab, "analytics_tab_views", tab),
            Limit(per_client, "analytics_client_views", client_key(view.address)),
        ):
            counted.append(view)
    return counted


@dataclass(frozen=True, slots=True)
class _Viewer:
    view: PageView
    visitor: str
    ids: tuple[str, ...]  # the visitor under today's key, and under yesterday's if kept


def _one_writer_per_visitor(session: Session, visitors: set[str]) -> None:
    """Until this transaction ends, no other worker opens or extends a visit of these
    visitors: each reads the open visit only after the other's is committed, so views
    served by different workers at once make one visit, and no count is lost. PostgreSQL:
    a transaction lock per visitor, taken in one order (no deadlock); SQLite: the
    transaction already holds the database's write lock (BEGIN IMMEDIATE)."""
    if session.get_bind().dialect.name != "postgresql" or not visitors:
        return
    session.execute(
        text(
            "SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended(v, 0) AS k"
            " FROM unnest(CAST(:visitors AS text[])) AS v ORDER BY k) AS keys"
        ),
        {"visitors": sorted(f"rcx-visit:{visitor}" for visitor in visitors)},
    )


def _seen(views: Sequence[PageView], exclude_automation: bool) -> list[_Viewer]:
    days = {view.at.date() for view in views}
    keys = {day: _key_of(salt_for(day)) for day in days}
    yesterdays = {day: _key_of(salt_for(day - timedelta(days=1), create=False)) for day in days}
    seen = []
    for view in sorted(views, key=lambda view: view.at):
        agent = agent_of(view.user_agent)
        if agent.bot or (agent.automation and exclude_automation):
            continue
        who = {"address": view.address, "user_agent": view.user_agent, "host": view.host}
        key, yesterday = keys[view.at.date()], yesterdays[view.at.date()]
        assert key is not None
        visitor = visitor_id(key, **who)
        ids = (visitor, visitor_id(yesterday, **who)) if yesterday else (visitor,)
        seen.append(_Viewer(view=view, visitor=visitor, ids=ids))
    return seen


def store(views: Sequence[PageView], *, exclude_automation: bool | None = None) -> int:
    """Write `views` and the visits they make; how many were counted (crawlers and,
    unless told otherwise, automated browsers are not)."""
    if exclude_automation is None:
        exclude_automation = get_settings().analytics_exclude_automation
    seen = _seen(views, exclude_automation)
    if not seen:
        return 0
    rows: list[dict[str, object]] = []
    with session_scope(for_update=True) as session:
        _one_writer_per_visitor(session, {id_ for one in seen for id_ in one.ids})
        visits: dict[str, AnalyticsVisit] = {}
        for one in seen:
            view, visitor = one.view, one.visitor
            agent = agent_of(view.user_agent)
            visit = visits.get(visitor)
            if visit is None:
                visit = _open_visit(session, list(one.ids), view.at)
            country = _country(view.address)
            arrival = view.arrival
            if visit is not None and view.at - visit.last_at <= VISIT_GAP:
                visit.views += 1
                visit.last_at = max(visit.last_at, view.at)
            else:
                visit = AnalyticsVisit(
                    visitor=visitor,
                    started_at=view.at,
                    last_at=view.at,
                    entry_path=view.path[:PATH_MAX],
                    referrer_host=arrival.referrer_host,
                    source=arrival.source,
                    medium=arrival.medium,
                    campaign=arrival.campaign,
                    country=country,
                    device=agent.device,
                    browser=agent.browser,
                    os=agent.os,
                )
            session.add(visit)
            session.flush()
            visits[visitor] = visit
            rows.append(
                {
                    "visit_id": visit.id,
                    "visitor": visitor,
                    "at": view.at,
                    "path": view.path[:PATH_MAX],
                    "referrer_host": arrival.referrer_host,
                    "source": arrival.source,
                    "medium": arrival.medium,
                    "campaign": arrival.campaign,
                    "term": arrival.term,
                    "content": arrival.content,
                    "country": country,
                    "device": agent.device,
                    "browser": agent.browser,
                    "os": agent.os,
                }
            )
        session.execute(insert(AnalyticsView), rows)
    return len(rows)


class Recorder:
    """The per-process queue of views and the thread that writes it. A tab's views held
    for its browser's word are in the tab's own state (shared by every worker), not here:
    what is here is what may be counted, written within a second, and at shutdown."""

    def __init__(
        self,
        *,
        write: Callable[[Sequence[PageView]], int] = store,
        flush_seconds: float = FLUSH_SECONDS,
    ) -> None:
        self._write = write
        self._flush_seconds = flush_seconds
        self._queue: deque[tuple[str, PageView]] = deque(maxlen=QUEUE_MAX)
        self._lock = threading.Lock()
        self._flushing = threading.Lock()
        self._thread: threading.Thread | None = None
        self._overflowed = 0

    def offer(self, tab: str, view: PageView) -> None:
        """Queue a view of `tab`, a tab whose browser has said it may be counted."""
        if len(self._queue) >= QUEUE_MAX:  # the oldest goes: said at the next flush
            self._overflowed += 1
        self._queue.append((tab, view))
        self._start()

    def flush(self) -> int:
        """Write what is queued and within its limits; how many were counted."""
        with self._flushing:
            queued: list[tuple[str, PageView]] = []
            while self._queue:
                queued.append(self._queue.popleft())
            if self._overflowed:
                logger.warning(
                    "Dropped %d page views: more came than could be stored", self._overflowed
                )
                ANALYTICS_DROPS.labels(reason="queue_full").inc(self._overflowed)
                self._overflowed = 0
            if not queued:
                return 0
            try:
                views = within_limits(queued)
                if len(views) < len(queued):
                    ANALYTICS_DROPS.labels(reason="over_limit").inc(len(queued) - len(views))
                return self._write(views) if views else 0
            except Exception as error:
                logger.warning(
                    "Dropped %d page views: could not store them (%s)", len(queued), error
                )
                ANALYTICS_DROPS.labels(reason="not_stored").inc(len(queued))
                return 0

    def _start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="page-views", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(self._flush_seconds)
            self.flush()


RECORDER = Recorder()


@contextlib.asynccontextmanager
async def written_at_shutdown() -> AsyncIterator[None]:
    """A site worker's lifespan step: what is queued when the worker stops (SIGTERM, a
    restart, a deploy) is written before it exits, not lost with its memory."""
    try:
        yield
    finally:
        counted = await asyncio.to_thread(RECORDER.flush)
        if counted:
            logger.info("Wrote %d page views queued at shutdown", counted)
