from __future__ import annotations

import pytest
from sqlmodel import Session, select

from rcxsite.accounts import registration
from rcxsite.accounts.inputs import (
    ForgotPasswordInput,
    LoginInput,
    RegistrationInput,
    ResetPasswordInput,
)
from rcxsite.accounts.results import REGISTERED_MESSAGE
from rcxsite.core.service_errors import ServiceError
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import Customer
from rcxsite.platform.db import get_engine
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.parallel import register_all_at_once
from tests.support.site import outbox_messages

VALID = {
    "user_name": "Alice",
    "email": "alice@example.com",
    "mobile_number": "9876543210",
    "password": "abcd",
    "company_name": "ACME",
    "location": "Pune",
}


NOT_ALLOWED = "Contains characters that are not allowed"
NOT_AN_ID = "Must be a whole number from 0 to 2147483647"
# Per field: its key in the answers, then each message with the values that earn it.
RULES: dict[str, tuple[str, dict[str, list[object]]]] = {
    "user_name": (
        "UserName",
        {
            "Username is required": ["", "   "],
            "Min 3 characters": ["Al"],
            "Max 100 characters": ["A" * 101],
            NOT_ALLOWED: ["Al\x00ce", "Al\ud800ce"],
        },
    ),
    "email": (
        "EmailAddress",
        {
            "Email is required": [""],
            "Invalid email": ["alice", "al ice@example.com", "alice@example.com\x00"],
        },
    ),
    "mobile_number": (
        "MobileNumber",
        {
            "Mobile number is required": [""],
            "Invalid mobile number": ["987654321", "98765432100", "98765abcde", "٩٨٧٦٥٤٣٢١٠"],
        },
    ),
    "password": (
        "Password",
        {
            "Password is required": [""],
            "Min 4 characters": ["abc"],
            "Password must be at most 128 characters long.": ["x" * 129],
        },
    ),
    "company_name": (
        "CompanyName",
        {
            "Company name is required": [""],
            "Max 200 characters": ["C" * 201],
        },
    ),
    "location": ("Location", {"Location is required": [""], NOT_ALLOWED: ["\x07"]}),
    "project_id": ("ProjectId", {NOT_AN_ID: [-1]}),
    "subscription_plan_id": ("SubscriptionPlanId", {NOT_AN_ID: [2**31]}),
    "plan_duration_id": ("PlanDurationId", {NOT_AN_ID: [True]}),
}
RULE_CASES = [
    (field, value, key, message)
    for field, (key, messages) in RULES.items()
    for message, values in messages.items()
    for value in values
]


# The registration form sent empty: every field's own message at once.
EVERY_FIELD_REQUIRED = {
    "UserName": "Username is required",
    "EmailAddress": "Email is required",
    "MobileNumber": "Mobile number is required",
    "Password": "Password is required",
    "CompanyName": "Company name is required",
    "Location": "Location is required",
}


def _customers() -> list[Customer]:
    with Session(get_engine()) as session:
        return list(session.exec(select(Customer)))


def test_register_stores_the_customer_with_a_hash_and_not_the_password() -> None:
    created = calls.register(
        client_ip="10.0.0.1",
        **{**VALID, "email": " Alice@Example.COM ", "user_name": " Alice "},
        project_id=7,
        subscription_plan_id=2,
        plan_duration_id=12,
        is_trial=True,
    )

    assert created.message == REGISTERED_MESSAGE
    [row] = _customers()
    assert row.id == created.id
    assert row.user_name == "Alice"
    assert (row.email, row.email_key) == ("Alice@example.com", "alice@example.com")
    assert (row.mobile_number, row.company_name, row.location) == ("9876543210", "ACME", "Pune")
    assert (row.project_id, row.subscription_plan_id, row.plan_duration_id) == (7, 2, 12)
    assert row.is_trial is True
    assert row.password_hash.startswith("$argon2id$")
    assert "abcd" not in row.password_hash
    assert row.created_at.tzinfo is not None


def test_validate_registration_is_empty_for_valid_input() -> None:
    assert calls.validate_registration(**VALID) == {}


