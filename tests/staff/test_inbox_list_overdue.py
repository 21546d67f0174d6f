"""The inbox list's age and "Overdue" flag on an injected clock: the company's working week
(Monday to Friday, 09:00-17:30 London time) counted across a weekend and a change of the
clocks, each row's flag and the New chip's count agreeing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from rcxsite.booking.availability import DEFAULT_HOURS
from rcxsite.core.permissions import StaffActor
from rcxsite.core.working_week import (
    COMPANY_WEEK,
    WORKING_DAY,
    WorkingWeek,
    due_at,
    last_arrival_due,
    working_time_between,
)
from rcxsite.staff.inbox import InboxFilter, InboxPage, inbox_page
from rcxsite.staff.inbox_query import age_text
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.quotes import add_quote
from tests.support.staff import add_member

# Early March 2026: London keeps UTC until the clocks go forward on Sunday 29 March.
THURSDAY = datetime(2026, 3, 5, tzinfo=UTC)
FRIDAY = THURSDAY + timedelta(days=1)
SATURDAY = THURSDAY + timedelta(days=2)
MONDAY = THURSDAY + timedelta(days=4)
TUESDAY = THURSDAY + timedelta(days=5)


def at(day: datetime, hours: int, minutes: int = 0) -> datetime:
    return day + timedelta(hours=hours, minutes=minutes)


# Each test sees only the requests it adds; `sales` is tests/staff/conftest.py's.


def test_the_week_is_written_once_and_the_booking_default_is_it() -> None:
    assert COMPANY_WEEK.time_zone == "Europe/London"
    assert dict(COMPANY_WEEK.hours) == {day: ((540, 1050),) for day in range(5)}
    assert timedelta(hours=8, minutes=30) == WORKING_DAY
    assert DEFAULT_HOURS is COMPANY_WEEK.hours


@pytest.mark.parametrize(
    ("arrival", "due"),
    [
        # The whole of Friday's hours: due at closing.
        (at(FRIDAY, 9), at(FRIDAY, 17, 30)),
        # 1 h 30 on Friday, the weekend not counted, 7 h on Monday.
        (at(FRIDAY, 16), at(MONDAY, 16)),
        # Outside the hours (evening, weekend, early morning): from Monday's opening.
        (at(FRIDAY, 18), at(MONDAY, 17, 30)),
        (at(SATURDAY, 11), at(MONDAY, 17, 30)),
        (at(MONDAY, 8), at(MONDAY, 17, 30)),
        (at(MONDAY, 10), at(TUESDAY, 10)),
    ],
)
def test_a_request_is_due_one_working_day_after_it_arrived(
    arrival: datetime, due: datetime
) -> None:
    assert due_at(arrival) == due
    assert working_time_between(arrival, due) == WORKING_DAY
    assert last_arrival_due(due) >= arrival
    assert last_arrival_due(due - timedelta(minutes=1)) < arrival


def test_hours_stay_on_londons_wall_clock_when_the_clocks_go_forward() -> None:
    friday = datetime(2026, 3, 27, 16, 0, tzinfo=UTC)  # 16:00 GMT
    # Monday 30 March, 16:00 BST.
    assert due_at(friday) == datetime(2026, 3, 30, 15, 0, tzinfo=UTC)
    assert last_arrival_due(datetime(2026, 3, 30, 15, 0, tzinfo=UTC)) == friday


def test_working_time_between_counts_only_the_hours() -> None:
    assert working_time_between(at(FRIDAY, 17, 30), at(MONDAY, 9)) == timedelta()
    assert working_time_between(at(MONDAY, 9), at(MONDAY, 9) + timedelta(days=7)) == 5 * WORKING_DAY
    assert working_time_between(at(MONDAY, 12), at(MONDAY, 11)) == timedelta()


def test_the_cutoff_the_list_uses_agrees_with_the_working_time_elapsed() -> None:
    arrivals = [at(THURSDAY, 0) + timedelta(minutes=15 * n) for n in range(6 * 24 * 4)]
    for now in (at(SATURDAY, 10), at(MONDAY, 8), at(MONDAY, 9), at(MONDAY, 16), at(TUESDAY, 9, 45)):
        cutoff = last_arrival_due(now)
        for arrival in arrivals:
            elapsed = working_time_between(arrival, now)
            assert (arrival <= cutoff) == (elapsed >= WORKING_DAY), (now, arrival)
            assert (arrival <= cutoff) == (due_at(arrival) <= now), (now, arrival)


def test_a_week_without_hours_is_refused() -> None:
    with pytest.raises(ValueError):
        WorkingWeek(time_zone="Europe/London", hours={})


@pytest.mark.parametrize(
    ("age", "text"),
    [
        (timedelta(seconds=-5), "just now"),
        (timedelta(seconds=59), "just now"),
        (timedelta(minutes=5), "5 min"),
        (timedelta(minutes=59, seconds=59), "59 min"),
        (timedelta(hours=2, minutes=40), "2 h"),
        (timedelta(hours=23, minutes=59), "23 h"),
        (timedelta(days=1, hours=5), "1 day"),
        (timedelta(days=3, hours=1), "3 days"),
    ],
)
def test_age_text(age: timedelta, text: str) -> None:
    assert age_text(age) == text


def _flags(page: InboxPage) -> dict[str, tuple[str, bool]]:
    return {row.name: (row.age, row.overdue) for row in page.rows}


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    """The package's SQLite file, or a scratch PostgreSQL database (skipped when absent):
    the New chip's count is SQL of its own."""
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def test_overdue_rows_and_the_new_count_follow_the_injected_clock_across_a_weekend(
    database: str,
) -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    add_quote(name="Friday afternoon", created_at=at(FRIDAY, 16))
    add_quote(name="Weekend", created_at=at(SATURDAY, 11))
    add_quote(name="Monday morning", created_at=at(MONDAY, 10))
    add_quote(name="Answered", status="contacted", created_at=at(THURSDAY, 10))
    everything = InboxFilter(status="all")

    def seen(now: datetime) -> InboxPage:
        return inbox_page(actor=sales, where=everything, now=now)

    # One minute short of Friday's 1 h 30 and Monday's 7 h.
    before = seen(at(MONDAY, 15, 59))
    assert _flags(before) == {
        "Monday morning": ("5 h", False),
        "Weekend": ("2 days", False),
        "Friday afternoon": ("2 days", False),
        "Answered": ("4 days", False),
    }
    assert before.overdue == 0

    at_four = seen(at(MONDAY, 16))
    assert {name for name, (_, late) in _flags(at_four).items() if late} == {"Friday afternoon"}
    assert _flags(at_four)["Friday afternoon"] == ("3 days", True)
    assert at_four.overdue == 1

    closing = seen(at(MONDAY, 17, 30))
    assert {name for name, (_, late) in _flags(closing).items() if late} == {
        "Friday afternoon",
        "Weekend",
    }
    assert closing.overdue == 2

    # A request answered is never overdue, however old.
    tuesday = seen(at(TUESDAY, 10))
    assert {name for name, (_, late) in _flags(tuesday).items() if late} == {
        "Friday afternoon",
        "Weekend",
        "Monday morning",
    }
    assert tuesday.overdue == 3
    assert tuesday.counts["new"] == 3


