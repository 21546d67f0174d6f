"""No double booking, provably: visitors released together against the service, on SQLite
(BEGIN IMMEDIATE) and PostgreSQL (the exclusion constraint), and the constraint itself
against raw SQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import partial

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from rcxsite.booking import BookingReceipt
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.db import get_engine
from tests.support.booking import (
    MONDAY,
    add_booking,
    add_host,
    at,
    book,
    booking_database,
    member_name,
    reschedule,
    stored_booking,
    stored_bookings,
)
from tests.support.fixtures import Configure
from tests.support.parallel import at_once
from tests.support.postgres import sqlite_or_postgres
from tests.support.quotes import add_quote

TUESDAY = MONDAY + timedelta(days=1)
TAKEN = "That time has just been booked. Please choose another."
VISITORS = 12
MEMBERS = 3


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    with booking_database(request.param, configure) as kind:
        yield kind


def outcomes_of(calls: list[Callable[[], object]]) -> tuple[list[BookingReceipt], list[object]]:
    outcomes = at_once(calls)
    receipts = [outcome for outcome in outcomes if isinstance(outcome, BookingReceipt)]
    others = [outcome for outcome in outcomes if not isinstance(outcome, BookingReceipt)]
    return receipts, others


def refusals(outcomes: list[object]) -> list[tuple[int, str]]:
    return [
        (outcome.status, outcome.message)
        if isinstance(outcome, ServiceError)
        else (0, repr(outcome))
        for outcome in outcomes
    ]


def test_visitors_booking_one_time_together_get_one_member_each(database: str) -> None:
    names = {member_name(add_host(f"Member {number}")) for number in range(MEMBERS)}
    start = at(TUESDAY, "10:00")
    receipts, others = outcomes_of(
        [
            partial(book, start, email=f"v{number}@client.example", client_ip=f"10.1.0.{number}")
            for number in range(VISITORS)
        ]
    )
    assert len(receipts) == MEMBERS, refusals(others)
    assert {receipt.host_name for receipt in receipts} == names
    assert refusals(others) == [(409, TAKEN)] * (VISITORS - MEMBERS)
    active = [row for row in stored_bookings() if row.active]
    assert len(active) == MEMBERS
    assert len({row.host_id for row in active}) == MEMBERS


def test_a_reschedule_racing_a_booking_of_the_same_time(database: str) -> None:
    add_host("Sam Sales")
    mine = book(at(TUESDAY, "09:00"), email="mover@client.example")
    moves = 0
    for time in ("11:00", "13:00", "15:00"):
        start = at(TUESDAY, time)
        receipts, others = outcomes_of(
            [
                partial(reschedule, mine.token, start),
                partial(book, start, email=f"new-{time[:2]}@client.example"),
            ]
        )
        assert len(receipts) == 1, refusals(others)
        assert refusals(others) == [(409, TAKEN)]
        at_start = [row for row in stored_bookings() if row.active and row.starts_at == start]
        assert [row.id for row in at_start] == [receipts[0].booking_id]
        moves += receipts[0].booking_id == mine.booking_id
    assert stored_booking(mine.booking_id).sequence == moves


def test_a_move_racing_a_booking_into_a_members_last_call_of_the_day(
    database: str, configure: Configure
) -> None:
    """Two calls a day: a call moved into the day and a new booking of it, at once, at
    different times; one of them gets the day's last call, never both."""
    configure(booking_calls_per_day=2)
    add_host("Sam Sales")
    for round_number, day in enumerate(MONDAY + timedelta(days=n) for n in (1, 2, 3, 4)):
        book(at(day, "09:00"), email=f"first-{round_number}@client.example")
        elsewhere = at(MONDAY + timedelta(days=7 + round_number), "10:00")
        mover = book(elsewhere, email=f"mover-{round_number}@client.example")
        receipts, others = outcomes_of(
            [
                partial(reschedule, mover.token, at(day, "11:00")),
                partial(book, at(day, "14:00"), email=f"new-{round_number}@client.example"),
            ]
        )
        assert len(receipts) == 1, refusals(others)
        assert refusals(others) == [(409, TAKEN)]
        on_day = [r for r in stored_bookings() if r.active and r.starts_at.date() == day]
        assert len(on_day) == 2, day


