"""The company's working week, written once: Monday to Friday, 09:00-17:30 in London.

The site promises buyers a reply "within one working day", so the sales inbox counts
working time, not clock time: a request is overdue once a working day's worth of working
time (WORKING_DAY, 8 h 30) has passed since it arrived, and one that arrives outside the
hours counts from the next opening. Members who set no hours of their own take calls in
the same week (rcxsite/booking/availability.py's DEFAULT_HOURS).

Hours are wall-clock times in the company's zone, so a working day stays 09:00-17:30 in
London when the clocks change; the moments these functions take and return are aware
datetimes (naive ones are read as UTC, as the database stores them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

# Calls are held in the sales team's office hours; times are wall-clock times there.
CALL_TIMEZONE = "Europe/London"
CALL_TIMEZONE_LABEL = "UK time"

# Minutes from midnight on the company's wall clock, start inclusive, end exclusive.
Interval = tuple[int, int]
_ONE_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class WorkingWeek:
    """Working hours by weekday (Monday is 0; a day not listed is not worked), sorted and
    not overlapping, on the wall clock of `time_zone`."""

    time_zone: str
    hours: Mapping[int, tuple[Interval, ...]]

    def __post_init__(self) -> None:
        # Counting working time forwards or back must reach its end: a week needs hours.
        if not any(end > start for spans in self.hours.values() for start, end in spans):
            raise ValueError("a working week needs some working hours")

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def day_length(self, weekday: int) -> timedelta:
        """The working time of a whole `weekday`."""
        return timedelta(minutes=sum(end - start for start, end in self.hours.get(weekday, ())))


COMPANY_WEEK = WorkingWeek(
    time_zone=CALL_TIMEZONE,
    hours={weekday: ((9 * 60, 17 * 60 + 30),) for weekday in range(5)},
)
# One working day: how long a reply may take before a request is overdue.
WORKING_DAY = max(COMPANY_WEEK.day_length(weekday) for weekday in range(7))


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _spans(week: WorkingWeek, day: date) -> list[tuple[datetime, datetime]]:
    """The working spans of one date on the company's calendar, as UTC moments. Adding
    minutes to the zone's midnight keeps wall-clock time (09:00 is 09:00 on the day the
    clocks change)."""
    midnight = datetime.combine(day, time.min, tzinfo=week.zone)
    return [
        (
            (midnight + timedelta(minutes=start)).astimezone(UTC),
            (midnight + timedelta(minutes=end)).astimezone(UTC),
        )
        for start, end in week.hours.get(day.weekday(), ())
    ]


def working_time_between(
    start: datetime, end: datetime, *, week: WorkingWeek = COMPANY_WEEK
) -> timedelta:
    """The working time from `start` to `end` (none when `end` is not after `start`)."""
    start, end = _utc(start), _utc(end)
    total = timedelta()
    if end <= start:
        return total
    day, last_day = start.astimezone(week.zone).date(), end.astimezone(week.zone).date()
    while day <= last_day:
        for opens, closes in _spans(week, day):
            total += max(timedelta(), min(closes, end) - max(opens, start))
        day += _ONE_DAY
    return total


def due_at(
    arrival: datetime, *, working: timedelta = WORKING_DAY, week: WorkingWeek = COMPANY_WEEK
) -> datetime:
    """The moment (UTC) `working` of working time has passed since `arrival`: for a
    request, when it becomes overdue. An arrival outside the hours counts from the next
    opening."""
    arrival = _utc(arrival)
    left, day = working, arrival.astimezone(week.zone).date()
    while True:  # ends: every week has working hours (WorkingWeek checks)
        for opens, closes in _spans(week, day):
            begin = max(opens, arrival)
            if begin >= closes:
                continue
            if left <= closes - begin:
                return begin + left
            left -= closes - begin
        day += _ONE_DAY


def last_arrival_due(
    now: datetime, *, working: timedelta = WORKING_DAY, week: WorkingWeek = COMPANY_WEEK
) -> datetime:
    """The latest arrival that has had `working` of working time by `now` (UTC): every
    request that arrived at or before it is due, every later one is not. The inbox
    compares this one moment with each request's arrival, in SQL and on each row, so the
    list's flags and the New chip's count cannot disagree."""
    now = _utc(now)
    left, day = working, now.astimezone(week.zone).date()
    while True:  # ends: every week has working hours (WorkingWeek checks)
        for opens, closes in reversed(_spans(week, day)):
            finish = min(closes, now)
            if finish <= opens:
                continue
            if left <= finish - opens:
                return finish - left
            left -= finish - opens
        day -= _ONE_DAY


__all__ = [
    "COMPANY_WEEK",
    "WORKING_DAY",
    "Interval",
    "WorkingWeek",
    "due_at",
    "last_arrival_due",
    "working_time_between",
]
