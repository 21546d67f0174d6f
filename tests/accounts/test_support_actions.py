"""Customer support's actions: sign out everywhere, password reset, lock, unlock, delete.

Each does what the customer's own action does, and writes one audit entry."""

from __future__ import annotations

import pytest

from rcxsite import accounts
from rcxsite.core.permissions import StaffActor
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import AuditEntry, utcnow
from rcxsite.staff import support
from rcxsite.staff.support_inputs import StaffDeleteCustomerInput
from tests.support import service_calls as calls
from tests.support.customers import (
    PASSWORD,
    customer_row,
    register_customer,
    reset_tokens_of,
    sessions_of,
    set_locked,
)
from tests.support.fixtures import Configure
from tests.support.quotes import add_quote
from tests.support.quotes import stored_requests as quotes_stored
from tests.support.rate_limits import reset_rate_limits
from tests.support.site import outbox_messages, reset_token_in
from tests.support.smtp import Mailbox
from tests.support.staff import STAFF_IP, audit_entries, support_actor

IP = "203.0.113.41"
EMAIL = "alice@example.com"
NEW_PASSWORD = "brand-new-pass"
UNIFORM = "If an account exists for that email, a reset link has been sent."
LOCKED = "This account is locked. Please contact us at sales@rcx.example."
CONFIRM = "Type the customer's email to confirm"


def _customer(email: str = EMAIL) -> int:
    customer_id = register_customer(email=email)
    assert customer_id is not None
    return customer_id


def _log_in(email: str = EMAIL, password: str = PASSWORD) -> str:
    return calls.authenticate(email=email, password=password, client_ip=IP).token


def _refusal(action, /, **kwargs: object) -> ServiceError:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as refused:
        action(**kwargs)
    return refused.value


def _request_link(email: str = EMAIL) -> str:
    assert calls.request_password_reset(email=email, client_ip=IP) == UNIFORM
    reset_rate_limits()  # the next request in the same test is not one too many
    return reset_token_in(outbox_messages()[-1])


def _only_entry(actor: StaffActor, customer_id: int, email: str = EMAIL) -> AuditEntry:
    [entry] = audit_entries()
    assert (entry.actor_id, entry.actor_name) == (actor.member_id, actor.name)
    assert entry.target == f"customer #{customer_id} ({email})"
    assert entry.client_address == STAFF_IP
    return entry


def test_sign_out_everywhere_ends_sessions_and_links_and_is_audited() -> None:
    customer_id = _customer()
    phone, laptop = _log_in(), _log_in()
    link = _request_link()
    _customer("bob@example.com")
    bobs = _log_in("bob@example.com")
    actor = support_actor()

    message = support.sign_out_customer_everywhere(actor=actor, customer_id=customer_id)

    assert message == "alice@example.com has been signed out everywhere."
    assert accounts.verify_login_token(phone) is None
    assert accounts.verify_login_token(laptop) is None
    assert accounts.check_reset_token(token=link, client_ip=IP).is_valid is False
    assert accounts.verify_login_token(bobs) is not None
    assert _only_entry(actor, customer_id).action == "customer_signed_out_everywhere"
    assert accounts.verify_login_token(_log_in()) == customer_id  # they may log in again


def test_send_password_reset_mails_the_forgot_password_link(mailbox: Mailbox) -> None:
    customer_id = _customer()
    actor = support_actor()

    message = support.send_customer_password_reset(actor=actor, customer_id=customer_id)

    assert message == "A password reset link has been sent to alice@example.com."
    mail = mailbox.wait_for(EMAIL)
    assert mail["Subject"] == "Reset your RCX password"
    token = reset_token_in(mail)
    assert _only_entry(actor, customer_id).action == "customer_password_reset_sent"
    assert (
        calls.reset_password(email=EMAIL, new_password=NEW_PASSWORD, token=token, client_ip=IP)
        == "Your password has been successfully reset!"
    )
    assert calls.authenticate(email=EMAIL, password=NEW_PASSWORD, client_ip=IP).token


def test_staff_reset_mails_share_the_accounts_mail_limit() -> None:
    customer_id = _customer()
    actor = support_actor()
    support.send_customer_password_reset(actor=actor, customer_id=customer_id)

    refused = _refusal(support.send_customer_password_reset, actor=actor, customer_id=customer_id)

    assert refused.status == 429
    assert len(outbox_messages()) == 1 and len(reset_tokens_of(customer_id)) == 1
    assert len(audit_entries()) == 1


def test_no_reset_is_sent_for_a_locked_account() -> None:
    customer_id = _customer()
    actor = support_actor()
    support.lock_customer(actor=actor, customer_id=customer_id)

    refused = _refusal(support.send_customer_password_reset, actor=actor, customer_id=customer_id)

    assert refused.status == 409 and "locked" in refused.message
    assert outbox_messages() == [] and reset_tokens_of(customer_id) == []
    assert [entry.action for entry in audit_entries()] == ["customer_locked"]


