"""A plan's mails: the confirmation when one is chosen (at registration or on the pricing
page) and, with a free trial, a reminder `REMINDER_DAYS` before it ends and a word once it
has ended.

The two later mails are durable jobs (rcxsite.jobs), due at those moments, under the
account's ref: choosing a plan again replaces them, and deleting the account cancels them.
Each job looks at the account when it runs and mails only if it still holds that very
trial, so a plan changed meanwhile never gets a stale mail.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from rcxsite import jobs, mail
from rcxsite.accounts.plans import PLAN_CHOSEN, PlanChoice, long_date, plan_message, plan_of
from rcxsite.models import Customer, utcnow
from rcxsite.platform.db import session_scope

REMINDER_DAYS = 3
ENDING, ENDED = "trial_ending", "trial_ended"


def trial_ref(customer_id: int) -> str:
    return f"trial:{customer_id}"


def after_the_trial(choice: PlanChoice) -> str:
    """What happens when the trial ends, as My account and the mails say it ("" without a
    trial)."""
    if not choice.is_trial or choice.trial_ends_at is None:
        return ""
    day = long_date(choice.trial_ends_at)
    if choice.trial_ends_at <= utcnow():
        return (
            f"Your free trial ended on {day}. Choose the plan without the trial to go on with it."
        )
    return (
        f"Your free trial ends on {day}. We remind you by mail {REMINDER_DAYS} days before; "
        "to keep the plan after that day, choose it without the trial."
    )


def plan_chosen(session: Session, customer: Customer, *, now: datetime | None = None) -> None:
    """In the transaction that set the account's plan: its confirmation mail, and the
    trial's later mails in place of any earlier ones."""
    assert customer.id is not None
    jobs.cancel(session, ref=trial_ref(customer.id))
    choice = plan_of(customer)
    if choice is None:
        return
    mail.send_plan_chosen_mail(
        to=customer.email,
        user_name=customer.user_name,
        plan_sentence=plan_message(choice),
        after_trial=after_the_trial(choice),
        session=session,
    )
    end = choice.trial_ends_at if choice.is_trial else None
    if end is None:
        return
    payload = {"customer_id": customer.id, "ends_at": end.isoformat()}
    reminder = end - timedelta(days=REMINDER_DAYS)
    if reminder > (now or utcnow()):
        jobs.add(session, kind=ENDING, payload=payload, due_at=reminder, ref=trial_ref(customer.id))
    jobs.add(session, kind=ENDED, payload=payload, due_at=end, ref=trial_ref(customer.id))


def _still_on(session: Session, payload: dict[str, Any]) -> tuple[Customer, PlanChoice] | None:
    """The account and its plan, if it still holds the trial the job was queued for."""
    customer = session.get(Customer, int(payload["customer_id"]))
    choice = plan_of(customer) if customer is not None else None
    if customer is None or choice is None or not choice.is_trial or not choice.trial_ends_at:
        return None
    if choice.trial_ends_at.isoformat() != payload["ends_at"]:
        return None
    return customer, choice


PLAN_CHOSEN.append(plan_chosen)


def _mail_while_on(payload: dict[str, Any], *, ended: bool) -> None:
    with session_scope() as session:
        held = _still_on(session, payload)
        if held is None:
            return
        customer, choice = held
        assert choice.trial_ends_at is not None
        mail.send_trial_mail(
            to=customer.email,
            user_name=customer.user_name,
            plan=choice.name,
            day=long_date(choice.trial_ends_at),
            ended=ended,
            session=session,
        )


@jobs.handler(ENDING)
def _remind(payload: dict[str, Any]) -> None:
    _mail_while_on(payload, ended=False)


@jobs.handler(ENDED)
def _ended(payload: dict[str, Any]) -> None:
    _mail_while_on(payload, ended=True)
