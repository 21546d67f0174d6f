"""Email verification: the link registration mails, using it, sending it again, and what
an unverified address does not unlock (quote requests in My account, the staff inbox's
link to the account, the customer card)."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path

import pytest
from alembic.command import upgrade
from sqlalchemy import text
from sqlmodel import Session, select, update

from rcxsite import accounts
from rcxsite.accounts.inputs import VerifyEmailInput
from rcxsite.accounts.results import REGISTERED_MESSAGE
from rcxsite.core import tokens
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import Customer, EmailVerificationToken, utcnow
from rcxsite.platform.db import get_engine
from rcxsite.staff import support
from rcxsite.staff.inbox import quote_detail
from tests.support import service_calls as calls
from tests.support.customers import PASSWORD, register_customer
from tests.support.fixtures import Configure
from tests.support.quotes import add_quote, quote_fields
from tests.support.site import SITE_URL, alembic_config, outbox_messages, verification_token_in
from tests.support.smtp import Mailbox
from tests.support.staff import add_member, support_actor

IP = "198.51.100.23"
VERIFIED = "Your email address is verified."
OTHER_ACCOUNT = (
    "This link was sent for another account: log in to that account, then open the link again."
)
LINK_REFUSED = (
    "This link has expired or was already used. "
    'Log in and choose "Send the link again" on My account to get a new one.'
)


def _token(index: int = -1) -> str:
    return verification_token_in(outbox_messages(verification=True)[index])


def _verify(token: str, customer_id: int | None, client_ip: str = IP) -> str:
    """The link opened by `customer_id`, signed in (only a signed-in customer can use one)."""
    assert customer_id is not None
    return accounts.verify_email(
        VerifyEmailInput.parse({"Token": token}), customer_id=customer_id, client_ip=client_ip
    )


def _refusal(token: str, customer_id: int | None) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        _verify(token, customer_id)
    return refused.value


def _token_rows() -> list[EmailVerificationToken]:
    with Session(get_engine()) as session:
        return list(
            session.exec(
                select(EmailVerificationToken).order_by(EmailVerificationToken.id)  # type: ignore[arg-type]
            )
        )


def _verified_at(customer_id: int) -> object:
    with Session(get_engine()) as session:
        customer = session.get(Customer, customer_id)
        assert customer is not None
        return customer.email_verified_at


def test_registration_mails_a_verification_link_through_a_real_smtp_server(
    mailbox: Mailbox,
) -> None:
    started = utcnow()
    registered = calls.register(
        email="Alice@Example.com",
        password="s3cret-pass",
        user_name="Alice",
        mobile_number="9876543210",
        company_name="ACME",
        location="Pune",
        client_ip=IP,
    )

    # The registration's own answer is what it always was.
    assert registered.message == REGISTERED_MESSAGE and registered.id is not None
    received = mailbox.wait_for("alice@example.com", verification=True)
    assert received["To"] == "Alice@example.com"
    assert received["Subject"] == "Verify your RCX email address"
    token = verification_token_in(received)
    link = f"{SITE_URL}/verify-email/{token}"
    plain, html = received.get_body(("plain",)), received.get_body(("html",))
    assert plain is not None and html is not None
    assert link in plain.get_content() and "valid for 3 days" in plain.get_content()
    assert f'href="{link}"' in html.get_content()
    assert len(token) >= 43  # 32 random bytes, URL-safe base64

    [row] = _token_rows()
    assert row.customer_id == registered.id
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()  # never the token
    assert row.used_at is None
    assert (
        timedelta(days=3) - timedelta(seconds=5)
        < row.expires_at - started
        <= timedelta(days=3, seconds=5)
    )
    assert _verified_at(registered.id) is None


def test_a_link_verifies_the_address_once() -> None:
    customer_id = register_customer()
    assert customer_id is not None
    token = _token()
    assert accounts.account_overview(customer_id=customer_id).email_verified is False

    assert _verify(token, customer_id) == VERIFIED

    assert accounts.account_overview(customer_id=customer_id).email_verified is True
    verified_at = _verified_at(customer_id)
    assert verified_at is not None
    refused = _refusal(token, customer_id)
    assert (refused.status, refused.message) == (400, LINK_REFUSED)
    assert _verified_at(customer_id) == verified_at


def test_a_link_verifies_nothing_for_a_customer_it_was_not_sent_for() -> None:
    """Someone registers another person's address: the link reaches that person, who may be
    signed in to an account of their own. It verifies only the account it was sent for, for
    that account's owner signed in; anyone else uses nothing up."""
    squatter = register_customer(email="victim@example.com", user_name="Squatter")
    assert squatter is not None
    token = _token()
    victims_own = register_customer(email="victim.own@example.com")
    calls.submit_quote(fields=quote_fields(email="victim@example.com"), client_ip=IP)

    refused = _refusal(token, victims_own)

    assert (refused.status, refused.message) == (403, OTHER_ACCOUNT)
    assert _verified_at(squatter) is None and _verified_at(victims_own) is None
    assert accounts.account_overview(customer_id=squatter).quotes == ()
    [link] = [row for row in _token_rows() if row.customer_id == squatter]
    assert link.used_at is None
    # Still usable by the one customer it was sent for, signed in.
    assert _verify(token, squatter) == VERIFIED
    assert _verified_at(squatter) is not None and _verified_at(victims_own) is None


