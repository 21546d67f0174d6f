"""/staff/calls, "My calls" (sales and admins): a thin adapter over rcxsite.booking.calls.

The calendar feed's URL carries its secret token: it is handed to the page once
(state/one_time.py) when the member regenerates it, never kept in a state var, which
the server stores with the tab and sends to whoever reconnects with it.
"""

from __future__ import annotations

from typing import TypedDict

import reflex as rx

from rcxsite.booking import calls
from rcxsite.core.permissions import Permission
from rcxsite.state.booking.availability import host_choices
from rcxsite.state.one_time import show_once
from rcxsite.state.service_calls import call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import number_id

FEED_LINK = "calendar-feed-link"
ALL_MEMBERS = ""


class CallView(TypedDict):
    time: str
    visitor: str
    company: str
    host: str
    status: str
    path: str  # the request's page in the staff office


class CallDayView(TypedDict):
    label: str
    calls: list[CallView]


@staff_screen
class StaffCallsState(rx.State):
    days: list[CallDayView] = []
    total: int = 0
    time_zone: str = ""
    loaded: bool = False
    # An admin's filter: every member's calls ("") or one member's (their id).
    members: list[dict[str, str]] = []
    member_filter: str = ALL_MEMBERS
    has_feed: bool = False
    # True right after "Regenerate": the URL itself is shown once, never kept here.
    feed_shown: bool = False
    error: str = ""
    notice: str = ""

    async def _reload(self) -> None:
        member_id = number_id(self.member_filter) or None
        outcome = await call_service(calls.upcoming_calls, actor=acting(), member_id=member_id)
        if not outcome.ok:
            self.error = outcome.message()
            return
        found = outcome.result()
        self.loaded = True
        self.time_zone, self.total, self.has_feed = found.time_zone, found.total, found.has_feed
        self.days = [
            {
                "label": day.label,
                "calls": [
                    {
                        "time": call.time,
                        "visitor": call.visitor_name,
                        "company": call.company,
                        "host": call.host_name,
                        "status": call.status,
                        "path": call.staff_path,
                    }
                    for call in day.calls
                ],
            }
            for day in found.days
        ]

    @staff_event(Permission.TAKE_CALLS)
    async def load(self):
        self.error = self.notice = ""
        self.feed_shown = False
        self.member_filter = ALL_MEMBERS
        actor = acting()
        self.members = await host_choices(actor)
        await self._reload()

    @staff_event(Permission.TAKE_CALLS)
    async def filter_member(self, member_id: str):
        """An admin's filter ("" = every member); the service refuses anyone else's."""
        self.error = self.notice = ""
        previous = self.member_filter
        chosen = number_id(member_id)
        self.member_filter = str(chosen) if chosen else ALL_MEMBERS
        await self._reload()
        if self.error:
            self.member_filter = previous

    @staff_event(Permission.TAKE_CALLS)
    async def regenerate_feed(self):
        """A new secret feed URL, shown once; the previous URL stops working."""
        self.error = self.notice = ""
        self.feed_shown = False
        outcome = await call_service(calls.regenerate_feed, actor=acting())
        if not outcome.ok:
            self.error = outcome.message()
            return None
        self.has_feed, self.feed_shown = True, True
        self.notice = (
            "Your calendar feed has a new address: copy it now, it is shown only once. "
            "Any address made before no longer works."
        )
        return show_once({FEED_LINK: outcome.result()})


__all__ = ["FEED_LINK", "CallDayView", "CallView", "StaffCallsState"]
