"""The pricing page's plan buttons: signed in, a confirmation step, then the plan is set on the
account (rcxsite.accounts.plans); signed out, registration with the plan, as the spec's
flow has it (LoginState.choose_plan).

Every event asks the server-side session again, and the plan, billing and trial a client
sends are read through the service's input model: a client can send any event with any
payload.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from rcxsite import accounts
from rcxsite.accounts.inputs import PlanChoiceInput
from rcxsite.accounts.plans import current_plan_note, long_date
from rcxsite.content.pricing import PLANS
from rcxsite.state.login import LoginState
from rcxsite.state.service_calls import FormCall, call_service
from rcxsite.state.session import SessionState


def plan_button_id(plan_id: int, duration_id: int) -> str:
    """The id of the pricing page's button that chooses this plan with this billing (the
    page shows the one of the billing its switch is on)."""
    return f"plan-{plan_id}-{duration_id}"


def step_heading_id(plan_id: int) -> str:
    return f"plan-{plan_id}-confirm-title"


def step_message_id(plan_id: int) -> str:
    return f"plan-{plan_id}-confirm-message"


def _whole(value: Any) -> int:
    """A plan or billing id as a client sent it: 0 (no such choice) unless a whole number."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    text = str(value)
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 0


def _raw_choice(plan_id: Any, duration_id: Any, is_trial: Any) -> dict[str, Any]:
    return {
        "SubscriptionPlanId": _whole(plan_id),
        "PlanDurationId": _whole(duration_id),
        "IsTrial": is_trial is True,
    }


class PricingState(SessionState):
    # The plan whose confirmation step is open (0: none), and the billing and trial of the
    # button that opened it (where the step's fields start).
    plan_id: int = 0
    duration_id: int = 0
    is_trial: bool = False
    # The trial the step offers: "Start with a 14-day free trial, until 9 December 2026"
    # (or "Keep your free trial, ..." once it has begun); "" once it is over, when
    # `trial_note` says so instead.
    trial_offer: str = ""
    trial_note: str = ""
    # Bumped each time the step opens, to remount its uncontrolled fields.
    step_version: int = 0
    # The button that opened the step, where focus returns when it closes.
    _opener: str = ""
    error: str = ""
    # "Your plan is now ...": the step's answer once confirmed.
    message: str = ""
    busy: bool = False
    # The signed-in customer's plan, marked on its card (0: none, or signed out).
    current_plan_id: int = 0
    current_plan_note: str = ""

    async def _show_current_plan(self, customer_id: int | None) -> None:
        self.current_plan_id, self.current_plan_note = 0, ""
        if customer_id is None:
            return
        outcome = await call_service(accounts.current_plan, customer_id=customer_id)
        current = outcome.value if outcome.ok else None
        if current is not None:
            self.current_plan_id = current.plan_id
            self.current_plan_note = current_plan_note(current.choice)

    @rx.event
    async def load(self):
        """on_load of /pricing."""
        customer_id = await self._signed_in_customer()
        self.signed_in = customer_id is not None
        await self._show_current_plan(customer_id)

    def _forget_personal_data(self) -> None:
        # The open step speaks of the account's trial.
        self.reset()

    @rx.event
    async def choose_plan(self, project_id: Any, plan_id: Any, duration_id: Any, is_trial: Any):
        """A plan button. Signed out: registration with the plan, as before."""
        customer_id = await self._signed_in_customer()
        self.signed_in = customer_id is not None
        if customer_id is None:
            self.reset()
            yield LoginState.choose_plan(
                _whole(project_id), _whole(plan_id), _whole(duration_id), is_trial is True
            )
            return
        call = await FormCall.read(PlanChoiceInput, _raw_choice(plan_id, duration_id, is_trial))
        choice = call.input
        if choice is None:  # not one of the page's buttons
            return
        outcome = await call.send(accounts.plan_offer, customer_id=customer_id)
        if not outcome.ok:
            self.error = outcome.message()
            return
        offer = outcome.result()
        self._opener = plan_button_id(choice.plan_id, choice.duration_id)
        self.plan_id, self.duration_id = choice.plan_id, choice.duration_id
        self.is_trial = choice.is_trial and offer.trial_ends_at is not None
        self.trial_offer = self.trial_note = self.error = self.message = ""
        if offer.trial_ends_at is None:
            self.trial_note = "Your free trial has ended."
        elif offer.trial_started:
            self.trial_offer = f"Keep your free trial, until {long_date(offer.trial_ends_at)}"
        else:
            days = next(plan.trial_days for plan in PLANS if plan.id == choice.plan_id)
            self.trial_offer = (
                f"Start with a {days}-day free trial, until {long_date(offer.trial_ends_at)}"
            )
        self.step_version += 1
        # The step is drawn first (its own update), then focus moves into it.
        yield
        yield rx.set_focus(step_heading_id(choice.plan_id))

    @rx.event
    async def confirm(self, form: dict[str, Any]):
        self.error = ""
        raw = _raw_choice(self.plan_id, form.get("PlanDurationId"), bool(form.get("IsTrial")))
        customer_id = await self._signed_in_customer()
        self.signed_in = customer_id is not None
        if customer_id is None:
            # Signed out meanwhile: the signed-out flow, with the choice as it stands.
            self.reset()
            plan = next((plan for plan in PLANS if plan.id == raw["SubscriptionPlanId"]), None)
            if plan is not None:
                yield LoginState.choose_plan(
                    plan.project_id, plan.id, raw["PlanDurationId"], raw["IsTrial"]
                )
            return
        call = await FormCall.read(PlanChoiceInput, raw)
        call.busy(self)
        yield
        outcome = await call.send(
            accounts.choose_plan, customer_id=customer_id, client_ip=self.router.session.client_ip
        )
        if outcome.ok:
            self.message = outcome.result()
            await self._show_current_plan(customer_id)
            yield
            yield rx.set_focus(step_message_id(self.plan_id))
        else:
            self.error = outcome.message()

    @rx.event
    def close(self):
        """Cancel, or Close after the answer: focus goes back to the button that opened it."""
        self.plan_id, self.message, self.error = 0, "", ""
        return rx.set_focus(self._opener)
