"""The mobile number as people type it: spaces, hyphens and brackets between the ten
digits are accepted and the digits alone are kept, at registration, in My account's
details and through the API (one input model); the rule's message stays the spec's."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rcxsite import accounts
from rcxsite.accounts.inputs import ProfileInput, RegistrationInput
from rcxsite.pages.registration import MOBILE_HINT
from tests.support import service_calls as calls
from tests.support.customers import customer_row, register_customer

ACCEPTED = {
    "7700 900 123": "7700900123",
    "98765-43210": "9876543210",
    "(987) 654-3210": "9876543210",
    " 98765 43210 ": "9876543210",
    "9876543210": "9876543210",
}
REFUSED = [
    "7700 900 12",
    "98765.43210",
    "+91 98765 43210",
    "98765 4321x",
    "() - ",
    "987\t6543210",
    "98765   43210",
]
DETAILS = {"UserName": "Alice", "CompanyName": "ACME", "Location": "Pune"}


def _pattern() -> re.Pattern[str]:
    """The API's documented rule (its OpenAPI document), as a generated client reads it."""
    schema = RegistrationInput.model_json_schema(by_alias=True)
    return re.compile(schema["properties"]["MobileNumber"]["pattern"])


@pytest.mark.parametrize(("typed", "kept"), ACCEPTED.items())
def test_separators_between_the_digits_are_accepted_and_the_digits_kept(
    typed: str, kept: str
) -> None:
    customer_id = register_customer(mobile_number=typed)
    assert customer_id is not None
    row = customer_row(customer_id)
    assert row is not None and row.mobile_number == kept

    assert calls.update_details(
        customer_id=customer_id, client_ip="203.0.113.7", **DETAILS, MobileNumber=typed
    )
    assert accounts.account_overview(customer_id=customer_id).mobile_number == kept
    assert _pattern().search(typed)


@pytest.mark.parametrize("typed", REFUSED)
def test_anything_else_keeps_the_specs_message(typed: str) -> None:
    for model, extra in ((RegistrationInput, {}), (ProfileInput, DETAILS)):
        raw: dict[str, Any] = {**extra, "MobileNumber": typed}
        _, errors = model.read(raw)
        assert errors.get("MobileNumber") == "Invalid mobile number", (model, typed)
    assert not _pattern().search(typed)


def test_empty_is_still_required_and_the_hint_names_the_rule() -> None:
    _, errors = RegistrationInput.read({"MobileNumber": "   "})
    assert errors["MobileNumber"] == "Mobile number is required"
    assert MOBILE_HINT.startswith("10 digits")
