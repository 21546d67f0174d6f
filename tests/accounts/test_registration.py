from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlmodel import Session, select

from rcxsite import accounts
from rcxsite.accounts import AccountError, registration
from rcxsite.accounts.inputs import (
    ForgotPasswordInput,
    LoginInput,
    RegistrationInput,
    ResetPasswordInput,
)
from rcxsite.db import get_engine
from rcxsite.models import Customer
from tests.support.site import PASSWORD, register_customer

VALID = {
    "user_name": "Alice",
    "email": "alice@example.com",
    "mobile_number": "9876543210",
    "password": "abcd",
    "company_name": "ACME",
    "location": "Pune",
}


def _customers() -> list[Customer]:
    with Session(get_engine()) as session:
        return list(session.exec(select(Customer)))


def test_register_stores_the_customer_with_a_hash_and_not_the_password() -> None:
    created = accounts.register(
        client_ip="10.0.0.1",
        **{**VALID, "email": " Alice@Example.COM ", "user_name": " Alice "},
        project_id=7,
        subscription_plan_id=2,
        plan_duration_id=12,
        is_trial=True,
    )

    assert created.message == "Registration successful!"
    [row] = _customers()
    assert row.id == created.id
    assert (row.user_name, row.email, row.email_key) == (
        "Alice",
        "Alice@example.com",
        "alice@example.com",
    )
    assert (row.mobile_number, row.company_name, row.location) == ("9876543210", "ACME", "Pune")
    assert (row.project_id, row.subscription_plan_id, row.plan_duration_id) == (7, 2, 12)
    assert row.is_trial is True
    assert row.password_hash.startswith("$argon2id$")
    assert "abcd" not in row.password_hash
    assert row.created_at.tzinfo is not None


def test_validate_registration_is_empty_for_valid_input() -> None:
    assert accounts.validate_registration(**VALID) == {}


@pytest.mark.parametrize(
    ("field", "value", "key", "message"),
    [
        ("user_name", "", "UserName", "Username is required"),
        ("user_name", "   ", "UserName", "Username is required"),
        ("user_name", "Al", "UserName", "Min 3 characters"),
        ("user_name", "A" * 101, "UserName", "Max 100 characters"),
        ("user_name", "Al\x00ce", "UserName", "Contains characters that are not allowed"),
        ("user_name", "Al\ud800ce", "UserName", "Contains characters that are not allowed"),
        ("email", "", "EmailAddress", "Email is required"),
        ("email", "alice", "EmailAddress", "Invalid email"),
        ("email", "al ice@example.com", "EmailAddress", "Invalid email"),
        ("email", "alice@example.com\x00", "EmailAddress", "Invalid email"),
        ("mobile_number", "", "MobileNumber", "Mobile number is required"),
        ("mobile_number", "987654321", "MobileNumber", "Invalid mobile number"),
        ("mobile_number", "98765432100", "MobileNumber", "Invalid mobile number"),
        ("mobile_number", "98765abcde", "MobileNumber", "Invalid mobile number"),
        ("mobile_number", "٩٨٧٦٥٤٣٢١٠", "MobileNumber", "Invalid mobile number"),
        ("password", "", "Password", "Password is required"),
        ("password", "abc", "Password", "Min 4 characters"),
        ("password", "x" * 129, "Password", "Password must be at most 128 characters long."),
        ("company_name", "", "CompanyName", "Company name is required"),
        ("company_name", "C" * 201, "CompanyName", "Max 200 characters"),
        ("location", "", "Location", "Location is required"),
        ("location", "\x07", "Location", "Contains characters that are not allowed"),
        ("project_id", -1, "ProjectId", "Must be a whole number from 0 to 2147483647"),
        (
            "subscription_plan_id",
            2**31,
            "SubscriptionPlanId",
            "Must be a whole number from 0 to 2147483647",
        ),
        ("plan_duration_id", True, "PlanDurationId", "Must be a whole number from 0 to 2147483647"),
    ],
)
def test_each_rule_has_its_spec_message(field: str, value: object, key: str, message: str) -> None:
    values = {**VALID, field: value}

    assert accounts.validate_registration(**values) == {key: message}
    with pytest.raises(AccountError) as refused:
        accounts.register(**values, client_ip="10.0.0.1")
    assert (refused.value.status, refused.value.message) == (422, message)
    assert dict(refused.value.fields) == {key: message}
    assert _customers() == []


