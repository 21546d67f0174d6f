"""Recording page views off the event path: a page event only appends to a queue; a thread
in each worker writes the queue to the database every second. When the database cannot be
reached the views are dropped and a log line says how many: a page never waits for, or
fails because of, its own counting.

The first view of a tab is held until the browser has said where it came from (the
referring page is known only to the browser) and whether it wants to be counted at all;
if it never says, the view is written after a few seconds as it is."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import iptocc
from sqlalchemy import insert
from sqlmodel import Session, col, select

from rcxsite.analytics.agents import agent_of
from rcxsite.analytics.sources import Arrival
from rcxsite.analytics.visitors import salt_for, visitor_id
from rcxsite.db import session_scope
from rcxsite.models.analytics import PATH_MAX, AnalyticsView, AnalyticsVisit
from rcxsite.settings import get_settings

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


def store(views: Sequence[PageView], *, exclude_automation: bool | None = None) -> int:
    """Write `views` and the visits they make; how many were counted (crawlers and,
    unless told otherwise, automated browsers are not)."""
    if exclude_automation is None:
        exclude_automation = get_settings().analytics_exclude_automation
    rows: list[dict[str, object]] = []
    days = {view.at.date() for view in views}
    salts = {day: salt_for(day) for day in days}
    yesterdays = {day: salt_for(day - timedelta(days=1), create=False) for day in days}
    with session_scope() as session:
        visits: dict[str, AnalyticsVisit] = {}
        for view in sorted(views, key=lambda view: view.at):
            agent = agent_of(view.user_agent)
            if agent.bot or (agent.automation and exclude_automation):
                continue
            day = view.at.date()
            salt = salts[day]
            assert salt is not None
            visitor = visitor_id(
                salt, address=view.address, user_agent=view.user_agent, host=view.host
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
        self._queue: deque[PageView] = deque(maxlen=QUEUE_MAX)
        self._held: dict[str, tuple[PageView, float]] = {}
        self._lock = threading.Lock()
        self._flushing = threading.Lock()
        self._thread: threading.Thread | None = None
        self._overflowed = 0

    def offer(self, view: PageView) -> None:
        if len(self._queue) >= QUEUE_MAX:  # the oldest goes: said at the next flush
            self._overflowed += 1
        self._queue.append(view)
        self._start()

    def hold(self, tab: str, view: PageView) -> None:
        """Keep a tab's first view until `release` or `drop` (or the hold runs out)."""
        with self._lock:
            hold = self._hold_seconds or get_settings().analytics_hold_seconds
            self._held[tab] = (view, time.monotonic() + hold)
        self._start()

    def release(self, tab: str, *, referrer_host: str = "") -> None:
        with self._lock:
            held = self._held.pop(tab, None)
        if held is not None:
            view = held[0]
            self.offer(replace(view, arrival=view.arrival.referred_by(referrer_host)))

    def drop(self, tab: str) -> None:
        with self._lock:
            self._held.pop(tab, None)

    def flush(self) -> int:
        """Write what is queued and every held view whose time ran out; how many were
        counted."""
        with self._flushing:
            now = time.monotonic()
            with self._lock:
                expired = [tab for tab, (_, until) in self._held.items() if until <= now]
                for tab in expired:
                    self._queue.append(self._held.pop(tab)[0])
            views: list[PageView] = []
            while self._queue:
                views.append(self._queue.popleft())
            if self._overflowed:
                logger.warning(
                    "Dropped %d page views: more came than could be stored", self._overflowed
                )
                self._overflowed = 0
            if not views:
                return 0
            try:
                return self._write(views)
            except Exception as error:
                logger.warning(
                    "Dropped %d page views: could not store them (%s)", len(views), error
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
