"""A plan's mails (rcxsite.accounts.trials): its confirmation when chosen, and with a free
trial a reminder three days before the end and a word once it has ended, as durable jobs
that mail only while the account still holds that trial."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, col, select

from rcxsite import accounts
from rcxsite.accounts.inputs import PlanChoiceInput
from rcxsite.accounts.trials import ENDED, ENDING, trial_ref
from rcxsite.jobs.kinds import HANDLERS
from rcxsite.models import Job
from rcxsite.platform.db import get_engine
from tests.support.customers import register_customer
from tests.support.site import outbox_messages

IP = "203.0.113.41"
GROWTH, YEARLY = 102, 2


def _choose(customer_id: int, *, trial: bool, now: datetime) -> str:
    choice = PlanChoiceInput.parse(
        {"SubscriptionPlanId": GROWTH, "PlanDurationId": YEARLY, "IsTrial": trial}
    )
    return accounts.choose_plan(choice, customer_id=customer_id, client_ip=IP, now=now)


def _trial_jobs(customer_id: int) -> list[Job]:
    with Session(get_engine()) as session:
        return list(
            session.exec(
                select(Job).where(Job.ref == trial_ref(customer_id)).order_by(col(Job.due_at))
            )
        )


def _text(message) -> str:  # type: ignore[no-untyped-def]
    return message.get_body(preferencelist=("plain",)).get_content()


def test_a_trial_chosen_is_confirmed_by_mail_then_reminded_and_ended_on_its_days() -> None:
    customer_id = register_customer("trial@example.com")
    assert customer_id is not None
    chosen = datetime.now(UTC).replace(microsecond=0)
    ends = chosen + timedelta(days=14)
    day = f"{ends.day} {ends:%B %Y}"

    _choose(customer_id, trial=True, now=chosen)

    [confirmation] = outbox_messages()
    assert confirmation["Subject"] == "Your RCX plan"
    assert f"Your plan is now Growth, yearly, free trial until {day}." in _text(confirmation)
    assert f"Your free trial ends on {day}. We remind you by mail 3 days before" in _text(
        confirmation
    )
    ending, ended = _trial_jobs(customer_id)
    assert (ending.kind, ending.due_at, ending.state) == (
        ENDING,
        ends - timedelta(days=3),
        "queued",
    )
    assert (ended.kind, ended.due_at, ended.state) == (ENDED, ends, "queued")

    # When each comes due, the runner does it: a mail each.
    HANDLERS[ENDING](json.loads(ending.payload))
    HANDLERS[ENDED](json.loads(ended.payload))
    reminder, over = outbox_messages()[1:]
    assert reminder["Subject"] == f"Your free trial of Growth ends on {day}"
    assert "choose it without the trial" in _text(reminder)
    assert over["Subject"] == "Your free trial of Growth has ended"


def test_a_plan_chosen_again_without_the_trial_cancels_its_mails_and_stale_ones_send_nothing() -> (
    None
):
    customer_id = register_customer("switched@example.com")
    assert customer_id is not None
    now = datetime.now(UTC)
    _choose(customer_id, trial=True, now=now)
    _, ended = _trial_jobs(customer_id)

    _choose(customer_id, trial=False, now=now)

    assert {job.state for job in _trial_jobs(customer_id)} == {"cancelled"}
    confirmations = outbox_messages()
    assert [m["Subject"] for m in confirmations] == ["Your RCX plan"] * 2
    assert "free trial" not in _text(confirmations[1])
    # A job that ran anyway (claimed before the change) finds the trial gone: no mail.
    HANDLERS[ENDED](json.loads(ended.payload))
    assert len(outbox_messages()) == 2


def test_registering_with_a_trial_plan_queues_the_same_mails() -> None:
    customer_id = register_customer(
        "registered@example.com", subscription_plan_id=GROWTH, plan_duration_id=1, is_trial=True
    )
    assert customer_id is not None
    assert [job.kind for job in _trial_jobs(customer_id)] == [ENDING, ENDED]
    [confirmation] = outbox_messages()
    assert "Your plan is now Growth, monthly, free trial until" in _text(confirmation)
