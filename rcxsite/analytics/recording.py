"""Recording page views off the event path: a page event only appends to a queue; a thread
in each worker writes the queue to the database every second. When the database cannot be
reached the views are dropped and a log line says how many: a page never waits for, or
fails because of, its own counting.

A tab's views are held until the browser has said where it came from (the referring
page is known only to the browser) and whether it wants to be counted at all; if it has
not said so within ANALYTICS_HOLD_SECONDS, they are dropped. Whatever a client sends, a
tab and a client address count at most a few views a minute (the settings
ANALYTICS_VIEWS_PER_TAB_PER_MINUTE and ANALYTICS_VIEWS_PER_CLIENT_PER_MINUTE), checked
as the queue is written, off the page's event, in the rate limits' storage that every
worker shares (rcxsite/core/ratelimit.py)."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

import iptocc
from sqlalchemy import insert
from sqlmodel import Session, col, select

from rcxsite.analytics.agents import agent_of
from rcxsite.analytics.sources import Arrival
from rcxsite.analytics.visitors import day_key, salt_for, visitor_id
from rcxsite.core.ratelimit import Limit, client_key, fits
from rcxsite.models.analytics import PATH_MAX, AnalyticsView, AnalyticsVisit
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

VISIT_GAP = timedelta(minutes=30)
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


def store(views: Sequence[PageView], *, exclude_automation: bool | None = None) -> int:
    """Write `views` and the visits they make; how many were counted (crawlers and,
    unless told otherwise, automated browsers are not)."""
    if exclude_automation is None:
        exclude_automation = get_settings().analytics_exclude_automation
    rows: list[dict[str, object]] = []
    days = {view.at.date() for view in views}
    keys = {day: _key_of(salt_for(day)) for day in days}
    yesterdays = {day: _key_of(salt_for(day - timedelta(days=1), create=False)) for day in days}
    with session_scope() as session:
        visits: dict[str, AnalyticsVisit] = {}
        for view in sorted(views, key=lambda view: view.at):
            agent = agent_of(view.user_agent)
            if agent.bot or (agent.automation and exclude_automation):
                continue
            day = view.at.date()
            key = keys[day]
            assert key is not None
            visitor = visitor_id(
                key, address=view.address, user_agent=view.user_agent, host=view.host
            )
            visit = visits.get(visitor)
            if visit is None:
                yesterday = yesterdays[day]
                ids = [visitor]
                if yesterday:
                    ids.append(
                        visitor_id(
                            yesterday,
                            address=view.address,
                            user_agent=view.user_agent,
                            host=view.host,
                        )
                    )
                visit = _open_visit(session, ids, view.at)
            country = _country(view.address)
            if visit is not None and view.at - visit.last_at <= VISIT_GAP:
                visit.views += 1
                visit.last_at = max(visit.last_at, view.at)
            else:
                arrival = view.arrival
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
            arrival = view.arrival
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
        if rows:
            session.execute(insert(AnalyticsView), rows)
    return len(rows)


@dataclass(slots=True)
class _Hold:
    """A tab's views waiting for its browser's word, until `until` (monotonic)."""

    until: float
    views: list[PageView] = field(default_factory=list)


class Recorder:
    """The per-process queue of views and the thread that writes it."""

    def __init__(
        self,
        *,
        write: Callable[[Sequence[PageView]], int] = store,
        flush_seconds: float = FLUSH_SECONDS,
        hold_seconds: float | None = None,
    ) -> None:
        self._write = write
        self._flush_seconds = flush_seconds
        self._hold_seconds = hold_seconds
        self._queue: deque[tuple[str, PageView]] = deque(maxlen=QUEUE_MAX)
        self._held: dict[str, _Hold] = {}
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

    def hold(self, tab: str, view: PageView) -> None:
        """Keep a view of `tab` until `release` or `drop`; when the hold of the tab's first
        held view runs out, every view held for it is dropped."""
        settings = get_settings()
        with self._lock:
            held = self._held.get(tab)
            if held is None:
                if len(self._held) >= QUEUE_MAX:
                    self._overflowed += 1
                    return
                hold = self._hold_seconds or settings.analytics_hold_seconds
                held = self._held[tab] = _Hold(until=time.monotonic() + hold)
            # A hold lasts at most a minute, and a tab counts no more than this a minute.
            if len(held.views) < settings.analytics_views_per_tab_per_minute:
                held.views.append(view)
        self._start()

    def release(self, tab: str, *, referrer_host: str = "") -> None:
        """Queue the views held for `tab`, its first known now to come from a link on
        `referrer_host`."""
        with self._lock:
            held = self._held.pop(tab, None)
        if held is not None and held.views:
            first, *later = held.views
            self.offer(tab, replace(first, arrival=first.arrival.referred_by(referrer_host)))
            for view in later:
                self.offer(tab, view)

    def drop(self, tab: str) -> None:
        with self._lock:
            self._held.pop(tab, None)

    def flush(self) -> int:
        """Write what is queued and within its limits, and forget the views whose hold ran
        out; how many were counted."""
        with self._flushing:
            now = time.monotonic()
            with self._lock:
                for tab in [tab for tab, held in self._held.items() if held.until <= now]:
                    del self._held[tab]
            queued: list[tuple[str, PageView]] = []
            while self._queue:
                queued.append(self._queue.popleft())
            if self._overflowed:
                logger.warning(
                    "Dropped %d page views: more came than could be stored", self._overflowed
                )
                self._overflowed = 0
            if not queued:
                return 0
            try:
                views = within_limits(queued)
                return self._write(views) if views else 0
            except Exception as error:
                logger.warning(
                    "Dropped %d page views: could not store them (%s)", len(queued), error
                )
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
