"""What a member sends from the Availability page: whether they take calls and in which
zone, their weekly hours, a date override and time off. Each field once, with its limit
and message; whether a date is in the past is the service's decision (it depends on the
member's zone).

Times are "HH:MM" on the member's own wall clock, in quarter hours (a call grid of 15,
30 or 60 minutes fits them); an interval ends after it starts, within the day.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from pydantic import Field, ValidationInfo, field_validator

from rcxsite.booking.inputs import TIME_ZONE_UNKNOWN, time_zone_name
from rcxsite.booking.meetings import MEETING_URL_TOO_LONG, checked_meeting_url
from rcxsite.core.forms import FormInput, iso_date, parsed_by, problem, text_only
from rcxsite.models.staff import TIME_ZONE_MAX
from rcxsite.models.types import MEETING_URL_MAX

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# The form's field prefix of each weekday, Monday (0) first.
WEEKDAY_KEYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
STEP_MINUTES = 15

TIME_REQUIRED = "Please enter a time"
TIME_INVALID = "Enter a time as HH:MM, e.g. 09:00"
TIME_STEP = "Use quarter hours, e.g. 09:00 or 09:15"
END_NOT_AFTER_START = "The end must be after the start"
DATE_REQUIRED = "Please choose a date"
DATE_INVALID = "Invalid date"
LAST_BEFORE_FIRST = "The last day must be on or after the first day"

# "09:00", "9:00" or "09:00:00" (a time input with seconds), and room for blanks.
TIME_INPUT_MAX = 12
DATE_INPUT_MAX = 20
_TIME = re.compile(r"([0-9]{1,2}):([0-9]{2})(?::00)?")
_CHECKED = frozenset({"on", "true", "1", "yes"})


def checked(value: object) -> bool:
    """A checkbox as a form sends it ("on" when ticked, nothing when not) or a boolean."""
    if isinstance(value, bool):
        return value
    return isinstance(value, str) and value.strip().lower() in _CHECKED


def minutes_of(text: str) -> int:
    """Minutes from midnight of a time `wall_time` accepted."""
    hours, _, minutes = text.partition(":")
    return int(hours) * 60 + int(minutes)


def wall_time(value: object) -> str:
    """A time of day as "HH:MM" in quarter hours."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise problem(TIME_REQUIRED)
    match = _TIME.fullmatch(text)
    if match is None:
        raise problem(TIME_INVALID)
    hours, minutes = int(match[1]), int(match[2])
    if hours > 23 or minutes > 59:
        raise problem(TIME_INVALID)
    if minutes % STEP_MINUTES:
        raise problem(TIME_STEP)
    return f"{hours:02d}:{minutes:02d}"


