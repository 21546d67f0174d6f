"""My account in the service: overview, details, password, sessions, export, deletion."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from rcxsite import accounts
from rcxsite.accounts.sessions import session_customer
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Customer, LoginSession, PasswordResetToken, QuoteRequest, utcnow
from rcxsite.platform.db import get_engine
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure
from tests.support.quotes import add_quote, quote_fields
from tests.support.site import outbox_messages

IP = "203.0.113.9"
NEW_PASSWORD = "another-long-pass"


def _log_in(email: str = "alice@example.com", password: str = PASSWORD) -> str:
    return calls.authenticate(email=email, password=password, client_ip=IP).token


def _digest(token: str) -> str:
    from rcxsite.accounts.sessions import login_digest

    digest = login_digest(token)
    assert digest is not None
    return digest


def _refusal(action, **fields: object) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        action(**fields)
    return refused.value


def test_the_overview_names_the_plan_and_the_quote_requests() -> None:
    customer_id = register_customer(
        email="Alice@Example.com",
        subscription_plan_id=102,
        plan_duration_id=2,
        is_trial=True,
        project_id=12,
        verified=True,
    )
    calls.submit_quote(fields=quote_fields(email="alice@example.com"), client_ip=IP)
    calls.submit_quote(fields=quote_fields(email="bob@example.com"), client_ip="10.9.9.9")

    overview = accounts.account_overview(customer_id=customer_id)

    assert (overview.user_name, overview.email, overview.mobile_number) == (
        "Alice",
        "Alice@example.com",
        "9876543210",
    )
    assert (overview.company_name, overview.location) == ("ACME", "Pune")
    plan = overview.plan
    assert plan is not None and plan.trial_ends_at is not None
    assert (plan.name, plan.duration, plan.is_trial) == ("Growth", "Yearly", True)
    # The trial chosen at registration ends 14 days after it.
    assert plan.trial_ends_at - overview.member_since == timedelta(days=14)
    [quote] = overview.quotes
    assert (quote.service, quote.status) == ("Web Development", "Received")


def test_no_plan_and_no_quotes() -> None:
    overview = accounts.account_overview(customer_id=register_customer())
    assert overview.plan is None and overview.quotes == ()


def test_details_follow_the_registration_rules() -> None:
    customer_id = register_customer()
    change = dict(customer_id=customer_id, client_ip=IP)
    refused = _refusal(
        calls.update_details,
        **change,
        user_name="Al",
        mobile_number="12345",
        company_name=" ",
        location="x" * 201,
    )
    assert (refused.status, dict(refused.fields)) == (
        422,
        {
            "UserName": "Min 3 characters",
            "MobileNumber": "Invalid mobile number",
            "CompanyName": "Company name is required",
            "Location": "Max 200 characters",
        },
    )

    assert (
        calls.update_details(
            **change,
            user_name=" Alice B ",
            mobile_number="9123456789",
            company_name="Beta Ltd",
            location="Mumbai",
        )
        == "Your details have been saved."
    )
    overview = accounts.account_overview(customer_id=customer_id)
    assert (
        overview.user_name,
        overview.mobile_number,
        overview.company_name,
        overview.location,
        overview.email,
    ) == ("Alice B", "9123456789", "Beta Ltd", "Mumbai", "alice@example.com")


def test_a_password_change_ends_every_session_starts_a_new_one_and_mails() -> None:
    customer_id = register_customer()
    this, other = _log_in(), _log_in()
    change = dict(customer_id=customer_id, client_ip=IP)

    wrong = _refusal(
        calls.change_password,
        **change,
        current_password="nope",
        new_password=NEW_PASSWORD,
        confirm_password=NEW_PASSWORD,
    )
    assert (wrong.status, dict(wrong.fields)) == (
        400,
        {"CurrentPassword": "Your current password is incorrect."},
    )
    short = _refusal(
        calls.change_password,
        **change,
        current_password=PASSWORD,
        new_password="abc",
        confirm_password="abd",
    )
    assert dict(short.fields) == {"NewPassword": "Password must be at least 4 characters long."}
    common = _refusal(
        calls.change_password,
        **change,
        current_password=PASSWORD,
        new_password="password",
        confirm_password="password",
    )
    assert "too common" in common.fields["NewPassword"]
    differ = _refusal(
        calls.change_password,
        **change,
        current_password=PASSWORD,
        new_password=NEW_PASSWORD,
        confirm_password=NEW_PASSWORD + "x",
    )
    assert dict(differ.fields) == {"ConfirmPassword": "Passwords do not match."}
    assert session_customer(other) == customer_id  # nothing changed yet

    changed = calls.change_password(
        **change,
        current_password=PASSWORD,
        new_password=NEW_PASSWORD,
        confirm_password=NEW_PASSWORD,
    )
    assert changed.message.startswith("Your password has been changed.")

    # Rotated: the token used for the change is refused too, the new one works.
    assert session_customer(this) is None
    assert session_customer(other) is None
    assert session_customer(changed.token) == customer_id
    assert _log_in(password=NEW_PASSWORD)
    assert "password" in outbox_messages()[-1]["Subject"].lower()


def test_sign_out_everywhere_ends_every_session() -> None:
    customer_id = register_customer()
    register_customer(email="bob@example.com")
    first, second, bobs = _log_in(), _log_in(), _log_in("bob@example.com")

    accounts.sign_out_everywhere(customer_id=customer_id, client_ip=IP)

    assert session_customer(first) is None and session_customer(second) is None
    assert session_customer(bobs) is not None


def test_the_export_holds_the_account_quotes_and_their_words_and_sessions_but_no_secrets() -> None:
    customer_id = register_customer(subscription_plan_id=101, plan_duration_id=1, verified=True)
    token = _log_in()
    calls.submit_quote(fields=quote_fields(email="alice@example.com"), client_ip=IP)

    data = accounts.export_account(customer_id=customer_id, client_ip=IP)

    assert data["account"]["emailAddress"] == "alice@example.com"
    assert data["account"]["plan"] == "Starter"
    [quote] = data["quoteRequests"]
    assert (quote["service"], quote["status"]) == ("Web Development", "Received")
    # The request's own words: the address is proved the customer's (verified).
    assert (quote["message"], quote["phone"]) == (
        quote_fields()["message"],
        quote_fields()["phone"],
    )
    [session_row] = data["sessions"]
    assert session_row["createdAt"] and session_row["endedAt"] is None
    text = json.dumps(data)
    with Session(get_engine()) as session:
        customer = session.get(Customer, customer_id)
        assert customer is not None
        secrets = [
            customer.password_hash,
            token,
            _digest(token),
            PASSWORD,
        ]
    assert not any(secret in text for secret in secrets)
    assert "password" not in text.lower()


def test_deleting_needs_the_password_and_a_confirmation() -> None:
    customer_id = register_customer()
    delete = dict(customer_id=customer_id, client_ip=IP)
    assert dict(_refusal(calls.delete_account, **delete, password="", confirm=False).fields) == {
        "Password": "Password is required",
        "Confirm": "Please confirm that the account should be deleted.",
    }
    wrong = _refusal(calls.delete_account, **delete, password="nope", confirm=True)
    assert (wrong.status, dict(wrong.fields)) == (400, {"Password": "The password is incorrect."})
    assert accounts.account_overview(customer_id=customer_id)


def test_deletion_removes_the_customer_keeps_quotes_and_the_address_can_register_again() -> None:
    customer_id = register_customer()
    token = _log_in()
    calls.request_password_reset(email="alice@example.com", client_ip=IP)
    calls.submit_quote(fields=quote_fields(email="alice@example.com"), client_ip=IP)

    assert (
        calls.delete_account(customer_id=customer_id, password=PASSWORD, confirm=True, client_ip=IP)
        == "Your account has been deleted."
    )

    with Session(get_engine()) as session:
        assert session.get(Customer, customer_id) is None
        assert session.exec(select(LoginSession)).all() == []
        assert session.exec(select(PasswordResetToken)).all() == []
        [quote] = session.exec(select(QuoteRequest)).all()
        assert quote.email == "alice@example.com" and quote.company == "ACME GmbH"
    assert session_customer(token) is None
    assert "deleted" in outbox_messages()[-1]["Subject"]
    refused = _refusal(accounts.account_overview, customer_id=customer_id)
    assert refused.status == 401

    again = register_customer()
    assert accounts.account_overview(customer_id=again).email == "alice@example.com"
    assert _log_in()


def test_account_changes_are_limited(configure: Configure) -> None:
    configure(ACCOUNT_CHANGE_LIMIT="2 per hour")
    customer_id = register_customer()
    for _ in range(2):
        accounts.export_account(customer_id=customer_id, client_ip=IP)
    assert _refusal(accounts.export_account, customer_id=customer_id, client_ip=IP).status == 429


def test_wrong_current_passwords_are_limited_like_logins(configure: Configure) -> None:
    configure(LOGIN_FAILURE_LIMIT="3 per 15 minutes")
    customer_id = register_customer()
    change = dict(
        customer_id=customer_id,
        client_ip=IP,
        new_password=NEW_PASSWORD,
        confirm_password=NEW_PASSWORD,
    )
    statuses = [
        _refusal(calls.change_password, **change, current_password=f"guess-{n}").status
        for n in range(4)
    ]
    assert statuses == [400, 400, 400, 429]


@pytest.mark.parametrize("ending", ["password change", "sign out everywhere"])
def test_open_reset_links_stop_working_when_the_account_is_secured(ending: str) -> None:
    from tests.support.site import reset_token_in

    customer_id = register_customer()
    calls.request_password_reset(email="alice@example.com", client_ip=IP)
    link_token = reset_token_in(outbox_messages()[-1])

    if ending == "password change":
        calls.change_password(
            customer_id=customer_id,
            client_ip=IP,
            current_password=PASSWORD,
            new_password=NEW_PASSWORD,
            confirm_password=NEW_PASSWORD,
        )
    else:
        accounts.sign_out_everywhere(customer_id=customer_id, client_ip=IP)

    with pytest.raises(ServiceError) as refused:
        calls.reset_password(
            email="alice@example.com",
            new_password="third-long-pass",
            token=link_token,
            client_ip=IP,
        )
    assert refused.value.status == 400
    assert refused.value.message.startswith("This password reset link has expired or is invalid")


def test_each_quote_request_shows_its_status_as_the_customer_reads_it() -> None:
    customer_id = register_customer(verified=True)
    now = utcnow()
    statuses = ("new", "spam", "contacted", "qualified", "won", "lost")
    for age, status in enumerate(statuses):
        add_quote(email="alice@example.com", status=status, created_at=now - timedelta(days=age))

    overview = accounts.account_overview(customer_id=customer_id)
    exported = accounts.export_account(customer_id=customer_id, client_ip=IP)

    shown = ["Received", "Received", "In progress", "In progress", "Accepted", "Closed"]
    assert [quote.status for quote in overview.quotes] == shown
    assert [quote["status"] for quote in exported["quoteRequests"]] == shown
