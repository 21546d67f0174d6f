from __future__ import annotations

import pytest
from passlib.context import CryptContext
from sqlmodel import Session

from rcxsite import accounts
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Customer
from rcxsite.platform.db import get_engine
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure
from tests.support.rate_limits import reset_rate_limits

IP = "203.0.113.7"


def _refusal(**kwargs: str) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        calls.authenticate(**{"client_ip": IP, **kwargs})  # type: ignore[arg-type]
    return refused.value


def test_login_returns_the_session_fields_and_a_token_for_the_customer() -> None:
    customer_id = register_customer(email="Alice@Example.com", user_name="Alice")

    result = calls.authenticate(email=" alice@EXAMPLE.com", password=PASSWORD, client_ip=IP)

    assert result.message == "Logged in successfully!"
    assert (result.email_address, result.user_name, result.customer_id) == (
        "Alice@example.com",
        "Alice",
        customer_id,
    )
    assert accounts.verify_login_token(result.token) == customer_id


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("", PASSWORD, "Email is required"),
        ("  ", PASSWORD, "Email is required"),
        ("alice@example.com", "", "Password is required"),
        ("alice@example.com", "x" * 129, "Password must be at most 128 characters long."),
    ],
)
def test_missing_fields_are_refused_with_the_spec_message(
    email: str, password: str, message: str
) -> None:
    refusal = _refusal(email=email, password=password)
    assert (refusal.status, refusal.message) == (422, message)


def test_unknown_address_and_wrong_password_get_the_same_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    register_customer()
    verified: list[str] = []
    real_verify = CryptContext.verify

    def spy(self: CryptContext, secret: bytes, hash: str, **kwargs: object) -> bool:
        verified.append(hash)
        return real_verify(self, secret, hash, **kwargs)

    monkeypatch.setattr(CryptContext, "verify", spy)

    wrong_password = _refusal(email="alice@example.com", password="wrong-password")
    unknown = _refusal(email="nobody@example.com", password="wrong-password")
    not_an_address = _refusal(email="not an address", password="wrong-password")

    answers = {(r.status, r.message) for r in (wrong_password, unknown, not_an_address)}
    assert answers == {(401, "Invalid email or password.")}
    # The unknown addresses were checked against a real argon2id hash all the same.
    assert len(verified) == 2
    assert all(hash.startswith("$argon2id$") for hash in verified)


def test_login_upgrades_a_hash_made_with_weaker_parameters(configure: Configure) -> None:
    customer_id = register_customer()
    configure(argon2_time_cost=3)

    calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)

    with Session(get_engine()) as session:
        customer = session.get(Customer, customer_id)
    assert customer is not None
    assert "$m=19456,t=3,p=1$" in customer.password_hash
    calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)


def test_ten_failures_per_account_lock_it_for_fifteen_minutes() -> None:
    register_customer()
    for attempt in range(10):
        refusal = _refusal(
            email="alice@example.com", password="wrong", client_ip=f"10.0.0.{attempt}"
        )
        assert refusal.status == 401

    # Even the right password is refused now, from yet another address.
    locked = _refusal(email="ALICE@example.com", password=PASSWORD, client_ip="10.0.1.1")

    assert locked.status == 429
    assert locked.message == "Too many requests. Try again in 15 minutes."
    assert locked.retry_after is not None and 14 * 60 < locked.retry_after <= 15 * 60
    reset_rate_limits()
    assert calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)


def test_ten_failures_from_one_client_block_it_for_every_account() -> None:
    register_customer()
    for attempt in range(10):
        assert _refusal(email=f"user{attempt}@example.com", password="wrong").status == 401

    blocked = _refusal(email="alice@example.com", password=PASSWORD)

    assert blocked.status == 429
    assert calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip="10.9.9.9")


def test_unknown_addresses_are_locked_like_known_ones() -> None:
    for _ in range(10):
        _refusal(email="ghost@example.com", password="wrong", client_ip="10.0.0.1")

    assert _refusal(email="ghost@example.com", password="wrong", client_ip="10.0.0.2").status == 429


def test_only_failures_count_colleagues_behind_one_address_never_lock_each_other_out() -> None:
    # Eleven correct logins from one office address, then a twelfth colleague: all pass.
    for n in range(12):
        register_customer(email=f"colleague{n}@example.com")
    for n in range(12):
        assert calls.authenticate(
            email=f"colleague{n}@example.com", password=PASSWORD, client_ip=IP
        ).customer_id
    # Each success gave its slot back: ten failures still fit, the eleventh is refused.
    for _ in range(10):
        assert _refusal(email="colleague0@example.com", password="wrong").status == 401
    refused = _refusal(email="colleague1@example.com", password=PASSWORD)
    assert (refused.status, refused.message) == (429, "Too many requests. Try again in 15 minutes.")
