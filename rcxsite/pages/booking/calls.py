"""/staff/calls, "My calls": the booked calls to come, by day, each linked to its quote
request (an admin sees every member's, or one member's), and the private calendar feed
with how to subscribe to it."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.form_fields import control_attrs, labelled
from rcxsite.components.react import OneTimeSecret
from rcxsite.components.staff_ui import notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.pages.staff.shared import link
from rcxsite.state.booking.calls import FEED_LINK, CallDayView, CallView, StaffCallsState

S = StaffCallsState
NO_CALLS = "No calls booked in the next 60 days."
# Where each calendar app subscribes to a feed by its address.
SUBSCRIBE_STEPS = (
    ("Google Calendar", "Other calendars > + > From URL, paste the address, Add calendar."),
    ("Outlook", "Add calendar > Subscribe from web, paste the address, Import."),
    ("Apple Calendar", "File > New Calendar Subscription, paste the address, Subscribe."),
)


def _member_filter() -> rx.Component:
    return rx.cond(
        S.members.length() > 0,
        labelled(
            "Member",
            "calls-member",
            rx.el.select(
                rx.el.option("All members", value=""),
                rx.foreach(S.members, lambda m: rx.el.option(m["name"], value=m["id"])),
                value=S.member_filter,
                on_change=S.filter_member,
                **control_attrs("calls-member"),
            ),
        ),
    )


def _call(call: CallView) -> rx.Component:
    return rx.el.li(
        rx.el.span(call["time"], class_name="staff-call-time"),
        rx.el.span(
            link(call["visitor"], call["path"]),
            rx.el.span(call["company"], class_name="staff-call-company"),
            class_name="staff-call-who",
        ),
        rx.el.span(
            rx.cond(S.members.length() > 0, rx.el.span("Host: ", call["host"], ". ")),
            call["status"],
            class_name="staff-call-meta",
        ),
        class_name="staff-call",
    )


def _day(day: CallDayView) -> rx.Component:
    return rx.el.section(
        rx.el.h2(day["label"], class_name="staff-subtitle"),
        rx.el.ul(rx.foreach(day["calls"], _call), class_name="staff-calls"),
        class_name="staff-call-day",
    )


def _calls() -> rx.Component:
    return rx.cond(
        S.loaded,
        rx.fragment(
            rx.el.p("Times are on ", rx.el.strong(S.time_zone), " time.", class_name="staff-note"),
            rx.cond(
                S.total > 0,
                rx.el.div(rx.foreach(S.days, _day), class_name="staff-call-days"),
                rx.el.p(NO_CALLS, class_name="staff-empty"),
            ),
        ),
    )


def _feed() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Calendar feed", class_name="staff-subtitle"),
        rx.el.p(
            "Your calls can appear in your own calendar app: subscribe to your private feed "
            "address. The app then fetches your calls by itself from time to time (calls "
            "from the last 30 days and the next 60; Google Calendar may take several hours "
            "to show a change). Anyone who has the address can see "
            "your calls, so keep it to yourself; if it gets out, regenerate it.",
            class_name="staff-note",
        ),
        rx.el.p(
            rx.cond(
                S.has_feed,
                "You have a feed. Regenerating makes a new address and the old one stops working.",
                "You have no feed yet.",
            ),
            class_name="staff-note",
        ),
        rx.el.div(
            rx.el.button(
                rx.cond(S.has_feed, "Regenerate feed address", "Create feed address"),
                type="button",
                class_name="button button-outline",
                on_click=S.regenerate_feed,
            ),
            class_name="staff-actions",
        ),
        rx.cond(
            S.feed_shown,
            rx.el.p(
                "Your feed address (shown only now): ",
                OneTimeSecret.create(slot=FEED_LINK, class_name="staff-link"),
                class_name="staff-note",
            ),
        ),
        rx.el.h3("How to subscribe", class_name="staff-step-title"),
        rx.el.ul(
            *[rx.el.li(rx.el.strong(app), ": ", steps) for app, steps in SUBSCRIBE_STEPS],
            class_name="staff-entries",
        ),
        class_name="staff-section",
        aria_label="Calendar feed",
    )


def staff_calls_page(route: Route) -> rx.Component:
    return rx.el.div(
        page_heading("My calls"),
        _member_filter(),
        notices(S.error, S.notice),
        _calls(),
        _feed(),
        class_name="staff-page",
    )


__all__ = ["NO_CALLS", "SUBSCRIBE_STEPS", "staff_calls_page"]