def form_date(value: object) -> date:
    """A date input's "YYYY-MM-DD"."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    blank = not isinstance(value, str) or not value.strip()
    chosen = None if blank else iso_date(value, invalid=DATE_INVALID, longest=DATE_INPUT_MAX)
    if chosen is None:
        raise problem(DATE_REQUIRED)
    return chosen


def _end_after(start: object, end: str) -> str:
    if isinstance(start, str) and start and minutes_of(start) >= minutes_of(end):
        raise problem(END_NOT_AFTER_START)
    return end


class CallSettingsInput(FormInput):
    """Whether the member is offered as a host, the zone of their hours ("" = the
    company's) and their own video meeting link ("" = a room made per call)."""

    too_long_messages = {"time_zone": TIME_ZONE_UNKNOWN, "meeting_url": MEETING_URL_TOO_LONG}

    takes_calls: bool = False
    time_zone: str = Field("", max_length=TIME_ZONE_MAX)
    meeting_url: str = Field("", max_length=MEETING_URL_MAX)

    _takes_calls = parsed_by(checked, "takes_calls", before=True)

    _zone = parsed_by(time_zone_name, "time_zone", before=True)

    _meeting_text_only = text_only("meeting_url")
    _meeting_url = parsed_by(checked_meeting_url, "meeting_url")


_ON = tuple(f"{key}_on" for key in WEEKDAY_KEYS)
_STARTS = tuple(f"{key}_start" for key in WEEKDAY_KEYS)
_ENDS = tuple(f"{key}_end" for key in WEEKDAY_KEYS)


def _prefix(info: ValidationInfo) -> str:
    return (info.field_name or "").partition("_")[0]


class WeekInput(FormInput):
    """One row per weekday: off, or one interval. A day that is off ignores its times."""

    mon_on: bool = False
    mon_start: str = Field("", max_length=TIME_INPUT_MAX)
    mon_end: str = Field("", max_length=TIME_INPUT_MAX)
    tue_on: bool = False
    tue_start: str = Field("", max_length=TIME_INPUT_MAX)
    tue_end: str = Field("", max_length=TIME_INPUT_MAX)
    wed_on: bool = False
    wed_start: str = Field("", max_length=TIME_INPUT_MAX)
    wed_end: str = Field("", max_length=TIME_INPUT_MAX)
    thu_on: bool = False
    thu_start: str = Field("", max_length=TIME_INPUT_MAX)
    thu_end: str = Field("", max_length=TIME_INPUT_MAX)
    fri_on: bool = False
    fri_start: str = Field("", max_length=TIME_INPUT_MAX)
    fri_end: str = Field("", max_length=TIME_INPUT_MAX)
    sat_on: bool = False
    sat_start: str = Field("", max_length=TIME_INPUT_MAX)
    sat_end: str = Field("", max_length=TIME_INPUT_MAX)
    sun_on: bool = False
    sun_start: str = Field("", max_length=TIME_INPUT_MAX)
    sun_end: str = Field("", max_length=TIME_INPUT_MAX)

    _on = parsed_by(checked, *_ON, before=True)

    @field_validator(*_STARTS, mode="before")
    @classmethod
    def _start(cls, value: Any, info: ValidationInfo) -> str:
        return wall_time(value) if info.data.get(f"{_prefix(info)}_on") else ""

    @field_validator(*_ENDS, mode="before")
    @classmethod
    def _end(cls, value: Any, info: ValidationInfo) -> str:
        prefix = _prefix(info)
        if not info.data.get(f"{prefix}_on"):
            return ""
        return _end_after(info.data.get(f"{prefix}_start"), wall_time(value))

    def hours(self) -> dict[int, tuple[str, str]]:
        """The days that are on (0 = Monday), with their start and end."""
        values = self.model_dump()
        return {
            weekday: (values[f"{key}_start"], values[f"{key}_end"])
            for weekday, key in enumerate(WEEKDAY_KEYS)
            if values[f"{key}_on"]
        }


class DayInput(FormInput):
    """A date whose hours differ from the week: one interval, or not available at all."""

    day: date | None = None
    unavailable: bool = False
    start: str = Field("", max_length=TIME_INPUT_MAX)
    end: str = Field("", max_length=TIME_INPUT_MAX)

    _day = parsed_by(form_date, "day", before=True)

    _unavailable = parsed_by(checked, "unavailable", before=True)

    @field_validator("start", mode="before")
    @classmethod
    def _start(cls, value: Any, info: ValidationInfo) -> str:
        return "" if info.data.get("unavailable") else wall_time(value)

    @field_validator("end", mode="before")
    @classmethod
    def _end(cls, value: Any, info: ValidationInfo) -> str:
        if info.data.get("unavailable"):
            return ""
        return _end_after(info.data.get("start"), wall_time(value))

    @property
    def chosen_day(self) -> date:
        assert self.day is not None  # its validator refuses a missing day
        return self.day


class TimeOffInput(FormInput):
    """Whole days off, first to last inclusive."""

    first_day: date | None = None
    last_day: date | None = None

    _first = parsed_by(form_date, "first_day", before=True)

    @field_validator("last_day", mode="before")
    @classmethod
    def _last(cls, value: Any, info: ValidationInfo) -> date:
        last = form_date(value)
        first = info.data.get("first_day")
        if isinstance(first, date) and last < first:
            raise problem(LAST_BEFORE_FIRST)
        return last

    @property
    def days(self) -> tuple[date, date]:
        assert self.first_day is not None and self.last_day is not None
        return self.first_day, self.last_day


__all__ = [
    "DATE_INVALID",
    "DATE_REQUIRED",
    "END_NOT_AFTER_START",
    "LAST_BEFORE_FIRST",
    "TIME_INVALID",
    "TIME_REQUIRED",
    "TIME_STEP",
    "WEEKDAY_KEYS",
    "WEEKDAY_NAMES",
    "CallSettingsInput",
    "DayInput",
    "TimeOffInput",
    "WeekInput",
    "checked",
    "form_date",
    "wall_time",
]
