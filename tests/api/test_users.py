from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from rcxsite.accounts.results import REGISTERED_MESSAGE
from rcxsite.models import Customer
from rcxsite.platform.db import get_engine
from rcxsite.web.server import server
from tests.support.api import CREATE, envelope
from tests.support.fixtures import Configure

BODY = {
    "UserName": "Alice",
    "EmailAddress": "alice@example.com",
    "MobileNumber": "9876543210",
    "Password": "abcd",
    "CompanyName": "ACME",
    "Location": "Pune",
    "ProjectId": 3,
    "SubscriptionPlanId": 4,
    "PlanDurationId": 5,
    "IsTrial": True,
}


def _customers() -> list[Customer]:
    with Session(get_engine()) as session:
        return list(session.exec(select(Customer)))


def test_create_customer_stores_every_field(client: TestClient) -> None:
    response = client.post(CREATE, json=BODY)

    [row] = _customers()
    assert response.status_code == 201
    assert envelope(response) == {
        "status": 201,
        "message": REGISTERED_MESSAGE,
        "data": None,
    }
    assert (row.user_name, row.email, row.mobile_number) == (
        "Alice",
        "alice@example.com",
        "9876543210",
    )
    assert (row.company_name, row.location) == ("ACME", "Pune")
    assert (row.project_id, row.subscription_plan_id, row.plan_duration_id, row.is_trial) == (
        3,
        4,
        5,
        True,
    )


def test_the_optional_fields_may_be_left_out(client: TestClient) -> None:
    body = {key: BODY[key] for key in list(BODY)[:6]}

    assert client.post(CREATE, json=body).status_code == 201
    [row] = _customers()
    assert (row.project_id, row.is_trial) == (None, False)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"UserName": "Al"}, "Min 3 characters"),
        ({"EmailAddress": ""}, "Email is required"),
        ({"EmailAddress": "alice@"}, "Invalid email"),
        ({"MobileNumber": "12345"}, "Invalid mobile number"),
        ({"Password": "abc"}, "Min 4 characters"),
        ({"CompanyName": " "}, "Company name is required"),
        ({"Location": ""}, "Location is required"),
        ({"ProjectId": 2**63}, "Must be a whole number from 0 to 2147483647"),
        ({"UserName": 12345}, "UserName: Input should be a valid string"),
        (
            {"IsTrial": "maybe"},
            "IsTrial: Input should be a valid boolean",
        ),
        (
            {"ProjectId": 1.5},
            "Must be a whole number from 0 to 2147483647",
        ),
    ],
)
def test_invalid_registrations_are_refused_with_the_rule_message(
    client: TestClient, changes: dict[str, object], message: str
) -> None:
    response = client.post(CREATE, json=BODY | changes)

    body = envelope(response)
    assert (response.status_code, body["message"]) == (422, message)
    assert body["data"] == {"errors": {next(iter(changes)): message}}
    assert _customers() == []


def test_a_missing_field_is_named(client: TestClient) -> None:
    body = {key: value for key, value in BODY.items() if key != "MobileNumber"}

    response = client.post(CREATE, json=body)

    assert (response.status_code, envelope(response)["message"]) == (
        422,
        "Mobile number is required",
    )


def test_twenty_parallel_duplicate_requests_create_one_customer(configure: Configure) -> None:
    configure(registration_limit="100 per hour")  # all twenty come from one test client

    async def register_twenty() -> list[int]:
        transport = httpx.ASGITransport(app=server)
        async with httpx.AsyncClient(transport=transport, base_url="http://rcx.test") as client:
            bodies = [
                BODY | {"EmailAddress": "ALICE@example.com" if i % 2 else "alice@example.com"}
                for i in range(20)
            ]
            responses = await asyncio.gather(*(client.post(CREATE, json=b) for b in bodies))
        for response in responses:
            envelope(response)
        return sorted(response.status_code for response in responses)

    # The same answer for every one: the API tells nobody which addresses are customers.
    assert asyncio.run(register_twenty()) == [201] * 20
    assert len(_customers()) == 1
