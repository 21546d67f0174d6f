"""Choosing a plan while signed in: the service sets it on the account (one free trial per
account, its end fixed when first chosen), the pricing page's state asks for a
confirmation first, and signed out the buttons still open registration with the plan."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic.command import upgrade
from reflex.event import EventSpec
from sqlalchemy import text
from sqlmodel import Session, select

from rcxsite import accounts
from rcxsite.accounts.inputs import DURATION_UNKNOWN, PLAN_UNKNOWN, PlanChoiceInput
from rcxsite.accounts.plans import TRIAL_OVER, PlanChoice, long_date
from rcxsite.content import routes
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Customer, utcnow
from rcxsite.platform.db import get_engine
from rcxsite.state.login import LoginState
from rcxsite.state.pricing import PricingState
from tests.support.customers import customer_row, register_customer
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.site import alembic_config
from tests.support.tabs import Tab, login_cookie

IP = "203.0.113.40"
EMAIL = "alice@example.com"
GROWTH, STARTER, MONTHLY, YEARLY = 102, 101, 1, 2
CHOSEN = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)


def _choice(plan: int = GROWTH, duration: int = YEARLY, trial: bool = True) -> PlanChoiceInput:
    return PlanChoiceInput.parse(
        {"SubscriptionPlanId": plan, "PlanDurationId": duration, "IsTrial": trial}
    )


def _choose(customer_id: int, now: datetime = CHOSEN, **choice: Any) -> str:
    return accounts.choose_plan(_choice(**choice), customer_id=customer_id, client_ip=IP, now=now)


def _customer() -> int:
    customer_id = register_customer(EMAIL)
    assert customer_id is not None
    return customer_id


def test_a_trial_chosen_now_ends_in_14_days_and_the_answer_names_it_all() -> None:
    customer_id = _customer()

    message = _choose(customer_id)

    assert message == "Your plan is now Growth, yearly, free trial until 9 December 2026."
    row = customer_row(customer_id)
    assert row is not None
    assert (row.project_id, row.subscription_plan_id, row.plan_duration_id) == (12, 102, 2)
    assert row.is_trial is True
    assert row.trial_ends_at == CHOSEN + timedelta(days=14)
    assert accounts.account_overview(customer_id=customer_id).plan == PlanChoice(
        name="Growth", duration="Yearly", is_trial=True, trial_ends_at=CHOSEN + timedelta(days=14)
    )


def test_without_a_trial() -> None:
    customer_id = _customer()

    assert _choose(customer_id, plan=STARTER, duration=MONTHLY, trial=False) == (
        "Your plan is now Starter, monthly."
    )
    plan = accounts.account_overview(customer_id=customer_id).plan
    assert plan == PlanChoice(name="Starter", duration="Monthly", is_trial=False)


def test_one_trial_per_account_choosing_again_keeps_its_end_and_after_it_none() -> None:
    customer_id = _customer()
    _choose(customer_id)
    ends = CHOSEN + timedelta(days=14)

    # A week on, another plan with the trial: the same trial, the same end.
    later = _choose(customer_id, now=CHOSEN + timedelta(days=7), plan=STARTER, duration=MONTHLY)
    assert later == "Your plan is now Starter, monthly, free trial until 9 December 2026."
    # Paying in between does not give the trial back.
    _choose(customer_id, now=CHOSEN + timedelta(days=8), trial=False)
    _choose(customer_id, now=CHOSEN + timedelta(days=9))
    row = customer_row(customer_id)
    assert row is not None and row.trial_ends_at == ends

    with pytest.raises(ServiceError) as refused:
        _choose(customer_id, now=ends + timedelta(seconds=1))
    assert (refused.value.status, refused.value.message) == (400, TRIAL_OVER)
    assert dict(refused.value.fields) == {"IsTrial": TRIAL_OVER}
    assert _choose(customer_id, now=ends + timedelta(days=1), trial=False) == (
        "Your plan is now Growth, yearly."
    )


def test_the_offer_says_what_a_trial_chosen_now_would_be() -> None:
    customer_id = _customer()
    offer = accounts.plan_offer(_choice(), customer_id=customer_id, now=CHOSEN)
    assert offer == accounts.PlanOffer(
        trial_ends_at=CHOSEN + timedelta(days=14), trial_started=False
    )

    _choose(customer_id)
    during = accounts.plan_offer(_choice(), customer_id=customer_id, now=CHOSEN)
    assert during == accounts.PlanOffer(
        trial_ends_at=CHOSEN + timedelta(days=14), trial_started=True
    )
    after = accounts.plan_offer(_choice(), customer_id=customer_id, now=CHOSEN + timedelta(30))
    assert after == accounts.PlanOffer(trial_ends_at=None, trial_started=True)


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        ({"SubscriptionPlanId": 999, "PlanDurationId": 1}, {"SubscriptionPlanId": PLAN_UNKNOWN}),
        ({"SubscriptionPlanId": True, "PlanDurationId": 1}, {"SubscriptionPlanId": PLAN_UNKNOWN}),
        ({"SubscriptionPlanId": "102", "PlanDurationId": 1}, {"SubscriptionPlanId": PLAN_UNKNOWN}),
        ({"SubscriptionPlanId": 102, "PlanDurationId": 12}, {"PlanDurationId": DURATION_UNKNOWN}),
        ({"SubscriptionPlanId": 102}, {"PlanDurationId": DURATION_UNKNOWN}),
        ({"SubscriptionPlanId": 102, "PlanDurationId": 1, "IsTrial": "yes"}, {"IsTrial": None}),
    ],
)
def test_only_our_plans_and_billing_periods(raw: dict[str, Any], fields: dict[str, Any]) -> None:
    with pytest.raises(ServiceError) as refused:
        PlanChoiceInput.parse(raw)
    assert refused.value.status == 422
    assert set(refused.value.fields) == set(fields)
    for name, message in fields.items():
        if message is not None:
            assert refused.value.fields[name] == message


def test_registration_with_a_trial_fixes_its_end_too() -> None:
    before = utcnow()
    customer_id = register_customer(
        EMAIL, subscription_plan_id=GROWTH, plan_duration_id=MONTHLY, is_trial=True, project_id=12
    )
    assert customer_id is not None
    row = customer_row(customer_id)
    assert row is not None and row.trial_ends_at is not None
    assert before + timedelta(days=14) <= row.trial_ends_at <= utcnow() + timedelta(days=14)
    # Without a plan of ours (or without a trial) there is no trial to end.
    other = register_customer("bob@example.com", subscription_plan_id=7, is_trial=True)
    assert other is not None
    other_row = customer_row(other)
    assert other_row is not None and other_row.trial_ends_at is None


def test_dates_are_the_companys_calendar_days() -> None:
    assert long_date(datetime(2026, 12, 9, 23, 30, tzinfo=UTC)) == "9 December 2026"
    # 00:30 in London on 1 July is still 30 June in UTC.
    assert long_date(datetime(2026, 6, 30, 23, 30, tzinfo=UTC)) == "1 July 2026"


def test_a_deleted_account_is_told_to_log_in() -> None:
    customer_id = _customer()
    with pytest.raises(ServiceError) as refused:
        _choose(customer_id + 1)
    assert refused.value.status == 401


# The pricing page's state.


def _events_named(events: list[Any], handler: Any) -> list[EventSpec]:
    name = handler.fn.__qualname__
    return [e for e in events if isinstance(e, EventSpec) and e.handler.fn.__qualname__ == name]


def _pricing_tab(email: str | None = EMAIL) -> Tab:
    return Tab().open(routes.PRICING.path, cookie=login_cookie(email) if email else "")


def test_signed_out_the_buttons_still_open_registration_with_the_plan() -> None:
    tab = _pricing_tab(None)

    events = asyncio.run(tab.run(PricingState.choose_plan, 12, GROWTH, YEARLY, True))

    [chained] = _events_named(events, LoginState.choose_plan)
    assert [value._var_value for _, value in chained.args] == [12, GROWTH, YEARLY, True]
    assert tab.state(PricingState).plan_id == 0


def test_signed_in_a_button_opens_the_confirmation_and_confirming_sets_the_plan() -> None:
    customer_id = _customer()
    tab = _pricing_tab()
    pricing = tab.state(PricingState)

    events = asyncio.run(tab.run(PricingState.choose_plan, 12, GROWTH, MONTHLY, True))

    assert _events_named(events, LoginState.choose_plan) == []
    assert (pricing.plan_id, pricing.duration_id, pricing.is_trial) == (GROWTH, MONTHLY, True)
    ends = long_date(utcnow() + timedelta(days=14))
    assert pricing.trial_offer == f"Start with a 14-day free trial, until {ends}"
    row = customer_row(customer_id)
    assert row is not None and row.subscription_plan_id is None  # nothing set yet

    # The step's own fields: yearly instead, the trial kept.
    asyncio.run(tab.run(PricingState.confirm, {"PlanDurationId": "2", "IsTrial": "on"}))

    assert pricing.message == f"Your plan is now Growth, yearly, free trial until {ends}."
    row = customer_row(customer_id)
    assert row is not None
    assert (row.subscription_plan_id, row.plan_duration_id, row.is_trial) == (GROWTH, 2, True)

    asyncio.run(tab.run(PricingState.close))
    assert (pricing.plan_id, pricing.message) == (0, "")


def test_a_client_sending_its_own_plan_gets_nothing_set() -> None:
    customer_id = _customer()
    tab = _pricing_tab()
    pricing = tab.state(PricingState)

    asyncio.run(tab.run(PricingState.choose_plan, 12, 999, MONTHLY, False))
    assert pricing.plan_id == 0
    asyncio.run(tab.run(PricingState.choose_plan, "12", "102); alert(1", "x", "true"))
    assert pricing.plan_id == 0

    # Confirming with no step open, or an unknown billing period: refused, nothing set.
    asyncio.run(tab.run(PricingState.confirm, {"PlanDurationId": "2"}))
    assert pricing.error == PLAN_UNKNOWN
    asyncio.run(tab.run(PricingState.choose_plan, 12, GROWTH, MONTHLY, False))
    asyncio.run(tab.run(PricingState.confirm, {"PlanDurationId": "7"}))
    assert pricing.error == DURATION_UNKNOWN
    row = customer_row(customer_id)
    assert row is not None and row.subscription_plan_id is None


def test_once_the_trial_is_over_the_step_offers_none() -> None:
    customer_id = _customer()
    _choose(customer_id, now=utcnow() - timedelta(days=20))
    tab = _pricing_tab()
    pricing = tab.state(PricingState)

    asyncio.run(tab.run(PricingState.choose_plan, 12, GROWTH, MONTHLY, True))

    assert (pricing.trial_offer, pricing.is_trial) == ("", False)
    assert pricing.trial_note == "Your free trial has ended."


def test_signed_out_meanwhile_confirming_takes_the_signed_out_flow() -> None:
    customer_id = _customer()
    tab = _pricing_tab()
    asyncio.run(tab.run(PricingState.choose_plan, 12, GROWTH, MONTHLY, False))
    accounts.sign_out_everywhere(customer_id=customer_id, client_ip=IP)

    events = asyncio.run(tab.run(PricingState.confirm, {"PlanDurationId": "2"}))

    [chained] = _events_named(events, LoginState.choose_plan)
    assert [value._var_value for _, value in chained.args] == [12, GROWTH, YEARLY, False]
    row = customer_row(customer_id)
    assert row is not None and row.subscription_plan_id is None


# The migration: trials chosen at registration before it keep their 14 days.

_OLD_CUSTOMER = text(
    "INSERT INTO customer (user_name, email, email_key, mobile_number, password_hash,"
    " company_name, location, is_trial, subscription_plan_id, created_at) VALUES"
    " (:name, :email, :email, '0123456789', 'h', 'C', 'L', :trial, :plan, :created)"
)


def _old_customers() -> None:
    """Three accounts as registration left them before 0012, all at 12:30 UTC on 1 November:
    with a trial of a plan, with a plan and no trial, with a trial and no plan."""
    engine = get_engine()
    # As each database's own DateTime column keeps a UTC moment.
    created: object = datetime(2026, 11, 1, 12, 30, tzinfo=UTC)
    if engine.dialect.name == "sqlite":
        created = "2026-11-01 12:30:00.000000"
    with engine.begin() as connection:
        for name, trial, plan in (("trial", True, GROWTH), ("paid", False, GROWTH)):
            values = {"name": name, "email": f"{name}@example.com", "trial": trial, "plan": plan}
            connection.execute(_OLD_CUSTOMER, {**values, "created": created})
        values = {"name": "none", "email": "none@example.com", "trial": True, "plan": None}
        connection.execute(_OLD_CUSTOMER, {**values, "created": created})


def _trial_ends() -> dict[str, datetime | None]:
    with Session(get_engine()) as session:
        return {row.user_name: row.trial_ends_at for row in session.exec(select(Customer))}


EXPECTED_ENDS = {"trial": datetime(2026, 11, 15, 12, 30, tzinfo=UTC), "paid": None, "none": None}


def test_migration_0012_gives_earlier_trials_their_end_on_sqlite(
    tmp_path: Path, configure: Configure
) -> None:
    configure(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'old.db'}")
    upgrade(alembic_config(), "0011")
    _old_customers()

    upgrade(alembic_config(), "head")

    assert _trial_ends() == EXPECTED_ENDS


@pytest.fixture
def postgres_at_0011(configure: Configure) -> Iterator[None]:
    with scratch_postgres(configure, revision="0011"):
        yield


@pytest.mark.usefixtures("postgres_at_0011")
def test_migration_0012_gives_earlier_trials_their_end_on_postgresql() -> None:
    _old_customers()

    upgrade(alembic_config(), "head")

    assert _trial_ends() == EXPECTED_ENDS
