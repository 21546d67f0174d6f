"""/api/v1/Booking: the free times, booking one, and the manage link's reschedule and
cancel, as an API client sees them (envelopes, statuses, texts) and as they are stored.

The API runs on the real clock, so the calls are booked at starts taken from the live
/Booking/Slots answer of a member who works the default week."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from rcxsite import booking
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import QuoteRequest
from rcxsite.platform.db import get_engine
from tests.support.api import envelope
from tests.support.booking import (
    LONDON,
    NEW_YORK,
    add_host,
    booking_fields,
    empty_booking_tables,
    stored_booking,
    stored_bookings,
)
from tests.support.site import outbox_messages

SLOTS = "/api/v1/Booking/Slots"
BOOK = "/api/v1/Booking"
RESCHEDULE = "/api/v1/Booking/Reschedule"
CANCEL = "/api/v1/Booking/Cancel"
TAKEN = "That time has just been booked. Please choose another."
LINK_INVALID = "This link is not valid. Please use the link in your latest invitation."
CANCELLED = "This call was cancelled, so it can no longer be changed."
UTC_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
MANAGE_LINK = re.compile(r"/booking/([A-Za-z0-9_-]+)")


@pytest.fixture(autouse=True)
def empty_tables(fresh_state: None) -> Iterator[None]:
    # The shared reset_state does not know the booking tables.
    empty_booking_tables()
    yield
    assert wait_for_outgoing_mail(30), "booking mail outcomes were not recorded in time"


def _slots(client: TestClient, **params: str) -> dict[str, Any]:
    response = client.get(SLOTS, params=params)
    assert response.status_code == 200, response.text
    data = envelope(response)["data"]
    assert isinstance(data, dict)
    return data


def _starts(client: TestClient) -> list[str]:
    return [slot["start"] for slot in _slots(client, days="14")["slots"]]


def _body(start: str, **overrides: Any) -> dict[str, Any]:
    """The booking as an API client sends it: `timeZone`, not the form's `time_zone`."""
    fields = booking_fields(datetime.now(UTC), **overrides)
    fields.pop("time_zone")
    return {**fields, "start": start, "timeZone": NEW_YORK, **overrides}


def _book(client: TestClient, start: str, **overrides: Any) -> dict[str, Any]:
    response = client.post(BOOK, json=_body(start, **overrides))
    assert response.status_code == 201, response.text
    data = envelope(response)["data"]
    assert isinstance(data, dict)
    return data


def _mailed_token() -> str:
    """The manage link's token in the visitor's invitation."""
    [invitation] = [m for m in outbox_messages() if "alice@client.example" in str(m["To"])]
    body = invitation.get_body(("plain",))
    assert body is not None
    match = MANAGE_LINK.search(body.get_content())
    assert match, "no manage link in the invitation"
    return match.group(1)


def _errors(response: Any) -> dict[str, str]:
    data = envelope(response)["data"]
    assert isinstance(data, dict)
    errors = data["errors"]
    assert isinstance(errors, dict)
    return errors


