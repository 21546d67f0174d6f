from __future__ import annotations

import hashlib
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from limits.storage import memory as limits_memory
from sqlmodel import Session, select, update

from rcxsite import accounts
from rcxsite.core import ratelimit
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import PasswordResetToken, utcnow
from rcxsite.platform.db import get_engine
from rcxsite.platform.settings import Settings
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure
from tests.support.rate_limits import reset_rate_limits
from tests.support.site import SITE_URL, outbox_messages, reset_token_in
from tests.support.smtp import Mailbox

IP = "198.51.100.4"
UNIFORM = "If an account exists for that email, a reset link has been sent."
LINK_INVALID = (
    "This password reset link has expired or is invalid. Please request a new password reset."
)
NEW_PASSWORD = "brand-new-pass"


def _request_token(email: str = "alice@example.com") -> str:
    assert calls.request_password_reset(email=email, client_ip=IP) == UNIFORM
    return reset_token_in(outbox_messages()[-1])


def _token_rows() -> list[PasswordResetToken]:
    with Session(get_engine()) as session:
        return list(session.exec(select(PasswordResetToken).order_by(PasswordResetToken.id)))


def _reset_refusal(**kwargs: str) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        calls.reset_password(**kwargs, client_ip=IP)  # type: ignore[arg-type]
    return refused.value


def test_a_reset_request_mails_a_link_and_stores_only_the_token_digest() -> None:
    customer_id = register_customer(email="Alice@Example.com", user_name="Alice")
    started = utcnow()

    token = _request_token("ALICE@example.com")

    [message] = outbox_messages()
    assert message["To"] == "Alice@example.com"
    link = f"{SITE_URL}/authentication/reset-password/{token}"
    text, html = message.get_body(("plain",)), message.get_body(("html",))
    assert text is not None and html is not None
    assert link in text.get_content() and "30 minutes" in text.get_content()
    assert f'href="{link}"' in html.get_content() and "30 minutes" in html.get_content()
    assert len(token) >= 43  # 32 random bytes, URL-safe base64

    [row] = _token_rows()
    assert row.customer_id == customer_id
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert row.used_at is None
    assert timedelta(minutes=29) < row.expires_at - started <= timedelta(minutes=30, seconds=5)


def test_unknown_addresses_get_the_same_answer_and_no_mail() -> None:
    register_customer()

    assert calls.request_password_reset(email="nobody@example.com", client_ip=IP) == UNIFORM
    assert outbox_messages() == []
    assert _token_rows() == []


@pytest.mark.parametrize(
    ("email", "message"),
    [
        ("", "Email is required"),
        ("   ", "Email is required"),
        ("a b@c.com", "Invalid email address"),
    ],
)
def test_reset_requests_need_a_valid_address(email: str, message: str) -> None:
    with pytest.raises(ServiceError) as refused:
        calls.request_password_reset(email=email, client_ip=IP)
    assert (refused.value.status, refused.value.message) == (422, message)


def test_one_reset_mail_per_minute_per_address_known_or_not() -> None:
    register_customer()
    for email in ("alice@example.com", "nobody@example.com"):
        calls.request_password_reset(email=email, client_ip=IP)
        with pytest.raises(ServiceError) as refused:
            calls.request_password_reset(email=email.upper(), client_ip="192.0.2.1")
        assert refused.value.status == 429
        assert refused.value.message == ("Too many requests. Try again in 1 minute.")
        assert refused.value.retry_after is not None and 0 < refused.value.retry_after <= 60
    assert len(outbox_messages()) == 1


def test_by_default_an_address_gets_one_reset_mail_a_minute_and_five_an_hour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The defaults at work, the minutes passing on the limits' clock (the in-memory
    store's and the limiter's), not on the test's."""
    assert "reset_mail_limits" not in Settings().model_fields_set  # the default, unset
    passed = [0.0]

    class Later:
        @staticmethod
        def time() -> float:
            return real_time() + passed[0]

    real_time = time.time
    monkeypatch.setattr(limits_memory, "time", Later)
    monkeypatch.setattr(ratelimit, "time", Later)
    register_customer()

    def ask() -> str:
        try:
            calls.request_password_reset(email="alice@example.com", client_ip=IP)
        except ServiceError as refused:
            assert refused.status == 429
            return refused.message
        return "sent"

    answers = []
    for _ in range(5):
        answers += [ask(), ask()]  # the second within the same minute
        passed[0] += 61
    answers.append(ask())  # six minutes in: the hour's five are used
    passed[0] += 55 * 60
    answers.append(ask())  # an hour after the first
    minute = "Too many requests. Try again in 1 minute."
    assert answers[:10] == ["sent", minute] * 5
    assert answers[10].startswith("Too many requests. Try again in ")
    assert answers[10] != minute
    assert answers[11] == "sent"
    assert len(outbox_messages()) == 6