def _insert(host_id: int, start: str, end: str, *, active: bool, key: str) -> None:
    request_id = add_quote(email=f"{key}@client.example")
    with get_engine().begin() as connection:
        connection.execute(
            text(
                "INSERT INTO booking (quote_request_id, host_id, starts_at, ends_at,"
                " blocked_until, status, active, visitor_name, visitor_email, email_key,"
                " visitor_time_zone, token_hash, token_sealed, uid, sequence, created_at,"
                " updated_at) VALUES (:request, :host, :start, :end, :end, :status, :active,"
                " 'Raw', :email, :email, 'Europe/London', :key, '', :key, 0, now(), now())"
            ),
            {
                "request": request_id,
                "host": host_id,
                "start": start,
                "end": end,
                "status": "booked" if active else "cancelled",
                "active": active,
                "email": f"{key}@client.example",
                "key": key,
            },
        )


def test_postgresql_refuses_an_overlapping_active_booking_from_raw_sql(
    configure: Configure,
) -> None:
    with sqlite_or_postgres("postgresql", configure):
        host = add_host("Sam Sales")
        other = add_host("Tom Sales")
        add_booking(host, at(TUESDAY, "10:00"))  # blocks 10:00-10:45
        with pytest.raises(IntegrityError) as refused:
            _insert(host, "2027-03-02 10:30Z", "2027-03-02 11:15Z", active=True, key="a" * 64)
        assert getattr(refused.value.orig, "sqlstate", None) == "23P01"
        assert "ex_booking_host_overlap" in str(refused.value)
        # Another host, a cancelled booking, or one that starts when the buffer ends: fine.
        _insert(other, "2027-03-02 10:30Z", "2027-03-02 11:15Z", active=True, key="b" * 64)
        _insert(host, "2027-03-02 10:30Z", "2027-03-02 11:15Z", active=False, key="c" * 64)
        _insert(host, "2027-03-02 10:45Z", "2027-03-02 11:30Z", active=True, key="d" * 64)
        assert len(stored_bookings()) == 4


def test_visitors_booking_a_members_day_together_leave_it_at_its_cap(
    database: str, configure: Configure
) -> None:
    """Different times, one member: the cap on their day holds when the bookings race."""
    configure(booking_calls_per_day=2)
    add_host("Only Member")
    starts = [at(TUESDAY, f"{hour:02d}:00") for hour in range(9, 15)]
    receipts, others = outcomes_of(
        [
            partial(book, start, email=f"d{number}@client.example", client_ip=f"10.2.0.{number}")
            for number, start in enumerate(starts)
        ]
    )
    assert len(receipts) == 2, refusals(others)
    assert refusals(others) == [(409, TAKEN)] * (len(starts) - 2)
    assert len([row for row in stored_bookings() if row.active]) == 2


def test_one_address_booking_many_times_together_stays_at_its_cap(database: str) -> None:
    """At most 3 calls to come per address (BOOKING_UPCOMING_PER_EMAIL), however fast."""
    for number in range(3):
        add_host(f"Member {number}")
    starts = [at(TUESDAY, f"{hour:02d}:00") for hour in range(9, 15)]
    receipts, others = outcomes_of(
        [
            partial(book, start, email="same@client.example", client_ip=f"10.3.0.{number}")
            for number, start in enumerate(starts)
        ]
    )
    assert len(receipts) == 3, refusals(others)
    assert {status for status, _ in refusals(others)} == {429}
    assert len([row for row in stored_bookings() if row.active]) == 3
