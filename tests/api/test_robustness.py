"""Hostile or broken input gets a 4xx envelope: never a 500, a trace, or half-written rows."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator

import pytest
from fastapi.responses import PlainTextResponse
from fastapi.testclient import TestClient
from sqlmodel import Session, func, select

from rcxsite.api.body_limit import MAX_BODY_BYTES
from rcxsite.models import Customer, PasswordResetToken
from rcxsite.platform.db import get_engine
from rcxsite.web.server import create_server, server
from tests.support.api import (
    CHANGE_PASSWORD,
    CHECK,
    CREATE,
    EXPORT,
    FORGOT,
    LOGIN,
    LOGOUT,
    LOGOUT_ALL,
    ME,
    RESET,
    VERIFICATION_EMAIL,
    VERIFY_EMAIL,
    envelope,
)
from tests.support.customers import register_customer
from tests.support.fixtures import Configure

VALID_BODIES: dict[str, dict[str, object]] = {
    FORGOT: {"email": "alice@example.com"},
    RESET: {"email": "alice@example.com", "NewPassword": "n3w-pass", "ResetToken": "t"},
    LOGIN: {"UserName": "alice@example.com", "Password": "s3cret-pass"},
    VERIFY_EMAIL: {"Token": "t"},
    CREATE: {
        "UserName": "Bobby",
        "EmailAddress": "bob@example.com",
        "MobileNumber": "9876543210",
        "Password": "abcd",
        "CompanyName": "ACME",
        "Location": "Pune",
    },
}
# Taken from a signed-in customer only: sent with alice's bearer token, so that the body
# itself is judged rather than the missing login (401).
SIGNED_IN_BODIES = {VERIFY_EMAIL}
ODD_TEXT = {
    "nul": "a\x00b",
    "control": "a\x1b[31mb",
    "surrogate": "a\ud800b",
    "huge": "x" * 60_000,
    "emoji": "👩‍💻 テスト",
    "newline": "a\r\nBcc: victim@example.com",
}


def _rows() -> tuple[int, int]:
    with Session(get_engine()) as session:
        customers = session.exec(select(func.count()).select_from(Customer)).one()
        tokens = session.exec(select(func.count()).select_from(PasswordResetToken)).one()
    return customers, tokens


def _headers(client: TestClient, path: str) -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    if path in SIGNED_IN_BODIES:
        register_customer(email="alice@example.com")
        login = envelope(client.post(LOGIN, json=VALID_BODIES[LOGIN]))
        headers["Authorization"] = f"Bearer {login['data']['token']}"  # type: ignore[index]
    return headers


def _odd_bodies() -> Iterator[tuple[str, str, str]]:
    for path, body in VALID_BODIES.items():
        for field in body:
            for kind in ODD_TEXT:
                yield path, field, kind


@pytest.mark.parametrize(("path", "field", "kind"), list(_odd_bodies()))
def test_odd_text_in_any_field_is_a_client_error(
    client: TestClient, path: str, field: str, kind: str
) -> None:
    register_customer(email="alice@example.com")
    headers = _headers(client, path)
    before = _rows()
    # json.dumps escapes the lone surrogate as \ud800, which is valid JSON text.
    payload = json.dumps(VALID_BODIES[path] | {field: ODD_TEXT[kind]})

    response = client.post(path, content=payload, headers=headers)

    body = envelope(response)
    assert 200 <= response.status_code < 500
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        assert body["message"] and _rows() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "The request body is not valid JSON."),
        (b'{"email": "a@b.com"', "The request body is not valid JSON."),
        (b"\xff\xfe\x00", "There was an error parsing the body"),  # FastAPI's own wording
        (b"[1, 2]", "The request body must be a JSON object sent as application/json."),
        (b'"just a string"', "The request body must be a JSON object sent as application/json."),
        (b"", "A JSON request body is required."),
    ],
)
def test_malformed_bodies_are_400(client: TestClient, content: bytes, message: str) -> None:
    for path in VALID_BODIES:
        response = client.post(path, content=content, headers=_headers(client, path))
        assert (response.status_code, envelope(response)["message"]) == (400, message)


def test_a_body_sent_as_another_content_type_is_400(client: TestClient) -> None:
    response = client.post(FORGOT, content=json.dumps(VALID_BODIES[FORGOT]))

    assert response.status_code == 400
    assert "application/json" in str(envelope(response)["message"])


def test_bodies_over_64_kib_are_refused_declared_or_streamed(client: TestClient) -> None:
    big = json.dumps({"email": "a@example.com", "pad": "x" * MAX_BODY_BYTES}).encode()
    headers = {"Content-Type": "application/json"}

    declared = client.post(FORGOT, content=big, headers=headers)
    streamed = client.post(FORGOT, content=iter([big[:40_000], big[40_000:]]), headers=headers)
    bad_length = client.post(FORGOT, content=b"{}", headers=headers | {"Content-Length": "x"})

    expected = (413, "The request body is larger than 64 KiB.")
    assert (declared.status_code, envelope(declared)["message"]) == expected
    assert "content-length" not in streamed.request.headers
    assert (streamed.status_code, envelope(streamed)["message"]) == expected
    assert bad_length.status_code == 400
    assert _rows() == (0, 0)
    # Refused before the API reads a byte, and still with the headers every answer carries.
    for refusal in (declared, streamed, bad_length):
        assert refusal.headers["x-content-type-options"] == "nosniff"
        assert refusal.headers["content-security-policy"].startswith("default-src 'none'")


def test_a_body_just_under_the_limit_is_read(client: TestClient) -> None:
    body = json.dumps({"email": "a@example.com", "pad": ""})
    padded = body.replace('"pad": ""', '"pad": "' + "x" * (MAX_BODY_BYTES - len(body)) + '"')
    assert len(padded) == MAX_BODY_BYTES

    response = client.post(FORGOT, content=padded, headers={"Content-Type": "application/json"})

    assert response.status_code == 200


def test_unknown_paths_and_methods_under_api_v1_get_envelopes(client: TestClient) -> None:
    missing = client.get("/api/v1/Auth/Nothing")
    wrong_method = client.get(LOGIN)
    wrong_method_on_get = client.post(CHECK)

    assert (missing.status_code, envelope(missing)["message"]) == (404, "Not found.")
    assert (wrong_method.status_code, envelope(wrong_method)["message"]) == (
        405,
        "Method not allowed.",
    )
    assert wrong_method_on_get.status_code == 405


def test_the_app_claims_nothing_outside_api_v1(client: TestClient) -> None:
    plain_routes = [route.path for route in server.routes if hasattr(route, "path")]
    documented = client.get("/api/v1/openapi.json").json()["paths"]

    assert all(path.startswith("/api/v1/") for path in [*plain_routes, *documented])
    # Everything else is left to the Reflex backend mounted behind this app.
    for path in ("/", "/docs", "/docs/oauth2-redirect", "/openapi.json", "/redoc", "/api/v2"):
        assert client.get(path).json() == {"detail": "Not Found"}, path  # Starlette's default


def test_the_openapi_document_lists_every_path(client: TestClient) -> None:
    document = client.get("/api/v1/openapi.json").json()

    assert set(document["paths"]) == {
        FORGOT,
        CHECK,
        RESET,
        LOGIN,
        LOGOUT,
        CREATE,
        ME,
        EXPORT,
        CHANGE_PASSWORD,
        LOGOUT_ALL,
        VERIFY_EMAIL,
        VERIFICATION_EMAIL,
        *(f"/api/v1/Booking{path}" for path in ("", "/Slots", "/Reschedule", "/Cancel")),
    }
    check_parameters = document["paths"][CHECK]["get"]["parameters"]
    assert [parameter["name"] for parameter in check_parameters] == ["resetTocken"]
    login_responses = document["paths"][LOGIN]["post"]["responses"]
    assert set(login_responses) == {"200", "400", "401", "403", "413", "422", "429", "503"}


def test_there_is_no_docs_page_only_the_document(client: TestClient) -> None:
    """Swagger UI would load its code from a CDN: /api/v1/docs is an unknown route."""
    for path in ("/api/v1/docs", "/api/v1/docs/oauth2-redirect", "/api/v1/redoc"):
        answer = client.get(path)
        assert (answer.status_code, envelope(answer)["message"]) == (404, "Not found."), path
    assert client.get("/api/v1/openapi.json").status_code == 200


def test_an_unexpected_error_is_a_500_envelope_without_a_trace(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = create_server()

    def boom() -> None:
        raise RuntimeError("secret internal detail")

    app.add_api_route("/api/v1/boom", boom)
    app.router.routes.insert(0, app.router.routes.pop())  # ahead of the catch-all route

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/v1/boom")
        outside = client.get("/boom-outside")

    assert response.status_code == 500
    assert envelope(response) == {
        "status": 500,
        "message": "Something went wrong on our side. Please try again later.",
        "data": None,
    }
    assert "secret internal detail" not in response.text
    assert "secret internal detail" in caplog.text  # logged for the operator instead
    assert outside.status_code == 404


def test_the_client_address_honours_only_trusted_proxy_hops(
    client: TestClient, configure: Configure
) -> None:
    def exhaust_checks_from(forwarded_for: str) -> None:
        for _ in range(30):
            client.get(
                CHECK, params={"resetTocken": "t"}, headers={"X-Forwarded-For": forwarded_for}
            )

    # Without trusted proxies a spoofed header changes nothing: all requests share one peer.
    exhaust_checks_from("1.1.1.1")
    spoofed = client.get(CHECK, params={"resetTocken": "t"}, headers={"X-Forwarded-For": "2.2.2.2"})
    assert spoofed.status_code == 429

    configure(trusted_proxy_hops=1)
    exhaust_checks_from("9.9.9.9, 3.3.3.3")
    same_client = client.get(
        CHECK, params={"resetTocken": "t"}, headers={"X-Forwarded-For": "8.8.8.8, 3.3.3.3"}
    )
    other_client = client.get(
        CHECK, params={"resetTocken": "t"}, headers={"X-Forwarded-For": "9.9.9.9, 4.4.4.4"}
    )
    assert same_client.status_code == 429
    assert other_client.status_code == 200


def test_unexpected_errors_are_not_logged_for_normal_failures(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    client.post(LOGIN, json={"UserName": "x@example.com", "Password": "wrong"})
    client.post(FORGOT, content=b"{", headers={"Content-Type": "application/json"})
    assert "Unhandled error" not in caplog.text


def test_mounted_in_front_of_reflex_only_api_v1_is_answered_here() -> None:
    # What rx.App(api_transformer=server) does: mount the Reflex backend at "" inside this app.
    app = create_server()
    app.mount("", PlainTextResponse("reflex backend"))

    with TestClient(app) as client:
        pages = [client.get(path).text for path in ("/", "/log-in", "/docs", "/api/v2/x")]
        missing = client.get("/api/v1/nothing")
        wrong_method = client.get(LOGIN)
        checked = client.get(CHECK, params={"resetTocken": "t"})

    assert pages == ["reflex backend"] * 4
    assert (missing.status_code, envelope(missing)["message"]) == (404, "Not found.")
    assert (wrong_method.status_code, wrong_method.headers["Allow"]) == (405, "POST")
    assert envelope(checked)["data"] == {"isValid": False, "email": ""}


@pytest.mark.parametrize("path", ["/sitemap.xml", "/robots.txt", "/api/v1/openapi.json"])
def test_head_answers_as_get_without_the_body(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)

    assert (head.status_code, get.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers["content-length"] == str(len(get.content))
    assert head.headers["content-type"] == get.headers["content-type"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PUT", "/api/v1/User/Me"),
        ("GET", "/api/v1/Auth/Login"),
        ("DELETE", "/api/v1/Auth/Logout"),
    ],
)
def test_a_405_names_exactly_the_methods_the_path_answers(
    client: TestClient, method: str, path: str
) -> None:
    refused = client.request(method, path)
    assert refused.status_code == 405

    allowed = [name.strip() for name in refused.headers["Allow"].split(",")]
    for name in allowed:
        assert client.request(name, path).status_code != 405, name
    for name in {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"} - set(allowed):
        assert client.request(name, path).status_code == 405, name
