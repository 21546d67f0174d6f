"""/api/v1/Auth/*: login, password reset and email verification (paths and field names as
the clients use them)."""

from __future__ import annotations

from fastapi import APIRouter, Header, Query, Request

from rcxsite import accounts
from rcxsite.accounts.inputs import LINK_INVALID
from rcxsite.api.client import client_address
from rcxsite.api.envelope import Envelope
from rcxsite.api.routes import SIGNED_IN_ONLY, error_responses
from rcxsite.api.schemas import (
    ForgotPasswordBody,
    LoginBody,
    LoginData,
    ResetCheckData,
    ResetPasswordBody,
    VerifyEmailBody,
)
from rcxsite.api.signed_in import AUTHORIZATION_MAX, CurrentCustomer, bearer_token

router = APIRouter(prefix="/Auth", tags=["Auth"])

RESET_LINK_VALID = "The reset link is valid."
LOGGED_OUT = "Logged out."
# rcxsite.accounts.locking: told only once the password (or the link) checks out.
LOCKED = {403: "The account is locked by the company; the message says whom to contact"}


@router.post(
    "/ForgotPassword", summary="Mail a password reset link", responses=error_responses(429)
)
def forgot_password(body: ForgotPasswordBody, request: Request) -> Envelope[None]:
    message = accounts.request_password_reset(body, client_ip=client_address(request))
    return Envelope(status=200, message=message)


@router.get(
    "/CheckResetUrlValide", summary="Check a password reset link", responses=error_responses(429)
)
def check_reset_url(
    request: Request, reset_token: str = Query(alias="resetTocken")
) -> Envelope[ResetCheckData]:
    check = accounts.check_reset_token(token=reset_token, client_ip=client_address(request))
    message = RESET_LINK_VALID if check.is_valid else LINK_INVALID
    data = ResetCheckData(isValid=check.is_valid, email=check.email)
    return Envelope(status=200, message=message, data=data)


@router.post(
    "/ResetPasswordLink",
    summary="Set a new password with a reset link",
    responses=error_responses(403, 429, descriptions=LOCKED),
)
def reset_password(body: ResetPasswordBody, request: Request) -> Envelope[None]:
    message = accounts.reset_password(body, client_ip=client_address(request))
    return Envelope(status=200, message=message)


@router.post(
    "/VerifyEmail",
    summary="Verify a customer's email address with the link registration mailed",
    description="Token is the last part of the link's path. Only the customer the link was "
    "sent for can use it, with their own bearer token: anyone can register someone else's "
    "address, and whoever then opens the mail must not verify that account. A link works "
    "once, until it expires or a newer one is sent; a refused one answers 400, and one sent "
    "for another customer 403 (it stays usable).",
    responses=error_responses(
        401,
        403,
        429,
        descriptions=SIGNED_IN_ONLY
        | {
            400: "Malformed request, or an unusable verification link",
            403: "The link was sent for another customer's account; it is not used up",
        },
    ),
)
def verify_email(body: VerifyEmailBody, me: CurrentCustomer) -> Envelope[None]:
    message = accounts.verify_email(body, customer_id=me.customer_id, client_ip=me.client_ip)
    return Envelope(status=200, message=message)


@router.post(
    "/Login",
    summary="Log in with email and password",
    responses=error_responses(401, 403, 429, descriptions=LOCKED),
)
def login(body: LoginBody, request: Request) -> Envelope[LoginData]:
    result = accounts.authenticate(body, client_ip=client_address(request))
    data = LoginData(
        emailAddress=result.email_address,
        userName=result.user_name,
        token=result.token,
        id=result.customer_id,
    )
    return Envelope(status=200, message=result.message, data=data)


@router.post("/Logout", summary="End the session a login token names", responses=error_responses())
def logout(authorization: str = Header("", max_length=AUTHORIZATION_MAX)) -> Envelope[None]:
    """`Authorization: Bearer <token>`; answers the same whether or not the token was live."""
    token = bearer_token(authorization)
    if token:
        accounts.log_out(token)
    return Envelope(status=200, message=LOGGED_OUT)


@router.post(
    "/LogoutAll",
    summary="End every session of the signed-in customer, this one included",
    responses=error_responses(401, 429, descriptions=SIGNED_IN_ONLY),
)
def logout_all(me: CurrentCustomer) -> Envelope[None]:
    message = accounts.sign_out_everywhere(customer_id=me.customer_id, client_ip=me.client_ip)
    return Envelope(status=200, message=message)
