"""The signed-in customer's own account over the REST API (Authorization: Bearer)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, col, update

from rcxsite import accounts
from rcxsite.booking import utc_text
from rcxsite.models import Customer, utcnow
from rcxsite.platform.db import get_engine
from tests.support.api import CHANGE_PASSWORD, EXPORT, LOGIN, LOGOUT_ALL, ME, envelope
from tests.support.booking import add_host, booking_row
from tests.support.customers import PASSWORD, register_customer
from tests.support.quotes import quote_row
from tests.support.site import outbox_messages

NEW_PASSWORD = "another-long-pass"
SIGNED_OUT = {"status": 401, "message": "Please log in to continue.", "data": None}


def _bearer(client: TestClient, email: str = "alice@example.com", password: str = PASSWORD):
    login = envelope(client.post(LOGIN, json={"UserName": email, "Password": password}))
    return {"Authorization": f"Bearer {login['data']['token']}"}  # type: ignore[index]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", ME),
        ("PATCH", ME),
        ("DELETE", ME),
        ("POST", CHANGE_PASSWORD),
        ("POST", LOGOUT_ALL),
        ("GET", EXPORT),
    ],
)
@pytest.mark.parametrize("authorization", [None, "Bearer", "Bearer forged-token", "Basic abc"])
def test_every_account_route_needs_a_live_session(
    client: TestClient, method: str, path: str, authorization: str | None
) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    response = client.request(method, path, headers=headers, json={})
    assert envelope(response) == SIGNED_OUT


def test_me_shows_the_account_with_its_plan(client: TestClient) -> None:
    register_customer(subscription_plan_id=103, plan_duration_id=1, is_trial=False)
    me = envelope(client.get(ME, headers=_bearer(client)))
    data = me["data"]
    assert me["status"] == 200
    assert {
        key: data[key]
        for key in (
            "userName",
            "emailAddress",
            "mobileNumber",  # type: ignore[index]
            "companyName",
            "location",
            "plan",
            "quoteRequests",
        )
    } == {
        "userName": "Alice",
        "emailAddress": "alice@example.com",
        "mobileNumber": "9876543210",
        "companyName": "ACME",
        "location": "Pune",
        "plan": {"name": "Scale", "duration": "Monthly", "isTrial": False},
        "quoteRequests": [],
    }
    assert data["memberSince"]  # type: ignore[index]


def test_patch_me_validates_like_registration_and_saves(client: TestClient) -> None:
    register_customer()
    headers = _bearer(client)
    refused = envelope(
        client.patch(
            ME,
            headers=headers,
            json={
                "UserName": "Al",
                "MobileNumber": "98765",
                "CompanyName": "ACME",
                "Location": "Pune",
            },
        )
    )
    assert refused["status"] == 422
    assert refused["data"] == {
        "errors": {  # type: ignore[comparison-overlap]
            "UserName": "Min 3 characters",
            "MobileNumber": "Invalid mobile number",
        }
    }
    saved = envelope(
        client.patch(
            ME,
            headers=headers,
            json={
                "UserName": "Alice B",
                "MobileNumber": "9123456789",
                "CompanyName": "Beta",
                "Location": "Mumbai",
                "EmailAddress": "mallory@example.com",
            },
        )
    )
    assert saved["message"] == "Your details have been saved."
    assert saved["data"]["userName"] == "Alice B"  # type: ignore[index]
    assert saved["data"]["emailAddress"] == "alice@example.com"  # type: ignore[index]


def _change_password(
    client: TestClient, headers: dict[str, str], current: str, new: str, confirm: str
) -> dict[str, object]:
    body = {"CurrentPassword": current, "NewPassword": new, "ConfirmPassword": confirm}
    return envelope(client.post(CHANGE_PASSWORD, headers=headers, json=body))


def test_change_password_ends_every_token_and_answers_a_new_one(client: TestClient) -> None:
    register_customer()
    this, other = _bearer(client), _bearer(client)
    wrong = _change_password(client, this, "nope", NEW_PASSWORD, NEW_PASSWORD)
    assert (wrong["status"], wrong["message"]) == (400, "Your current password is incorrect.")
    mismatch = _change_password(client, this, PASSWORD, NEW_PASSWORD, "other")
    assert mismatch["data"] == {"errors": {"ConfirmPassword": "Passwords do not match."}}

    done = _change_password(client, this, PASSWORD, NEW_PASSWORD, NEW_PASSWORD)

    assert done["status"] == 200
    # Rotated: the token that made the change is refused like every other one.
    assert envelope(client.get(ME, headers=this)) == SIGNED_OUT
    assert envelope(client.get(ME, headers=other)) == SIGNED_OUT
    new = {"Authorization": f"Bearer {done['data']['token']}"}
    assert client.get(ME, headers=new).status_code == 200
    assert "changed" in outbox_messages()[-1]["Subject"]
    assert (
        client.post(
            LOGIN, json={"UserName": "alice@example.com", "Password": NEW_PASSWORD}
        ).status_code
        == 200
    )


def test_logout_all_ends_this_session_too(client: TestClient) -> None:
    register_customer()
    this, other = _bearer(client), _bearer(client)
    out = envelope(client.post(LOGOUT_ALL, headers=this))
    assert out == {"status": 200, "message": "You have been signed out everywhere.", "data": None}
    assert envelope(client.get(ME, headers=this)) == SIGNED_OUT
    assert envelope(client.get(ME, headers=other)) == SIGNED_OUT


def test_export_lists_the_account_and_its_sessions_without_secrets(client: TestClient) -> None:
    register_customer()
    headers = _bearer(client)
    exported = envelope(client.get(EXPORT, headers=headers))
    data = exported["data"]
    assert data["account"]["emailAddress"] == "alice@example.com"  # type: ignore[index]
    assert len(data["sessions"]) == 1  # type: ignore[index]
    text = str(data)
    assert headers["Authorization"].split()[1] not in text and "argon2" not in text


def test_delete_me_needs_the_password_then_the_address_is_free_again(
    client: TestClient,
) -> None:
    register_customer()
    headers = _bearer(client)
    wrong = envelope(
        client.request("DELETE", ME, headers=headers, json={"Password": "nope", "Confirm": True})
    )
    assert (wrong["status"], wrong["message"]) == (400, "The password is incorrect.")
    unconfirmed = envelope(
        client.request("DELETE", ME, headers=headers, json={"Password": PASSWORD})
    )
    assert unconfirmed["status"] == 422

    deleted = envelope(
        client.request("DELETE", ME, headers=headers, json={"Password": PASSWORD, "Confirm": True})
    )

    assert deleted == {"status": 200, "message": "Your account has been deleted.", "data": None}
    assert envelope(client.get(ME, headers=headers)) == SIGNED_OUT
    assert accounts.verify_login_token(headers["Authorization"].split()[1]) is None
    register_customer()  # the same address, registered again
    assert client.get(ME, headers=_bearer(client)).status_code == 200


def test_the_account_routes_are_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert set(paths[ME]) == {"get", "patch", "delete"}
    for path, method in ((CHANGE_PASSWORD, "post"), (LOGOUT_ALL, "post"), (EXPORT, "get")):
        assert "401" in paths[path][method]["responses"]


def test_personal_answers_are_never_stored_by_caches(client: TestClient) -> None:
    register_customer()
    login = client.post(LOGIN, json={"UserName": "alice@example.com", "Password": PASSWORD})
    headers = {"Authorization": f"Bearer {login.json()['data']['token']}"}

    assert login.headers["cache-control"] == "no-store"
    for path in (ME, EXPORT):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "no-store"


def test_a_token_left_open_on_a_locked_account_is_refused(client: TestClient) -> None:
    """A login that raced a staff lock can leave its session unrevoked: the lock alone
    must keep the token out."""
    customer_id = register_customer()
    headers = _bearer(client)
    assert client.get(ME, headers=headers).status_code == 200
    with Session(get_engine()) as session:  # the lock as the race leaves it: sessions open
        session.exec(
            update(Customer).where(col(Customer.id) == customer_id).values(locked_at=utcnow())
        )
        session.commit()

    assert envelope(client.get(ME, headers=headers)) == SIGNED_OUT


def test_export_holds_the_requests_own_words_and_every_call_once_the_address_is_proved(
    client: TestClient,
) -> None:
    register_customer()
    host = add_host("Vera Video")
    soon = (datetime.now(UTC) + timedelta(days=3)).replace(microsecond=0)
    past = soon - timedelta(days=30)
    meeting = "https://meet.example.com/rcx-vera"
    with Session(get_engine()) as session:
        earlier_request = quote_row(email="alice@example.com", owner_id=host, created_at=past)
        request = quote_row(email="Alice@Example.com", owner_id=host, message="Our own words.")
        session.add_all([earlier_request, request])
        session.flush()
        assert earlier_request.id is not None and request.id is not None
        company = request.company
        session.add_all(
            [
                booking_row(
                    earlier_request.id, host, past, email="alice@example.com", status="held"
                ),
                booking_row(request.id, host, soon, email="alice@example.com", meeting_url=meeting),
            ]
        )
        session.commit()
    headers = _bearer(client)

    # Anyone can register an address: until it is proved, nothing booked under it shows.
    unproved = envelope(client.get(EXPORT, headers=headers))["data"]
    assert unproved["quoteRequests"] == [] and unproved["calls"] == []  # type: ignore[index]

    with Session(get_engine()) as session:
        session.exec(update(Customer).values(email_verified_at=utcnow()))  # type: ignore[call-overload]
        session.commit()
    data = envelope(client.get(EXPORT, headers=headers))["data"]
    sent = {request["message"]: request for request in data["quoteRequests"]}  # type: ignore[index]
    assert len(sent) == 2 and sent["Our own words."]["company"] == company
    assert all(kept["budget"] and kept["timeline"] and kept["sentAt"] for kept in sent.values())
    earlier, coming = data["calls"]  # type: ignore[index]
    assert (earlier["start"], earlier["status"], earlier["manageUrl"]) == (
        utc_text(past),
        "held",
        None,  # a past call can no longer change
    )
    assert (coming["start"], coming["host"], coming["meetingUrl"]) == (
        utc_text(soon),
        "Vera Video",
        meeting,
    )
    assert "/booking/" in coming["manageUrl"]
