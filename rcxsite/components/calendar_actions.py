"""A booked call's links on the pages that show it: its video room, and "add to my
calendar" (Google Calendar, Outlook and the .ics file: rcxsite.booking.calendar_links) on
the thank-you view and the manage page."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.vars import Var


def join_link(href: Var[str] | str) -> rx.Component:
    """The link that opens a video call's room, in a tab of its own (the page stays)."""
    return rx.el.a("Join the video call", href=href, target="_blank", rel="noopener noreferrer")


def calendar_actions(state: Any) -> rx.Component:
    """The links of `state`, a page state with CallCalendar's vars."""
    return rx.el.ul(
        rx.el.li(
            rx.el.a(
                "Add to Google Calendar",
                href=state.calendar_google,
                target="_blank",
                rel="noopener noreferrer",
            )
        ),
        rx.el.li(
            rx.el.a(
                "Add to Outlook",
                href=state.calendar_outlook,
                target="_blank",
                rel="noopener noreferrer",
            )
        ),
        rx.el.li(
            rx.el.a(
                "Download invitation (.ics)",
                href=state.calendar_ics_href,
                download="invitation.ics",
            )
        ),
        class_name="calendar-actions",
        aria_label="Add the call to your calendar",
    )