def test_at_most_five_reset_mails_per_hour(configure: Configure) -> None:
    # The per-minute limit is lifted so that the hourly one can be reached without waiting.
    configure(
        reset_mail_limits="100 per minute; 5 per hour", reset_mail_client_limits="100 per hour"
    )
    register_customer()
    for _ in range(5):
        calls.request_password_reset(email="alice@example.com", client_ip=IP)

    with pytest.raises(ServiceError) as refused:
        calls.request_password_reset(email="alice@example.com", client_ip=IP)

    assert refused.value.status == 429
    assert refused.value.message.endswith("Try again in 60 minutes.")
    assert len(outbox_messages()) == 5


def test_a_fresh_link_checks_valid_and_names_the_address() -> None:
    register_customer(email="Alice@Example.com")
    token = _request_token()

    check = accounts.check_reset_token(token=token, client_ip=IP)

    assert (check.is_valid, check.email) == (True, "Alice@example.com")


def test_unknown_tampered_and_expired_links_check_invalid() -> None:
    register_customer()
    token = _request_token()
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    invalid = accounts.ResetCheck(is_valid=False, email="")

    for candidate in ("", "nope", tampered, "é" * 10, "x" * 10_000, "\x00"):
        assert accounts.check_reset_token(token=candidate, client_ip=IP) == invalid

    with Session(get_engine()) as session:
        session.exec(update(PasswordResetToken).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    assert accounts.check_reset_token(token=token, client_ip=IP) == invalid
    assert (
        _reset_refusal(email="alice@example.com", new_password=NEW_PASSWORD, token=token).status
        == 400
    )


def test_link_checks_are_limited_to_thirty_a_minute_per_client() -> None:
    for _ in range(30):
        accounts.check_reset_token(token="guess", client_ip=IP)

    with pytest.raises(ServiceError) as refused:
        accounts.check_reset_token(token="guess", client_ip=IP)

    assert refused.value.status == 429
    assert refused.value.message == "Too many requests. Try again in 1 minute."
    assert accounts.check_reset_token(token="guess", client_ip="192.0.2.99").is_valid is False


def test_reset_sets_the_password_voids_other_links_and_revokes_logins(mailbox: Mailbox) -> None:
    register_customer(email="alice@example.com")
    old_login = calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)
    calls.request_password_reset(email="alice@example.com", client_ip=IP)
    first = reset_token_in(mailbox.wait_for("alice@example.com"))
    reset_rate_limits()
    calls.request_password_reset(email="alice@example.com", client_ip=IP)
    second = reset_token_in(mailbox.wait_for("alice@example.com"))

    message = calls.reset_password(
        email="Alice@Example.com", new_password=NEW_PASSWORD, token=second, client_ip=IP
    )

    assert message == "Your password has been successfully reset!"
    assert all(row.used_at is not None for row in _token_rows())
    assert accounts.check_reset_token(token=first, client_ip=IP).is_valid is False
    assert accounts.verify_login_token(old_login.token) is None
    with pytest.raises(ServiceError):
        calls.authenticate(email="alice@example.com", password=PASSWORD, client_ip=IP)
    new_login = calls.authenticate(email="alice@example.com", password=NEW_PASSWORD, client_ip=IP)
    assert accounts.verify_login_token(new_login.token) == new_login.customer_id

    notice = mailbox.wait_for("alice@example.com")
    assert notice["Subject"] == "Your RCX password was changed"
    assert notice.get_body(("plain",)) is not None and notice.get_body(("html",)) is not None


def test_a_link_works_only_once() -> None:
    register_customer()
    token = _request_token()
    calls.reset_password(
        email="alice@example.com", new_password=NEW_PASSWORD, token=token, client_ip=IP
    )

    refusal = _reset_refusal(email="alice@example.com", new_password="another-one", token=token)

    assert (refusal.status, refusal.message) == (400, LINK_INVALID)
    assert calls.authenticate(email="alice@example.com", password=NEW_PASSWORD, client_ip=IP)