def test_slots_are_utc_times_of_the_next_seven_days_by_default(client: TestClient) -> None:
    add_host("Sam Sales")
    data = _slots(client)

    assert set(data) == {"timeZone", "callMinutes", "slots"}
    assert (data["timeZone"], data["callMinutes"]) == (LONDON, 30)
    assert data["slots"], "a member on the default week has free times within 7 days"
    today = datetime.now(ZoneInfo(LONDON)).date()
    for slot in data["slots"]:
        assert set(slot) == {"start", "end"}
        assert UTC_TIME.fullmatch(slot["start"]) and UTC_TIME.fullmatch(slot["end"])
        start = datetime.fromisoformat(slot["start"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(slot["end"].replace("Z", "+00:00"))
        assert end - start == timedelta(minutes=30)
        assert today <= start.astimezone(ZoneInfo(LONDON)).date() < today + timedelta(days=7)
    assert _slots(client, days="7") == data
    assert _slots(client, timeZone=NEW_YORK)["timeZone"] == NEW_YORK


@pytest.mark.parametrize("days", ["0", "32", "x"])
def test_days_out_of_range_are_refused_with_the_message(client: TestClient, days: str) -> None:
    response = client.get(SLOTS, params={"days": days})

    assert response.status_code == 422
    assert envelope(response)["message"] == "days must be between 1 and 31"
    assert _errors(response) == {"days": "days must be between 1 and 31"}


def test_an_unknown_time_zone_or_date_is_refused_under_the_query_names(
    client: TestClient,
) -> None:
    response = client.get(SLOTS, params={"timeZone": "Mars/Base", "from": "2027-02-30"})

    assert response.status_code == 422
    assert _errors(response) == {"from": "Invalid date", "timeZone": "Unknown time zone"}
    far = client.get(SLOTS, params={"from": "0001-01-01", "timeZone": "Asia/Tokyo"})
    assert (far.status_code, _errors(far)) == (422, {"from": "Invalid date"})


def test_booking_a_free_time_answers_the_call(client: TestClient) -> None:
    add_host("Sam Sales")
    start = _starts(client)[0]

    response = client.post(BOOK, json=_body(start))

    assert response.status_code == 201
    body = envelope(response)
    assert body["message"] == "Your call is booked."
    data = body["data"]
    assert isinstance(data, dict)
    assert set(data) == {"id", "start", "end", "timeZone", "host", "callKind", "meetingUrl"}
    assert data["callKind"] == "video" and data["meetingUrl"].startswith("https://meet.jit.si/")
    assert (data["start"], data["timeZone"], data["host"]) == (
        start,
        NEW_YORK,
        {"name": "Sam Sales"},
    )
    assert UTC_TIME.fullmatch(data["end"])
    row = stored_booking(data["id"])
    assert (row.visitor_time_zone, row.status, row.sequence) == (NEW_YORK, "booked", 0)
    assert start not in _starts(client)


def test_the_same_time_again_is_taken_with_one_member(client: TestClient) -> None:
    add_host("Sam Sales")
    start = _starts(client)[0]
    _book(client, start)

    again = client.post(BOOK, json=_body(start, email="bob@client.example"))

    assert again.status_code == 409
    assert envelope(again) == {"status": 409, "message": TAKEN, "data": None}
    assert len(stored_bookings()) == 1


def test_invalid_fields_are_listed_under_the_api_names(client: TestClient) -> None:
    add_host("Sam Sales")
    start = _starts(client)[0]

    response = client.post(
        BOOK, json=_body(start, message="Too short", timeZone="Nowhere/City", phone="12")
    )

    assert response.status_code == 422
    assert envelope(response)["message"] == "Please correct the highlighted fields."
    assert _errors(response) == {
        "phone": "Invalid phone number",
        "timeZone": "Unknown time zone",
        "message": "Please tell us a little more (at least 20 characters)",
    }
    missing = client.post(BOOK, json={})
    assert missing.status_code == 422
    assert _errors(missing)["start"] == "Please choose a time for the call"
    assert stored_bookings() == []


def test_a_filled_bot_trap_is_answered_as_received_and_nothing_is_booked(
    client: TestClient,
) -> None:
    add_host("Sam Sales")
    start = _starts(client)[0]

    response = client.post(BOOK, json=_body(start, website="https://spam.example"))

    assert response.status_code == 201
    body = envelope(response)
    assert body["data"] is None
    assert body["message"] == "Thank you! Your request has been received."
    assert stored_bookings() == []
    with Session(get_engine()) as session:
        statuses = session.exec(select(QuoteRequest.status).order_by(col(QuoteRequest.id)))
        assert list(statuses) == ["spam"]
    assert start in _starts(client)


def test_the_mailed_manage_link_moves_the_call(client: TestClient) -> None:
    add_host("Sam Sales")
    first = _starts(client)[0]
    booked = _book(client, first)
    token = _mailed_token()
    later = _starts(client)[-1]

    response = client.post(RESCHEDULE, json={"token": token, "start": later})

    assert response.status_code == 200, response.text
    data = envelope(response)["data"]
    assert isinstance(data, dict)
    assert (data["id"], data["start"], data["host"]) == (booked["id"], later, {"name": "Sam Sales"})
    row = stored_booking(booked["id"])
    assert (row.sequence, row.starts_at) == (1, datetime.fromisoformat(later))
    assert first in _starts(client) and later not in _starts(client)


def test_the_service_token_moves_and_cancels_the_call_once(client: TestClient) -> None:
    add_host("Sam Sales")
    starts = _starts(client)
    chosen = datetime.fromisoformat(starts[0])
    receipt = booking.book(
        booking.BookingInput.parse(booking_fields(chosen)), client_ip="203.0.113.9"
    )

    moved = client.post(RESCHEDULE, json={"token": receipt.token, "start": starts[-1]})
    assert moved.status_code == 200
    assert stored_booking(receipt.booking_id).sequence == 1

    cancelled = client.post(CANCEL, json={"token": receipt.token})
    assert envelope(cancelled) == {
        "status": 200,
        "message": "Your call is cancelled.",
        "data": None,
    }
    assert stored_booking(receipt.booking_id).status == "cancelled"

    again = client.post(CANCEL, json={"token": receipt.token})
    assert (again.status_code, envelope(again)["message"]) == (410, CANCELLED)
    late_move = client.post(RESCHEDULE, json={"token": receipt.token, "start": starts[0]})
    assert (late_move.status_code, envelope(late_move)["message"]) == (410, CANCELLED)


def test_an_unknown_token_is_not_a_manage_link(client: TestClient) -> None:
    add_host("Sam Sales")
    start = _starts(client)[0]

    for path, body in (
        (CANCEL, {"token": "not-a-token"}),
        (RESCHEDULE, {"token": "not-a-token", "start": start}),
    ):
        response = client.post(path, json=body)
        assert (response.status_code, envelope(response)["message"]) == (404, LINK_INVALID)


def test_starts_within_the_documented_years_are_taken_and_others_refused(
    client: TestClient,
) -> None:
    # At the documented years' edges an offset moves the time into the next or the
    # previous year; before the year 1 in UTC, it would leave the calendar.
    add_host("Sam Sales")
    for start in ("2999-12-31T23:59:59-23:59", "2000-01-01T00:00:00+23:59"):
        response = client.post(BOOK, json=_body(start))
        assert (response.status_code, envelope(response)["message"]) == (409, TAKEN)
    ancient = client.post(BOOK, json=_body("0001-01-01T00:00:00+05:00"))
    assert (ancient.status_code, _errors(ancient)) == (
        422,
        {"start": "Please choose a time for the call"},
    )


def test_call_kind_none_sends_the_request_without_a_call(client: TestClient) -> None:
    add_host("Sam Sales")
    body = {key: value for key, value in _body("").items() if key not in {"start", "timeZone"}}

    response = client.post(BOOK, json={**body, "callKind": "none"})

    assert response.status_code == 201
    answer = envelope(response)
    assert answer["message"] == "Thank you! Your request has been received."
    assert answer["data"]["callKind"] == "none"
    request_id = answer["data"]["id"]
    with Session(get_engine()) as session:
        stored = session.get(QuoteRequest, request_id)
        assert stored is not None and (stored.call_date, stored.call_time) == (None, "")
    assert stored_bookings() == []


def test_a_phone_call_without_a_number_is_refused_under_the_api_names(client: TestClient) -> None:
    add_host("Sam Sales")
    start = _starts(client)[0]
    response = client.post(BOOK, json=_body(start, callKind="phone", phone=""))
    assert response.status_code == 422
    assert _errors(response) == {"phone": "Please give the number we should call"}
    bad = client.post(BOOK, json=_body(start, callKind="carrier-pigeon"))
    assert _errors(bad) == {"callKind": "Please choose a video call or a phone call"}
    phoned = _book(client, start, callKind="phone", phone="+1 212 555 0100")
    assert (phoned["callKind"], phoned["meetingUrl"]) == ("phone", "")


def test_the_openapi_document_names_every_call_kind(client: TestClient) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    body = schema["paths"]["/api/v1/Booking"]["post"]["requestBody"]["content"]
    [booked, written, _trapped] = body["application/json"]["schema"]["anyOf"]
    assert booked["properties"]["callKind"]["enum"] == ["", "video", "phone"]
    assert written["properties"]["callKind"] == {"const": "none"}
    assert "callKind" in written["required"] and "start" not in written["properties"]


def test_a_browsers_legacy_zone_is_stored_and_answered_by_its_canonical_name(
    client: TestClient,
) -> None:
    add_host("Sam Sales")
    assert _slots(client, timeZone="Asia/Calcutta")["timeZone"] == "Asia/Kolkata"
    start = _starts(client)[0]
    data = _book(client, start, timeZone="Asia/Calcutta")
    assert data["timeZone"] == "Asia/Kolkata"
    assert stored_booking(data["id"]).visitor_time_zone == "Asia/Kolkata"


def test_the_openapi_zone_list_holds_canonical_zones_only(client: TestClient) -> None:
    """A generated client (openapi-python-client) makes an enum key of each name: aliases
    such as GMT0, GMT+0 and GMT-0 made duplicate keys, and it refused the document."""
    schema = client.get("/api/v1/openapi.json").json()
    body = schema["paths"]["/api/v1/Booking"]["post"]["requestBody"]["content"]
    [booked, *_] = body["application/json"]["schema"]["anyOf"]
    zones = booked["properties"]["timeZone"]["enum"]
    assert {"", "Asia/Kolkata", "Europe/London", "UTC"} <= set(zones)
    assert not {"Asia/Calcutta", "GMT0", "GMT+0", "GMT-0", "US/Eastern", "Etc/GMT+5"} & set(zones)
    keys = [re.sub(r"[^A-Z0-9]+", "_", zone.upper()).strip("_") for zone in zones if zone]
    assert len(keys) == len(set(keys))
