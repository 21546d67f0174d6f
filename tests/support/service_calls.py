"""The services called as the tests knew them: fields by attribute name, parsed the way
an adapter parses them (a refused field is the service's 422 `ServiceError`)."""

from __future__ import annotations

from typing import Any

from rcxsite import accounts, leads
from rcxsite.accounts import inputs
from rcxsite.core.service_errors import ServiceError


def register(*, client_ip: str, **fields: Any) -> accounts.RegisteredCustomer:
    return accounts.register(inputs.RegistrationInput.parse(fields), client_ip=client_ip)


def authenticate(
    *, email: str, password: str, client_ip: str, via_ticket: bool = False
) -> accounts.LoginResult:
    form = inputs.LoginInput.parse({"email": email, "password": password})
    return accounts.authenticate(form, client_ip=client_ip, via_ticket=via_ticket)


def request_password_reset(*, email: str, client_ip: str) -> str:
    form = inputs.ForgotPasswordInput.parse({"email": email})
    return accounts.request_password_reset(form, client_ip=client_ip)


def reset_password(*, client_ip: str, **fields: Any) -> str:
    return accounts.reset_password(inputs.ResetPasswordInput.parse(fields), client_ip=client_ip)


def reset_password_for_link(*, link_digest: str | None, client_ip: str, **fields: Any) -> str:
    return accounts.reset_password_for_link(
        inputs.ResetPasswordInput.parse(fields), link_digest=link_digest, client_ip=client_ip
    )


def update_details(*, customer_id: int, client_ip: str, **fields: Any) -> str:
    return accounts.update_details(
        inputs.ProfileInput.parse(fields), customer_id=customer_id, client_ip=client_ip
    )


def change_password(*, customer_id: int, client_ip: str, **fields: Any) -> accounts.PasswordChanged:
    return accounts.change_password(
        inputs.ChangePasswordInput.parse(fields),
        customer_id=customer_id,
        client_ip=client_ip,
    )


def delete_account(*, customer_id: int, client_ip: str, **fields: Any) -> str:
    return accounts.delete_account(
        inputs.DeleteAccountInput.parse(fields), customer_id=customer_id, client_ip=client_ip
    )


def validate_registration(**fields: Any) -> dict[str, str]:
    """Per-field messages for registration values given by attribute name; empty if valid."""
    return inputs.RegistrationInput.read(fields)[1]


class QuoteAnswer:
    """What the quote screen makes of the service's answer: a receipt or a refusal."""

    def __init__(self, receipt: leads.QuoteReceipt | None, refusal: ServiceError | None):
        self.ok = refusal is None
        self.status = refusal.status if refusal else 201
        self.message = refusal.message if refusal else receipt.message if receipt else ""
        self.errors = dict(refusal.fields) if refusal else {}
        self.retry_after = refusal.retry_after if refusal else None
        self.request_id = receipt.request_id if receipt else None
        self.next_steps = receipt.next_steps if receipt else ""


def submit_quote(*, fields: dict[str, Any], client_ip: str) -> QuoteAnswer:
    """The form's raw fields through the trap check, the input model and the service."""
    try:
        if leads.trap_filled(fields):
            return QuoteAnswer(leads.note_trapped_quote(fields, client_ip=client_ip), None)
        model = leads.QuoteWithoutCallInput if leads.wants_no_call(fields) else leads.QuoteInput
        return QuoteAnswer(leads.submit_quote(model.parse(fields), client_ip=client_ip), None)
    except ServiceError as refusal:
        return QuoteAnswer(None, refusal)
