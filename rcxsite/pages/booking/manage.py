"""/booking/<token>: the call, "Reschedule" and "Cancel", and after a cancel "Book another
time" (rcxsite/state/booking/manage.py)."""

from __future__ import annotations

import reflex as rx

from rcxsite.booking.inputs import CANCEL_REASON_MAX
from rcxsite.components.calendar_actions import calendar_actions, join_link
from rcxsite.components.form_fields import (
    action_button,
    form,
    status_message,
    submit_button,
    textarea_field,
)
from rcxsite.content import routes
from rcxsite.pages.booking.slot_picker import slot_picker
from rcxsite.state.booking.manage import CHANGE_BROKEN, DONE_ID, ManageBookingState

State = ManageBookingState

ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {
    "booking": [State.load, State.detect_clock]
}

_STATUS_TEXT = {
    "booked": "Booked",
    "moved": "Booked (moved)",
    "cancelled": "Cancelled",
    "held": "Held",
    "no-show": "Missed",
}


def _facts() -> rx.Component:
    return rx.el.dl(
        rx.el.dt("When"),
        rx.el.dd(rx.cond(State.hour12, State.when12, State.when)),
        rx.el.dt("With"),
        rx.el.dd(State.host_name),
        rx.el.dt("Where"),
        rx.el.dd(
            rx.cond(
                State.meeting_url != "",
                join_link(State.meeting_url),
                State.place,
            )
        ),
        rx.el.dt("Status"),
        rx.el.dd(rx.match(State.call_status, *_STATUS_TEXT.items(), State.call_status)),
        class_name="booking-facts",
    )


def _actions() -> rx.Component:
    return rx.cond(
        State.can_change,
        rx.fragment(
            calendar_actions(State),
            rx.el.div(
                action_button("Reschedule", on_click=State.start_reschedule, kind="primary"),
                action_button("Cancel the call", on_click=State.ask_cancel),
                class_name="booking-actions",
            ),
        ),
        rx.fragment(
            # The call booked again from here: its calendar, and its own link for changes.
            rx.cond(State.booked_again, calendar_actions(State)),
            rx.el.p(State.notice, class_name="lead", role="status"),
            rx.cond(
                State.can_book_again,
                rx.el.div(
                    action_button(
                        "Book another time", on_click=State.start_book_again, kind="primary"
                    ),
                    class_name="booking-actions",
                ),
            ),
        ),
    )


def _time_form(*, label: str, submit: str, busy_text: str, back: str, on_submit) -> rx.Component:
    return form(
        slot_picker(State, prefix="booking", error=State.field_errors["start"]),
        status_message(State.error, kind="error"),
        rx.el.div(
            submit_button(submit, busy_text, busy=State.busy),
            action_button(back, on_click=State.keep),
            class_name="booking-actions",
        ),
        on_submit=on_submit,
        aria_label=label,
        class_name="quote-form",
        failure=CHANGE_BROKEN,
    )


def _reschedule_form() -> rx.Component:
    return _time_form(
        label="Choose a new time",
        submit="Move my call",
        busy_text="Moving...",
        back="Keep my time",
        on_submit=State.reschedule,
    )


def _book_again_form() -> rx.Component:
    # The same details as the cancelled call; only the time is new.
    return _time_form(
        label="Book another time",
        submit="Book this time",
        busy_text="Booking...",
        back="Not now",
        on_submit=State.book_again,
    )


def _cancel_question() -> rx.Component:
    return form(
        rx.el.p("Cancel this call? The time is then free for others.", class_name="lead"),
        textarea_field(
            "Reason (optional)",
            "reason",
            error=State.field_errors["reason"],
            field_id="booking-reason",
            rows=3,
            max_length=CANCEL_REASON_MAX,
            placeholder="Helps your host, for example a better time or another contact",
        ),
        status_message(State.error, kind="error"),
        rx.el.div(
            submit_button("Yes, cancel the call", "Cancelling...", busy=State.busy),
            action_button("Keep the call", on_click=State.keep),
            class_name="booking-actions",
        ),
        on_submit=State.cancel,
        aria_label="Cancel the call",
        class_name="quote-form",
        failure=CHANGE_BROKEN,
    )


def _call() -> rx.Component:
    return rx.fragment(
        rx.cond(
            State.done != "",
            # Focused after a move (the form above it is gone): a phone shows it, a screen
            # reader reads it.
            rx.el.p(State.done, role="status", class_name="booking-done", id=DONE_ID, tab_index=-1),
        ),
        _facts(),
        rx.match(
            State.mode,
            ("reschedule", _reschedule_form()),
            ("cancel", _cancel_question()),
            ("again", _book_again_form()),
            _actions(),
        ),
    )


def booking_page(route: routes.Route) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h1(route.title, class_name="section-title"),
            rx.match(
                State.status,
                ("shown", _call()),
                ("invalid", rx.el.p(State.notice, class_name="lead", role="alert")),
                rx.el.p("Loading your call...", role="status", class_name="lead"),
            ),
            class_name="page-width booking-manage",
        ),
        class_name="section section-light",
    )
