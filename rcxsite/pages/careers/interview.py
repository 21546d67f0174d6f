"""/careers/interview/<token>: the candidate's interview, "Choose another time" (the booking
pages' time picker, on their clock) and "Cancel the interview"
(rcxsite/state/careers/interview.py)."""

from __future__ import annotations

import reflex as rx

from rcxsite.components.calendar_actions import join_link
from rcxsite.components.form_fields import action_button, form, status_message, submit_button
from rcxsite.content import routes
from rcxsite.pages.booking.slot_picker import slot_picker
from rcxsite.state.careers.interview import CHANGE_BROKEN, DONE_ID, InterviewState

State = InterviewState

ON_LOAD: dict[routes.RouteKind, list[rx.EventHandler]] = {
    "interview": [State.load, State.detect_clock]
}

_STATUS_TEXT = {"booked": "Booked", "moved": "Booked (moved)", "cancelled": "Cancelled"}


def _facts() -> rx.Component:
    return rx.el.dl(
        rx.el.dt("Role"),
        rx.el.dd(State.opening_title),
        rx.el.dt("When"),
        rx.el.dd(rx.cond(State.hour12, State.when12, State.when)),
        rx.el.dt("With"),
        rx.el.dd(State.interviewers),
        rx.cond(
            State.meeting_url != "",
            rx.fragment(rx.el.dt("Where"), rx.el.dd(join_link(State.meeting_url))),
        ),
        rx.el.dt("Status"),
        rx.el.dd(rx.match(State.interview_status, *_STATUS_TEXT.items(), State.interview_status)),
        class_name="booking-facts",
    )


def _actions() -> rx.Component:
    return rx.cond(
        State.can_change,
        rx.el.div(
            action_button("Choose another time", on_click=State.start_move, kind="primary"),
            action_button("Cancel the interview", on_click=State.ask_cancel),
            class_name="booking-actions",
        ),
        rx.el.p(State.notice, class_name="lead", role="status"),
    )


def _move_form() -> rx.Component:
    return form(
        slot_picker(
            State,
            prefix="interview",
            error=State.start_error,
            label="Choose a new time for your interview",
        ),
        status_message(State.error, kind="error"),
        rx.el.div(
            submit_button("Move my interview", "Moving...", busy=State.busy),
            action_button("Keep my time", on_click=State.keep),
            class_name="booking-actions",
        ),
        on_submit=State.move,
        aria_label="Choose another time",
        class_name="quote-form",
        failure=CHANGE_BROKEN,
    )


def _cancel_question() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            "Cancel this interview? We tell the hiring team, who will be in touch.",
            class_name="lead",
        ),
        status_message(State.error, kind="error"),
        rx.el.div(
            action_button(
                "Yes, cancel the interview",
                on_click=State.cancel,
                kind="primary",
                busy=State.busy,
                busy_text="Cancelling...",
            ),
            action_button("Keep the interview", on_click=State.keep),
            class_name="booking-actions",
        ),
    )


def _interview() -> rx.Component:
    return rx.fragment(
        rx.cond(
            State.done != "",
            rx.el.p(State.done, role="status", class_name="booking-done", id=DONE_ID, tab_index=-1),
        ),
        _facts(),
        rx.match(
            State.mode,
            ("move", _move_form()),
            ("cancel", _cancel_question()),
            _actions(),
        ),
    )


def interview_page(route: routes.Route) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h1(route.title, class_name="section-title"),
            rx.match(
                State.status,
                ("shown", _interview()),
                ("invalid", rx.el.p(State.notice, class_name="lead", role="alert")),
                rx.el.p("Loading your interview...", role="status", class_name="lead"),
            ),
            class_name="page-width booking-manage",
        ),
        class_name="section section-light",
    )
