from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from httpx import Response

from rcxsite import accounts, mail
from rcxsite.mail import outgoing
from tests.support.api import CHECK, FORGOT, LOGIN, RESET, envelope
from tests.support.customers import PASSWORD, register_customer
from tests.support.site import jobs_of_kind, outbox_messages, reset_token_in
from tests.support.smtp import Mailbox

UNIFORM = "If an account exists for that email, a reset link has been sent."
LINK_INVALID = (
    "This password reset link has expired or is invalid. Please request a new password reset."
)


def login(client: TestClient, email: str, password: str) -> Response:
    return client.post(LOGIN, json={"UserName": email, "Password": password})


def test_forgot_reset_and_login_again_through_a_real_mail(
    client: TestClient, mailbox: Mailbox
) -> None:
    customer_id = register_customer(email="alice@example.com")

    forgot = client.post(FORGOT, json={"email": "Alice@example.com"})
    assert envelope(forgot) == {"status": 200, "message": UNIFORM, "data": None}
    token = reset_token_in(mailbox.wait_for("alice@example.com"))

    check = client.get(CHECK, params={"resetTocken": token})
    assert envelope(check)["data"] == {"isValid": True, "email": "alice@example.com"}

    body = {"email": "alice@example.com", "NewPassword": "n3w-pass", "ResetToken": token}
    reset = client.post(RESET, json=body)
    assert envelope(reset) == {
        "status": 200,
        "message": "Your password has been successfully reset!",
        "data": None,
    }

    logged_in = envelope(login(client, "alice@example.com", "n3w-pass"))
    assert logged_in["message"] == "Logged in successfully!"
    data = logged_in["data"]
    assert isinstance(data, dict)
    assert {k: v for k, v in data.items() if k != "token"} == {
        "emailAddress": "alice@example.com",
        "userName": "Alice",
        "id": customer_id,
    }
    assert accounts.verify_login_token(str(data["token"])) == customer_id
    assert login(client, "alice@example.com", PASSWORD).status_code == 401
    assert mailbox.wait_for("alice@example.com")["Subject"] == "Your RCX password was changed"

    reused = client.post(RESET, json=body)
    assert envelope(reused) == {"status": 400, "message": LINK_INVALID, "data": None}
    assert envelope(client.get(CHECK, params={"resetTocken": token}))["data"] == {
        "isValid": False,
        "email": "",
    }


def test_forgot_password_answers_alike_for_known_and_unknown_addresses(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_customer(email="alice@example.com")
    assert mail.wait_for_outgoing_mail(timeout=10)  # the registration's own mail has left
    delivered: list[str] = []
    monkeypatch.setattr(
        outgoing, "deliver", lambda settings, message: delivered.append(message["To"])
    )

    known = client.post(FORGOT, json={"email": "alice@example.com"})
    unknown = client.post(FORGOT, json={"email": "nobody@example.com"})

    # Answered with the mail only queued: sending is off the request path.
    assert delivered == [] and len(jobs_of_kind("mail", state="queued")) == 1
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    assert envelope(known) == {"status": 200, "message": UNIFORM, "data": None}
    assert mail.wait_for_outgoing_mail(timeout=10)
    assert delivered == ["alice@example.com"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"email": ""}, 422, "Email is required"),
        ({"email": "not-an-email"}, 422, "Invalid email address"),
        ({"email": "a b@example.com"}, 422, "Invalid email address"),
        ({}, 422, "Email is required"),
        ({"email": None}, 422, "Email is required"),
    ],
)
def test_forgot_password_validation(
    client: TestClient, body: dict[str, object], status: int, message: str
) -> None:
    response = client.post(FORGOT, json=body)

    assert (response.status_code, envelope(response)["message"]) == (status, message)
    assert outbox_messages() == []


def test_forgot_password_rate_limit_says_when_to_retry(client: TestClient) -> None:
    client.post(FORGOT, json={"email": "alice@example.com"})

    limited = client.post(FORGOT, json={"email": "alice@example.com"})

    assert envelope(limited)["message"] == ("Too many requests. Try again in 1 minute.")
    assert limited.status_code == 429
    assert 0 < int(limited.headers["Retry-After"]) <= 60


def test_check_reset_url_answers_invalid_for_bad_tokens(client: TestClient) -> None:
    for token in ("", "unknown", "x" * 5000, "%00", "é"):
        response = client.get(CHECK, params={"resetTocken": token})
        assert envelope(response) == {
            "status": 200,
            "message": LINK_INVALID,
            "data": {"isValid": False, "email": ""},
        }

    missing = client.get(CHECK)
    assert envelope(missing)["message"] == "resetTocken is required"
    assert missing.status_code == 422


def test_check_reset_url_is_limited_per_client(client: TestClient) -> None:
    for _ in range(30):
        assert client.get(CHECK, params={"resetTocken": "guess"}).status_code == 200

    limited = client.get(CHECK, params={"resetTocken": "guess"})

    assert limited.status_code == 429
    assert envelope(limited)["message"] == "Too many requests. Try again in 1 minute."
    assert "Retry-After" in limited.headers


@pytest.mark.parametrize(
    ("changes", "status", "message"),
    [
        ({"NewPassword": ""}, 422, "Please enter a new password."),
        ({"NewPassword": "abc"}, 422, "Password must be at least 4 characters long."),
        ({"NewPassword": "x" * 129}, 422, "Password must be at most 128 characters long."),
        ({"ResetToken": "forged"}, 400, LINK_INVALID),
        ({"email": "someone-else@example.com"}, 400, LINK_INVALID),
        ({"ResetToken": None}, 400, LINK_INVALID),
    ],
)
def test_reset_password_errors(
    client: TestClient, changes: dict[str, object], status: int, message: str
) -> None:
    register_customer(email="alice@example.com")
    client.post(FORGOT, json={"email": "alice@example.com"})
    token = reset_token_in(outbox_messages()[-1])
    body = {"email": "alice@example.com", "NewPassword": "n3w-pass", "ResetToken": token}

    response = client.post(RESET, json=body | changes)

    assert (response.status_code, envelope(response)["message"]) == (status, message)
    assert login(client, "alice@example.com", PASSWORD).status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"UserName": "alice@example.com", "Password": "wrong"}, 401, "Invalid email or password."),
        (
            {"UserName": "nobody@example.com", "Password": "wrong"},
            401,
            "Invalid email or password.",
        ),
        ({"UserName": "", "Password": "x"}, 422, "Email is required"),
        ({"UserName": "alice@example.com", "Password": ""}, 422, "Password is required"),
        ({"UserName": "alice@example.com"}, 422, "Password is required"),
    ],
)
def test_login_errors(
    client: TestClient, body: dict[str, object], status: int, message: str
) -> None:
    register_customer(email="alice@example.com")

    response = client.post(LOGIN, json=body)

    assert (response.status_code, envelope(response)["message"]) == (status, message)


def test_login_is_locked_after_ten_failures(client: TestClient) -> None:
    register_customer(email="alice@example.com")
    for _ in range(10):
        assert login(client, "alice@example.com", "wrong").status_code == 401

    locked = login(client, "alice@example.com", PASSWORD)

    assert locked.status_code == 429
    assert envelope(locked)["message"] == "Too many requests. Try again in 15 minutes."
    assert 14 * 60 < int(locked.headers["Retry-After"]) <= 15 * 60
