"""The free times offered: members' hours, overrides, time off, the company's rules, and
the union over members."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event

from rcxsite.booking import SlotQuery, free_slots
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.db import get_engine
from tests.support.booking import (
    LONDON,
    MONDAY,
    NOW,
    add_booking,
    add_day,
    add_host,
    add_time_off,
    at,
    slot_starts,
    wall_times,
)
from tests.support.fixtures import Configure

TUESDAY = MONDAY + timedelta(days=1)
SATURDAY = MONDAY + timedelta(days=5)
# 09:00 to 17:00 every half hour: the default day's calls (the last ends at 17:30).
DEFAULT_DAY = [f"{hour:02d}:{minute:02d}" for hour in range(9, 17) for minute in (0, 30)] + [
    "17:00"
]


def test_a_member_without_hours_of_their_own_works_the_default_week() -> None:
    add_host("Sam Sales")
    assert wall_times(slot_starts(TUESDAY)) == DEFAULT_DAY
    assert slot_starts(SATURDAY, days=2) == []
    week = slot_starts(MONDAY, days=7)
    assert len(week) == 5 * len(DEFAULT_DAY)
    assert week == sorted(week)


def test_slots_are_in_utc_and_a_call_long() -> None:
    add_host("Sam Sales")
    query = SlotQuery.parse({"first_day": TUESDAY.isoformat(), "days": 1})
    slots = free_slots(query, now=NOW)
    assert (slots.time_zone, slots.call_minutes, slots.first_day, slots.days) == (
        LONDON,
        30,
        TUESDAY,
        1,
    )
    assert slots.taking_calls
    first = slots.slots[0]
    assert first.start == datetime(2027, 3, 2, 9, 0, tzinfo=UTC)
    assert first.end - first.start == timedelta(minutes=30)


def test_weekly_hours_replace_the_default_week() -> None:
    # Mondays 10:00-12:00 and 14:00-15:00 only: never on Tuesdays.
    add_host("Sam Sales", hours=[(0, "10:00", "12:00"), (0, "14:00", "15:00")])
    assert wall_times(slot_starts(MONDAY)) == ["10:00", "10:30", "11:00", "11:30", "14:00", "14:30"]
    assert slot_starts(TUESDAY) == []


def test_a_date_override_replaces_the_week_on_its_date() -> None:
    member = add_host("Sam Sales")
    add_day(member, TUESDAY, "13:00", "14:10")
    add_day(member, MONDAY, "", "")
    add_day(member, SATURDAY, "10:00", "11:00")
    assert wall_times(slot_starts(TUESDAY)) == ["13:00", "13:30"]
    assert slot_starts(MONDAY) == []
    assert wall_times(slot_starts(SATURDAY)) == ["10:00", "10:30"]


def test_time_off_takes_whole_days_out() -> None:
    member = add_host("Sam Sales")
    add_time_off(member, MONDAY, TUESDAY)
    assert slot_starts(MONDAY, days=2) == []
    assert len(slot_starts(MONDAY, days=3)) == len(DEFAULT_DAY)


def test_a_member_at_the_days_cap_has_no_more_slots_that_day(configure: Configure) -> None:
    configure(booking_calls_per_day=2)
    member = add_host("Sam Sales")
    add_booking(member, at(TUESDAY, "09:00"))
    assert len(slot_starts(TUESDAY)) == len(DEFAULT_DAY) - 2  # 09:00 and its buffer
    add_booking(member, at(TUESDAY, "16:00"))
    assert slot_starts(TUESDAY) == []
    assert len(slot_starts(MONDAY)) == len(DEFAULT_DAY)
    # A cancelled call does not count.
    add_booking(member, at(MONDAY, "09:00"), status="cancelled")
    add_booking(member, at(MONDAY, "11:00"), status="cancelled")
    assert len(slot_starts(MONDAY)) == len(DEFAULT_DAY)


def test_a_booking_blocks_its_call_and_buffer() -> None:
    member = add_host("Sam Sales")
    add_booking(member, at(TUESDAY, "10:00"))  # 10:00-10:30, free again from 10:45
    times = wall_times(slot_starts(TUESDAY))
    # 09:30 would end 10:00 and its buffer 10:15; 10:30 starts inside the buffer.
    assert times[:4] == ["09:00", "11:00", "11:30", "12:00"]
    assert {"09:30", "10:00", "10:30"}.isdisjoint(times)


def test_a_longer_buffer_and_call_from_the_settings(configure: Configure) -> None:
    configure(booking_call_minutes=60, booking_buffer_minutes=30)
    add_host("Sam Sales")
    assert wall_times(slot_starts(TUESDAY)) == [
        "09:00",
        "10:00",
        "11:00",
        "12:00",
        "13:00",
        "14:00",
        "15:00",
        "16:00",
    ]


def test_no_slot_within_the_notice() -> None:
    add_host("Sam Sales")
    now = at(TUESDAY, "08:10")
    # Four hours' notice: 12:10 at the earliest.
    assert wall_times(slot_starts(TUESDAY, now=now))[0] == "12:30"
    assert wall_times(slot_starts(TUESDAY, now=at(TUESDAY, "08:00")))[0] == "12:00"


def test_no_slot_beyond_the_window(configure: Configure) -> None:
    configure(booking_window_days=1)
    add_host("Sam Sales")
    now = at(MONDAY, "11:00")
    assert wall_times(slot_starts(TUESDAY, now=now)) == ["09:00", "09:30", "10:00", "10:30"]
    assert slot_starts(TUESDAY + timedelta(days=1), now=now) == []


def test_past_days_have_no_slots() -> None:
    add_host("Sam Sales")
    assert slot_starts(MONDAY, now=at(MONDAY + timedelta(days=7), "08:00")) == []


def test_the_slots_are_the_union_of_the_members() -> None:
    early = add_host("Early Bird", hours=[(1, "08:00", "10:00")])
    late = add_host("Night Owl", hours=[(1, "09:00", "11:00")])
    assert wall_times(slot_starts(TUESDAY)) == [
        "08:00",
        "08:30",
        "09:00",
        "09:30",
        "10:00",
        "10:30",
    ]
    # One of the two busy at 09:00: the other still takes it.
    add_booking(early, at(TUESDAY, "09:00"))
    assert "09:00" in wall_times(slot_starts(TUESDAY))
    add_booking(late, at(TUESDAY, "09:00"))
    assert wall_times(slot_starts(TUESDAY)) == ["08:00", "10:00", "10:30"]


def test_who_takes_calls() -> None:
    query = SlotQuery.parse({"first_day": TUESDAY.isoformat()})
    assert free_slots(query, now=NOW).taking_calls is False
    assert free_slots(query, now=NOW).slots == ()
    add_host("Off Calls", takes_calls=False)
    add_host("Gone", disabled=True)
    add_host("Sue Support", role="support")
    # Invited but not enrolled: they could not sign in to see the call.
    add_host("Ivy Invited", invited=True)
    assert free_slots(query, now=NOW).taking_calls is False
    add_host("Ada Admin", role="admin")
    listed = free_slots(query, now=NOW)
    assert listed.taking_calls and len(listed.slots) == 5 * len(DEFAULT_DAY)


def test_first_day_defaults_to_today_in_the_visitors_zone() -> None:
    add_host("Sam Sales")
    # 23:30 UTC on Monday is already Tuesday in Kolkata.
    now = datetime(2027, 3, 1, 23, 30, tzinfo=UTC)
    listed = free_slots(SlotQuery.parse({"time_zone": "Asia/Kolkata", "days": 1}), now=now)
    assert listed.first_day == TUESDAY


def test_the_slot_query_messages() -> None:
    _, errors = SlotQuery.read({"first_day": "2027-02-30", "days": "0", "time_zone": "Mars/Base"})
    assert errors == {
        "first_day": "Invalid date",
        "days": "days must be between 1 and 31",
        "time_zone": "Unknown time zone",
    }
    assert SlotQuery.read({"days": 32})[1] == {"days": "days must be between 1 and 31"}
    assert SlotQuery.read({"days": "many"})[1] == {"days": "days must be between 1 and 31"}
    assert SlotQuery.read({"first_day": "1.3.2027"})[1] == {"first_day": "Invalid date"}
    assert SlotQuery.read({"time_zone": "x" * 65})[1] == {"time_zone": "Unknown time zone"}
    query = SlotQuery.parse({"days": "31", "time_zone": " America/New_York "})
    assert (query.first_day, query.days, query.time_zone) == (None, 31, "America/New_York")
    assert SlotQuery.parse({"time_zone": ""}).time_zone == LONDON
    with pytest.raises(ServiceError) as refused:
        SlotQuery.parse({"time_zone": "Europe/Londres"})
    assert refused.value.status == 422


def test_a_month_of_slots_for_20_members_and_500_bookings_takes_three_queries() -> None:
    """Whatever the number of members and calls, the free times cost three queries (the
    members' availability, the bookings in range, their calendars' busy times in range);
    their speed is `make bench`'s."""
    members = [add_host(f"Member {number}") for number in range(20)]
    day = MONDAY
    booked = 0
    while booked < 500:
        if day.weekday() < 5:
            for member in members:
                if booked < 500:
                    add_booking(member, at(day, f"{9 + booked % 8:02d}:00"))
                    booked += 1
        day += timedelta(days=1)
    query = SlotQuery.parse({"first_day": MONDAY.isoformat(), "days": 31})
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(get_engine(), "before_cursor_execute", count)
    try:
        listed = free_slots(query, now=NOW)
    finally:
        event.remove(get_engine(), "before_cursor_execute", count)
    assert len(statements) == 3, statements
    # One call a day each, at different hours: someone is free at every time of the day.
    assert listed.slots and at(MONDAY, "16:30") in {slot.start for slot in listed.slots}
