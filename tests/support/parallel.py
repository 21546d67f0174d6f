"""Registrations that race each other, as concurrent requests from many browsers would."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from rcxsite.service_errors import ServiceError
from tests.support.site import register_customer


def register_all_at_once(emails: Sequence[str]) -> list[int]:
    """Registers a customer for every address, each from a thread of its own, all at once.
    Returns the statuses, sorted: 201 for a customer created, else the refusal's."""

    def attempt(email: str) -> int:
        try:
            register_customer(email=email)
        except ServiceError as error:
            return error.status
        return 201

    with ThreadPoolExecutor(max_workers=len(emails)) as pool:
        return sorted(pool.map(attempt, emails))
