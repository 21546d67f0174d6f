"""Slots stay on each member's wall clock when the clocks change: the UK on 28 March 2027,
the US on 14 March 2027, with the clock injected."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from rcxsite.booking import SlotQuery, free_slots
from tests.support.booking import (
    KOLKATA,
    LONDON,
    NEW_YORK,
    add_day,
    add_host,
    at,
    book,
    slot_starts,
    wall_times,
)

DEFAULT_DAY = [f"{hour:02d}:{minute:02d}" for hour in range(9, 17) for minute in (0, 30)] + [
    "17:00"
]
BEFORE_UK = date(2027, 3, 26)  # Friday: London on GMT, New York already on EDT
AFTER_UK = date(2027, 3, 29)  # Monday: London on BST
BEFORE_US = date(2027, 3, 12)  # Friday: New York on EST
AFTER_US = date(2027, 3, 15)  # Monday: New York on EDT
NOW = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


def by_day(starts: list[datetime], zone: str) -> dict[date, list[datetime]]:
    days: dict[date, list[datetime]] = {}
    for start in starts:
        days.setdefault(start.astimezone(ZoneInfo(zone)).date(), []).append(start)
    return days


def test_a_london_member_across_the_uk_change_for_a_visitor_in_new_york() -> None:
    add_host("Sam Sales")  # the company's zone
    starts = slot_starts(BEFORE_UK, days=4, time_zone=NEW_YORK, now=NOW)
    days = by_day(starts, NEW_YORK)
    assert sorted(days) == [BEFORE_UK, AFTER_UK]  # the weekend has none
    # On the member's clock the day is the same; the visitor sees it an hour earlier.
    assert wall_times(days[BEFORE_UK], LONDON) == DEFAULT_DAY
    assert wall_times(days[AFTER_UK], LONDON) == DEFAULT_DAY
    assert wall_times(days[BEFORE_UK], NEW_YORK)[0] == "05:00"
    assert wall_times(days[AFTER_UK], NEW_YORK)[0] == "04:00"
    assert days[BEFORE_UK][0] == datetime(2027, 3, 26, 9, 0, tzinfo=UTC)
    assert days[AFTER_UK][0] == datetime(2027, 3, 29, 8, 0, tzinfo=UTC)


def test_a_new_york_member_across_the_us_change() -> None:
    add_host("Nia Newyork", time_zone=NEW_YORK)
    starts = slot_starts(BEFORE_US, days=4, time_zone=NEW_YORK, now=NOW)
    days = by_day(starts, NEW_YORK)
    assert sorted(days) == [BEFORE_US, AFTER_US]
    assert wall_times(days[BEFORE_US], NEW_YORK) == DEFAULT_DAY
    assert wall_times(days[AFTER_US], NEW_YORK) == DEFAULT_DAY
    assert days[BEFORE_US][0] == datetime(2027, 3, 12, 14, 0, tzinfo=UTC)
    assert days[AFTER_US][0] == datetime(2027, 3, 15, 13, 0, tzinfo=UTC)
    # A visitor in London sees the same calls an hour earlier after the US change.
    london = by_day(slot_starts(BEFORE_US, days=4, time_zone=LONDON, now=NOW), LONDON)
    assert wall_times(london[BEFORE_US], LONDON)[0] == "14:00"
    assert wall_times(london[AFTER_US], LONDON)[0] == "13:00"


def test_a_kolkata_member_for_a_visitor_in_new_york_across_the_us_change() -> None:
    add_host("Kavya Kolkata", time_zone=KOLKATA)  # no daylight saving in India
    starts = slot_starts(BEFORE_US - timedelta(days=1), days=6, time_zone=NEW_YORK, now=NOW)
    kolkata_days = by_day(starts, KOLKATA)
    # The visitor's 11th to 16th run from 10:30 on the member's 11th (EST) to 09:30 on
    # their 17th (EDT); on the member's clock every day keeps its grid.
    assert sorted(kolkata_days) == [date(2027, 3, day) for day in (11, 12, 15, 16, 17)]
    assert wall_times(kolkata_days[date(2027, 3, 11)], KOLKATA) == DEFAULT_DAY[3:]
    for day in (12, 15, 16):
        assert wall_times(kolkata_days[date(2027, 3, day)], KOLKATA) == DEFAULT_DAY
    assert wall_times(kolkata_days[date(2027, 3, 17)], KOLKATA) == ["09:00"]
    # 09:00 in Kolkata is 22:30 the evening before in New York on EST, 23:30 on EDT.
    assert wall_times(kolkata_days[date(2027, 3, 12)], NEW_YORK)[0] == "22:30"
    assert wall_times(kolkata_days[date(2027, 3, 16)], NEW_YORK)[0] == "23:30"
    # The visitor's days decide what is listed: the visitor's Thursday 11th holds the
    # start of the member's Friday 12th.
    visitor_days = by_day(starts, NEW_YORK)
    assert wall_times(visitor_days[date(2027, 3, 11)], NEW_YORK)[-3:] == ["22:30", "23:00", "23:30"]


def test_a_wall_time_the_clocks_skip_is_no_slot() -> None:
    member = add_host("Sam Sales")
    sunday = date(2027, 3, 28)  # 01:00 GMT becomes 02:00 BST
    add_day(member, sunday, "00:00", "03:00")
    starts = slot_starts(sunday, time_zone=LONDON, now=NOW)
    assert starts == [
        datetime(2027, 3, 28, 0, 0, tzinfo=UTC),
        datetime(2027, 3, 28, 0, 30, tzinfo=UTC),
        datetime(2027, 3, 28, 1, 0, tzinfo=UTC),  # 02:00 BST
        datetime(2027, 3, 28, 1, 30, tzinfo=UTC),  # 02:30 BST
    ]
    assert wall_times(starts) == ["00:00", "00:30", "02:00", "02:30"]


def test_a_wall_time_the_clocks_repeat_is_its_first_occurrence() -> None:
    member = add_host("Sam Sales")
    sunday = date(2027, 10, 31)  # 02:00 BST becomes 01:00 GMT
    add_day(member, sunday, "00:30", "02:30")
    now = datetime(2027, 10, 25, 12, 0, tzinfo=UTC)
    query = SlotQuery.parse({"first_day": "2027-10-30", "days": 2})
    starts = [slot.start for slot in free_slots(query, now=now).slots]
    assert starts == [
        datetime(2027, 10, 30, 23, 30, tzinfo=UTC),  # 00:30 BST
        datetime(2027, 10, 31, 0, 0, tzinfo=UTC),  # 01:00 BST, the first one
        datetime(2027, 10, 31, 0, 30, tzinfo=UTC),  # 01:30 BST
        datetime(2027, 10, 31, 2, 0, tzinfo=UTC),  # 02:00 GMT
    ]


def test_a_call_booked_after_the_change_is_where_the_slot_said() -> None:
    add_host("Sam Sales")
    start = at(AFTER_UK, "09:00")
    receipt = book(start, time_zone=NEW_YORK, now=NOW)
    assert receipt.start == datetime(2027, 3, 29, 8, 0, tzinfo=UTC)
    assert receipt.next_steps.startswith(
        "Your call with Sam Sales is on Monday 29 March 2027 at 04:00 (America/New_York)."
    )
