"""Email verification over the API: POST /Auth/VerifyEmail with the mailed link's token and
the bearer token of the account it was sent for, POST /User/Me/VerificationEmail for a new
link, and `emailVerified` in /User/Me."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from rcxsite import accounts
from rcxsite.core import tokens
from rcxsite.web.sealed_event_paths import digest_only_frame
from tests.support.api import LOGIN, ME, VERIFICATION_EMAIL, VERIFY_EMAIL, envelope
from tests.support.customers import PASSWORD, register_customer
from tests.support.site import outbox_messages, verification_token_in

OTHER_ACCOUNT = (
    "This link was sent for another account: log in to that account, then open the link again."
)
LINK_REFUSED = (
    "This link has expired or was already used. "
    'Log in and choose "Send the link again" on My account to get a new one.'
)


def _bearer(client: TestClient, email: str = "alice@example.com") -> dict[str, str]:
    login = envelope(client.post(LOGIN, json={"UserName": email, "Password": PASSWORD}))
    return {"Authorization": f"Bearer {login['data']['token']}"}  # type: ignore[index]


def _latest_token() -> str:
    return verification_token_in(outbox_messages(verification=True)[-1])


def test_the_mailed_token_verifies_once_and_me_says_so(client: TestClient) -> None:
    register_customer()
    headers = _bearer(client)
    assert envelope(client.get(ME, headers=headers))["data"]["emailVerified"] is False  # type: ignore[index]
    token = _latest_token()

    verified = client.post(VERIFY_EMAIL, json={"Token": token}, headers=headers)

    assert envelope(verified) == {
        "status": 200,
        "message": "Your email address is verified.",
        "data": None,
    }
    assert envelope(client.get(ME, headers=headers))["data"]["emailVerified"] is True  # type: ignore[index]
    again = client.post(VERIFY_EMAIL, json={"Token": token}, headers=headers)
    assert (again.status_code, envelope(again)["message"]) == (400, LINK_REFUSED)


def test_verifying_needs_the_bearer_token_of_the_account_the_link_was_sent_for(
    client: TestClient,
) -> None:
    """Someone registers another person's address; that person opens the mailed link. The
    link verifies nothing without the account's own login, and another customer's login
    uses nothing up."""
    register_customer(email="victim@example.com", user_name="Squatter")
    token = _latest_token()
    register_customer(email="victim.own@example.com")
    squatter, victims_own = (
        _bearer(client, "victim@example.com"),
        _bearer(client, "victim.own@example.com"),
    )

    for headers in ({}, {"Authorization": "Bearer forged-token"}):
        answer = client.post(VERIFY_EMAIL, json={"Token": token}, headers=headers)
        assert (answer.status_code, envelope(answer)) == (
            401,
            {"status": 401, "message": "Please log in to continue.", "data": None},
        )
    other = client.post(VERIFY_EMAIL, json={"Token": token}, headers=victims_own)
    assert (other.status_code, envelope(other)) == (
        403,
        {"status": 403, "message": OTHER_ACCOUNT, "data": None},
    )
    for headers in (squatter, victims_own):
        assert envelope(client.get(ME, headers=headers))["data"]["emailVerified"] is False  # type: ignore[index]

    # The link was used up by none of these: the account's own login still verifies it.
    verified = client.post(VERIFY_EMAIL, json={"Token": token}, headers=squatter)
    assert (verified.status_code, envelope(verified)["message"]) == (
        200,
        "Your email address is verified.",
    )
    assert envelope(client.get(ME, headers=squatter))["data"]["emailVerified"] is True  # type: ignore[index]
    assert envelope(client.get(ME, headers=victims_own))["data"]["emailVerified"] is False  # type: ignore[index]


def test_a_missing_or_oversized_token_is_refused(client: TestClient) -> None:
    register_customer()
    headers = _bearer(client)
    assert client.post(VERIFY_EMAIL, json={"Token": ""}, headers=headers).status_code == 400
    oversized = client.post(VERIFY_EMAIL, json={"Token": "x" * 300}, headers=headers)
    assert (oversized.status_code, envelope(oversized)["message"]) == (422, LINK_REFUSED)


def test_a_signed_in_customer_gets_a_new_link_and_the_old_one_stops_working(
    client: TestClient,
) -> None:
    register_customer(email="alice@example.com")
    headers = _bearer(client)
    first = _latest_token()

    sent = client.post(VERIFICATION_EMAIL, headers=headers)

    assert envelope(sent) == {
        "status": 200,
        "message": "A new link has been sent to alice@example.com.",
        "data": None,
    }
    second = _latest_token()
    assert client.post(VERIFY_EMAIL, json={"Token": first}, headers=headers).status_code == 400
    assert client.post(VERIFY_EMAIL, json={"Token": second}, headers=headers).status_code == 200
    done = client.post(VERIFICATION_EMAIL, headers=headers)
    assert envelope(done)["message"] == "Your email address is already verified."


def test_a_new_link_needs_a_live_session(client: TestClient) -> None:
    for headers in ({}, {"Authorization": "Bearer forged-token"}):
        answer = client.post(VERIFICATION_EMAIL, headers=headers)
        assert (answer.status_code, envelope(answer)["message"]) == (
            401,
            "Please log in to continue.",
        )


def test_the_screens_see_the_links_token_only_as_its_sealed_digest(client: TestClient) -> None:
    """As for reset links: the token never reaches Reflex's (pickled) state, and what stands
    in its place verifies the address through the screens' service call."""
    customer_id = register_customer()
    assert customer_id is not None
    token = _latest_token()
    event = {
        "name": "verify",
        "payload": {},
        "router_data": {
            "pathname": f"/verify-email/{token}",
            "asPath": f"/verify-email/{token}?utm=mail",
            "query": {"token": token},
        },
    }

    rewritten = digest_only_frame(f'42/_event,["event",{json.dumps(event)}]')

    assert token not in rewritten
    router = json.loads(rewritten[rewritten.index("[") :])[1]["router_data"]
    assert router["pathname"] == f"/verify-email/{tokens.marked(token)}"
    digest = tokens.marked_digest(router["pathname"].rsplit("/", 1)[-1])
    assert (
        accounts.verify_email_link(
            link_digest=digest, customer_id=customer_id, client_ip="192.0.2.5"
        )
        == "Your email address is verified."
    )
