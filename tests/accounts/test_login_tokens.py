"""The login token is a JWT naming a random session id; forged or expired ones cost no query;
the screens' one-time cookie tickets."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import jwt
import pytest
from sqlmodel import Session, select

from rcxsite.accounts import login_tokens, sessions
from rcxsite.models import LoginSession, utcnow
from rcxsite.platform.db import get_engine
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure

IP = "198.51.100.4"


def _rows() -> list[LoginSession]:
    with Session(get_engine()) as session:
        return list(session.exec(select(LoginSession)).all())


def _no_database(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a token refused by its signature must cost no query")

    monkeypatch.setattr(sessions, "digest_customer", refuse)


def test_the_token_is_a_signed_jwt_of_a_random_session_id_whose_hash_alone_is_stored() -> None:
    customer_id = register_customer()
    token = calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP).token

    header = jwt.get_unverified_header(token)
    claims = jwt.decode(token, options={"verify_signature": False})
    assert header["alg"] == "HS256"
    assert set(claims) == {"sid", "iat", "exp"}
    assert claims["exp"] - claims["iat"] == 30 * 24 * 3600
    [row] = _rows()
    assert row.token_hash == hashlib.sha256(claims["sid"].encode()).hexdigest()
    assert claims["sid"] not in row.token_hash and token not in row.token_hash
    assert sessions.session_customer(token) == customer_id


@pytest.mark.parametrize("forgery", ["other key", "alg none", "tampered sid", "no exp"])
def test_a_forged_token_is_refused_before_any_database_lookup(
    forgery: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_customer()
    token = calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP).token
    claims = jwt.decode(token, options={"verify_signature": False})
    forged = {
        "other key": lambda: jwt.encode(claims, "not-the-server-key", algorithm="HS256"),
        "alg none": lambda: jwt.encode(claims, None, algorithm="none"),
        "tampered sid": lambda: (
            token.split(".")[0]
            + "."
            + jwt.encode({**claims, "sid": "x"}, "k", algorithm="HS256").split(".")[1]
            + "."
            + token.split(".")[2]
        ),
        "no exp": lambda: jwt.encode(
            {"sid": claims["sid"], "iat": claims["iat"]}, login_tokens._key(), algorithm="HS256"
        ),
    }[forgery]()
    _no_database(monkeypatch)

    assert sessions.session_customer(forged) is None


def test_an_expired_token_is_refused_before_any_database_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    register_customer()
    calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)
    expired = login_tokens.issue(
        "any-session", issued_at=utcnow() - timedelta(days=31), lifetime=timedelta(days=30)
    )
    _no_database(monkeypatch)

    assert sessions.session_customer(expired) is None


def test_the_screens_get_a_one_time_ticket_instead_of_the_token() -> None:
    customer_id = register_customer()
    login = calls.authenticate(
        email="alice@example.com", password=PASSWORD, client_ip=IP, via_ticket=True
    )
    assert login.token == "" and login.cookie_ticket and login.session_digest
    [row] = _rows()
    assert login.cookie_ticket not in (row.token_hash, row.cookie_ticket_hash)

    claimed = sessions.claim_cookie(login.cookie_ticket)

    assert claimed is not None
    assert (claimed.customer_id, claimed.email_address, claimed.user_name) == (
        customer_id,
        "alice@example.com",
        "Alice",
    )
    assert sessions.login_digest(claimed.token) == login.session_digest
    assert sessions.session_customer(claimed.token) == customer_id
    assert sessions.claim_cookie(login.cookie_ticket) is None  # once only
    assert _rows()[0].cookie_ticket_hash is None


def test_a_ticket_expires_within_a_minute_and_with_its_session(configure: Configure) -> None:
    register_customer()
    late = calls.authenticate(
        email="alice@example.com", password=PASSWORD, client_ip=IP, via_ticket=True
    ).cookie_ticket
    assert sessions.claim_cookie(late, now=utcnow() + timedelta(seconds=61)) is None

    revoked = calls.authenticate(
        email="alice@example.com", password=PASSWORD, client_ip=IP, via_ticket=True
    )
    sessions.end_digest_session(revoked.session_digest)
    assert sessions.claim_cookie(revoked.cookie_ticket) is None
    assert sessions.claim_cookie("not-a-ticket") is None
    assert sessions.claim_cookie(None) is None
