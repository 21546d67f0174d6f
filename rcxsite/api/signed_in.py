"""The signed-in customer of an API request: `Authorization: Bearer <login token>`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request

from rcxsite import accounts
from rcxsite.accounts.my_account import SIGNED_OUT
from rcxsite.api.client import client_address
from rcxsite.core.service_errors import ServiceError

AUTHORIZATION_MAX = 300


@dataclass(frozen=True, slots=True)
class SignedIn:
    customer_id: int
    client_ip: str


def bearer_token(authorization: str) -> str:
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def signed_in(
    request: Request,
    authorization: str = Header(
        "", max_length=AUTHORIZATION_MAX, description="Bearer <token from /Auth/Login>"
    ),
) -> SignedIn:
    """A FastAPI dependency: the customer whose live session the token names, or 401."""
    # A forged or expired token is refused by its signature, before any database lookup.
    customer_id = accounts.verify_login_token(bearer_token(authorization))
    if customer_id is None:
        raise ServiceError(401, SIGNED_OUT)
    return SignedIn(customer_id=customer_id, client_ip=client_address(request))


# Route parameter type: `me: CurrentCustomer` answers 401 before the route runs.
CurrentCustomer = Annotated[SignedIn, Depends(signed_in)]
