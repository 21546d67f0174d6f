"""Logins per second through the REST API against the limit password hashing sets.

The limit is workers / time of one password verification: the time is the median of
`verify_password` calls in this process with the site's argon2 settings, measured in the
same run, just before the clients start.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import httpx

from bench.config import LOGIN_ACCOUNTS, LOGIN_CLIENTS
from rcxsite.accounts.passwords import hash_password, verify_password

HASH_RUNS = 15
REQUEST_TIMEOUT_S = 30


@dataclass
class LoginRun:
    clients: int
    seconds: float = 0.0
    ok: int = 0
    # What went wrong, by kind: "401", "502", "ReadTimeout", "200 without a token", ...
    errors: Counter[str] = field(default_factory=Counter)
    latencies_ms: list[float] = field(default_factory=list)
    hash_ms: float | None = None
    # For reading the limit: one verification's time while `workers` run at once here.
    parallel_hash_ms: float | None = None
    workers: int = 0
    failure: str | None = None

    @property
    def per_second(self) -> float | None:
        return self.ok / self.seconds if self.seconds else None

    @property
    def limit_per_second(self) -> float | None:
        return self.workers / (self.hash_ms / 1000) if self.hash_ms else None

    @property
    def ratio(self) -> float | None:
        rate, limit = self.per_second, self.limit_per_second
        return rate / limit if rate is not None and limit else None

    def latency(self, quantile: int) -> float | None:
        if len(self.latencies_ms) < 2:
            return self.latencies_ms[0] if self.latencies_ms else None
        return statistics.quantiles(self.latencies_ms, n=100, method="inclusive")[quantile - 1]


def hash_time_ms(runs: int = HASH_RUNS) -> float:
    password = f"bench-{uuid.uuid4().hex}"
    stored = hash_password(password)
    verify_password(password, stored)  # warm-up
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        verify_password(password, stored)
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def parallel_hash_ms(threads: int, rounds: int = 8) -> float:
    """argon2 releases the GIL: `threads` threads verify as `threads` workers would."""
    password = f"bench-{uuid.uuid4().hex}"
    stored = hash_password(password)

    def verify_rounds() -> None:
        for _ in range(rounds):
            verify_password(password, stored)

    workers = [threading.Thread(target=verify_rounds) for _ in range(threads)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return (time.perf_counter() - start) * 1000 / rounds


def _register(client: httpx.Client, count: int) -> list[tuple[str, str]]:
    accounts = []
    for index in range(count):
        email = f"bench.{index}.{uuid.uuid4().hex[:12]}@example.com"
        password = f"bench-{uuid.uuid4().hex}"
        answer = client.post("/api/v1/User/CreateCustomer", json={
            "UserName": "Bench Customer", "EmailAddress": email, "MobileNumber": "0123456789",
            "Password": password, "CompanyName": "Bench Ltd", "Location": "Leeds",
        })
        if answer.status_code != 201:
            raise RuntimeError(f"CreateCustomer answered {answer.status_code}: {answer.text}")
        accounts.append((email, password))
    return accounts


def _log_in(client: httpx.Client, email: str, password: str) -> str | None:
    """None when logged in, else what went wrong."""
    try:
        answer = client.post("/api/v1/Auth/Login", json={"UserName": email, "Password": password})
    except httpx.HTTPError as error:
        return type(error).__name__
    if answer.status_code != 200:
        return str(answer.status_code)
    try:
        token = answer.json()["data"]["token"]
    except (ValueError, KeyError, TypeError):
        token = None
    return None if token else "200 without a token"


def run(base_url: str, seconds: float, workers: int, clients: int = LOGIN_CLIENTS) -> LoginRun:
    result = LoginRun(clients=clients, workers=workers)
    with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT_S) as setup:
        accounts = _register(setup, LOGIN_ACCOUNTS)
        for email, password in accounts * max(1, workers):  # warm-up: every worker, a few
            if (problem := _log_in(setup, email, password)) is not None:
                raise RuntimeError(f"a warm-up login failed: {problem}")
    print("  timing one password verification ...", file=sys.stderr, flush=True)
    result.hash_ms = hash_time_ms()
    result.parallel_hash_ms = parallel_hash_ms(workers)
    lock = threading.Lock()
    start = time.monotonic()
    deadline = start + seconds

    def client_loop(index: int) -> None:
        email, password = accounts[index % len(accounts)]
        with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT_S) as client:
            while time.monotonic() < deadline:
                began = time.perf_counter()
                problem = _log_in(client, email, password)
                elapsed_ms = (time.perf_counter() - began) * 1000
                with lock:
                    if problem is None:
                        result.ok += 1
                        result.latencies_ms.append(elapsed_ms)
                    else:
                        result.errors[problem] += 1

    print(f"  {clients} clients logging in for {seconds:g} s ...", file=sys.stderr, flush=True)
    threads = [threading.Thread(target=client_loop, args=(i,), daemon=True)
               for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # The logins started before the deadline finish after it: count the time they took.
    result.seconds = time.monotonic() - start
    return result
