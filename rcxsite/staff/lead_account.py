"""Whether the sender of a quote request already has an account, as the request's page
says it: name, plan and since when, read-only.

Sales need this one fact without the customers pages (closed to them: `READ_CUSTOMERS`),
so it needs only what reading the request needs, `Permission.READ_QUOTES`, and gives no
more than the summary: no contact details beyond the request's own, no sessions, no
actions. Only an account whose owner proved the address is theirs counts (see
`inbox_detail.verified_customer`); for any other request the answer is None, so the page
says the same "No account" whether there is none or an unproven one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from rcxsite.accounts.my_account import PlanChoice, plan_of
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.platform.db import session_scope
from rcxsite.staff.inbox_detail import quote_or_404, verified_customer


@dataclass(frozen=True, slots=True)
class LeadAccount:
    name: str
    # None: no plan chosen.
    plan: PlanChoice | None
    customer_since: datetime


def lead_account(*, actor: StaffActor | None, quote_id: int) -> LeadAccount | None:
    """The account summary of the request's sender, None when they have no verified
    account; ServiceError 404 for an unknown request."""
    require(actor, Permission.READ_QUOTES)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id)
        customer = verified_customer(session, quote.email)
        if customer is None:
            return None
        return LeadAccount(
            name=customer.user_name,
            plan=plan_of(customer),
            customer_since=customer.created_at,
        )
