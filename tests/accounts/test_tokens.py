from __future__ import annotations

from datetime import timedelta

import jwt
import pytest
from sqlmodel import Session, delete

from rcxsite import accounts
from rcxsite.accounts.tokens import issue_login_token
from rcxsite.db import get_engine
from rcxsite.models import Customer, utcnow
from rcxsite.settings import get_settings
from tests.support.site import register_customer


def _set_tokens_valid_after(customer_id: int, instant: object) -> None:
    with Session(get_engine()) as session:
        customer = session.get(Customer, customer_id)
        assert customer is not None
        customer.tokens_valid_after = instant  # type: ignore[assignment]
        session.add(customer)
        session.commit()


def test_a_token_carries_sub_iat_exp_and_lasts_the_configured_days() -> None:
    customer_id = register_customer()
    token = issue_login_token(customer_id)

    claims = jwt.decode(token, get_settings().signing_key(), algorithms=["HS256"])

    assert claims["sub"] == str(customer_id)
    assert claims["exp"] - claims["iat"] == pytest.approx(30 * 86400, abs=1)
    assert jwt.get_unverified_header(token)["alg"] == "HS256"


def test_expired_tokens_are_refused() -> None:
    customer_id = register_customer()
    token = issue_login_token(customer_id, now=utcnow() - timedelta(days=30, seconds=1))
    assert accounts.verify_login_token(token) is None


def test_tampered_and_foreign_tokens_are_refused() -> None:
    customer_id = register_customer()
    token = issue_login_token(customer_id)
    header, payload, signature = token.split(".")
    now = utcnow().timestamp()
    claims = {"sub": str(customer_id), "iat": now, "exp": now + 60}
    key = get_settings().signing_key()

    forged = [
        f"{header}.{payload}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}",
        jwt.encode(claims, "another-key-that-is-long-enough-for-hs256!", algorithm="HS256"),
        jwt.encode(claims, key, algorithm="HS512"),  # right key, algorithm not pinned
        jwt.encode(claims, None, algorithm="none"),
        jwt.encode({"sub": str(customer_id), "exp": now + 60}, key, algorithm="HS256"),
        jwt.encode({"sub": "not-a-number", "iat": now, "exp": now + 60}, key, algorithm="HS256"),
        jwt.encode({"sub": str(2**40), "iat": now, "exp": now + 60}, key, algorithm="HS256"),
        "",
        "garbage",
        "a.b.c\ud800",
    ]
    assert [accounts.verify_login_token(token) for token in forged] == [None] * len(forged)
    assert accounts.verify_login_token(token) == customer_id


def test_tokens_of_a_deleted_customer_are_refused() -> None:
    customer_id = register_customer()
    token = issue_login_token(customer_id)
    with Session(get_engine()) as session:
        session.exec(delete(Customer))
        session.commit()
    assert accounts.verify_login_token(token) is None


def test_revocation_is_exact_below_one_second() -> None:
    customer_id = register_customer()
    # In the past, since a token dated in the future is refused anyway.
    reset_at = (utcnow() - timedelta(seconds=2)).replace(microsecond=500_000)
    just_before = issue_login_token(customer_id, now=reset_at - timedelta(microseconds=1))
    same_instant = issue_login_token(customer_id, now=reset_at)
    just_after = issue_login_token(customer_id, now=reset_at + timedelta(microseconds=1))

    _set_tokens_valid_after(customer_id, reset_at)

    assert accounts.verify_login_token(just_before) is None
    assert accounts.verify_login_token(same_instant) == customer_id
    assert accounts.verify_login_token(just_after) == customer_id
