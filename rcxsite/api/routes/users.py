"""/api/v1/User/*: customer registration."""

from __future__ import annotations

from fastapi import APIRouter, status

from rcxsite import accounts
from rcxsite.api.envelope import Envelope
from rcxsite.api.routes import error_responses
from rcxsite.api.schemas import CreateCustomerBody, CreatedCustomerData

router = APIRouter(prefix="/User", tags=["User"])


@router.post(
    "/CreateCustomer",
    status_code=status.HTTP_201_CREATED,
    summary="Register a customer",
    responses=error_responses(409),
)
def create_customer(body: CreateCustomerBody) -> Envelope[CreatedCustomerData]:
    created = accounts.register(
        user_name=body.UserName,
        email=body.EmailAddress,
        mobile_number=body.MobileNumber,
        password=body.Password,
        company_name=body.CompanyName,
        location=body.Location,
        project_id=body.ProjectId,
        subscription_plan_id=body.SubscriptionPlanId,
        plan_duration_id=body.PlanDurationId,
        is_trial=body.IsTrial,
    )
    return Envelope(status=201, message=created.message, data=CreatedCustomerData(id=created.id))
