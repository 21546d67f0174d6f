"""The OpenAPI document states the request bodies' real rules and the bearer scheme, and
each stated rule agrees with what the input models accept."""

from __future__ import annotations

import re
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from rcxsite.accounts.inputs import ProfileInput
from rcxsite.accounts.my_account import SIGNED_OUT
from rcxsite.api.openapi_rules import BEARER
from tests.support import api

SIGNED_IN = {
    (api.LOGOUT_ALL, "post"),
    (api.ME, "get"),
    (api.ME, "patch"),
    (api.ME, "delete"),
    (api.CHANGE_PASSWORD, "post"),
    (api.EXPORT, "get"),
    (api.VERIFICATION_EMAIL, "post"),
    (api.VERIFY_EMAIL, "post"),
}
REQUIRED = {
    "RegistrationInput": {
        "UserName",
        "EmailAddress",
        "MobileNumber",
        "Password",
        "CompanyName",
        "Location",
    },
    "ProfileInput": {"UserName", "MobileNumber", "CompanyName", "Location"},
    "LoginInput": {"UserName", "Password"},
    "ForgotPasswordInput": {"email"},
    "ResetPasswordInput": {"NewPassword", "email", "ResetToken"},
    "ChangePasswordInput": {"CurrentPassword", "NewPassword", "ConfirmPassword"},
    "DeleteAccountInput": {"Password", "Confirm"},
    "VerifyEmailInput": {"Token"},
}
VALID_PROFILE = {
    "UserName": "Alice",
    "MobileNumber": "9876543210",
    "CompanyName": "ACME",
    "Location": "Pune",
}
# Blanks, refused characters and the ones in between, so each rule's edges come up often.
# No lone surrogates: a validator on Unicode scalars cannot take them (JSON can carry them), and
# `FormInput` refuses them before any rule.
EDGY_TEXT = st.text(
    st.sampled_from(" \t\n\r\x0b\x0c\x1c\x85\xa0\u2007\u2028\u3000\x00\x07\x7f\x9fab09é€")
    | st.characters(codec="utf-8"),
    max_size=14,
)


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    from rcxsite.web.server import server

    with TestClient(server) as client:
        return client.get("/api/v1/openapi.json").json()


def _schemas(document: dict[str, Any]) -> dict[str, Any]:
    return document["components"]["schemas"]


def test_required_fields_are_required_and_have_no_default(document: dict[str, Any]) -> None:
    for model, required in REQUIRED.items():
        schema = _schemas(document)[model]
        assert set(schema["required"]) == required, model
        for name in required:
            assert "default" not in schema["properties"][name], (model, name)


def test_fields_carry_their_formats_patterns_and_lengths(document: dict[str, Any]) -> None:
    registration = _schemas(document)["RegistrationInput"]["properties"]
    assert registration["EmailAddress"]["format"] == "email"
    assert registration["MobileNumber"]["minLength"] == 10
    assert re.search(registration["MobileNumber"]["pattern"], " 0123456789 ")
    assert not re.search(registration["MobileNumber"]["pattern"], "012345678")
    assert registration["UserName"]["minLength"] == 3
    assert registration["Password"]["minLength"] == 4
    assert registration["Password"]["maxLength"] == 128
    assert _schemas(document)["LoginInput"]["properties"]["UserName"]["format"] == "email"
    assert _schemas(document)["DeleteAccountInput"]["properties"]["Confirm"]["const"] is True


def test_every_body_schema_compiles_in_a_json_schema_validator(document: dict[str, Any]) -> None:
    # The patterns must read the same outside Python (schemathesis checks with this one).
    for model in REQUIRED:
        schema = {**_schemas(document)[model], "components": document["components"]}
        jsonschema_rs.validator_for(schema)


@settings(max_examples=300, deadline=None, database=None)
@given(field=st.sampled_from(sorted(VALID_PROFILE)), value=EDGY_TEXT)
def test_documented_text_rules_accept_exactly_what_the_model_accepts(
    document: dict[str, Any], field: str, value: str
) -> None:
    rules = _schemas(document)["ProfileInput"]["properties"][field]
    validator = jsonschema_rs.validator_for({"type": "string", **rules})
    _, errors = ProfileInput.read({**VALID_PROFILE, field: value})
    assert validator.is_valid(value) == (field not in errors), (value, errors)


def test_signed_in_routes_name_the_bearer_scheme(document: dict[str, Any]) -> None:
    scheme = document["components"]["securitySchemes"][BEARER]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            names = [parameter["name"].lower() for parameter in operation.get("parameters", [])]
            assert "authorization" not in names, (path, method)
            if (path, method) in SIGNED_IN:
                assert operation["security"] == [{BEARER: []}], (path, method)
                assert "401" in operation["responses"], (path, method)
            elif (path, method) == (api.LOGOUT, "post"):
                assert operation["security"] == [{BEARER: []}, {}]  # answers either way
            else:
                assert "security" not in operation, (path, method)
    assert {api.FORGOT, api.CHECK, api.RESET, api.LOGIN, api.CREATE, api.VERIFY_EMAIL} <= set(
        document["paths"]
    )


def test_a_missing_token_still_gets_the_spec_401_before_the_route_runs(
    client: TestClient,
) -> None:
    answer = client.patch(api.ME, json={"UserName": ""})  # an invalid body, too
    assert answer.status_code == 401
    assert api.envelope(answer) == {"status": 401, "message": SIGNED_OUT, "data": None}
