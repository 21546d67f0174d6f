"""The slot picker: free call times by day on the visitor's clock, as radio buttons a
keyboard and a screen reader use as they would any other (one group a day, arrow keys
within it). Shows `rcxsite/state/booking/slot_picker.py`'s mixin, on whichever page's
state holds it."""

from __future__ import annotations

from typing import Any

import reflex as rx

from rcxsite.components.form_fields import action_button
from rcxsite.state.booking.slot_picker import DayView, TimeView

NO_FREE_TIMES_SHOWN = "No free times on these days. Please look at more days."


def _time(time: TimeView, prefix: str) -> rx.Component:
    slot_id = f"{prefix}-slot-" + time["value"]
    return rx.el.div(
        rx.el.input(
            type="radio", name="start", value=time["value"], id=slot_id, class_name="slot-radio"
        ),
        rx.el.label(time["label"], html_for=slot_id, class_name="slot-time"),
        class_name="slot",
    )


def _day_button(day: DayView, state: Any) -> rx.Component:
    return rx.el.button(
        rx.el.span(day["short"], class_name="slot-day-short"),
        rx.el.span(day["count"], class_name="slot-day-count"),
        type="button",
        on_click=state.choose_day(day["key"]),
        disabled=~day["free"],
        aria_pressed=rx.cond(state.chosen_day == day["key"], "true", "false"),
        class_name="slot-day-button",
    )


def _day(day: DayView, state: Any, prefix: str) -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(day["label"], class_name="slot-day-name"),
        rx.el.div(
            rx.foreach(day["times"], lambda time: _time(time, prefix)),
            class_name="slot-times",
        ),
        class_name=rx.cond(state.chosen_day == day["key"], "slot-day", "slot-day slot-day-hidden"),
    )


def _zone_chooser(state: Any, prefix: str) -> rx.Component:
    return rx.cond(
        state.choosing_zone,
        rx.el.div(
            rx.el.label("Time zone", html_for=f"{prefix}-time-zone", class_name="field-label"),
            rx.el.select(
                rx.foreach(state.zones, lambda zone: rx.el.option(zone, value=zone)),
                id=f"{prefix}-time-zone",
                name="time_zone_choice",
                value=state.time_zone,
                on_change=state.use_time_zone,
                class_name="field-input",
            ),
            class_name="field slot-zone-field",
        ),
        rx.el.p(
            "Times are shown in ",
            rx.el.strong(state.time_zone),
            ". ",
            action_button("Change time zone", on_click=state.change_time_zone, kind="text"),
            class_name="slot-zone",
        ),
    )


def slot_picker(state: Any, *, prefix: str, error: Any) -> rx.Component:
    """The picker, its time zone line and "More days"; `error` is the start field's
    message. The chosen time travels as the form's `start`, the zone as `time_zone`."""
    return rx.el.div(
        rx.el.div(
            rx.el.span("Choose a time for your call", class_name="field-label"),
            _zone_chooser(state, prefix),
            class_name="slot-head",
        ),
        rx.el.input(type="hidden", name="time_zone", value=state.time_zone),
        rx.el.p(error, id=f"{prefix}-start-error", class_name="field-error", aria_live="polite"),
        rx.cond(
            state.slots_error != "",
            rx.el.p(state.slots_error, role="alert", class_name="field-error"),
        ),
        rx.cond(
            state.slots_loaded,
            rx.el.div(
                rx.el.div(
                    rx.foreach(state.days, lambda day: _day_button(day, state)),
                    rx.cond(
                        state.more_to_show,
                        rx.el.button(
                            "More days",
                            type="button",
                            on_click=state.more_days,
                            class_name="slot-day-button slot-more",
                        ),
                    ),
                    role="group",
                    aria_label="Days",
                    class_name="slot-day-list",
                ),
                rx.foreach(state.days, lambda day: _day(day, state, prefix)),
                rx.cond(
                    state.chosen_day == "",
                    rx.el.p(NO_FREE_TIMES_SHOWN, class_name="slot-none"),
                ),
                id=f"{prefix}-slots",
                tab_index=-1,
                class_name="slot-days",
                aria_describedby=f"{prefix}-start-error",
            ),
            rx.el.p("Loading free times...", class_name="slot-loading", role="status"),
        ),
        class_name="field field-wide slot-picker",
    )
