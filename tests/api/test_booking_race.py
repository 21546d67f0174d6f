"""No double booking through the HTTP layer: visitors' POST /api/v1/Booking requests for
one free time, released together, on SQLite and PostgreSQL: exactly as many bookings as
members free, each with a member of its own, 409 for everyone else."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest
from fastapi.testclient import TestClient

from rcxsite.booking import TAKEN
from tests.support.booking import (
    add_host,
    booking_database,
    empty_booking_tables,
    member_name,
    stored_bookings,
)
from tests.support.fixtures import Configure
from tests.support.parallel import at_once
from tests.support.quotes import quote_fields

VISITORS = 12
MEMBERS = 3


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    with booking_database(request.param, configure) as kind:
        empty_booking_tables()
        yield kind


def _book(client: TestClient, start: str, number: int) -> tuple[int, dict]:
    fields = {
        key: value
        for key, value in quote_fields(email=f"visitor{number}@client.example").items()
        if key not in ("call_date", "call_time")
    }
    answer = client.post(
        "/api/v1/Booking",
        json={**fields, "start": start, "timeZone": "Europe/London"},
    )
    return answer.status_code, answer.json()


def test_visitors_posting_one_time_together_get_one_member_each(
    database: str, client: TestClient
) -> None:
    names = {member_name(add_host(f"Member {number}")) for number in range(MEMBERS)}
    slots = client.get("/api/v1/Booking/Slots", params={"days": 14}).json()["data"]["slots"]
    start = slots[0]["start"]

    answers = at_once([partial(_book, client, start, number) for number in range(VISITORS)])

    booked = [body for status, body in answers if status == 201]  # type: ignore[misc]
    refused = sorted((status, body["message"]) for status, body in answers if status != 201)  # type: ignore[misc]
    assert len(booked) == MEMBERS, refused
    assert {body["data"]["host"]["name"] for body in booked} == names
    assert refused == [(409, TAKEN)] * (VISITORS - MEMBERS)
    active = [row for row in stored_bookings() if row.active]
    assert len(active) == MEMBERS and len({row.host_id for row in active}) == MEMBERS
