"""The login cookie is set and removed by HTTP answers: HttpOnly, SameSite=Lax, Secure on
https; only for the site's own pages; a ticket works once."""

from __future__ import annotations

import json
import urllib.parse

from fastapi.testclient import TestClient

from rcxsite.accounts import sessions
from rcxsite.platform.settings import get_settings
from rcxsite.web.login_cookie import LOGIN_COOKIE_PATH
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure


def _ticket() -> str:
    return calls.authenticate(
        email="alice@example.com", password=PASSWORD, client_ip="192.0.2.1", via_ticket=True
    ).cookie_ticket


def _origin() -> dict[str, str]:
    return {"Origin": get_settings().allowed_origins[0]}


def _set_cookies(response) -> dict[str, str]:
    return {header.split("=", 1)[0]: header for header in response.headers.get_list("set-cookie")}


def test_a_ticket_buys_an_httponly_login_cookie_once(client: TestClient) -> None:
    customer_id = register_customer()
    ticket = _ticket()

    answer = client.post(LOGIN_COOKIE_PATH, json={"ticket": ticket}, headers=_origin())

    assert answer.status_code == 204
    assert answer.headers["cache-control"] == "no-store"
    cookies = _set_cookies(answer)
    login = cookies["userSession"]
    assert "HttpOnly" in login and "SameSite=Lax" in login and "Path=/" in login
    assert "Secure" in login  # the test site is https://
    assert f"Max-Age={30 * 24 * 3600}" in login
    value = json.loads(urllib.parse.unquote(login.split(";")[0].split("=", 1)[1]))
    assert set(value) == {"EmailAddress", "UserName", "Token", "CustomerId"}
    assert (value["EmailAddress"], value["UserName"], value["CustomerId"]) == (
        "alice@example.com",
        "Alice",
        customer_id,
    )
    assert sessions.session_customer(value["Token"]) == customer_id
    hint = cookies["userSessionActive"]
    assert hint.startswith("userSessionActive=1;") and "HttpOnly" not in hint

    again = client.post(LOGIN_COOKIE_PATH, json={"ticket": ticket}, headers=_origin())
    assert again.status_code == 400 and "set-cookie" not in again.headers


def test_the_cookie_is_not_marked_secure_on_a_plain_http_site(
    client: TestClient, configure: Configure
) -> None:
    configure(site_url="http://localhost:3000")
    register_customer()
    answer = client.post(
        LOGIN_COOKIE_PATH, json={"ticket": _ticket()}, headers={"Origin": "http://localhost:3000"}
    )
    assert answer.status_code == 204
    assert not any("Secure" in header for header in _set_cookies(answer).values())


def test_another_website_cannot_set_or_remove_the_cookie(client: TestClient) -> None:
    register_customer()
    ticket = _ticket()
    for headers in ({"Origin": "https://evil.example"}, {}):
        answer = client.post(LOGIN_COOKIE_PATH, json={"ticket": ticket}, headers=headers)
        assert answer.status_code == 403 and "set-cookie" not in answer.headers
        assert client.delete(LOGIN_COOKIE_PATH, headers=headers).status_code == 403
    assert (
        client.post(LOGIN_COOKIE_PATH, json={"ticket": ticket}, headers=_origin()).status_code
        == 204
    )


def test_bad_bodies_and_methods_are_refused(client: TestClient) -> None:
    for body in (b"not json", b"[]", json.dumps({"ticket": "x" * 5000}).encode()):
        answer = client.post(LOGIN_COOKIE_PATH, content=body, headers=_origin())
        assert answer.status_code == 400
    wrong = client.get(LOGIN_COOKIE_PATH)
    assert (wrong.status_code, wrong.headers["allow"]) == (405, "POST, DELETE")


def test_removing_the_cookie_ends_its_session(client: TestClient) -> None:
    register_customer()
    set_login = _set_cookies(
        client.post(LOGIN_COOKIE_PATH, json={"ticket": _ticket()}, headers=_origin())
    )["userSession"]
    cookie = set_login.split(";")[0]
    token = json.loads(urllib.parse.unquote(cookie.split("=", 1)[1]))["Token"]

    # The test client keeps no Secure cookie for http://testserver: sent as a browser would.
    answer = client.delete(LOGIN_COOKIE_PATH, headers={**_origin(), "Cookie": cookie})

    assert answer.status_code == 204
    assert all("Max-Age=0" in header for header in _set_cookies(answer).values())
    assert sessions.session_customer(token) is None


def test_deeply_nested_json_is_refused_not_a_crash(client: TestClient) -> None:
    from rcxsite.state.session import _json_object
    from rcxsite.web.sealed_event_cookies import _digest_only

    nested = "[" * 1000
    assert client.post(LOGIN_COOKIE_PATH, content=nested, headers=_origin()).status_code == 400
    cookie = f"userSession={urllib.parse.quote(nested)}"
    answer = client.delete(LOGIN_COOKIE_PATH, headers={**_origin(), "Cookie": cookie})
    assert answer.status_code == 204
    assert _digest_only(cookie) == cookie
    assert _json_object(nested) == {}


def test_an_extra_cors_origin_may_not_set_the_cookie(
    client: TestClient, configure: Configure
) -> None:
    configure(cors_extra_origins="https://partner.example")
    register_customer()
    answer = client.post(
        LOGIN_COOKIE_PATH, json={"ticket": _ticket()}, headers={"Origin": "https://partner.example"}
    )
    assert answer.status_code == 403
