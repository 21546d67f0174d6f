"""Locked accounts: what a customer whom staff locked out is told, wherever they try.

Staff lock an account from the back office (rcxsite.staff.support), which also ends
its sessions and voids its reset links. From then on the login refuses it (only once the
password has checked out, so the answer tells a guesser nothing), no reset mail is sent
for it, and an open reset link cannot set a password, until staff unlock it.
"""

from __future__ import annotations

from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Customer
from rcxsite.platform.settings import get_settings

LOCKED_STATUS = 403


def locked_message() -> str:
    """Read at refusal time: the contact address is configuration (`SALES_EMAIL`)."""
    return f"This account is locked. Please contact us at {get_settings().sales_email}."


def refuse_if_locked(customer: Customer) -> None:
    """ServiceError 403 with `locked_message` when staff have locked the account."""
    if customer.locked_at is not None:
        raise ServiceError(LOCKED_STATUS, locked_message())