def test_lock_signs_out_voids_links_and_blocks_login_and_reset() -> None:
    customer_id = _customer()
    token = _log_in()
    link = _request_link()
    actor = support_actor()

    message = support.lock_customer(actor=actor, customer_id=customer_id)

    assert message == "alice@example.com is locked and has been signed out everywhere."
    stored = customer_row(customer_id)
    assert stored is not None and stored.locked_at is not None
    assert accounts.verify_login_token(token) is None
    assert accounts.check_reset_token(token=link, client_ip=IP).is_valid is False
    assert _only_entry(actor, customer_id).action == "customer_locked"
    # The right password is told of the lock; a wrong one learns nothing about it.
    refused = _refusal(calls.authenticate, email=EMAIL, password=PASSWORD, client_ip=IP)
    assert (refused.status, refused.message) == (403, LOCKED)
    wrong = _refusal(calls.authenticate, email=EMAIL, password="not-the-pass", client_ip=IP)
    assert (wrong.status, wrong.message) == (401, "Invalid email or password.")
    assert all(row.revoked_at is not None for row in sessions_of(customer_id))
    # Forgot password: the usual answer, and no mail.
    mails_before = len(outbox_messages())
    assert calls.request_password_reset(email=EMAIL, client_ip=IP) == UNIFORM
    assert len(outbox_messages()) == mails_before
    assert all(row.used_at is not None for row in reset_tokens_of(customer_id))


def test_the_locked_message_names_the_configured_address(configure: Configure) -> None:
    customer_id = _customer()
    support.lock_customer(actor=support_actor(), customer_id=customer_id)
    configure(sales_email="hello@rcx.test")

    refused = _refusal(calls.authenticate, email=EMAIL, password=PASSWORD, client_ip=IP)

    assert refused.message == "This account is locked. Please contact us at hello@rcx.test."


def test_a_link_still_open_at_lock_time_cannot_set_a_password() -> None:
    customer_id = _customer()
    link = _request_link()
    set_locked(customer_id, utcnow())  # a lock racing with the link's issue

    refused = _refusal(
        calls.reset_password, email=EMAIL, new_password=NEW_PASSWORD, token=link, client_ip=IP
    )

    assert (refused.status, refused.message) == (403, LOCKED)
    assert [row.used_at for row in reset_tokens_of(customer_id)] == [None]  # rolled back
    assert (
        _refusal(calls.authenticate, email=EMAIL, password=NEW_PASSWORD, client_ip=IP).status == 401
    )
    set_locked(customer_id, None)
    assert (
        calls.reset_password(email=EMAIL, new_password=NEW_PASSWORD, token=link, client_ip=IP)
        == "Your password has been successfully reset!"
    )


def test_unlock_lets_the_customer_log_in_and_reset_again() -> None:
    customer_id = _customer()
    actor = support_actor()
    support.lock_customer(actor=actor, customer_id=customer_id)

    message = support.unlock_customer(actor=actor, customer_id=customer_id)

    assert message == "alice@example.com is unlocked and can log in again."
    stored = customer_row(customer_id)
    assert stored is not None and stored.locked_at is None
    assert accounts.verify_login_token(_log_in()) == customer_id
    assert _request_link()  # a reset mail goes out again
    entries = audit_entries()
    assert [entry.action for entry in entries] == ["customer_locked", "customer_unlocked"]
    assert entries[1].target == f"customer #{customer_id} ({EMAIL})"


def test_locking_twice_or_unlocking_an_open_account_is_refused() -> None:
    customer_id = _customer()
    actor = support_actor()

    assert _refusal(support.unlock_customer, actor=actor, customer_id=customer_id).status == 409
    support.lock_customer(actor=actor, customer_id=customer_id)
    assert _refusal(support.lock_customer, actor=actor, customer_id=customer_id).status == 409
    assert [entry.action for entry in audit_entries()] == ["customer_locked"]


def _delete(typed: str, customer_id: int, actor: StaffActor) -> str:
    form = StaffDeleteCustomerInput.parse({"email": typed})
    return support.delete_customer(form, actor=actor, customer_id=customer_id)


def test_delete_needs_the_customers_email_typed() -> None:
    customer_id = _customer()
    _customer("bob@example.com")
    actor = support_actor()

    wrong = _refusal(_delete, typed="bob@example.com", customer_id=customer_id, actor=actor)
    empty = _refusal(StaffDeleteCustomerInput.parse, raw={"email": "  "})

    assert (wrong.status, wrong.message, dict(wrong.fields)) == (400, CONFIRM, {"email": CONFIRM})
    assert (empty.status, dict(empty.fields)) == (422, {"email": CONFIRM})
    assert customer_row(customer_id) is not None and audit_entries() == []


def test_delete_has_the_effects_of_the_customers_own_deletion(mailbox: Mailbox) -> None:
    customer_id = _customer()
    _log_in()
    calls.request_password_reset(email=EMAIL, client_ip=IP)
    mailbox.wait_for(EMAIL)
    add_quote(email=EMAIL)
    actor = support_actor()

    message = _delete(" Alice@EXAMPLE.com ", customer_id, actor)

    assert message == "The account of alice@example.com has been deleted."
    assert customer_row(customer_id) is None
    assert sessions_of(customer_id) == [] and reset_tokens_of(customer_id) == []
    assert [quote.email for quote in quotes_stored()] == [EMAIL]  # stays for sales
    assert mailbox.wait_for(EMAIL)["Subject"] == "Your RCX account was deleted"
    assert _only_entry(actor, customer_id).action == "customer_deleted"
    assert _refusal(calls.authenticate, email=EMAIL, password=PASSWORD, client_ip=IP).status == 401


@pytest.mark.parametrize(
    "action",
    [
        support.sign_out_customer_everywhere,
        support.send_customer_password_reset,
        support.lock_customer,
        support.unlock_customer,
    ],
)
def test_actions_on_a_missing_customer_are_404(action) -> None:  # type: ignore[no-untyped-def]
    refused = _refusal(action, actor=support_actor(), customer_id=424_242)

    assert (refused.status, refused.message) == (404, "This customer does not exist.")
    assert audit_entries() == []