def test_the_overdue_count_follows_the_search_and_owner_not_the_status(sales: StaffActor) -> None:
    add_quote(name="Late Lena", created_at=at(FRIDAY, 9), owner_id=sales.member_id)
    add_quote(name="Late Leo", created_at=at(FRIDAY, 9))
    add_quote(name="Fresh Fay", created_at=at(TUESDAY, 9))
    now = at(TUESDAY, 9, 5)

    def overdue(where: InboxFilter) -> int:
        return inbox_page(actor=sales, where=where, now=now).overdue

    assert overdue(InboxFilter(status="won")) == 2
    assert overdue(InboxFilter(status="all", search="lena")) == 1
    assert overdue(InboxFilter(status="all", owner="mine")) == 1
    assert overdue(InboxFilter(status="all", search="fay")) == 0


def test_a_new_request_is_just_now_then_minutes_old(sales: StaffActor) -> None:
    add_quote(name="Brand new", created_at=at(MONDAY, 11))
    where = InboxFilter()
    assert _flags(inbox_page(actor=sales, where=where, now=at(MONDAY, 11))) == {
        "Brand new": ("just now", False)
    }
    assert _flags(inbox_page(actor=sales, where=where, now=at(MONDAY, 11, 5))) == {
        "Brand new": ("5 min", False)
    }
