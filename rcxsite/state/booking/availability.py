"""/staff/availability (sales and admins): a thin adapter over rcxsite.booking.hours.

The page edits one member's call settings: the signed-in member's own, or for an admin
whichever member they chose. Which member that is lives in a backend var (`_member`,
never sent or settable by the client); the service checks on every call that the actor
may edit them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypedDict

import reflex as rx

from rcxsite.booking import hours
from rcxsite.booking.calendars import connections
from rcxsite.booking.calendars.inputs import CalendarInput
from rcxsite.booking.hours_inputs import (
    WEEKDAY_KEYS,
    CallSettingsInput,
    DayInput,
    TimeOffInput,
    WeekInput,
    hours_text,
)
from rcxsite.core.forms import FormInput
from rcxsite.core.permissions import Permission, StaffActor
from rcxsite.models.calendars import CALENDAR_URL_MAX
from rcxsite.models.types import MEETING_URL_MAX
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.staff.access import acting, staff_event, staff_screen
from rcxsite.state.staff.display import number_id, when

SETTINGS_FIELDS = CallSettingsInput.field_names()
WEEK_FIELDS = WeekInput.field_names()
DAY_FIELDS = DayInput.field_names()
TIME_OFF_FIELDS = TimeOffInput.field_names()
CALENDAR_FIELDS = CalendarInput.field_names()
# Longer than any field's own limit (its model then gives the message, and a value just
# over it is refused, not cut into a valid one); keeps a forged huge value out of the
# state and the thread.
_FIELD_MAX = max(MEETING_URL_MAX, CALENDAR_URL_MAX) + 1


async def host_choices(actor: StaffActor) -> list[dict[str, str]]:
    """Whose hours and calls an admin may choose (id and name); [] for anyone else, who
    sees only their own."""
    if actor.role != "admin":
        return []
    outcome = await call_service(hours.host_choices, actor=actor)
    if not outcome.ok:
        return []
    return [{"id": str(member.id), "name": member.name} for member in outcome.result()]


class WeekRow(TypedDict):
    key: str  # the form's field name ("mon")
    name: str  # "Monday"
    hours: str  # "09:00-12:30, 13:30-17:30"; "" when off


class EntryRow(TypedDict):
    id: str
    label: str


class CalendarRow(TypedDict):
    id: str
    label: str  # "iCal address calendar.google.com/…"
    status: str  # when it was last read and what it found, or why it failed
    failing: bool
    writes: bool


def _calendar_row(calendar: connections.CalendarView, zone: str) -> CalendarRow:
    kind = "CalDAV calendar" if calendar.kind == "caldav" else "iCal address"
    if calendar.failing:
        status = f"Sync failed {when(calendar.failed_at, zone)}: {calendar.sync_error}"
    else:
        found = f"{calendar.busy_count} busy time{'' if calendar.busy_count == 1 else 's'}"
        status = f"Synced {when(calendar.synced_at, zone)}: {found}."
    return {
        "id": str(calendar.id),
        "label": f"{kind} {calendar.place}",
        "status": status,
        "failing": calendar.failing,
        "writes": calendar.write_calls,
    }


def _fields(form: Mapping[str, object], names: Iterable[str]) -> dict[str, object]:
    """The form's values for `names`: texts (cut to a bound) and checkbox booleans."""
    values: dict[str, object] = {}
    for name in names:
        value = form.get(name, "")
        values[name] = value[:_FIELD_MAX] if isinstance(value, str) else value is True
    return values


def _day_label(override: hours.DayOverride) -> str:
    text = hours_text(override.intervals, "–").replace(", ", " and ") or "Not available"
    return f"{hours.day_text(override.day)}: {text}"


def _time_off_label(away: hours.TimeOff) -> str:
    if away.first_day == away.last_day:
        return hours.day_text(away.first_day)
    return f"{hours.day_text(away.first_day)} to {hours.day_text(away.last_day)}"


