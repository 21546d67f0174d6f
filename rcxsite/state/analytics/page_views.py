"""Counting page views from the events Reflex already sends: the first load of a tab
(`hydrate_and_load` with the page's compiled hashes: a reconnect sends none and is not a
view) and every move to another page (`on_load_internal`); loading the page the tab is
already on again is no view. The browser adds one small event on the first page,
`PageViewState.arrived`, with what only it knows: the referring page, whether automation
drives it and Global Privacy Control. Until that event says the tab may be counted, its
views are held in its state (whichever worker its events reach); a tab whose word does
not come within ANALYTICS_HOLD_SECONDS of its first view is not counted at all.

The tab's state keeps where it came from (first touch, and the latest touch that was not
direct): the quote, booking and registration screens hand it to their services. Nothing is
stored on the device; the tab's token is Reflex's own."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import reflex as rx
from reflex.middleware.middleware import Middleware

from rcxsite.analytics.agents import agent_of
from rcxsite.analytics.recording import RECORDER, PageView
from rcxsite.analytics.sources import arrival_of, host_of, tags_of
from rcxsite.content import routes
from rcxsite.core.attribution import Attribution, Touch
from rcxsite.models import utcnow
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

_HOME = routes.HOME.path
_COUNTED_PATHS = frozenset(route.path for route in routes.ROUTES if route.layout != "staff")


def _opted_out(headers: dict[str, str]) -> bool:
    """Global Privacy Control or Do Not Track, as the browser's request says."""
    return headers.get("sec-gpc", "").strip() == "1" or headers.get("dnt", "").strip() == "1"


def _not_counted(user_agent: str) -> bool:
    """Crawlers, and (unless ANALYTICS_EXCLUDE_AUTOMATION is off) automated browsers: their
    tabs are left out whole, attribution included."""
    agent = agent_of(user_agent)
    return agent.bot or (agent.automation and get_settings().analytics_exclude_automation)


class PageViewState(rx.State):
    """Backend only: nothing of it is sent to the browser."""

    _views: int = 0
    _path: str = ""
    _excluded: bool = False
    # Its word came too late (or not at all): its views are not stored, but where it came
    # from still goes with the rows it sends (a busy server is no reason to lose a lead's
    # source). `_excluded` (privacy, automation) drops both.
    _uncounted: bool = False
    _arrived: bool = False
    _arrival_due: datetime | None = None
    _landing_path: str = ""
    _landing_query: dict[str, str] = {}
    _first: Touch | None = None
    _last: Touch | None = None
    # The views waiting for the browser's word: kept with the tab (in Redis when workers
    # share it), so the word may come to any worker, and none holds them in its memory.
    _held: list[PageView] = []

    def _attribution(self) -> Attribution | None:
        """Where this tab came from, for a row it sends; none for a tab not counted."""
        if self._excluded or self._first is None:
            return None
        return Attribution(first=self._first, last=self._last)

    def _exclude(self) -> None:
        self._excluded = True
        self._first = self._last = None
        self._held = []

    def _stop_counting(self) -> None:
        self._uncounted = True
        self._held = []

    def _late(self, now: datetime) -> bool:
        """Whether the browser's word, not come yet, is now too late to count the tab."""
        return not self._arrived and self._arrival_due is not None and now > self._arrival_due

    def _viewed(self, view: PageView, tab: str, query: dict[str, str]) -> None:
        if view.path == self._path:
            return
        if self._late(view.at):
            self._stop_counting()
        self._path = view.path
        if self._views == 0:
            self._landing_path, self._landing_query = view.path, query
            self._first = view.arrival.touch(view.path)
            hold = timedelta(seconds=get_settings().analytics_hold_seconds)
            self._arrival_due = view.at + hold
        elif not view.arrival.touch(view.path).direct:
            self._last = view.arrival.touch(view.path)
        self._views += 1
        if self._uncounted:
            return
        if self._arrived:
            RECORDER.offer(tab, view)
        elif len(self._held) < get_settings().analytics_views_per_tab_per_minute:
            # A hold lasts at most a minute, and a tab counts no more than this a minute.
            self._held = [*self._held, view]

    @rx.event
    def arrived(self, referrer: str, automated: bool, private: bool) -> None:
        """The browser's word on the tab's first page: sent on every page, used once."""
        if self._arrived or self._views == 0 or self._excluded:
            return
        tab = self.router.session.client_token
        if private is True or (automated is True and get_settings().analytics_exclude_automation):
            self._exclude()
            return
        late = self._late(utcnow())
        self._arrived = True
        own_host = self.router.headers.host
        referrer_host = host_of(referrer if isinstance(referrer, str) else "", own_host=own_host)
        arrival = arrival_of(self._landing_query).referred_by(referrer_host)
        self._first = arrival.touch(self._landing_path)
        if not self._first.direct:
            self._last = self._first
        if late or self._uncounted:
            self._stop_counting()
            return
        held, self._held = self._held, []
        for number, view in enumerate(held):
            if number == 0:
                view = replace(view, arrival=view.arrival.referred_by(referrer_host))
            RECORDER.offer(tab, view)


def _is_view(event: Any) -> bool:
    name = event.name
    if name.endswith(".on_load_internal"):
        return True
    # A first load sends the compiled page's hashes; a reconnect does not.
    return name.endswith(".hydrate_and_load") and bool((event.payload or {}).get("hashes"))


class CountPageViews(Middleware):
    """Runs before Reflex handles an event; never fails or delays it."""

    async def preprocess(self, app: Any, state: Any, event: Any) -> None:
        try:
            if _is_view(event):
                await self._count(state, event)
        except Exception:
            logger.exception("could not count a page view")
        return None

    async def _count(self, state: Any, event: Any) -> None:
        data = event.router_data or {}
        # Reflex names the home page's route "/index".
        path = _HOME if (pattern := data.get("pathname", "")) == "/index" else pattern
        if path not in _COUNTED_PATHS:
            return
        headers = data.get("headers") or {}
        user_agent = headers.get("user-agent", "")
        tab_state = await state.get_state(PageViewState)
        if tab_state._excluded:
            return
        if _opted_out(headers) or _not_counted(user_agent):
            tab_state._excluded = True
            return
        query = tags_of(data.get("query") or {})
        view = PageView(
            at=utcnow(),
            path=path,
            address=data.get("ip", ""),
            user_agent=user_agent,
            host=headers.get("host", ""),
            arrival=arrival_of(query),
        )
        tab_state._viewed(view, data.get("token", ""), query)
