"""The slot picker: free call times by day on the visitor's clock, as radio buttons a
keyboard and a screen reader use as they would any other (one group a day, arrow keys
within it). Shows `rcxsite/state/booking/slot_picker.py`'s mixin, on whichever page's
state holds it."""

from __future__ import annotations

from typing import Any

import reflex as rx

from rcxsite.components.form_fields import action_button
from rcxsite.state.booking.slot_picker import ZONE_QUERY_MAX, DayView, TimeView, ZoneView

NO_FREE_TIMES_SHOWN = "No free times on these days. Please look at more days."


def _time(time: TimeView, state: Any, prefix: str) -> rx.Component:
    slot_id = f"{prefix}-slot-" + time["value"]
    return rx.el.div(
        rx.el.input(
            type="radio", name="start", value=time["value"], id=slot_id, class_name="slot-radio"
        ),
        rx.el.label(
            rx.cond(state.hour12, time["label12"], time["label"]),
            html_for=slot_id,
            class_name="slot-time",
        ),
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
            rx.foreach(day["times"], lambda time: _time(time, state, prefix)),
            class_name="slot-times",
        ),
        class_name=rx.cond(state.chosen_day == day["key"], "slot-day", "slot-day slot-day-hidden"),
    )


def _zone_option(zone: ZoneView, state: Any) -> rx.Component:
    return rx.el.li(
        rx.el.button(
            zone["label"],
            type="button",
            on_click=state.use_time_zone(zone["name"]),
            aria_pressed=rx.cond(state.time_zone == zone["name"], "true", "false"),
            class_name="slot-zone-option",
        ),
    )


def _zone_chooser(state: Any, prefix: str) -> rx.Component:
    """The zone line ("Times are shown in ..."), or while changing it a search: every
    zone found by a city, country, name or offset, chosen with one click."""
    search_id, found_id = f"{prefix}-zone-search", f"{prefix}-zone-found"
    return rx.cond(
        state.choosing_zone,
        rx.el.div(
            rx.el.label("Find your time zone", html_for=search_id, class_name="field-label"),
            rx.el.input(
                type="search",
                id=search_id,
                placeholder="City, country or offset, e.g. Kolkata or GMT+5:30",
                on_change=state.find_time_zone.debounce(250),
                max_length=ZONE_QUERY_MAX,
                auto_focus=True,
                auto_complete="off",
                spell_check=False,
                aria_describedby=found_id,
                aria_controls=f"{prefix}-zones",
                class_name="field-input",
            ),
            rx.el.p(state.zones_found, id=found_id, aria_live="polite", class_name="field-hint"),
            rx.el.ul(
                rx.foreach(state.zones, lambda zone: _zone_option(zone, state)),
                id=f"{prefix}-zones",
                aria_label="Time zones",
                class_name="slot-zone-options",
            ),
            action_button(
                "Keep " + state.time_zone_label, on_click=state.keep_time_zone, kind="text"
            ),
            class_name="field slot-zone-field",
        ),
        rx.el.p(
            "Times are shown in ",
            rx.el.strong(state.time_zone_label),
            ". ",
            action_button("Change time zone", on_click=state.change_time_zone, kind="text"),
            class_name="slot-zone",
        ),
    )


def _clock_switch(state: Any) -> rx.Component:
    """12 or 24 hours: the browser's locale chooses first; the visitor may switch."""
    return rx.el.div(
        rx.el.button(
            "12-hour",
            type="button",
            on_click=state.use_clock(True),
            aria_pressed=rx.cond(state.hour12, "true", "false"),
            class_name="slot-clock-button",
        ),
        rx.el.button(
            "24-hour",
            type="button",
            on_click=state.use_clock(False),
            aria_pressed=rx.cond(state.hour12, "false", "true"),
            class_name="slot-clock-button",
        ),
        role="group",
        aria_label="Clock",
        class_name="slot-clock",
    )


def slot_picker(
    state: Any, *, prefix: str, error: Any, label: str = "Choose a time for your call"
) -> rx.Component:
    """The picker, its time zone line and "More days"; `error` is the start field's
    message. The chosen time travels as the form's `start`, the zone as `time_zone`."""
    return rx.el.div(
        rx.el.div(
            rx.el.span(label, class_name="field-label"),
            _zone_chooser(state, prefix),
            _clock_switch(state),
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
