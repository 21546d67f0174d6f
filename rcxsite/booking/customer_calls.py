"""A customer's upcoming calls, as My account lists them with their manage links.

Calls are booked by email address, signed in or not; they are the customer's when the
address is the account's and the customer proved it is theirs, as their quote requests
are (rcxsite.accounts.my_account.quotes_of): anyone can register someone else's address,
and a manage link may move or cancel the call.
"""

from __future__ import annotations

from datetime import datetime

from rcxsite.booking.service import UpcomingCall, upcoming_for_email
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


__all__ = ["upcoming_for_customer"]
