"""/staff/availability: when a member takes calls (sales and admins; an admin may choose
another member). Every form is keyed by the state's `revision`, so it starts again from
the stored values after a save or when another member is chosen."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.event import EventSpec
from reflex.vars import ArrayVar, Var

from rcxsite.components.form_fields import action_button, control_attrs, labelled
from rcxsite.components.staff_ui import notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.core.time_zones import place_zones
from rcxsite.models.types import MEETING_URL_MAX
from rcxsite.pages.staff.shared import staff_form
from rcxsite.state.staff.availability import EntryRow, StaffAvailabilityState, WeekRow

S = StaffAvailabilityState
# A quarter hour: the steps the hours are kept in (rcxsite/booking/hours_inputs.py).
TIME_STEP_SECONDS = 15 * 60


def zone_names() -> tuple[str, ...]:
    """Every IANA zone of a place ("Europe/London"), sorted, and UTC: the zone select's
    options."""
    return (*place_zones(), "UTC")


def _time_input(name: str, field_id: str, value: str, error: Var[str] | str) -> rx.Component:
    """A time of day in quarter hours; `field_id` names its label and error line."""
    return rx.el.input(
        type="time",
        name=name,
        step=TIME_STEP_SECONDS,
        default_value=value,
        id=field_id,
        class_name="field-input",
        aria_invalid=rx.cond(error != "", "true", "false"),
        aria_describedby=field_id + "-error",
    )


def _error_line(field_id: str, error: Var[str] | str) -> rx.Component:
    return rx.el.p(error, id=field_id + "-error", class_name="field-error", aria_live="polite")


def _member_select() -> rx.Component:
    return rx.cond(
        S.members.length() > 0,
        labelled(
            "Member",
            "availability-member",
            rx.el.select(
                rx.foreach(S.members, lambda m: rx.el.option(m["name"], value=m["id"])),
                value=S.member_id,
                on_change=S.choose_member,
                **control_attrs("availability-member"),
            ),
        ),
    )


def _settings_form() -> rx.Component:
    errors = S.settings_errors
    return staff_form(
        rx.el.fieldset(
            rx.el.legend("Taking calls", class_name="staff-legend"),
            rx.el.div(
                rx.el.label(
                    rx.el.input(
                        type="checkbox",
                        name="takes_calls",
                        id="availability-takes-calls",
                        default_checked=S.takes_calls,
                        aria_describedby="availability-takes-calls-hint",
                    ),
                    " Takes calls",
                    html_for="availability-takes-calls",
                    class_name="account-check",
                ),
                rx.el.p(
                    "When on, visitors can book calls in these hours.",
                    id="availability-takes-calls-hint",
                    class_name="field-hint staff-hint",
                ),
                class_name="field",
            ),
            labelled(
                "Time zone",
                "availability-time-zone",
                rx.el.select(
                    *[rx.el.option(zone, value=zone) for zone in zone_names()],
                    name="time_zone",
                    default_value=S.time_zone,
                    **control_attrs("availability-time-zone", errors["time_zone"]),
                ),
                errors["time_zone"],
            ),
            labelled(
                "Your video meeting link (optional)",
                "availability-meeting-url",
                rx.el.input(
                    type="url",
                    name="meeting_url",
                    default_value=S.meeting_url,
                    placeholder="https://meet.google.com/abc-defg-hij",
                    max_length=MEETING_URL_MAX,
                    **{
                        **control_attrs("availability-meeting-url", errors["meeting_url"]),
                        "aria_describedby": "availability-meeting-url-error"
                        " availability-meeting-url-hint",
                    },
                ),
                errors["meeting_url"],
            ),
            rx.el.p(
                "Zoom, Meet, Teams or any https address, used for every video call you host."
                " Left empty, each call gets a room of its own.",
                id="availability-meeting-url-hint",
                class_name="field-hint staff-hint",
            ),
            class_name="staff-fieldset",
        ),
        submit="Save settings",
        on_submit=S.save_settings,
        key=S.revision,
    )


def _weekday(row: WeekRow) -> rx.Component:
    """One weekday's row: available or not, from and to. (`row` is the foreach's var:
    its texts join into the names and ids of this row's fields.)"""
    key = row["key"]
    prefix = "week-" + key
    start_error, end_error = S.week_errors[key + "_start"], S.week_errors[key + "_end"]
    return rx.el.fieldset(
        rx.el.legend(row["name"], class_name="staff-week-name"),
        rx.el.label(
            rx.el.input(
                type="checkbox", name=key + "_on", id=prefix + "-on", default_checked=row["on"]
            ),
            " Available",
            html_for=prefix + "-on",
            class_name="account-check staff-week-on",
        ),
        rx.el.div(
            rx.el.label("From", html_for=prefix + "-start", class_name="field-label"),
            _time_input(key + "_start", prefix + "-start", row["start"], start_error),
            _error_line(prefix + "-start", start_error),
            class_name="field",
        ),
        rx.el.div(
            rx.el.label("To", html_for=prefix + "-end", class_name="field-label"),
            _time_input(key + "_end", prefix + "-end", row["end"], end_error),
            _error_line(prefix + "-end", end_error),
            class_name="field",
        ),
        class_name="staff-week-day",
    )