@pytest.mark.parametrize(("field", "value", "key", "message"), RULE_CASES)
def test_each_rule_has_its_spec_message(field: str, value: object, key: str, message: str) -> None:
    values = {**VALID, field: value}

    assert calls.validate_registration(**values) == {key: message}
    with pytest.raises(ServiceError) as refused:
        calls.register(**values, client_ip="10.0.0.1")
    assert (refused.value.status, refused.value.message) == (422, message)
    assert dict(refused.value.fields) == {key: message}
    assert _customers() == []


def test_every_invalid_field_is_reported_at_once() -> None:
    errors = calls.validate_registration(
        user_name="", email="", mobile_number="", password="", company_name="", location=""
    )
    assert errors == EVERY_FIELD_REQUIRED


def test_passwords_of_128_characters_and_unicode_text_are_accepted() -> None:
    long_password = "p" * 127 + "é"
    register_customer(
        password=long_password, user_name="Zoë Ōtsuka", company_name="Łódź Soft 株式会社"
    )

    result = calls.authenticate(
        email="alice@example.com", password=long_password, client_ip="10.0.0.1"
    )
    assert result.user_name == "Zoë Ōtsuka"
    with pytest.raises(ServiceError):  # not silently truncated: one character less fails
        calls.authenticate(
            email="alice@example.com", password=long_password[:-1], client_ip="10.0.0.1"
        )


def test_a_known_address_gets_the_new_address_answer_and_its_owner_a_mail() -> None:
    # No account-existence oracle (ASVS 6.3.8): the same answer, and the owner hears of it.
    register_customer(email="alice@example.com")
    before = len(outbox_messages())

    again = calls.register(
        email="ALICE@example.COM",
        password="other-password",
        client_ip="203.0.113.5",
        user_name="Mallory",
        mobile_number="9876543210",
        company_name="X",
        location="Y",
    )

    assert (again.message, again.id) == (REGISTERED_MESSAGE, None)
    assert len(_customers()) == 1
    wait_for_outgoing_mail()
    [notice] = outbox_messages()[before:]
    assert notice["To"] == "alice@example.com"
    assert "Someone tried to register" in notice["Subject"]
    body = notice.get_body(preferencelist=("plain",)).get_content()
    assert "/log-in" in body and "/forgot-password" in body
    assert "other-password" not in body


def test_twenty_parallel_registrations_of_one_address_leave_exactly_one_customer() -> None:
    emails = ["BOB@Example.com" if index % 2 else "bob@example.com" for index in range(20)]

    assert register_all_at_once(emails) == ["created"] + ["known"] * 19
    [row] = _customers()
    assert row.email_key == "bob@example.com"
    login = calls.authenticate(email="BOB@example.com", password=PASSWORD, client_ip="1.1.1.1")
    assert login.customer_id == row.id


def test_a_duplicate_committed_after_the_check_is_caught_by_the_unique_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_owner = registration.account_owner

    def check_then_someone_else_registers(key: str) -> tuple[str, str] | None:
        # The early check finds nothing; a competing request commits right after it.
        owner = real_owner(key)
        monkeypatch.setattr(registration, "account_owner", real_owner)
        register_customer(email="CAROL@example.com")
        return owner

    monkeypatch.setattr(registration, "account_owner", check_then_someone_else_registers)

    assert register_customer(email="carol@example.com") is None
    assert [row.email for row in _customers()] == ["CAROL@example.com"]
    wait_for_outgoing_mail()
    assert outbox_messages()[-1]["To"] == "CAROL@example.com"


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (
            RegistrationInput,
            EVERY_FIELD_REQUIRED,
        ),
        (LoginInput, {"UserName": "Email is required", "Password": "Password is required"}),
        (ForgotPasswordInput, {"email": "Email is required"}),
        (
            ResetPasswordInput,
            {"NewPassword": "Please enter a new password.", "email": "Email is required"},
        ),
    ],
)
def test_a_missing_field_gets_the_message_of_an_empty_one(model, expected) -> None:
    # Defaults are validated too: `{}` once passed as a complete registration.
    assert model.read({}) == (None, expected)
    with pytest.raises(ServiceError) as refusal:
        model.parse({})
    assert refusal.value.status == 422
