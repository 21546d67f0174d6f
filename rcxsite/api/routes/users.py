"""/api/v1/User/*: registration, and the signed-in customer's own account."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status

import rcxsite.booking.customer_calls  # noqa: F401 (the export's "calls" part)
from rcxsite import accounts
from rcxsite.api.client import client_address
from rcxsite.api.envelope import Envelope
from rcxsite.api.routes import SIGNED_IN_ONLY, error_responses
from rcxsite.api.schemas import (
    AccountData,
    ChangePasswordBody,
    CreateCustomerBody,
    DeleteAccountBody,
    NewTokenData,
    ProfileBody,
)
from rcxsite.api.signed_in import CurrentCustomer

router = APIRouter(prefix="/User", tags=["User"])
_ACCOUNT_ERRORS = error_responses(401, 429, descriptions=SIGNED_IN_ONLY)


def _account(me: CurrentCustomer, message: str = "OK") -> Envelope[AccountData]:
    overview = accounts.account_overview(customer_id=me.customer_id)
    return Envelope(status=200, message=message, data=AccountData.of(overview))


@router.post(
    "/CreateCustomer",
    status_code=status.HTTP_201_CREATED,
    summary="Register a customer",
    description="An address that already has an account gets the same answer, and its "
    "owner a mail: the answer tells nobody which addresses are customers.",
    responses=error_responses(429),
)
def create_customer(body: CreateCustomerBody, request: Request) -> Envelope[None]:
    created = accounts.register(body, client_ip=client_address(request))
    return Envelope(status=201, message=created.message)


@router.get("/Me", summary="The signed-in customer's account", responses=_ACCOUNT_ERRORS)
def read_me(me: CurrentCustomer) -> Envelope[AccountData]:
    return _account(me)


@router.patch(
    "/Me",
    summary="Correct the signed-in customer's details (not the email)",
    responses=_ACCOUNT_ERRORS,
)
def update_me(body: ProfileBody, me: CurrentCustomer) -> Envelope[AccountData]:
    message = accounts.update_details(body, customer_id=me.customer_id, client_ip=me.client_ip)
    return _account(me, message)


@router.post(
    "/Me/VerificationEmail",
    responses=_ACCOUNT_ERRORS,
    summary="Mail a new link that verifies the address (older links stop working)",
)
def send_verification_email(me: CurrentCustomer) -> Envelope[None]:
    message = accounts.send_verification_again(customer_id=me.customer_id, client_ip=me.client_ip)
    return Envelope(status=200, message=message)


@router.post(
    "/ChangePassword",
    responses=_ACCOUNT_ERRORS,
    summary="Change the password; every session ends and data.token is the new one",
)
def change_password(body: ChangePasswordBody, me: CurrentCustomer) -> Envelope[NewTokenData]:
    changed = accounts.change_password(body, customer_id=me.customer_id, client_ip=me.client_ip)
    return Envelope(status=200, message=changed.message, data=NewTokenData(token=changed.token))


@router.get(
    "/Me/Export",
    responses=_ACCOUNT_ERRORS,
    summary="Everything kept about the customer: account, quote requests (their own "
    "words too), calls (times, host, meeting and manage links), sessions",
)
def export_me(me: CurrentCustomer) -> Envelope[dict[str, Any]]:
    data = accounts.export_account(customer_id=me.customer_id, client_ip=me.client_ip)
    return Envelope(status=200, message="OK", data=data)


@router.delete(
    "/Me",
    responses=_ACCOUNT_ERRORS,
    summary="Delete the account (password and Confirm: true in the body)",
)
def delete_me(body: DeleteAccountBody, me: CurrentCustomer) -> Envelope[None]:
    message = accounts.delete_account(body, customer_id=me.customer_id, client_ip=me.client_ip)
    return Envelope(status=200, message=message)
