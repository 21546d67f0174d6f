"""Server-side login sessions: the rule for "signed in", logout and password resets."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from rcxsite import accounts
from rcxsite.accounts.sessions import session_customer
from rcxsite.models import LoginSession, utcnow
from rcxsite.platform.db import get_engine
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure


def log_in(email: str = "alice@example.com") -> str:
    return calls.authenticate(email=email, password=PASSWORD, client_ip="10.0.0.1").token


def test_a_login_stores_only_the_digest_of_a_random_token() -> None:
    customer_id = register_customer()
    token, second = log_in(), log_in()

    assert token != second and len(token) >= 43
    with Session(get_engine()) as session:
        rows = session.exec(select(LoginSession)).all()
    assert [row.customer_id for row in rows] == [customer_id, customer_id]
    assert all(token not in (row.token_hash, str(row.id)) for row in rows)
    assert all(row.revoked_at is None for row in rows)
    assert accounts.verify_login_token(token) == customer_id


def test_logout_ends_the_session_and_only_that_one() -> None:
    customer_id = register_customer()
    phone, laptop = log_in(), log_in()

    accounts.log_out(phone)

    assert accounts.verify_login_token(phone) is None
    assert accounts.verify_login_token(laptop) == customer_id


def test_a_session_lapses_when_idle_or_too_old(configure: Configure) -> None:
    configure(header_session_minutes=10, login_token_days=30)
    customer_id = register_customer()
    token = log_in()
    start = utcnow()

    # Each use moves the idle deadline on, up to the maximum age.
    assert session_customer(token, now=start + timedelta(minutes=9)) == customer_id
    assert session_customer(token, now=start + timedelta(minutes=18)) == customer_id
    assert session_customer(token, now=start + timedelta(minutes=29)) is None

    fresh = log_in()
    later = utcnow() + timedelta(days=30, minutes=1)
    with Session(get_engine()) as session:
        row = session.exec(
            select(LoginSession)
            .where(LoginSession.customer_id == customer_id)
            .order_by(LoginSession.id.desc())
        ).first()  # type: ignore[union-attr]
        assert row is not None
        row.last_seen_at = later - timedelta(minutes=1)
        session.add(row)
        session.commit()
    assert session_customer(fresh, now=later) is None


def test_forged_and_malformed_tokens_are_refused() -> None:
    register_customer()
    log_in()
    for token in ("", "x", "ü" * 10, "a" * 10_000, "not-a-session-token-at-all-000000000000000"):
        assert accounts.verify_login_token(token) is None
