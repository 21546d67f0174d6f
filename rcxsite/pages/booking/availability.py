"""/staff/availability: when a member takes calls (sales and admins; an admin may choose
another member). Every form is keyed by the state's `revision`, so it starts again from
the stored values after a save or when another member is chosen."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.event import EventSpec
from reflex.vars import ArrayVar, Var

from rcxsite.booking.hours_inputs import HOURS_INPUT_MAX, WEEKDAY_KEYS, WEEKDAY_NAMES
from rcxsite.components.form_fields import action_button, control_attrs, labelled
from rcxsite.components.staff_ui import notices, page_heading
from rcxsite.content.routes import Route
from rcxsite.core.time_zones import place_zones
from rcxsite.models.calendars import CALENDAR_URL_MAX
from rcxsite.models.types import MEETING_URL_MAX
from rcxsite.pages.staff.shared import staff_form
from rcxsite.state.booking.availability import CalendarRow, EntryRow, StaffAvailabilityState

S = StaffAvailabilityState
# Monday to Friday: where "Copy to weekdays" copies a day's hours.
WEEKDAYS = WEEKDAY_KEYS[:5]


def zone_names() -> tuple[str, ...]:
    """Every IANA zone of a place ("Europe/London"), sorted, and UTC: the zone select's
    options."""
    return (*place_zones(), "UTC")


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


def _copy_script(key: str, name: str) -> str:
    """Copy one day's hours into Monday to Friday's fields (not saved until "Save weekly
    hours"), and say so to screen readers."""
    fields = ", ".join(f"'week-{day}'" for day in WEEKDAYS)
    said = f"{name}’s hours copied to every weekday. Save to keep them."
    return (
        f"(() => {{ const hours = document.getElementById('week-{key}').value;"
        f" for (const id of [{fields}]) {{ const field = document.getElementById(id);"
        " if (field) field.value = hours; }"
        f" const status = document.getElementById('week-copied');"
        f" if (status) status.textContent = {said!r}; }})()"
    )


def _weekday(index: int) -> rx.Component:
    """One weekday's row: its intervals as text, and "Copy to weekdays"."""
    key, name = WEEKDAY_KEYS[index], WEEKDAY_NAMES[index]
    field_id, error = "week-" + key, S.week_errors[key]
    return rx.el.div(
        rx.el.label(name, html_for=field_id, class_name="staff-week-name"),
        rx.el.div(
            rx.el.input(
                type="text",
                name=key,
                default_value=S.week[index]["hours"],
                placeholder="No calls",
                max_length=HOURS_INPUT_MAX,
                auto_complete="off",
                spell_check=False,
                **{
                    **control_attrs(field_id, error),
                    "aria_describedby": f"{field_id}-error week-hint",
                },
            ),
            _error_line(field_id, error),
            class_name="field staff-week-hours",
        ),
        action_button(
            "Copy to weekdays",
            on_click=rx.call_script(_copy_script(key, name)),
            kind="link",
            aria_label=f"Copy {name}’s hours to every weekday",
        ),
        class_name="staff-week-day",
    )


def _week_form() -> rx.Component:
    return staff_form(
        rx.el.fieldset(
            rx.el.legend("Weekly hours", class_name="staff-legend"),
            rx.el.p(
                "On ",
                rx.el.strong(S.time_zone),
                " time, in quarter hours, e.g. 09:00-17:30. For a break, two intervals: "
                "09:00-12:30, 13:30-17:30. A day left empty takes no calls.",
                rx.cond(
                    S.default_week, " These are the default hours until you save your own.", ""
                ),
                id="week-hint",
                class_name="staff-hint",
            ),
            rx.cond(S.week.length() == len(WEEKDAY_KEYS), rx.fragment(*map(_weekday, range(7)))),
            rx.el.p(id="week-copied", class_name="sr-only", aria_live="polite"),
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


def _hours_field(field_id: str, error: Var[str]) -> rx.Component:
    return labelled(
        "Hours",
        field_id,
        rx.el.input(
            type="text",
            name="hours",
            placeholder="09:00-12:30, 13:30-17:30",
            max_length=HOURS_INPUT_MAX,
            auto_complete="off",
            spell_check=False,
            **control_attrs(field_id, error),
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
                    _hours_field("override-hours", errors["hours"]),
                    class_name="staff-form-row",
                ),
                rx.el.label(
                    rx.el.input(type="checkbox", name="unavailable", id="override-unavailable"),
                    " Not available that day (the hours are then ignored)",
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


def _calendar(row: CalendarRow) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.strong(row["label"]),
            rx.cond(row["writes"], rx.el.span(" · booked calls added", class_name="staff-hint")),
            rx.el.p(
                row["status"],
                class_name=rx.cond(row["failing"], "field-error", "staff-hint"),
            ),
            class_name="staff-calendar-text",
        ),
        rx.el.div(
            action_button(
                "Sync now",
                on_click=S.sync_calendar(row["id"]),
                aria_label="Sync now: " + row["label"],
            ),
            action_button(
                "Remove",
                on_click=S.remove_calendar(row["id"]),
                aria_label="Remove calendar: " + row["label"],
            ),
            class_name="staff-calendar-actions",
        ),
        class_name="staff-entry-row",
    )


def _calendar_field(
    label: str,
    name: str,
    *,
    kind: str = "text",
    hint: Var[str] | str | None = None,
    **props: object,
) -> rx.Component:
    field_id = "calendar-" + name.replace("_", "-")
    error = S.calendar_errors[name]
    attrs = control_attrs(field_id, error)
    if hint is None:
        return labelled(label, field_id, rx.el.input(type=kind, name=name, **attrs, **props), error)
    attrs["aria_describedby"] = f"{field_id}-error {field_id}-hint"
    return rx.fragment(
        labelled(label, field_id, rx.el.input(type=kind, name=name, **attrs, **props), error),
        rx.el.p(hint, id=f"{field_id}-hint", class_name="field-hint staff-hint"),
    )


def _calendars_section() -> rx.Component:
    caldav = S.calendar_kind == "caldav"
    return rx.el.section(
        rx.el.h2("Your calendars", class_name="staff-subtitle"),
        rx.el.p(
            "Times you are busy in a connected calendar are not offered to visitors. "
            "Calendars are read again every few minutes, or now with “Sync now”.",
            class_name="staff-hint",
        ),
        rx.cond(
            S.calendars.length() > 0,
            rx.el.ul(rx.foreach(S.calendars, _calendar), class_name="staff-entry-list"),
            rx.el.p("No calendars connected.", class_name="staff-empty"),
        ),
        staff_form(
            rx.el.fieldset(
                rx.el.legend("Connect a calendar", class_name="staff-legend"),
                labelled(
                    "Kind",
                    "calendar-kind",
                    rx.el.select(
                        rx.el.option("Private iCal address (Google, Outlook, Apple)", value="ics"),
                        rx.el.option(
                            "CalDAV calendar (user name and app password)", value="caldav"
                        ),
                        value=S.calendar_kind,
                        on_change=S.choose_calendar_kind,
                        **control_attrs("calendar-kind", S.calendar_errors["kind"]),
                    ),
                    S.calendar_errors["kind"],
                ),
                _calendar_field(
                    "Address",
                    "url",
                    kind="url",
                    max_length=CALENDAR_URL_MAX,
                    auto_complete="off",
                    hint=rx.cond(
                        caldav,
                        "The calendar's own CalDAV address, as your server shows it.",
                        "Google: Settings, your calendar, “Secret address in iCal format”. "
                        "Outlook: Shared calendars, Publish, ICS link.",
                    ),
                ),
                rx.cond(
                    caldav,
                    rx.fragment(
                        _calendar_field(
                            "User name", "username", max_length=200, auto_complete="off"
                        ),
                        _calendar_field(
                            "App password",
                            "password",
                            kind="password",
                            max_length=200,
                            auto_complete="new-password",
                        ),
                        rx.el.label(
                            rx.el.input(type="checkbox", name="write_calls", id="calendar-write"),
                            " Add booked calls to this calendar",
                            html_for="calendar-write",
                            class_name="account-check",
                        ),
                    ),
                ),
                class_name="staff-fieldset",
            ),
            submit="Connect calendar",
            on_submit=S.connect_calendar,
            key=S.revision,
        ),
        class_name="staff-section",
        aria_label="Your calendars",
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
                _calendars_section(),
            ),
        ),
        class_name="staff-page",
    )


__all__ = ["staff_availability_page", "zone_names"]
