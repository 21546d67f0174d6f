"""A new booking decides whether a start is free without walking the hosts' days: it must
agree with the free times the visitor was shown, at every start, across changes of the
clocks (a skipped hour, a repeated hour), overrides, time off, a full day and a booking."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from rcxsite.booking import rules
from rcxsite.booking.slots import hosts_free_at
from rcxsite.platform.db import session_scope
from tests.support.booking import (
    KOLKATA,
    LONDON,
    NEW_YORK,
    add_booking,
    add_day,
    add_host,
    add_time_off,
    at,
    slot_starts,
)

SUNDAY = 6


def _hosts() -> None:
    sam = add_host("Sam Sales")  # the company's week, in London
    # Sunday nights in New York: 02:00-03:00 is skipped on 14 March, 01:00-02:00 repeated
    # on 7 November; and a week that starts at a quarter past.
    new_york = add_host(
        "Nia York",
        time_zone=NEW_YORK,
        hours=[(SUNDAY, "00:00", "04:00"), (0, "08:15", "12:00"), (2, "13:00", "17:00")],
    )
    kolkata = add_host("Kiran Rao", time_zone=KOLKATA)
    add_day(kolkata, date(2027, 3, 15), "10:00", "12:00")
    add_time_off(kolkata, date(2027, 3, 29), date(2027, 3, 30))
    add_day(new_york, date(2027, 11, 3))  # not working that Wednesday
    # Sam's Monday 29 March is full (6 calls); Kiran has one call on 26 March.
    for hour in range(9, 15):
        add_booking(sam, at(date(2027, 3, 29), f"{hour:02d}:00"))
    add_booking(kolkata, at(date(2027, 3, 26), "11:00", KOLKATA))


@pytest.mark.parametrize(
    ("now", "first_day", "days"),
    [
        (datetime(2027, 3, 10, 12, 0, tzinfo=UTC), date(2027, 3, 12), 5),  # US change
        (datetime(2027, 3, 10, 12, 0, tzinfo=UTC), date(2027, 3, 26), 5),  # UK change
        (datetime(2027, 11, 1, 12, 0, tzinfo=UTC), date(2027, 11, 5), 5),  # US falls back
    ],
)
def test_a_start_is_free_for_a_new_booking_exactly_when_it_was_shown(
    now: datetime, first_day: date, days: int
) -> None:
    _hosts()
    shown = set(slot_starts(first_day, days=days, time_zone=LONDON, now=now))
    assert shown, "the period must have free times to compare"
    # Every quarter hour of the visitor's days (London's), as slot_starts asked.
    start, until = at(first_day, "00:00"), at(first_day + timedelta(days=days), "00:00")
    disagreements = []
    with session_scope() as session:
        while start < until:
            free = bool(hosts_free_at(session, start=start, now=now, rules=rules()))
            if free != (start in shown):
                disagreements.append((start.isoformat(), free))
            start += timedelta(minutes=15)
    assert disagreements == []