def _week_form() -> rx.Component:
    return staff_form(
        rx.el.fieldset(
            rx.el.legend("Weekly hours", class_name="staff-legend"),
            rx.el.p(
                "One interval a day, on ",
                rx.el.strong(S.time_zone),
                " time. A day that is not available takes no calls.",
                rx.cond(
                    S.default_week, " These are the default hours until you save your own.", ""
                ),
                class_name="staff-hint",
            ),
            rx.foreach(S.week, _weekday),
            class_name="staff-fieldset staff-week",
        ),
        submit="Save weekly hours",
        on_submit=S.save_week,
        key=S.revision,
    )


def _entries(
    rows: ArrayVar[list[EntryRow]],
    *,
    remove: Callable[[str], EventSpec],
    empty: str,
    what: str,
) -> rx.Component:
    """The upcoming entries, each with its "Remove" button (named after the entry)."""
    return rx.cond(
        rows.length() > 0,
        rx.el.ul(
            rx.foreach(
                rows,
                lambda row: rx.el.li(
                    rx.el.span(row["label"]),
                    action_button(
                        "Remove",
                        on_click=remove(row["id"]),
                        aria_label=f"Remove {what}: " + row["label"],
                    ),
                    class_name="staff-entry-row",
                ),
            ),
            class_name="staff-entry-list",
        ),
        rx.el.p(empty, class_name="staff-empty"),
    )


def _date_field(label: str, name: str, field_id: str, error: Var[str]) -> rx.Component:
    return labelled(
        label,
        field_id,
        rx.el.input(type="date", name=name, min=S.today, **control_attrs(field_id, error)),
        error,
    )


def _time_field(label: str, name: str, field_id: str, error: Var[str]) -> rx.Component:
    return labelled(
        label,
        field_id,
        rx.el.input(
            type="time", name=name, step=TIME_STEP_SECONDS, **control_attrs(field_id, error)
        ),
        error,
    )


def _days_section() -> rx.Component:
    errors = S.day_errors
    return rx.el.section(
        rx.el.h2("Date overrides", class_name="staff-subtitle"),
        rx.el.p(
            "Other hours on one date, or not available that day: the weekly hours do not "
            "apply on it.",
            class_name="staff-hint",
        ),
        _entries(S.days, remove=S.remove_day, empty="No date overrides.", what="date override"),
        staff_form(
            rx.el.fieldset(
                rx.el.legend("Add a date override", class_name="staff-legend"),
                rx.el.div(
                    _date_field("Date", "day", "override-day", errors["day"]),
                    _time_field("From", "start", "override-start", errors["start"]),
                    _time_field("To", "end", "override-end", errors["end"]),
                    class_name="staff-form-row",
                ),
                rx.el.label(
                    rx.el.input(type="checkbox", name="unavailable", id="override-unavailable"),
                    " Not available that day (the times are then ignored)",
                    html_for="override-unavailable",
                    class_name="account-check",
                ),
                class_name="staff-fieldset",
            ),
            submit="Add date",
            on_submit=S.add_day,
            key=S.revision,
        ),
        class_name="staff-section",
        aria_label="Date overrides",
    )


def _time_off_section() -> rx.Component:
    errors = S.time_off_errors
    return rx.el.section(
        rx.el.h2("Time off", class_name="staff-subtitle"),
        rx.el.p("Whole days without calls, first to last day.", class_name="staff-hint"),
        _entries(S.time_off, remove=S.remove_time_off, empty="No time off.", what="time off"),
        staff_form(
            rx.el.fieldset(
                rx.el.legend("Add time off", class_name="staff-legend"),
                rx.el.div(
                    _date_field("First day", "first_day", "time-off-first", errors["first_day"]),
                    _date_field("Last day", "last_day", "time-off-last", errors["last_day"]),
                    class_name="staff-form-row",
                ),
                class_name="staff-fieldset",
            ),
            submit="Add time off",
            on_submit=S.add_time_off,
            key=S.revision,
        ),
        class_name="staff-section",
        aria_label="Time off",
    )


def staff_availability_page(route: Route) -> rx.Component:
    return rx.el.div(
        page_heading("Availability"),
        _member_select(),
        notices(S.error, S.notice),
        rx.cond(
            S.found,
            rx.fragment(
                rx.el.p(
                    rx.cond(
                        S.editing_self,
                        "When visitors can book a call with you.",
                        "When visitors can book a call with " + S.member_name + ".",
                    ),
                    class_name="staff-note",
                ),
                _settings_form(),
                _week_form(),
                _days_section(),
                _time_off_section(),
            ),
        ),
        class_name="staff-page",
    )


__all__ = ["staff_availability_page", "zone_names"]
