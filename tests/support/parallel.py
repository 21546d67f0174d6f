"""Work that races itself, as concurrent requests from many browsers or several job runners
would: each piece on a thread of its own, all released at once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from tests.support.customers import register_customer


def at_once(calls: Sequence[Callable[[], object]], *, timeout_s: float = 60) -> list[object]:
    """Each call in a thread of its own, released together; what each returned or raised
    (None for one still running after `timeout_s`)."""
    start = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        try:
            outcomes[index] = calls[index]()
        except BaseException as error:
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout_s)
    return outcomes


def register_all_at_once(emails: Sequence[str]) -> list[str]:
    """Registers a customer for every address, each from a thread of its own, all at once.
    Returns, sorted, "created" for each customer created and "known" for each answer given
    for an address that already had one (the same answer to the client)."""

    def attempt(email: str) -> str:
        return "known" if register_customer(email=email) is None else "created"

    with ThreadPoolExecutor(max_workers=len(emails)) as pool:
        return sorted(pool.map(attempt, emails))