@staff_screen
class StaffAvailabilityState(rx.State):
    """One member's call settings as the Availability page shows them."""

    # An admin's choice of member ({"id", "name"}); empty for everyone else.
    members: list[dict[str, str]] = []
    member_id: str = ""
    member_name: str = ""
    editing_self: bool = True
    found: bool = False
    takes_calls: bool = False
    time_zone: str = ""
    meeting_url: str = ""
    default_week: bool = False
    week: list[WeekRow] = []
    days: list[EntryRow] = []
    time_off: list[EntryRow] = []
    calendars: list[CalendarRow] = []
    # The connect form's choice: "ics" (a private address) or "caldav" (its sign-in too).
    calendar_kind: str = "ics"
    calendar_errors: dict[str, str] = dict.fromkeys(CALENDAR_FIELDS, "")
    # The member's today (YYYY-MM-DD): the date inputs' earliest day.
    today: str = ""
    settings_errors: dict[str, str] = dict.fromkeys(SETTINGS_FIELDS, "")
    week_errors: dict[str, str] = dict.fromkeys(WEEK_FIELDS, "")
    day_errors: dict[str, str] = dict.fromkeys(DAY_FIELDS, "")
    time_off_errors: dict[str, str] = dict.fromkeys(TIME_OFF_FIELDS, "")
    error: str = ""
    notice: str = ""
    # The forms are keyed by this, bumped whenever the values they start from change
    # (another member, a saved change), so they show the stored values again.
    revision: int = 0
    _member: int = 0

    def _clear(self) -> None:
        self.error = self.notice = ""
        self.settings_errors = dict.fromkeys(SETTINGS_FIELDS, "")
        self.week_errors = dict.fromkeys(WEEK_FIELDS, "")
        self.day_errors = dict.fromkeys(DAY_FIELDS, "")
        self.time_off_errors = dict.fromkeys(TIME_OFF_FIELDS, "")
        self.calendar_errors = dict.fromkeys(CALENDAR_FIELDS, "")

    def _show(self, settings: hours.CallSettings) -> None:
        self._member = settings.member_id
        self.found = True
        self.member_id = str(settings.member_id)
        self.member_name = settings.name
        self.editing_self = settings.member_id == acting().member_id
        self.takes_calls = settings.takes_calls
        self.time_zone = settings.time_zone
        self.meeting_url = settings.meeting_url
        self.default_week = settings.default_week
        self.week = [
            {"key": WEEKDAY_KEYS[row.weekday], "name": row.name, "hours": row.text}
            for row in settings.week
        ]
        self.days = [{"id": str(day.id), "label": _day_label(day)} for day in settings.days]
        self.time_off = [
            {"id": str(away.id), "label": _time_off_label(away)} for away in settings.time_off
        ]
        self.today = settings.today.isoformat()
        self.revision += 1

    async def _open(self, member_id: int) -> bool:
        """Show `member_id`'s settings; False (and why, in `error`) when refused."""
        outcome = await call_service(hours.call_settings, actor=acting(), member_id=member_id)
        if not outcome.ok:
            self.error = outcome.message()
            return False
        self._show(outcome.result())
        listed = await call_service(
            connections.member_calendars, actor=acting(), member_id=member_id
        )
        zone = acting().time_zone
        self.calendars = (
            [_calendar_row(calendar, zone) for calendar in listed.result()] if listed.ok else []
        )
        return True

    @staff_event(Permission.TAKE_CALLS)
    async def load(self):
        """The signed-in member's own settings (and, for an admin, whom else to choose)."""
        self._clear()
        actor = acting()
        self.members = await host_choices(actor)
        if not await self._open(actor.member_id):
            self.found = False

    @staff_event(Permission.TAKE_CALLS)
    async def choose_member(self, member_id: str):
        """An admin opens another member's settings (the service refuses anyone else)."""
        self._clear()
        await self._open(number_id(member_id))

    async def _change(
        self,
        service: Callable[..., str],
        call: FormCall[Any] | None = None,
        *,
        errors: str = "",
        names: tuple[str, ...] = (),
        **context: Any,
    ) -> None:
        """One change to the member shown: confirmed and shown again, or refused (with
        the form's field messages in the state var `errors`)."""
        self._clear()
        if not self.found:
            return
        outcome = await (
            call.send(service, actor=acting(), member_id=self._member, **context)
            if call is not None
            else call_service(service, actor=acting(), member_id=self._member, **context)
        )
        if errors:
            setattr(self, errors, outcome.field_messages(names))
        if not outcome.ok:
            self.error = outcome.form_message()
            return
        notice = str(outcome.result())
        await self._open(self._member)
        self.notice = notice

    async def _form_change(
        self,
        service: Callable[..., str],
        model: type[FormInput],
        form: Mapping[str, object],
        *,
        errors: str,
        names: tuple[str, ...],
    ) -> None:
        call = await FormCall.read(model, _fields(form, names))
        await self._change(service, call, errors=errors, names=names)

    @staff_event(Permission.TAKE_CALLS)
    async def save_settings(self, form: dict[str, Any]):
        await self._form_change(
            hours.set_call_settings,
            CallSettingsInput,
            form,
            errors="settings_errors",
            names=SETTINGS_FIELDS,
        )

    @staff_event(Permission.TAKE_CALLS)
    async def save_week(self, form: dict[str, Any]):
        await self._form_change(
            hours.set_week, WeekInput, form, errors="week_errors", names=WEEK_FIELDS
        )

    @staff_event(Permission.TAKE_CALLS)
    async def add_day(self, form: dict[str, Any]):
        await self._form_change(
            hours.add_day, DayInput, form, errors="day_errors", names=DAY_FIELDS
        )

    @staff_event(Permission.TAKE_CALLS)
    async def remove_day(self, day_id: str):
        await self._change(hours.remove_day, day_id=number_id(day_id))

    @staff_event(Permission.TAKE_CALLS)
    async def add_time_off(self, form: dict[str, Any]):
        await self._form_change(
            hours.add_time_off,
            TimeOffInput,
            form,
            errors="time_off_errors",
            names=TIME_OFF_FIELDS,
        )

    @staff_event(Permission.TAKE_CALLS)
    async def remove_time_off(self, time_off_id: str):
        await self._change(hours.remove_time_off, time_off_id=number_id(time_off_id))

    @staff_event(Permission.TAKE_CALLS)
    async def choose_calendar_kind(self, kind: str):
        self.calendar_kind = "caldav" if kind == "caldav" else "ics"

    @staff_event(Permission.TAKE_CALLS)
    async def connect_calendar(self, form: dict[str, Any]):
        """Read the calendar, then keep it (a wrong address or password is said at once)."""
        await self._form_change(
            connections.connect,
            CalendarInput,
            {**form, "kind": self.calendar_kind},
            errors="calendar_errors",
            names=CALENDAR_FIELDS,
        )

    @staff_event(Permission.TAKE_CALLS)
    async def sync_calendar(self, calendar_id: str):
        await self._change(connections.sync_now, calendar_id=number_id(calendar_id))
        if self.error:
            # The failure is on the calendar's row too: show it there at once.
            await self._open(self._member)

    @staff_event(Permission.TAKE_CALLS)
    async def remove_calendar(self, calendar_id: str):
        await self._change(connections.remove, calendar_id=number_id(calendar_id))


__all__ = ["CalendarRow", "EntryRow", "StaffAvailabilityState", "WeekRow"]
