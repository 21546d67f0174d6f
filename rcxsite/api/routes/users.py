"""/api/v1/User/*: customer registration."""

from __future__ import annotations

from fastapi import APIRouter, Request, status

from rcxsite import accounts
from rcxsite.api.client import client_address
from rcxsite.api.envelope import Envelope
from rcxsite.api.routes import error_responses
from rcxsite.api.schemas import CreateCustomerBody, CreatedCustomerData

router = APIRouter(prefix="/User", tags=["User"])


@router.post(
    "/CreateCustomer",
    status_code=status.HTTP_201_CREATED,
    summary="Register a customer",
    responses=error_responses(409, 429),
)
def create_customer(body: CreateCustomerBody, request: Request) -> Envelope[CreatedCustomerData]:
    created = accounts.register(**body.model_dump(), client_ip=client_address(request))
    return Envelope(status=201, message=created.message, data=CreatedCustomerData(id=created.id))
