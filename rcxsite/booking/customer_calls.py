"""A customer's upcoming calls, as My account lists them with their manage links.

Calls are booked by email address, signed in or not; they are the customer's when the
address is the account's and the customer proved it is theirs, as their quote requests
are (rcxsite.accounts.my_account.quotes_of): anyone can register someone else's address,
and a manage link may move or cancel the call.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session

from rcxsite.accounts.my_account import export_part
from rcxsite.booking.service import UpcomingCall, calls_for_export, upcoming_for_email
from rcxsite.models import Customer
from rcxsite.platform.db import session_scope


def upcoming_for_customer(
    *, customer_id: int, now: datetime | None = None
) -> tuple[UpcomingCall, ...]:
    """The customer's active calls to come, soonest first; none until their address is
    verified (or once the account is gone)."""
    with session_scope() as session:
        customer = session.get(Customer, customer_id)
        if customer is None or customer.email_verified_at is None:
            return ()
        email = customer.email_key
    return upcoming_for_email(email=email, now=now)


@export_part("calls")
def _calls_in_the_export(session: Session, customer: Customer) -> list[dict[str, Any]]:
    """Past and to come, cancelled too; none until the address is verified."""
    if customer.email_verified_at is None:
        return []
    return calls_for_export(session, email=customer.email_key, now=datetime.now(UTC))


__all__ = ["upcoming_for_customer"]
