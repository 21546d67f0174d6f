"""Request bodies and response data, spelled as the existing clients spell them.

The request bodies are the accounts service's own input models (rcxsite.accounts.inputs):
the limits and field messages are checked as the body arrives, the same way the screens
check them, and answer 422 with those messages.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, Field

from rcxsite.accounts.inputs import (
    ChangePasswordInput,
    DeleteAccountInput,
    ForgotPasswordInput,
    LoginInput,
    ProfileInput,
    RegistrationInput,
    ResetPasswordInput,
    VerifyEmailInput,
)

ForgotPasswordBody = ForgotPasswordInput
ResetPasswordBody = ResetPasswordInput
LoginBody = LoginInput
CreateCustomerBody = RegistrationInput
ProfileBody = ProfileInput
ChangePasswordBody = ChangePasswordInput
DeleteAccountBody = DeleteAccountInput
VerifyEmailBody = VerifyEmailInput


class LoginData(BaseModel):
    emailAddress: str
    userName: str
    token: str = Field(description="Names the server-side session; send it to /Auth/Logout")
    id: int


class ResetCheckData(BaseModel):
    isValid: bool
    email: str


class NewTokenData(BaseModel):
    token: str = Field(
        description="The new login token: the one sent with this request, "
        "like every other of the customer's, no longer works"
    )


class FieldErrors(BaseModel):
    errors: dict[str, str]


class PlanData(BaseModel):
    name: str
    duration: str
    isTrial: bool


class QuoteRequestData(BaseModel):
    sentOn: date
    service: str
    status: str


class AccountData(BaseModel):
    userName: str
    emailAddress: str
    mobileNumber: str
    companyName: str
    location: str
    memberSince: datetime
    emailVerified: bool = Field(
        description="Whether the customer opened the link mailed to "
        "the address; until then quoteRequests is empty"
    )
    plan: PlanData | None = Field(description="The plan chosen at registration, if any")
    quoteRequests: list[QuoteRequestData]

    @classmethod
    def of(cls, overview: Any) -> AccountData:
        plan = overview.plan
        return cls(
            userName=overview.user_name,
            emailAddress=overview.email,
            mobileNumber=overview.mobile_number,
            companyName=overview.company_name,
            location=overview.location,
            memberSince=overview.member_since,
            emailVerified=overview.email_verified,
            plan=PlanData(name=plan.name, duration=plan.duration, isTrial=plan.is_trial)
            if plan
            else None,
            quoteRequests=[
                QuoteRequestData(sentOn=quote.sent_on, service=quote.service, status=quote.status)
                for quote in overview.quotes
            ],
        )
