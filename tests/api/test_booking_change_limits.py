"""/api/v1/Booking/Reschedule and /Booking/Cancel past their limits, as an API client sees
them: 429 in the site's envelope and wording, Retry-After when waiting helps, and nothing
stored or mailed for a refused change.

The API runs on the real clock, so calls are booked at starts from the live
/Booking/Slots answer of a member who works the default week."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rcxsite import booking
from rcxsite.mail import wait_for_outgoing_mail
from tests.support.api import envelope
from tests.support.booking import (
    add_host,
    booking_fields,
    empty_booking_tables,
    history,
    stored_booking,
)
from tests.support.fixtures import Configure
from tests.support.site import outbox_messages

SLOTS = "/api/v1/Booking/Slots"
RESCHEDULE = "/api/v1/Booking/Reschedule"
CANCEL = "/api/v1/Booking/Cancel"
IN_AN_HOUR = "Too many requests. Try again in 60 minutes."
MOVES_USED_UP = (
    "This call has been moved as often as it can be. To move it again, please reply to "
    "your invitation. You can still cancel it."
)


@pytest.fixture(autouse=True)
def empty_tables(fresh_state: None) -> Iterator[None]:
    # The shared reset_state does not know the booking tables.
    empty_booking_tables()
    yield
    assert wait_for_outgoing_mail(30), "booking mail outcomes were not recorded in time"


def _starts(client: TestClient) -> list[str]:
    response = client.get(SLOTS, params={"days": "14"})
    assert response.status_code == 200, response.text
    data = envelope(response)["data"]
    assert isinstance(data, dict)
    return [slot["start"] for slot in data["slots"]]


def _book(start: str, *, email: str = "alice@client.example") -> booking.BookingReceipt:
    chosen = datetime.fromisoformat(start)
    return booking.book(
        booking.BookingInput.parse(booking_fields(chosen, email=email)), client_ip="203.0.113.9"
    )


def _left_behind(receipt: booking.BookingReceipt) -> tuple[Any, ...]:
    row = stored_booking(receipt.booking_id)
    return (
        (row.starts_at, row.host_id, row.status, row.sequence),
        history(receipt.quote_request_id),
        len(outbox_messages()),
    )


def test_twenty_quick_moves_of_one_call_are_held_to_a_few(client: TestClient) -> None:
    add_host("Sam Sales")
    starts = _starts(client)
    receipt = _book(starts[0])

    answers = [
        client.post(RESCHEDULE, json={"token": receipt.token, "start": starts[1 + n % 2]})
        for n in range(20)
    ]

    assert [answer.status_code for answer in answers] == [200] * 3 + [429] * 17
    for refusal in answers[3:]:
        assert envelope(refusal) == {"status": 429, "message": IN_AN_HOUR, "data": None}
        assert 3500 < int(refusal.headers["Retry-After"]) <= 3600
    assert stored_booking(receipt.booking_id).sequence == 3
    moves = [new for (_, _, new) in history(receipt.quote_request_id) if new.startswith("Moved")]
    assert len(moves) == 3
    subjects = [str(mail["Subject"]) for mail in outbox_messages()]
    # Each move mails the visitor and the host once.
    assert len([s for s in subjects if "has moved" in s or "Call moved" in s]) == 3 * 2


def test_the_cap_on_a_calls_moves_is_429_without_retry_after(
    client: TestClient, configure: Configure
) -> None:
    configure(booking_changes_max=1)
    add_host("Sam Sales")
    starts = _starts(client)
    receipt = _book(starts[0])
    assert client.post(RESCHEDULE, json={"token": receipt.token, "start": starts[-1]}).is_success
    before = _left_behind(receipt)

    again = client.post(RESCHEDULE, json={"token": receipt.token, "start": starts[-2]})

    assert again.status_code == 429
    assert envelope(again) == {"status": 429, "message": MOVES_USED_UP, "data": None}
    # Waiting does not help: no Retry-After that would say otherwise.
    assert "Retry-After" not in again.headers
    assert _left_behind(receipt) == before
    cancelled = client.post(CANCEL, json={"token": receipt.token})
    assert cancelled.status_code == 200, cancelled.text


def test_changes_from_one_client_address_are_limited(
    client: TestClient, configure: Configure
) -> None:
    configure(booking_change_client_limit="1 per hour", trusted_proxy_hops=1)
    add_host("Sam Sales")
    add_host("Tom Sales")
    starts = _starts(client)
    first = _book(starts[0])
    second = _book(starts[0], email="bob@client.example")
    one_client = {"X-Forwarded-For": "198.51.100.7"}
    moved = client.post(
        RESCHEDULE, json={"token": first.token, "start": starts[-1]}, headers=one_client
    )
    assert moved.status_code == 200, moved.text
    before = _left_behind(second)

    refused = client.post(CANCEL, json={"token": second.token}, headers=one_client)

    assert envelope(refused) == {"status": 429, "message": IN_AN_HOUR, "data": None}
    assert 3500 < int(refused.headers["Retry-After"]) <= 3600
    assert _left_behind(second) == before
    elsewhere = client.post(
        CANCEL, json={"token": second.token}, headers={"X-Forwarded-For": "198.51.100.8"}
    )
    assert elsewhere.status_code == 200, elsewhere.text
