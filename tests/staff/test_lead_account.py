"""The request page's account summary: name, plan and since when of the sender's verified
account, for every role that reads requests (sales included, who may not open the
customers pages); nothing for an unverified or missing account."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlmodel import Session, col, update

from rcxsite.accounts.my_account import PlanChoice
from rcxsite.core.permissions import Permission, StaffActor, allowed
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Customer
from rcxsite.platform.db import get_engine
from rcxsite.staff import inbox
from rcxsite.staff.lead_account import LeadAccount, lead_account
from rcxsite.state.staff.quote import plan_text
from tests.support.customers import add_customer
from tests.support.quotes import add_quote
from tests.support.staff import add_member

SINCE = datetime(2025, 11, 3, 8, 30, tzinfo=UTC)


def choose_plan(customer_id: int, plan_id: int, duration_id: int, *, trial: bool) -> None:
    with Session(get_engine()) as session:
        session.exec(
            update(Customer)
            .where(col(Customer.id) == customer_id)
            .values(subscription_plan_id=plan_id, plan_duration_id=duration_id, is_trial=trial)
        )
        session.commit()


@pytest.mark.parametrize("role", ["sales", "support", "admin"])
def test_every_role_that_reads_requests_sees_the_summary(role: str) -> None:
    reader = add_member("Rae Reader", "rae@rcx.example", role)
    add_customer("alice@client.example", name="Alice Smith", created_at=SINCE, verified=True)
    # The request's address in another case: the same address.
    quote_id = add_quote(email="Alice@Client.example")

    assert lead_account(actor=reader, quote_id=quote_id) == LeadAccount(
        name="Alice Smith", plan=None, customer_since=SINCE
    )


def test_sales_see_it_while_the_customers_pages_stay_closed_to_them() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    assert not allowed(sales, Permission.READ_CUSTOMERS)
    assert allowed(sales, Permission.READ_QUOTES)


def test_the_plan_is_named() -> None:
    reader = add_member("Sam Sales", "sam@rcx.example", "sales")
    customer_id = add_customer("alice@client.example", verified=True)
    choose_plan(customer_id, 102, 2, trial=True)
    quote_id = add_quote(email="alice@client.example")

    summary = lead_account(actor=reader, quote_id=quote_id)

    assert summary is not None and summary.plan is not None
    assert summary.plan.duration == "Yearly" and summary.plan.is_trial
    assert plan_text(summary.plan) == f"{summary.plan.name} (Yearly, free trial)"


def test_plan_texts() -> None:
    assert plan_text(None) == "No plan"
    assert plan_text(PlanChoice(name="Growth", duration="", is_trial=False)) == "Growth"
    assert plan_text(PlanChoice(name="Growth", duration="Monthly", is_trial=False)) == (
        "Growth (Monthly)"
    )


def test_an_unverified_account_is_no_account() -> None:
    """Anyone can register someone else's address: until its owner proved it is theirs,
    the request's sender is not taken for that account's customer."""
    reader = add_member("Sam Sales", "sam@rcx.example", "sales")
    add_customer("alice@client.example", verified=False)
    quote_id = add_quote(email="alice@client.example")

    assert lead_account(actor=reader, quote_id=quote_id) is None


def test_no_account_is_none() -> None:
    reader = add_member("Sam Sales", "sam@rcx.example", "sales")
    add_customer("someone.else@client.example", verified=True)
    quote_id = add_quote(email="alice@client.example")

    assert lead_account(actor=reader, quote_id=quote_id) is None


def test_nobody_signed_in_and_unknown_requests_are_refused() -> None:
    quote_id = add_quote()
    with pytest.raises(ServiceError) as refused:
        lead_account(actor=None, quote_id=quote_id)
    assert refused.value.status == 403

    with pytest.raises(ServiceError) as refused:
        lead_account(actor=add_member("Sam", "sam@rcx.example", "sales"), quote_id=999_999)
    assert refused.value.status == 404


def test_a_role_without_read_quotes_is_refused() -> None:
    nobody = StaffActor(member_id=1, name="Mystery", email="m@rcx.example", role="intern")
    with pytest.raises(ServiceError) as refused:
        lead_account(actor=nobody, quote_id=add_quote())
    assert refused.value.status == 403


def test_who_may_own_a_request_is_read_through_the_permission_check() -> None:
    reader = add_member("Rae Reader", "rae@rcx.example", "support")
    add_member("Ada Admin", "ada@rcx.example", "admin")
    add_member("Sam Sales", "sam@rcx.example", "sales")
    add_member("Gone Seller", "gone@rcx.example", "sales", disabled_at=SINCE)

    assert [choice.name for choice in inbox.request_owners(actor=reader)] == [
        "Ada Admin",
        "Sam Sales",
    ]
    with pytest.raises(ServiceError) as refused:
        inbox.request_owners(actor=None)
    assert refused.value.status in (401, 403)
