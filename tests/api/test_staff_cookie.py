"""The staff cookie is set and removed by HTTP answers: HttpOnly, SameSite=Strict; only for
the site's own pages; a ticket works once; a customer's login ticket buys nothing here."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rcxsite.platform.settings import get_settings
from rcxsite.staff import sessions
from rcxsite.web.staff_cookie import STAFF_COOKIE_PATH
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.staff import member


def _origin() -> dict[str, str]:
    return {"Origin": get_settings().allowed_origins[0]}


def test_a_ticket_buys_a_strict_httponly_staff_cookie_once(client: TestClient) -> None:
    enrolled = member("sam@rcx.example")
    answer = client.post(
        STAFF_COOKIE_PATH, json={"ticket": enrolled.cookie_ticket}, headers=_origin()
    )
    assert answer.status_code == 204
    header = answer.headers["set-cookie"]
    assert header.startswith("staffSession=")
    assert "HttpOnly" in header and "SameSite=Strict" in header
    token = header.split("=", 1)[1].split(";", 1)[0]
    assert sessions.session_digest(token) == enrolled.session_digest
    again = client.post(
        STAFF_COOKIE_PATH, json={"ticket": enrolled.cookie_ticket}, headers=_origin()
    )
    assert again.status_code == 400 and "set-cookie" not in again.headers


def test_another_origin_a_customer_ticket_and_a_get_are_refused(client: TestClient) -> None:
    enrolled = member("sam@rcx.example")
    foreign = client.post(
        STAFF_COOKIE_PATH,
        json={"ticket": enrolled.cookie_ticket},
        headers={"Origin": "https://evil.example"},
    )
    assert foreign.status_code == 403 and "set-cookie" not in foreign.headers
    register_customer()
    customer_ticket = calls.authenticate(
        email="alice@example.com", password=PASSWORD, client_ip="192.0.2.1", via_ticket=True
    ).cookie_ticket
    customer = client.post(STAFF_COOKIE_PATH, json={"ticket": customer_ticket}, headers=_origin())
    assert customer.status_code == 400 and "set-cookie" not in customer.headers
    assert client.get(STAFF_COOKIE_PATH).status_code == 405


def test_delete_ends_the_staff_session(client: TestClient) -> None:
    enrolled = member("sam@rcx.example")
    token = sessions.claim_cookie(enrolled.cookie_ticket)
    assert token is not None
    client.cookies.set("staffSession", token)
    answer = client.delete(STAFF_COOKIE_PATH, headers=_origin())
    assert answer.status_code == 204 and "Max-Age=0" in answer.headers["set-cookie"]
    assert sessions.digest_actor(enrolled.session_digest) is None
