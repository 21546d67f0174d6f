"""Customer support in the service: search, the customer card, and who may use them.

The actions (sign out, reset, lock, delete) are in test_support_actions.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from rcxsite import accounts
from rcxsite.accounts.my_account import PlanChoice
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import utcnow
from rcxsite.platform.settings import get_settings
from rcxsite.staff import support
from rcxsite.staff.support_inputs import StaffDeleteCustomerInput
from tests.support import service_calls as calls
from tests.support.customers import (
    PASSWORD,
    add_customer,
    add_session,
    customer_row,
    register_customer,
)
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.quotes import add_quote
from tests.support.staff import add_member, audit_entries, support_actor

IP = "203.0.113.40"
NO_ACCESS = "You don't have access to this page."


def _find(actor: StaffActor, query: str, **more: Any) -> list[str]:
    return [row.email for row in support.find_customers(actor=actor, query=query, **more)]


def _three_customers() -> tuple[int, int, int]:
    now = utcnow()
    alice = add_customer(
        "alice@example.com", name="Alice Baker", company="ACME", created_at=now - timedelta(days=3)
    )
    bob = add_customer(
        "Bob@Example.org", name="Bob Stone", company="Globex", created_at=now - timedelta(days=2)
    )
    carol = add_customer(
        "carol@mail.test",
        name="Carol King",
        company="Initech Ltd",
        created_at=now - timedelta(days=1),
    )
    return alice, bob, carol


def test_search_matches_name_email_or_company_in_any_case() -> None:
    _three_customers()
    actor = support_actor()

    assert _find(actor, "bAKER") == ["alice@example.com"]
    assert _find(actor, "BOB@example") == ["Bob@Example.org"]
    assert _find(actor, "initech") == ["carol@mail.test"]
    assert _find(actor, "  Stone ") == ["Bob@Example.org"]
    # Several matches: newest first.
    assert _find(actor, "example") == ["Bob@Example.org", "alice@example.com"]
    assert _find(actor, "nobody") == []


def test_percent_and_underscore_match_only_themselves() -> None:
    add_customer("a@example.com", name="Dana", company="100% Natural")
    add_customer("b@example.com", name="Dana", company="1000 Natural")
    add_customer("c@example.com", name="snake_case", company="Other")
    add_customer("d@example.com", name="snakeXcase", company="Other")
    add_customer("e@example.com", name="back\\slash", company="Other")
    actor = support_actor()

    assert _find(actor, "100%") == ["a@example.com"]
    assert _find(actor, "e_c") == ["c@example.com"]
    assert _find(actor, "k\\s") == ["e@example.com"]
    assert _find(actor, "%") == ["a@example.com"]


def test_an_empty_query_lists_the_newest_and_the_limit_is_kept() -> None:
    now = utcnow()
    for number in range(55):
        add_customer(f"c{number}@example.com", created_at=now - timedelta(minutes=number))
    actor = support_actor()

    everyone = _find(actor, "   ")
    assert everyone == [f"c{number}@example.com" for number in range(50)]
    assert _find(actor, "", limit=3) == ["c0@example.com", "c1@example.com", "c2@example.com"]
    assert len(_find(actor, "example", limit=500)) == 50


def test_a_search_over_200_characters_is_refused() -> None:
    add_customer("x@example.com", name="x" * 50)
    actor = support_actor()

    assert _find(actor, " " + "x" * 200 + " ") == []  # 200 once stripped: searched
    with pytest.raises(ServiceError) as refused:
        support.find_customers(actor=actor, query="x" * 201)
    assert (refused.value.status, refused.value.message) == (422, "Max 200 characters")
    assert dict(refused.value.fields) == {"query": "Max 200 characters"}
    with pytest.raises(ServiceError) as control:
        support.find_customers(actor=actor, query="a\x00b")
    assert control.value.status == 422


def test_a_row_holds_what_the_list_shows() -> None:
    alice, _, _ = _three_customers()
    actor = support_actor()
    support.lock_customer(actor=actor, customer_id=alice)

    [row] = support.find_customers(actor=actor, query="alice")

    stored = customer_row(alice)
    assert stored is not None
    assert row == support.CustomerRow(
        id=alice,
        name="Alice Baker",
        email="alice@example.com",
        company="ACME",
        member_since=stored.created_at,
        locked=True,
    )
    assert [r.locked for r in support.find_customers(actor=actor, query="bob")] == [False]


def test_the_card_shows_details_plan_and_quotes_but_never_the_hash() -> None:
    customer_id = register_customer(
        email="Alice@Example.com",
        user_name="Alice",
        subscription_plan_id=102,
        plan_duration_id=2,
        is_trial=True,
        verified=True,
    )
    assert customer_id is not None
    now = utcnow()
    older = add_quote(
        email="alice@example.com", status="contacted", created_at=now - timedelta(days=2)
    )
    newer = add_quote(
        email="ALICE@example.com",
        status="spam",
        service="ui-ux-design",
        created_at=now - timedelta(days=1),
    )
    add_quote(email="bob@example.com")

    card = support.customer_card(actor=support_actor(), customer_id=customer_id)

    stored = customer_row(customer_id)
    assert stored is not None
    assert (card.id, card.name, card.email) == (customer_id, "Alice", "Alice@example.com")
    assert (card.mobile_number, card.company, card.location) == ("9876543210", "ACME", "Pune")
    assert card.plan == PlanChoice(
        name="Growth",
        duration="Yearly",
        is_trial=True,
        trial_ends_at=stored.created_at + timedelta(days=14),
    )
    assert (card.member_since, card.locked, card.locked_at) == (stored.created_at, False, None)
    assert [(q.id, q.status) for q in card.quotes] == [(newer, "Spam"), (older, "Contacted")]
    assert card.quotes[1].service == "Web Development"
    assert card.quotes[1].sent_on == (now - timedelta(days=2)).date()
    shown = repr(dataclasses.astuple(card))
    assert stored.password_hash.startswith("$argon2") and stored.password_hash not in shown
    assert "password" not in {field.name for field in dataclasses.fields(card)}


def test_the_card_counts_live_sessions_and_the_last_use_of_any() -> None:
    customer_id = add_customer("dana@example.com")
    idle_minutes = get_settings().header_session_minutes
    days = get_settings().login_token_days
    add_session(customer_id, age=timedelta(hours=1), idle=timedelta(minutes=1))
    add_session(customer_id, age=timedelta(days=1), idle=timedelta(minutes=idle_minutes - 1))
    add_session(customer_id, age=timedelta(hours=1), idle=timedelta(minutes=idle_minutes + 1))
    add_session(customer_id, age=timedelta(hours=2), idle=timedelta(seconds=5), revoked=True)
    newest = add_session(
        customer_id, age=timedelta(days=days, minutes=1), idle=timedelta(seconds=1)
    )
    actor = support_actor()

    card = support.customer_card(actor=actor, customer_id=customer_id)

    assert (card.live_sessions, card.last_seen) == (2, newest)
    nobody = support.customer_card(actor=actor, customer_id=add_customer("new@example.com"))
    assert (nobody.live_sessions, nobody.last_seen) == (0, None)


def test_a_real_login_counts_as_a_live_session() -> None:
    customer_id = register_customer()
    assert customer_id is not None
    calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)

    card = support.customer_card(actor=support_actor(), customer_id=customer_id)

    assert card.live_sessions == 1 and card.last_seen is not None


def test_a_missing_customer_is_404() -> None:
    with pytest.raises(ServiceError) as refused:
        support.customer_card(actor=support_actor(), customer_id=999_999)
    assert (refused.value.status, refused.value.message) == (404, "This customer does not exist.")


CALLS: dict[str, Callable[[StaffActor | None, int], object]] = {
    "find": lambda actor, _: support.find_customers(actor=actor, query=""),
    "card": lambda actor, cid: support.customer_card(actor=actor, customer_id=cid),
    "sign_out": lambda actor, cid: support.sign_out_customer_everywhere(
        actor=actor, customer_id=cid
    ),
    "reset": lambda actor, cid: support.send_customer_password_reset(actor=actor, customer_id=cid),
    "lock": lambda actor, cid: support.lock_customer(actor=actor, customer_id=cid),
    "unlock": lambda actor, cid: support.unlock_customer(actor=actor, customer_id=cid),
    "delete": lambda actor, cid: support.delete_customer(
        StaffDeleteCustomerInput.parse({"email": "dana@example.com"}), actor=actor, customer_id=cid
    ),
}


@pytest.mark.parametrize("role", [None, "sales"])
@pytest.mark.parametrize("name", CALLS)
def test_sales_and_no_one_are_refused_everything(name: str, role: str | None) -> None:
    customer_id = add_customer("dana@example.com")
    actor = add_member("Sam Seller", "sam@rcx.example", role) if role else None

    with pytest.raises(ServiceError) as refused:
        CALLS[name](actor, customer_id)

    assert (refused.value.status, refused.value.message) == (403, NO_ACCESS)
    stored = customer_row(customer_id)
    assert stored is not None and stored.locked_at is None
    assert audit_entries() == []


@pytest.mark.parametrize("role", ["admin", "support"])
@pytest.mark.parametrize("name", CALLS)
def test_admin_and_support_may_do_everything(name: str, role: str) -> None:
    customer_id = add_customer("dana@example.com")
    if name == "unlock":
        support.lock_customer(actor=support_actor(), customer_id=customer_id)
    actor = add_member("Ada Admin", "ada@rcx.example", role)

    CALLS[name](actor, customer_id)

    assert len([e for e in audit_entries() if e.actor_id == actor.member_id]) == (
        0 if name in ("find", "card") else 1
    )


def test_search_card_and_lock_on_postgresql(configure: Configure) -> None:
    """PostgreSQL's LIKE, ESCAPE and row locks, which SQLite does not exercise."""
    with scratch_postgres(configure):
        customer_id = register_customer(email="Alice@Example.com", company_name="100% Natural")
        assert customer_id is not None
        add_customer("bob@example.com", company="1000 Natural")
        token = calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP).token
        actor = support_actor()

        assert _find(actor, "100%") == ["Alice@example.com"]
        assert _find(actor, "ALICE") == ["Alice@example.com"]
        assert support.customer_card(actor=actor, customer_id=customer_id).live_sessions == 1
        support.lock_customer(actor=actor, customer_id=customer_id)
        with pytest.raises(ServiceError) as refused:
            calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)

        assert refused.value.status == 403
        assert accounts.verify_login_token(token) is None
        assert [entry.action for entry in audit_entries()] == ["customer_locked"]
