"""Request bodies and response data, spelled as the existing clients spell them.

Fields are typed only; the spec §5 rules live in rcxsite.accounts (shared with the Reflex
forms) and answer 422 with their own messages, which the descriptions below repeat.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Body(BaseModel):
    # Extra keys are ignored: older clients send fields this server does not need.
    model_config = ConfigDict(extra="ignore")


class ForgotPasswordBody(_Body):
    email: str = Field(description="The account's email address")


class ResetPasswordBody(_Body):
    email: str = Field(description="The address the reset link was checked for")
    NewPassword: str = Field(description="4 to 128 characters")
    ResetToken: str = Field(description="The token from the emailed link")


class LoginBody(_Body):
    UserName: str = Field(description="The email address (the field keeps its old name)")
    Password: str = Field(description="At most 128 characters")


class CreateCustomerBody(_Body):
    UserName: str = Field(description="3 to 100 characters")
    EmailAddress: str = Field(description="An email address; unique regardless of case")
    MobileNumber: str = Field(description="Exactly 10 digits")
    Password: str = Field(description="4 to 128 characters")
    CompanyName: str = Field(description="Up to 200 characters")
    Location: str = Field(description="Up to 200 characters")
    ProjectId: int | None = None
    SubscriptionPlanId: int | None = None
    PlanDurationId: int | None = None
    IsTrial: bool = False


class LoginData(BaseModel):
    emailAddress: str
    userName: str
    token: str = Field(description="HS256 JWT with sub, iat and exp")
    id: int


class ResetCheckData(BaseModel):
    isValid: bool
    email: str


class CreatedCustomerData(BaseModel):
    id: int


class FieldErrors(BaseModel):
    errors: dict[str, str]