def test_the_verification_mail_does_not_carry_the_name_the_registration_typed() -> None:
    """The address is not proven yet: whoever registered it chose the name, and the mail
    must not carry their words to it."""
    register_customer(email="victim@example.com", user_name="Call 555 0100 now to claim your prize")

    [received] = outbox_messages(verification=True)

    plain, html = received.get_body(("plain",)), received.get_body(("html",))
    assert plain is not None and html is not None
    for part in (plain.get_content(), html.get_content(), str(received["Subject"])):
        assert "prize" not in part and "Call 555" not in part
    assert plain.get_content().splitlines()[0] == "Hello,"
    notice = (
        "If you did not create an account, ignore this mail: nothing happens without your password."
    )
    assert notice in plain.get_content() and notice in html.get_content()


def test_an_expired_link_is_refused() -> None:
    customer_id = register_customer()
    assert customer_id is not None
    token = _token()
    with Session(get_engine()) as session:
        session.exec(
            update(EmailVerificationToken).values(expires_at=utcnow() - timedelta(seconds=1))
        )
        session.commit()

    refused = _refusal(token, customer_id)

    assert (refused.status, refused.message) == (400, LINK_REFUSED)
    assert _verified_at(customer_id) is None


def test_unknown_and_tampered_links_are_refused_and_a_stored_digest_is_no_link() -> None:
    customer_id = register_customer()
    assert customer_id is not None
    token = _token()
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    [row] = _token_rows()

    for candidate in (
        "",
        "nope",
        tampered,
        "é" * 10,
        "\x00",
        row.token_hash,
        f"sha256:{row.token_hash}",
    ):
        assert _refusal(candidate, customer_id).status == 400, candidate
    # The screens see the token only as its sealed digest (rcxsite/web/sealed_event_paths.py):
    # a digest read from the database, sealed by anyone but the server, opens nothing.
    assert tokens.marked_digest(f"sha256:{row.token_hash}.forged") is None
    with pytest.raises(ServiceError):
        accounts.verify_email_link(link_digest=None, customer_id=customer_id, client_ip=IP)
    assert _verified_at(customer_id) is None

    digest = tokens.marked_digest(tokens.marked(token))
    assert (
        accounts.verify_email_link(link_digest=digest, customer_id=customer_id, client_ip=IP)
        == VERIFIED
    )
    assert _verified_at(customer_id) is not None


def test_a_new_link_voids_the_older_one() -> None:
    customer_id = register_customer(email="alice@example.com")
    assert customer_id is not None
    first = _token()

    sent = accounts.send_verification_again(customer_id=customer_id, client_ip=IP)

    assert sent == "A new link has been sent to alice@example.com."
    second = _token()
    assert second != first
    assert _refusal(first, customer_id).status == 400
    assert _verify(second, customer_id) == VERIFIED


def test_a_verified_address_gets_no_new_link() -> None:
    customer_id = register_customer()
    assert customer_id is not None
    _verify(_token(), customer_id)

    answer = accounts.send_verification_again(customer_id=customer_id, client_ip=IP)

    assert answer == "Your email address is already verified."
    assert len(outbox_messages(verification=True)) == 1


def test_sending_the_link_again_is_limited_to_three_an_hour_per_customer() -> None:
    customer_id = register_customer()
    assert customer_id is not None
    for index in range(3):
        accounts.send_verification_again(customer_id=customer_id, client_ip=f"192.0.2.{index}")

    with pytest.raises(ServiceError) as refused:
        accounts.send_verification_again(customer_id=customer_id, client_ip="192.0.2.99")

    assert refused.value.status == 429
    assert refused.value.message == "Too many requests. Try again in 60 minutes."
    assert len(outbox_messages(verification=True)) == 1 + 3