def test_every_invalid_field_is_reported_at_once() -> None:
    errors = accounts.validate_registration(
        user_name="", email="", mobile_number="", password="", company_name="", location=""
    )
    assert errors == {
        "UserName": "Username is required",
        "EmailAddress": "Email is required",
        "MobileNumber": "Mobile number is required",
        "Password": "Password is required",
        "CompanyName": "Company name is required",
        "Location": "Location is required",
    }


def test_passwords_of_128_characters_and_unicode_text_are_accepted() -> None:
    long_password = "p" * 127 + "é"
    register_customer(
        password=long_password, user_name="Zoë Ōtsuka", company_name="Łódź Soft 株式会社"
    )

    result = accounts.authenticate(
        email="alice@example.com", password=long_password, client_ip="10.0.0.1"
    )
    assert result.user_name == "Zoë Ōtsuka"
    with pytest.raises(AccountError):  # not silently truncated: one character less fails
        accounts.authenticate(
            email="alice@example.com", password=long_password[:-1], client_ip="10.0.0.1"
        )


def test_an_address_differing_only_in_case_is_a_duplicate() -> None:
    register_customer(email="alice@example.com")

    with pytest.raises(AccountError) as refused:
        register_customer(email="ALICE@example.COM", password="other-password")

    assert (refused.value.status, refused.value.message) == (
        409,
        "An account with this email already exists.",
    )
    assert len(_customers()) == 1


def test_twenty_parallel_registrations_of_one_address_leave_exactly_one_customer() -> None:
    def attempt(index: int) -> int:
        try:
            register_customer(email="BOB@Example.com" if index % 2 else "bob@example.com")
        except AccountError as error:
            return error.status
        return 201

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = sorted(pool.map(attempt, range(20)))

    assert statuses == [201] + [409] * 19
    [row] = _customers()
    assert row.email_key == "bob@example.com"
    login = accounts.authenticate(email="BOB@example.com", password=PASSWORD, client_ip="1.1.1.1")
    assert login.customer_id == row.id


def test_a_duplicate_committed_while_hashing_is_caught_by_the_unique_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_hash = registration.hash_password

    def hash_while_someone_else_registers(password: str) -> str:
        # Runs after the early duplicate check, like a competing request would.
        monkeypatch.setattr(registration, "hash_password", real_hash)
        register_customer(email="CAROL@example.com")
        return real_hash(password)

    monkeypatch.setattr(registration, "hash_password", hash_while_someone_else_registers)

    with pytest.raises(AccountError) as refused:
        register_customer(email="carol@example.com")

    assert refused.value.status == 409
    assert [row.email for row in _customers()] == ["CAROL@example.com"]


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (RegistrationInput, {
            "UserName": "Username is required", "EmailAddress": "Email is required",
            "MobileNumber": "Mobile number is required", "Password": "Password is required",
            "CompanyName": "Company name is required", "Location": "Location is required",
        }),
        (LoginInput, {"UserName": "Email is required", "Password": "Password is required"}),
        (ForgotPasswordInput, {"email": "Email is required"}),
        (ResetPasswordInput, {"NewPassword": "Please enter a new password.",
                              "email": "Email is required"}),
    ],
)
def test_a_missing_field_gets_the_message_of_an_empty_one(model, expected) -> None:
    # Defaults are validated too: `{}` once passed as a complete registration.
    assert model.read({}) == (None, expected)
    with pytest.raises(AccountError) as refusal:
        model.parse({})
    assert refusal.value.status == 422
