"""Request bodies and response data, spelled as the existing clients spell them.

The request bodies are the accounts service's own input models (rcxsite.accounts.inputs):
the limits and spec §5 messages are checked as the body arrives, the same way the screens
check them, and answer 422 with those messages.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rcxsite.accounts.inputs import (
    ForgotPasswordInput,
    LoginInput,
    RegistrationInput,
    ResetPasswordInput,
)

ForgotPasswordBody = ForgotPasswordInput
ResetPasswordBody = ResetPasswordInput
LoginBody = LoginInput
CreateCustomerBody = RegistrationInput


class LoginData(BaseModel):
    emailAddress: str
    userName: str
    token: str = Field(description="Names the server-side session; send it to /Auth/Logout")
    id: int


class ResetCheckData(BaseModel):
    isValid: bool
    email: str


class CreatedCustomerData(BaseModel):
    id: int


class FieldErrors(BaseModel):
    errors: dict[str, str]
