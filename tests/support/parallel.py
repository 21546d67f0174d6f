"""Registrations that race each other, as concurrent requests from many browsers would."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from tests.support.site import register_customer


def register_all_at_once(emails: Sequence[str]) -> list[str]:
    """Registers a customer for every address, each from a thread of its own, all at once.
    Returns, sorted, "created" for each customer created and "known" for each answer given
    for an address that already had one (the same answer to the client)."""

    def attempt(email: str) -> str:
        return "known" if register_customer(email=email) is None else "created"

    with ThreadPoolExecutor(max_workers=len(emails)) as pool:
        return sorted(pool.map(attempt, emails))
