"""A staff lock and the customer's logins at the same moment: once the lock is made, no
session of the customer lets anyone in, whichever finished first (SQLite and PostgreSQL).

Logins run in threads of their own, over and over, while a support member locks the
account; each round then checks every session that was handed out and the stored rows."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from sqlmodel import Session, col, select

from rcxsite import accounts
from rcxsite.accounts import sessions
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import LoginSession, utcnow
from rcxsite.platform.db import get_engine
from rcxsite.staff import support
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer, set_locked
from tests.support.fixtures import Configure
from tests.support.postgres import sqlite_or_postgres
from tests.support.staff import support_actor

IP = "203.0.113.77"
EMAIL = "racer@example.com"
ROUNDS = 20
LOGIN_THREADS = 3
LOCKED = "This account is locked. Please contact us at sales@rcx.example."


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, configure: Configure) -> Iterator[str]:
    """The package's SQLite file, or a scratch PostgreSQL database (skipped when absent)."""
    # Every round logs in several times at once; the failure limit has tests of its own.
    configure(login_failure_limit="10000 per 15 minutes")
    with sqlite_or_postgres(request.param, configure) as kind:
        yield kind


def _log_in(*, via_ticket: bool = False) -> accounts.LoginResult:
    return calls.authenticate(email=EMAIL, password=PASSWORD, client_ip=IP, via_ticket=via_ticket)


@dataclass
class Round:
    digests: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)


def _race(customer_id: int, actor: StaffActor) -> Round:
    """Logins hammering away while the lock is made; what each of them got."""
    outcome = Round()
    start = threading.Barrier(LOGIN_THREADS + 1)
    locked = threading.Event()

    def keep_logging_in(via_ticket: bool) -> None:
        start.wait()
        try:
            # Attempts still under way when the lock lands are the ones that matter.
            while not locked.is_set():
                try:
                    outcome.digests.append(_log_in(via_ticket=via_ticket).session_digest)
                except ServiceError as refusal:
                    outcome.refused.append(f"{refusal.status} {refusal.message}")
        except BaseException as error:
            outcome.errors.append(error)

    def lock() -> None:
        start.wait()
        try:
            locked.wait(random.uniform(0.02, 0.08))  # while logins are in flight
            support.lock_customer(actor=actor, customer_id=customer_id)
        except BaseException as error:
            outcome.errors.append(error)
        finally:
            locked.set()

    threads = [
        threading.Thread(target=keep_logging_in, args=(index % 2 == 0,))
        for index in range(LOGIN_THREADS)
    ]
    threads.append(threading.Thread(target=lock))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return outcome


def _open_sessions(customer_id: int) -> list[LoginSession]:
    with Session(get_engine()) as session:
        return list(
            session.exec(
                select(LoginSession).where(
                    LoginSession.customer_id == customer_id, col(LoginSession.revoked_at).is_(None)
                )
            )
        )


def test_no_session_outlives_a_lock_made_during_logins(database: str) -> None:
    customer_id = register_customer(email=EMAIL)
    assert customer_id is not None
    actor = support_actor()
    outrun = []
    for number in range(ROUNDS):
        if number:
            support.unlock_customer(actor=actor, customer_id=customer_id)
        before = _log_in()  # a device signed in well before the lock
        outcome = _race(customer_id, actor)
        assert outcome.errors == []
        assert set(outcome.refused) <= {f"403 {LOCKED}"}
        assert accounts.verify_login_token(before.token) is None
        live = [
            digest for digest in outcome.digests if sessions.digest_customer(digest) is not None
        ]
        if live or _open_sessions(customer_id):
            outrun.append((number, len(live), len(_open_sessions(customer_id))))
    assert outrun == [], (
        f"{database}: in {len(outrun)} of {ROUNDS} rounds a login outran the lock "
        "(round, sessions still let in, sessions not revoked)"
    )


def test_a_locked_customers_sessions_let_nobody_in() -> None:
    """Whatever left a session open on a locked account (a lock made behind the service's
    back, a login that raced it), the session check itself refuses it."""
    customer_id = register_customer(email=EMAIL)
    assert customer_id is not None
    api_login = _log_in()
    screen_login = _log_in(via_ticket=True)
    untraded_ticket = _log_in(via_ticket=True).cookie_ticket
    set_locked(customer_id, utcnow())

    assert accounts.verify_login_token(api_login.token) is None
    assert sessions.digest_customer(screen_login.session_digest) is None
    assert sessions.claim_cookie(untraded_ticket) is None
    set_locked(customer_id, None)  # unlocked: the sessions count again, nothing was revoked
    assert accounts.verify_login_token(api_login.token) == customer_id
    assert sessions.digest_customer(screen_login.session_digest) == customer_id
