"""After a call's time, sales mark it held or no-show: who may, when, what the request's
history then says; and the calls of a page of requests, read in one query."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import Session, col, select

from rcxsite.booking.outcomes import calls_of_requests, mark_call
from rcxsite.core.permissions import NO_ACCESS, StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import AuditEntry
from rcxsite.platform.db import get_engine
from rcxsite.staff.inbox import quote_detail
from tests.support.booking import NEW_YORK, NOW, history, stored_bookings
from tests.support.call_outcomes import booked_request
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.quotes import add_quote
from tests.support.staff import add_member

STARTED = NOW - timedelta(minutes=10)
TOO_EARLY = "You can mark the call once its time has come."


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


@pytest.fixture
def sales() -> StaffActor:
    return add_member("Sam Sales", "sam@rcx.example", "sales")


def refused(**kwargs: Any) -> tuple[int, str]:
    with pytest.raises(ServiceError) as error:
        mark_call(now=NOW, **kwargs)
    return error.value.status, error.value.message


def call_state(request_id: int) -> tuple[str, bool]:
    [row] = [row for row in stored_bookings() if row.quote_request_id == request_id]
    return row.status, row.active


def test_a_call_whose_time_came_is_marked_held_in_its_history(database: str) -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    request_id = booked_request(sales.member_id, STARTED)

    said = mark_call(actor=sales, quote_request_id=request_id, outcome="held", now=NOW)

    assert said == "Call marked as held."
    # Its time is past: it no longer holds the host's time either way.
    assert call_state(request_id) == ("held", False)
    [line] = quote_detail(actor=sales, quote_id=request_id, now=NOW).history
    assert (line.actor_name, line.field, line.old_value, line.new_value) == (
        "Sam Sales",
        "call",
        "Booked",
        "Held",
    )
    with Session(get_engine()) as session:
        [entry] = session.exec(select(AuditEntry).where(col(AuditEntry.action) == "call_marked"))
    assert (entry.actor_id, entry.target, entry.detail) == (
        sales.member_id,
        f"quote #{request_id}",
        "Booked → Held",
    )


def test_held_and_no_show_may_be_switched_and_the_same_mark_writes_nothing(
    sales: StaffActor,
) -> None:
    request_id = booked_request(sales.member_id, STARTED, status="moved")
    mark = {"actor": sales, "quote_request_id": request_id, "now": NOW}

    assert mark_call(outcome="no-show", **mark) == "Call marked as no-show."
    assert mark_call(outcome="no-show", **mark) == "Nothing to change."
    assert mark_call(outcome="held", **mark) == "Call marked as held."

    assert call_state(request_id) == ("held", False)
    assert history(request_id) == [
        ("call", "Moved", "No-show"),
        ("call", "No-show", "Held"),
    ]


def test_a_call_is_marked_from_its_start_on(sales: StaffActor) -> None:
    request_id = booked_request(sales.member_id, NOW + timedelta(minutes=1))
    mark = {"actor": sales, "quote_request_id": request_id, "outcome": "held"}

    assert refused(**mark) == (409, TOO_EARLY)
    assert call_state(request_id) == ("booked", True)
    assert history(request_id) == []

    at_start = NOW + timedelta(minutes=1)
    assert mark_call(now=at_start, **mark) == "Call marked as held."


def test_a_cancelled_call_a_request_without_one_and_an_unknown_outcome_are_refused(
    sales: StaffActor,
) -> None:
    cancelled = booked_request(sales.member_id, STARTED, status="cancelled")
    preferred_only = add_quote()

    assert refused(actor=sales, quote_request_id=cancelled, outcome="held") == (
        409,
        "This call was cancelled, so it cannot be marked as held or no-show.",
    )
    assert refused(actor=sales, quote_request_id=preferred_only, outcome="no-show") == (
        404,
        "This request has no booked call.",
    )
    assert refused(actor=sales, quote_request_id=cancelled, outcome="cancelled") == (
        422,
        "Please mark the call as held or no-show.",
    )
    assert call_state(cancelled) == ("cancelled", False)
    assert history(cancelled) == []


@pytest.mark.parametrize(
    ("role", "allowed"), [("admin", True), ("sales", True), ("support", False)]
)
def test_only_those_who_work_requests_mark_calls(role: str, allowed: bool) -> None:
    host = add_member("Sam Sales", "sam@rcx.example", "sales")
    member = add_member("Someone", "someone@rcx.example", role)
    request_id = booked_request(host.member_id, STARTED)

    if allowed:
        mark_call(actor=member, quote_request_id=request_id, outcome="held", now=NOW)
        assert call_state(request_id) == ("held", False)
        return
    assert refused(actor=member, quote_request_id=request_id, outcome="held") == (
        403,
        NO_ACCESS,
    )
    assert refused(actor=None, quote_request_id=request_id, outcome="held") == (403, NO_ACCESS)
    assert call_state(request_id) == ("booked", True)
    assert history(request_id) == []


def test_the_calls_of_a_page_of_requests_are_read_in_one_query(sales: StaffActor) -> None:
    other = add_member("Olga Other", "olga@rcx.example", "admin")
    first = booked_request(sales.member_id, NOW + timedelta(days=1), time_zone=NEW_YORK)
    second = booked_request(other.member_id, NOW + timedelta(days=2), status="cancelled")
    without = add_quote()
    statements: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    with Session(get_engine()) as session:
        event.listen(get_engine(), "before_cursor_execute", before)
        try:
            calls = calls_of_requests(session, [first, second, without])
        finally:
            event.remove(get_engine(), "before_cursor_execute", before)

    assert len(statements) == 1
    assert sorted(calls) == [first, second]
    one, two = calls[first], calls[second]
    assert (one.host_name, one.host_id, one.status, one.status_label) == (
        "Sam Sales",
        sales.member_id,
        "booked",
        "Booked",
    )
    assert (one.start, one.end) == (NOW + timedelta(days=1), NOW + timedelta(days=1, minutes=30))
    assert (one.visitor_time_zone, one.sequence) == (NEW_YORK, 0)
    assert (two.host_name, two.status_label) == ("Olga Other", "Cancelled")
    with Session(get_engine()) as session:
        assert calls_of_requests(session, []) == {}
