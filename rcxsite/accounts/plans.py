"""A signed-in customer's plan: the one they have, choosing one on the pricing page, and
its free trial.

One free trial per account: its end is fixed when a trial is first chosen (at
registration or here), `trial_days` on. Choosing a plan again during the trial keeps that
end; once it has passed, a plan can only be chosen without the trial. Dates are given on
the company's calendar (rcxsite.content.quote.CALL_TIMEZONE): the account has no zone of
its own, and a trial ends with the company's day.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import Session

from rcxsite.accounts import limits
from rcxsite.accounts.inputs import PlanChoiceInput
from rcxsite.content.pricing import DURATIONS, PLANS
from rcxsite.content.types import Plan
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.working_week import CALL_TIMEZONE
from rcxsite.models import Customer, utcnow
from rcxsite.platform.db import session_scope

logger = logging.getLogger(__name__)

SIGNED_OUT = "Please log in to continue."
# Told of a plan chosen, in its transaction (rcxsite.accounts.trials: its mails).
PLAN_CHOSEN: list[Callable[[Session, Customer], None]] = []
TRIAL_OVER = "Your free trial has ended. Please choose the plan without a trial."


@dataclass(frozen=True, slots=True)
class PlanChoice:
    name: str
    duration: str
    is_trial: bool
    # When the free trial ends (or ended); None without a trial, or for one chosen before
    # trial ends were kept.
    trial_ends_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PlanOffer:
    """What choosing a plan now would mean for the customer, for the confirmation step."""

    # When a trial chosen now would end; None once the account's trial is over.
    trial_ends_at: datetime | None
    # The account's trial has begun already (choosing it again keeps its end).
    trial_started: bool


def long_date(moment: datetime) -> str:
    """The day `moment` falls on in the company's calendar, as "9 December 2026"."""
    day = moment.astimezone(ZoneInfo(CALL_TIMEZONE))
    return f"{day.day} {day:%B %Y}"


def plan_of(customer: Customer) -> PlanChoice | None:
    """The customer's plan as My account, the API and staff show it."""
    plan = _plan(customer.subscription_plan_id)
    if plan is None:
        return None
    duration = next((d.label for d in DURATIONS if d.id == customer.plan_duration_id), "")
    return PlanChoice(
        name=plan.name,
        duration=duration,
        is_trial=customer.is_trial,
        trial_ends_at=customer.trial_ends_at if customer.is_trial else None,
    )


def plan_message(choice: PlanChoice) -> str:
    """The answer to a confirmed choice, as in "Your plan is now Growth, yearly, free trial
    until 9 December 2026"."""
    terms = [choice.name, choice.duration.lower()]
    if choice.is_trial:
        until = f" until {long_date(choice.trial_ends_at)}" if choice.trial_ends_at else ""
        terms.append(f"free trial{until}")
    return f"Your plan is now {', '.join(term for term in terms if term)}."


@dataclass(frozen=True, slots=True)
class CurrentPlan:
    """The plan an account has, for the pricing page's card of it."""

    plan_id: int
    choice: PlanChoice


def current_plan(*, customer_id: int) -> CurrentPlan | None:
    with session_scope() as session:
        customer = _customer(session, customer_id)
        choice = plan_of(customer)
        if choice is None or customer.subscription_plan_id is None:
            return None
        return CurrentPlan(plan_id=customer.subscription_plan_id, choice=choice)


def current_plan_note(choice: PlanChoice, now: datetime | None = None) -> str:
    """The pricing card's words for the plan the customer has."""
    if not choice.is_trial or choice.trial_ends_at is None:
        return f"Your plan ({choice.duration.lower()})" if choice.duration else "Your plan"
    if choice.trial_ends_at > (now or utcnow()):
        return f"Your plan: free trial until {long_date(choice.trial_ends_at)}"
    return f"Your plan: its free trial ended on {long_date(choice.trial_ends_at)}"


def _plan(plan_id: int | None) -> Plan | None:
    return next((plan for plan in PLANS if plan.id == plan_id), None)


def new_trial_end(plan_id: int | None, now: datetime | None = None) -> datetime | None:
    """When a trial of the plan starting now ends; None for no plan of ours."""
    plan = _plan(plan_id)
    return (now or utcnow()) + timedelta(days=plan.trial_days) if plan else None


def _trial_end(customer: Customer, plan: Plan, now: datetime) -> datetime | None:
    if customer.trial_ends_at is None:
        return new_trial_end(plan.id, now)
    return customer.trial_ends_at if customer.trial_ends_at > now else None


def _customer(session: Session, customer_id: int) -> Customer:
    customer = session.get(Customer, customer_id)
    if customer is None:  # deleted while a session was still being checked
        raise ServiceError(401, SIGNED_OUT)
    return customer


def plan_offer(
    choice: PlanChoiceInput, *, customer_id: int, now: datetime | None = None
) -> PlanOffer:
    """What confirming `choice` would mean for the account's trial (nothing is changed)."""
    with session_scope() as session:
        customer = _customer(session, customer_id)
        started = customer.trial_ends_at is not None
        plan = _plan(choice.plan_id)
        assert plan is not None  # the input model accepts only these
        return PlanOffer(
            trial_ends_at=_trial_end(customer, plan, now or utcnow()), trial_started=started
        )


def choose_plan(
    choice: PlanChoiceInput, *, customer_id: int, client_ip: str, now: datetime | None = None
) -> str:
    """Sets the plan on the account; the sentence that says what it now is."""
    limits.count_account_change(customer_id=customer_id, client_ip=client_ip)
    plan = _plan(choice.plan_id)
    assert plan is not None  # the input model accepts only these
    with session_scope() as session:
        customer = _customer(session, customer_id)
        if choice.is_trial:
            trial_end = _trial_end(customer, plan, now or utcnow())
            if trial_end is None:
                raise ServiceError(400, TRIAL_OVER, fields={"IsTrial": TRIAL_OVER})
            customer.trial_ends_at = trial_end
        customer.project_id, customer.subscription_plan_id = plan.project_id, plan.id
        customer.plan_duration_id, customer.is_trial = choice.duration_id, choice.is_trial
        session.add(customer)
        chosen = plan_of(customer)
        for announce in PLAN_CHOSEN:
            announce(session, customer)
    assert chosen is not None
    logger.info("Customer %d chose the %s plan", customer_id, plan.name)
    return plan_message(chosen)