def test_parallel_resets_with_one_link_succeed_exactly_once() -> None:
    register_customer()
    token = _request_token()

    def attempt(index: int) -> str:
        try:
            calls.reset_password(
                email="alice@example.com",
                new_password=f"password-{index}",
                token=token,
                client_ip=IP,
            )
        except ServiceError as error:
            return str(error.status)
        return f"password-{index}"

    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(attempt, range(6)))

    winners = [outcome for outcome in outcomes if outcome != "400"]
    assert len(winners) == 1 and outcomes.count("400") == 5
    assert calls.authenticate(email="alice@example.com", password=winners[0], client_ip=IP)


def test_a_wrong_address_does_not_use_up_the_link() -> None:
    register_customer()
    register_customer(email="mallory@example.com")
    token = _request_token()

    refusal = _reset_refusal(email="mallory@example.com", new_password=NEW_PASSWORD, token=token)

    assert (refusal.status, refusal.message) == (400, LINK_INVALID)
    assert accounts.check_reset_token(token=token, client_ip=IP).is_valid is True


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"new_password": ""}, 422, "Please enter a new password."),
        ({"new_password": "abc"}, 422, "Password must be at least 4 characters long."),
        ({"new_password": "x" * 129}, 422, "Password must be at most 128 characters long."),
        ({"email": ""}, 422, "Email is required"),
        ({"token": ""}, 400, LINK_INVALID),
        ({"token": "\x00" * 5}, 400, LINK_INVALID),
    ],
)
def test_reset_input_rules(fields: dict[str, str], status: int, message: str) -> None:
    register_customer()
    token = _request_token()
    values = {"email": "alice@example.com", "new_password": NEW_PASSWORD, "token": token} | fields

    refusal = _reset_refusal(**values)

    assert (refusal.status, refusal.message) == (status, message)
    assert accounts.check_reset_token(token=token, client_ip=IP).is_valid is True


def test_one_client_cannot_mail_many_addresses(configure: Configure) -> None:
    """The per-address limit alone would let one client mail every address once a minute."""
    configure(reset_mail_client_limits="3 per hour")
    for n in range(3):
        calls.request_password_reset(email=f"someone{n}@example.com", client_ip=IP)

    with pytest.raises(ServiceError) as refused:
        calls.request_password_reset(email="someone-else@example.com", client_ip=IP)

    assert refused.value.status == 429
    # Another client is not affected.
    assert calls.request_password_reset(email="other@example.com", client_ip="203.0.113.9")


def test_new_password_submissions_are_limited_per_client(configure: Configure) -> None:
    configure(reset_submit_limit="3 per 15 minutes")
    for _ in range(3):
        with pytest.raises(ServiceError) as dead_link:
            calls.reset_password(
                email="alice@example.com",
                new_password=NEW_PASSWORD,
                token="x" * 40,
                client_ip=IP,
            )
        assert dead_link.value.status != 429

    with pytest.raises(ServiceError) as refused:
        calls.reset_password(
            email="alice@example.com", new_password=NEW_PASSWORD, token="x" * 40, client_ip=IP
        )
    assert refused.value.status == 429


def test_the_screens_reset_with_the_links_digest_and_a_digest_is_no_link() -> None:
    register_customer(email="alice@example.com", user_name="Alice")
    token = _request_token()
    digest = hashlib.sha256(token.encode()).hexdigest()

    check = accounts.check_reset_link(link_digest=digest, client_ip=IP)
    assert (check.is_valid, check.email) == (True, "alice@example.com")
    # A digest read from the database is not a token: the API's entry points hash again.
    assert accounts.check_reset_token(token=digest, client_ip=IP).is_valid is False
    assert (
        _reset_refusal(email="alice@example.com", new_password=NEW_PASSWORD, token=digest).message
        == LINK_INVALID
    )

    assert (
        calls.reset_password_for_link(
            email="alice@example.com", new_password=NEW_PASSWORD, link_digest=digest, client_ip=IP
        )
        == "Your password has been successfully reset!"
    )
    assert calls.authenticate(email="alice@example.com", password=NEW_PASSWORD, client_ip=IP)
    assert accounts.check_reset_link(link_digest=digest, client_ip=IP).is_valid is False
    assert accounts.check_reset_link(link_digest=None, client_ip=IP).is_valid is False
