"""The /api/v1 endpoints answer the same way from the running production build."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from rcxsite.accounts.results import REGISTERED_MESSAGE
from tests.support.accounts_ui import RESET_LINK, unique_email
from tests.support.live_server import LiveServer
from tests.support.smtp import Mailbox

HEADERS = {"Content-Type": "application/json"}


def call(
    live_site: LiveServer, method: str, path: str, body: bytes | None = None
) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{live_site.url}/api/v1{path}", data=body, headers=HEADERS, method=method
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def post(live_site: LiveServer, path: str, payload: dict[str, Any]) -> tuple[int, dict]:
    return call(live_site, "POST", path, json.dumps(payload).encode())


def test_register_log_in_and_reset_over_http(live_site: LiveServer, site_mailbox: Mailbox) -> None:
    email = unique_email("api")
    customer = {
        "UserName": "Api Customer",
        "EmailAddress": email,
        "MobileNumber": "0123456789",
        "Password": "first-pass",
        "CompanyName": "Acme Ltd",
        "Location": "Leeds",
        "ProjectId": 12,
        "SubscriptionPlanId": 102,
        "PlanDurationId": 1,
        "IsTrial": True,
    }
    status, created = post(live_site, "/User/CreateCustomer", customer)
    assert status == created["status"] == 201
    # The plan chosen with the registration is confirmed by mail.
    assert "Your plan is now Growth" in str(site_mailbox.wait_for(email, timeout=20).get_body())
    status, duplicate = post(
        live_site, "/User/CreateCustomer", {**customer, "EmailAddress": email.upper()}
    )
    # As for a new address (no account-existence oracle); the owner hears of it.
    assert (status, duplicate["message"], duplicate["data"]) == (
        201,
        REGISTERED_MESSAGE,
        None,
    )
    assert "Someone tried to register" in site_mailbox.wait_for(email, timeout=20)["Subject"]

    status, login = post(live_site, "/Auth/Login", {"UserName": email, "Password": "first-pass"})
    assert status == login["status"] == 200
    assert set(login["data"]) == {"emailAddress", "userName", "token", "id"}
    status, wrong = post(live_site, "/Auth/Login", {"UserName": email, "Password": "nope"})
    assert status == wrong["status"] == 401

    status, forgot = post(live_site, "/Auth/ForgotPassword", {"email": email})
    assert status == forgot["status"] == 200
    mail = site_mailbox.wait_for(email, timeout=20)
    link = RESET_LINK.search(mail.get_body(preferencelist=("plain",)).get_content())
    assert link and link.group(0).startswith(live_site.url + "/authentication/reset-password/")
    token = link.group(0).rsplit("/", 1)[1]

    check_path = "/Auth/CheckResetUrlValide?" + urllib.parse.urlencode({"resetTocken": token})
    status, check = call(live_site, "GET", check_path)
    assert (status, check["data"]) == (200, {"isValid": True, "email": email})
    status, reset = post(
        live_site,
        "/Auth/ResetPasswordLink",
        {"email": email, "NewPassword": "second-pass", "ResetToken": token},
    )
    assert status == reset["status"] == 200
    _, used = call(live_site, "GET", check_path)
    assert used["data"]["isValid"] is False
    status, _ = post(live_site, "/Auth/Login", {"UserName": email, "Password": "second-pass"})
    assert status == 200


def test_bad_requests_get_an_envelope_not_a_stack_trace(live_site: LiveServer) -> None:
    status, answer = call(live_site, "POST", "/Auth/Login", b"{not json")
    assert 400 <= status < 500 and answer["status"] == status
    assert "Traceback" not in json.dumps(answer)
    status, answer = post(live_site, "/User/CreateCustomer", {"UserName": 5})
    assert 400 <= status < 500 and answer["status"] == status
    status, answer = call(live_site, "GET", "/No/Such/Endpoint")
    assert status == answer["status"] == 404


def test_openapi_document_is_served(live_site: LiveServer) -> None:
    status, document = call(live_site, "GET", "/openapi.json")
    assert status == 200
    assert {
        "/api/v1/Auth/Login",
        "/api/v1/User/CreateCustomer",
        "/api/v1/Auth/CheckResetUrlValide",
    } <= set(document["paths"])
    assert not any(re.match(r"^/(?!api/v1/)", path) for path in document["paths"])
