"""A booked call's "add to my calendar" links as a page holds them: the thank-you view's
state and the manage page's both show them (rcxsite/components/calendar_actions.py)."""

from __future__ import annotations

import reflex as rx

from rcxsite.booking.calendar_links import ics_data_url
from rcxsite.booking.notices import VisitorCalendar


class CallCalendar(rx.State, mixin=True):
    # Empty while there is no call to come; none of them holds the manage link.
    calendar_google: str = ""
    calendar_outlook: str = ""
    calendar_ics_href: str = ""

    def _show_calendar(self, calendar: VisitorCalendar | None) -> None:
        self.calendar_google = calendar.google if calendar else ""
        self.calendar_outlook = calendar.outlook if calendar else ""
        self.calendar_ics_href = ics_data_url(calendar.ics) if calendar else ""
