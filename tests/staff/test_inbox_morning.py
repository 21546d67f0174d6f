"""The inbox's morning view: "Calls today" (a count and a filter, on the member's clock),
New with its overdue requests first, and the list sorted by received, call, status or
owner either way, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session

from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.platform.db import get_engine
from rcxsite.staff.inbox import InboxFilter, inbox_page
from tests.support.booking import booking_row
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.quotes import add_quote
from tests.support.staff import add_member


@pytest.fixture(autouse=True, params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    """The package's SQLite file, or a scratch PostgreSQL database (skipped when absent):
    the orders and the day's bounds are SQL of their own."""
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


# A Tuesday morning, 08:30 in London (UTC in March); New York is five hours behind.
NOW = datetime(2026, 3, 10, 8, 30, tzinfo=UTC)


def _book(quote_id: int, host: StaffActor, start: datetime, status: str = "booked") -> None:
    with Session(get_engine()) as session:
        session.add(
            booking_row(quote_id, host.member_id, start, email="b@client.example", status=status)
        )
        session.commit()


def _names(actor: StaffActor, where: InboxFilter) -> list[str]:
    return [row.name for row in inbox_page(actor=actor, where=where, now=NOW).rows]


def test_calls_today_counts_and_lists_the_member_s_day_soonest_first() -> None:
    london = add_member("Lou London", "lou@rcx.example", "sales", time_zone="Europe/London")
    new_york = add_member("Nat York", "nat@rcx.example", "sales", time_zone="America/New_York")
    late = add_quote(name="Late Call", status="contacted")
    early = add_quote(name="Early Call")
    tomorrow = add_quote(name="Tomorrow Call")
    cancelled = add_quote(name="Cancelled Call")
    moved = add_quote(name="Moved Call")
    spam = add_quote(name="Spam Call", status="spam")
    add_quote(name="No Call")
    _book(late, london, NOW.replace(hour=16))
    _book(early, london, NOW.replace(hour=9))
    _book(tomorrow, london, NOW.replace(hour=2) + timedelta(days=1))  # 21:00 in New York
    _book(cancelled, london, NOW.replace(hour=11), status="cancelled")
    _book(moved, london, NOW.replace(hour=13), status="moved")  # still on, at a new time
    _book(spam, london, NOW.replace(hour=12))

    today = InboxFilter(status="all", calls_today=True)
    assert _names(london, today) == ["Early Call", "Moved Call", "Late Call"]
    assert inbox_page(actor=london, where=InboxFilter(), now=NOW).calls_today == 3
    # On New York's clock it is 03:30 on Tuesday: Wednesday 02:00 UTC is still Tuesday.
    assert _names(new_york, today) == ["Early Call", "Moved Call", "Late Call", "Tomorrow Call"]
    # The status chips narrow it; the count stays that of every status but spam.
    narrowed = inbox_page(actor=london, where=InboxFilter(status="new", calls_today=True), now=NOW)
    assert [row.name for row in narrowed.rows] == ["Early Call", "Moved Call"]
    assert narrowed.calls_today == 3
    # A member without a zone of their own sees the company's day (London), as the call
    # column's times are.
    zoneless = add_member("Zed Zoneless", "zed@rcx.example", "sales")
    assert _names(zoneless, today) == ["Early Call", "Moved Call", "Late Call"]


def test_new_lists_its_overdue_requests_first_the_longest_waiting_at_the_top(
    sales: StaffActor,
) -> None:
    # Due a working day after arrival: last Thursday and Friday are overdue by Tuesday
    # 08:30, Monday afternoon's is not.
    add_quote(name="Thursday", created_at=datetime(2026, 3, 5, 10, tzinfo=UTC))
    add_quote(name="Monday", created_at=datetime(2026, 3, 9, 15, tzinfo=UTC))
    add_quote(name="Friday", created_at=datetime(2026, 3, 6, 10, tzinfo=UTC))
    add_quote(name="Tuesday", created_at=datetime(2026, 3, 10, 8, tzinfo=UTC))

    page = inbox_page(actor=sales, where=InboxFilter(), now=NOW)

    assert [(row.name, row.overdue) for row in page.rows] == [
        ("Thursday", True),
        ("Friday", True),
        ("Tuesday", False),
        ("Monday", False),
    ]
    # Another status keeps the newest first.
    assert _names(sales, InboxFilter(status="all", sort="")) == [
        "Tuesday",
        "Monday",
        "Friday",
        "Thursday",
    ]


def test_each_column_sorts_either_way_with_what_it_lacks_last(sales: StaffActor) -> None:
    zoe = add_member("Zoe Zed", "zoe@rcx.example", "sales")
    amy = add_member("Amy Ant", "amy@rcx.example", "sales")
    first = add_quote(
        name="First",
        status="won",
        owner_id=zoe.member_id,
        created_at=datetime(2026, 3, 2, tzinfo=UTC),
    )
    second = add_quote(
        name="Second",
        status="new",
        owner_id=amy.member_id,
        created_at=datetime(2026, 3, 3, tzinfo=UTC),
    )
    add_quote(name="Third", status="contacted", created_at=datetime(2026, 3, 4, tzinfo=UTC))
    _book(first, zoe, datetime(2026, 3, 20, 10, tzinfo=UTC))
    _book(second, amy, datetime(2026, 3, 12, 10, tzinfo=UTC))

    def by(sort: str) -> list[str]:
        return _names(sales, InboxFilter(status="all", sort=sort))

    assert by("received") == ["First", "Second", "Third"]
    assert by("-received") == ["Third", "Second", "First"]
    assert by("call") == ["Second", "First", "Third"]
    assert by("-call") == ["First", "Second", "Third"]
    assert by("status") == ["Second", "Third", "First"]  # New, Contacted, ..., Won
    assert by("-status") == ["First", "Third", "Second"]
    assert by("owner") == ["Second", "First", "Third"]  # Amy, Zoe, unassigned
    assert by("-owner") == ["First", "Second", "Third"]

    with pytest.raises(ServiceError) as refused:
        by("email")
    assert refused.value.fields == {"sort": "Please choose a column to sort by."}
