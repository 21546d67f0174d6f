"""Hostile input and abuse, as a client of the REST API sees it."""

from __future__ import annotations

import asyncio
import os
import stat

import httpx
import pytest
from fastapi.testclient import TestClient

from rcxsite import accounts
from rcxsite.core import passwords
from rcxsite.platform.settings import Settings
from rcxsite.web.server import server
from tests.support.api import CREATE, FORGOT, LOGIN, LOGOUT, RESET, envelope
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure
from tests.support.smtp import Mailbox

HUGE = "a" * 200_000
TOO_MANY = "Too many requests. Try again in 15 minutes."


async def _parallel(requests: list[tuple[str, dict[str, object]]]) -> list[httpx.Response]:
    transport = httpx.ASGITransport(app=server)
    async with httpx.AsyncClient(transport=transport, base_url="http://rcx.test") as client:
        posts = (client.post(path, json=body) for path, body in requests)
        return list(await asyncio.gather(*posts))


def test_thirty_parallel_wrong_passwords_get_at_most_ten_checked() -> None:
    register_customer()
    wrong = {"UserName": "alice@example.com", "Password": "wrong-password"}

    responses = asyncio.run(_parallel([(LOGIN, wrong)] * 30))

    statuses = sorted(response.status_code for response in responses)
    assert statuses == [401] * 10 + [429] * 20
    assert {envelope(r)["message"] for r in responses if r.status_code == 429} == {TOO_MANY}


def test_twenty_parallel_reset_requests_send_exactly_one_mail(mailbox: Mailbox) -> None:
    register_customer()

    responses = asyncio.run(_parallel([(FORGOT, {"email": "alice@example.com"})] * 20))

    assert sorted(r.status_code for r in responses) == [200] + [429] * 19
    accounts_mail = mailbox.wait_for("alice@example.com")
    assert accounts_mail["Subject"]
    from rcxsite.mail import wait_for_outgoing_mail

    assert wait_for_outgoing_mail(30)
    assert len(mailbox.messages) == 1


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        (LOGIN, {"UserName": HUGE[:60_000], "Password": "x"}, "Max 254 characters"),
        (
            LOGIN,
            {"UserName": "a@b.example", "Password": HUGE[:60_000]},
            "Password must be at most 128 characters long.",
        ),
        (FORGOT, {"email": HUGE[:60_000]}, "Max 254 characters"),
        (FORGOT, {"email": "a" * 60_000 + "@" + "b"}, "Max 254 characters"),
        (
            RESET,
            {"email": "a@b.example", "NewPassword": "n3w-pass", "ResetToken": HUGE[:60_000]},
            accounts.inputs.LINK_INVALID,
        ),
        (CREATE, {"UserName": HUGE[:60_000]}, "Max 100 characters"),
    ],
)
def test_an_oversized_value_gets_a_clear_message_before_any_work(
    client: TestClient,
    path: str,
    body: dict[str, object],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Refused at once, however long the value: no password is hashed for it (the costly
    part of these routes), whatever the machine's load."""

    def no_hashing() -> None:
        raise AssertionError("a password was hashed for an oversized value")

    monkeypatch.setattr(passwords, "_current_context", no_hashing)
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert envelope(response)["message"] == message


def test_a_200000_character_body_is_refused_and_others_keep_being_answered(
    client: TestClient,
) -> None:
    async def both() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=server)
        async with httpx.AsyncClient(transport=transport, base_url="http://rcx.test") as other:
            return await asyncio.gather(
                other.post(FORGOT, json={"email": HUGE}),
                other.get("/robots.txt"),
            )

    huge, robots = asyncio.run(both())
    assert (huge.status_code, envelope(huge)["message"]) == (
        413,
        "The request body is larger than 64 KiB.",
    )
    assert robots.status_code == 200


def test_logout_ends_the_session_and_the_saved_token_is_refused(client: TestClient) -> None:
    customer_id = register_customer()
    login = envelope(
        client.post(LOGIN, json={"UserName": "alice@example.com", "Password": PASSWORD})
    )
    token = str(login["data"]["token"])  # type: ignore[index]
    assert accounts.verify_login_token(token) == customer_id

    out = client.post(LOGOUT, headers={"Authorization": f"Bearer {token}"})

    assert envelope(out) == {"status": 200, "message": "Logged out.", "data": None}
    assert accounts.verify_login_token(token) is None  # replaying the saved cookie's Token


def test_common_passwords_are_refused(client: TestClient) -> None:
    body = {
        "UserName": "Alice",
        "EmailAddress": "alice@example.com",
        "MobileNumber": "9876543210",
        "Password": "Password",
        "CompanyName": "ACME",
        "Location": "Pune",
    }
    response = client.post(CREATE, json=body)
    assert (response.status_code, envelope(response)["message"]) == (
        422,
        "This password is too common. Please choose a less predictable one.",
    )


def test_registrations_are_limited_per_client(client: TestClient, configure: Configure) -> None:
    configure(registration_limit="2 per hour")
    statuses = [
        client.post(
            CREATE,
            json={
                "UserName": "Alice",
                "EmailAddress": f"a{i}@example.com",
                "MobileNumber": "9876543210",
                "Password": "s3cret-pass",
                "CompanyName": "ACME",
                "Location": "Pune",
            },
        ).status_code
        for i in range(3)
    ]
    assert statuses == [201, 201, 429]


def test_ipv6_clients_are_counted_by_their_64(configure: Configure) -> None:
    configure(trusted_proxy_hops=1, registration_limit="1 per hour")
    with TestClient(server) as client:

        def create(address: str, n: int) -> int:
            body = {
                "UserName": "Alice",
                "EmailAddress": f"v6-{n}@example.com",
                "MobileNumber": "9876543210",
                "Password": "s3cret-pass",
                "CompanyName": "ACME",
                "Location": "Pune",
            }
            return client.post(CREATE, json=body, headers={"X-Forwarded-For": address}).status_code

        assert create("2001:db8:1:2::1", 1) == 201
        assert create("2001:db8:1:2:ffff::9", 2) == 429  # same /64
        assert create("2001:db8:1:3::1", 3) == 201  # another /64


def test_a_reset_with_a_dead_link_is_refused_before_any_hashing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rcxsite.accounts import reset

    def no_hashing(password: str) -> str:
        raise AssertionError("hashed for a dead link")

    monkeypatch.setattr(reset, "hash_password", no_hashing)
    response = client.post(
        RESET,
        json={"email": "a@b.example", "NewPassword": "n3w-pass", "ResetToken": "no-such-token"},
    )
    assert response.status_code == 400


def test_the_generated_key_file_is_private_from_creation(tmp_path) -> None:
    settings = Settings(secret_key="", data_dir=tmp_path)
    key = settings.signing_key()
    mode = stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode)
    assert mode == 0o600 and len(key) >= 32
