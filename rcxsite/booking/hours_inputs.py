"""What a member sends from the Availability page: whether they take calls and in which
zone, their weekly hours, a date override and time off. Each field once, with its limit
and message; whether a date is in the past is the service's decision (it depends on the
member's zone).

Times are "HH:MM" on the member's own wall clock, in quarter hours (a call grid of 15,
30 or 60 minutes fits them); an interval ends after it starts, within the day. A day's
hours are one or more intervals written as text, "09:00-12:30, 13:30-17:30" (a lunch
break is the gap between two), the same on the page and on the command line.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from itertools import pairwise
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
HOURS_REQUIRED = "Please enter the hours, e.g. 09:00-17:30"
HOURS_INVALID = "Enter hours as 09:00-17:30; for a break, two intervals: 09:00-12:30, 13:30-17:30"
TOO_MANY_INTERVALS = "At most 6 intervals a day"
DATE_REQUIRED = "Please choose a date"
DATE_INVALID = "Invalid date"
LAST_BEFORE_FIRST = "The last day must be on or after the first day"

# A day's intervals as text: six "HH:MM-HH:MM" with separators and blanks.
HOURS_INPUT_MAX = 120
MAX_INTERVALS = 6
DATE_INPUT_MAX = 20
# "09:00", "9:00" or "09:00:00" (a time input with seconds).
_TIME = re.compile(r"([0-9]{1,2}):([0-9]{2})(?::00)?")
# Between two intervals: a comma, a semicolon or a line break; within one: a hyphen, an
# en or em dash, or "to".
_INTERVALS = re.compile(r"[,;\n]")
_DASH = re.compile(r"\s*(?:-|\u2013|\u2014|\bto\b)\s*")
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


WallInterval = tuple[str, str]


def hours_text(intervals: tuple[WallInterval, ...], dash: str = "-") -> str:
    """ "09:00-12:30, 13:30-17:30"; "" for none."""
    return ", ".join(f"{start}{dash}{end}" for start, end in intervals)


def wall_intervals(value: object) -> tuple[WallInterval, ...]:
    """A day's hours from "09:00-12:30, 13:30-17:30": sorted, each in quarter hours and
    ending after it starts, none overlapping another; () for a blank text."""
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return ()
    parts = [part.strip() for part in _INTERVALS.split(text) if part.strip()]
    if len(parts) > MAX_INTERVALS:
        raise problem(TOO_MANY_INTERVALS)
    intervals: list[WallInterval] = []
    for part in parts:
        ends = _DASH.split(part)
        if len(ends) != 2 or not all(_TIME.fullmatch(end) for end in ends):
            raise problem(HOURS_INVALID)
        start, end = wall_time(ends[0]), wall_time(ends[1])
        if minutes_of(start) >= minutes_of(end):
            raise problem(f"{start}-{end}: {END_NOT_AFTER_START.lower()}")
        intervals.append((start, end))
    intervals.sort(key=lambda pair: minutes_of(pair[0]))
    for (start, end), (next_start, next_end) in pairwise(intervals):
        if minutes_of(next_start) < minutes_of(end):
            raise problem(f"{start}-{end} and {next_start}-{next_end} overlap")
    return tuple(intervals)


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


class WeekInput(FormInput):
    """A day's intervals per weekday, by its key ("mon"); an empty day takes no calls."""

    mon: tuple[WallInterval, ...] = ()
    tue: tuple[WallInterval, ...] = ()
    wed: tuple[WallInterval, ...] = ()
    thu: tuple[WallInterval, ...] = ()
    fri: tuple[WallInterval, ...] = ()
    sat: tuple[WallInterval, ...] = ()
    sun: tuple[WallInterval, ...] = ()

    @field_validator(*WEEKDAY_KEYS, mode="before")
    @classmethod
    def _day(cls, value: Any) -> tuple[WallInterval, ...]:
        if isinstance(value, str) and len(value) > HOURS_INPUT_MAX:
            raise problem(HOURS_INVALID)
        return wall_intervals(value)

    def hours(self) -> dict[int, tuple[WallInterval, ...]]:
        """The days with hours (0 = Monday), each with its intervals."""
        return {
            weekday: getattr(self, key)
            for weekday, key in enumerate(WEEKDAY_KEYS)
            if getattr(self, key)
        }


class DayInput(FormInput):
    """A date whose hours differ from the week: its intervals, or not available at all."""

    day: date | None = None
    unavailable: bool = False
    hours: tuple[WallInterval, ...] = ()

    _day = parsed_by(form_date, "day", before=True)

    _unavailable = parsed_by(checked, "unavailable", before=True)

    @field_validator("hours", mode="before")
    @classmethod
    def _hours(cls, value: Any, info: ValidationInfo) -> tuple[WallInterval, ...]:
        if info.data.get("unavailable"):
            return ()
        if isinstance(value, str) and len(value) > HOURS_INPUT_MAX:
            raise problem(HOURS_INVALID)
        intervals = wall_intervals(value)
        if not intervals:
            raise problem(HOURS_REQUIRED)
        return intervals

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
    "HOURS_INVALID",
    "HOURS_REQUIRED",
    "LAST_BEFORE_FIRST",
    "TIME_INVALID",
    "TIME_REQUIRED",
    "TIME_STEP",
    "TOO_MANY_INTERVALS",
    "WEEKDAY_KEYS",
    "WEEKDAY_NAMES",
    "CallSettingsInput",
    "DayInput",
    "TimeOffInput",
    "WeekInput",
    "checked",
    "form_date",
    "hours_text",
    "wall_intervals",
    "wall_time",
]