def test_one_client_cannot_mail_many_accounts(configure: Configure) -> None:
    configure(verification_mail_client_limit="2 per hour")
    customers = [register_customer(email=f"c{index}@example.com") for index in range(3)]
    for customer_id in customers[:2]:
        assert customer_id is not None
        accounts.send_verification_again(customer_id=customer_id, client_ip=IP)
    assert customers[2] is not None

    with pytest.raises(ServiceError) as refused:
        accounts.send_verification_again(customer_id=customers[2], client_ip=IP)

    assert refused.value.status == 429
    assert refused.value.message.startswith("Too many requests. Try again in")
    assert accounts.send_verification_again(customer_id=customers[2], client_ip="192.0.2.7")


def test_opening_links_is_limited_to_thirty_a_minute_per_client() -> None:
    customer_id = register_customer()
    for _ in range(30):
        assert _refusal("guess", customer_id).status == 400

    refused = _refusal("guess", customer_id)

    assert (refused.status, refused.message) == (429, "Too many requests. Try again in 1 minute.")
    with pytest.raises(ServiceError) as other:  # another client is not held up
        _verify("guess", customer_id, client_ip="192.0.2.1")
    assert other.value.status == 400


def test_my_account_shows_the_requests_of_an_address_only_once_it_is_verified() -> None:
    customer_id = register_customer(email="alice@example.com")
    assert customer_id is not None
    calls.submit_quote(fields=quote_fields(email="Alice@Example.com"), client_ip=IP)

    unverified = accounts.account_overview(customer_id=customer_id)
    exported = accounts.export_account(customer_id=customer_id, client_ip=IP)

    assert unverified.quotes == ()
    assert exported["quoteRequests"] == []
    assert unverified.email_verified is False
    assert exported["account"]["emailVerifiedAt"] is None

    _verify(_token(), customer_id)

    verified = accounts.account_overview(customer_id=customer_id)
    assert verified.email_verified is True
    assert [(quote.service, quote.status) for quote in verified.quotes] == [
        ("Web Development", "Received")
    ]
    assert len(accounts.export_account(customer_id=customer_id, client_ip=IP)["quoteRequests"]) == 1


def test_staff_see_the_account_of_a_request_only_once_its_address_is_verified() -> None:
    customer_id = register_customer(email="alice@example.com")
    assert customer_id is not None
    quote_id = add_quote(email="Alice@Example.com")
    sales, helper = add_member("Sam Sales", "sam@rcx.example", "sales"), support_actor()

    assert quote_detail(actor=sales, quote_id=quote_id).customer_id is None
    unproved = support.customer_card(actor=helper, customer_id=customer_id)
    # The card says why it lists none (StaffCustomerState.no_quotes).
    assert (unproved.quotes, unproved.email_verified) == ((), False)

    _verify(_token(), customer_id)

    assert quote_detail(actor=sales, quote_id=quote_id).customer_id == customer_id
    card = support.customer_card(actor=helper, customer_id=customer_id)
    [quote] = card.quotes
    assert quote.id == quote_id and card.email_verified


def test_deleting_an_account_removes_its_links() -> None:
    customer_id = register_customer()
    assert customer_id is not None
    token = _token()

    calls.delete_account(customer_id=customer_id, client_ip=IP, password=PASSWORD, confirm=True)

    assert _token_rows() == []
    assert _refusal(token, customer_id).status == 400


def test_accounts_that_exist_before_the_migration_count_as_unverified(
    tmp_path: Path, configure: Configure
) -> None:
    configure(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'before.db'}")
    upgrade(alembic_config(), "0008")
    with get_engine().begin() as connection:
        connection.execute(
            text(
                "INSERT INTO customer (user_name, email, email_key, mobile_number, password_hash,"
                " company_name, location, is_trial, created_at)"
                " VALUES ('Old', 'old@example.com', 'old@example.com', '0123456789', 'h', 'C',"
                " 'L', false, '2026-01-01 00:00:00')"
            )
        )

    upgrade(alembic_config(), "head")

    with get_engine().connect() as connection:
        assert connection.execute(
            text("SELECT email_verified_at FROM customer WHERE email_key = 'old@example.com'")
        ).all() == [(None,)]
