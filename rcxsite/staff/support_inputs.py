"""Inputs of the customer support service (rcxsite.staff.support), with their texts."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, field_validator

from rcxsite.core.forms import FormInput, documented, problem
from rcxsite.models import EMAIL_MAX

CONFIRM_EMAIL = "Type the customer's email to confirm"


class StaffDeleteCustomerInput(FormInput):
    """ "Delete account" on the customer's card: the customer's address typed again, so a
    deletion (which cannot be undone) is never one stray click on the wrong customer."""

    email: Annotated[str, documented(minLength=1)] = Field("", alias="email", max_length=EMAIL_MAX)

    @field_validator("email")
    @classmethod
    def _typed(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise problem(CONFIRM_EMAIL)
        return value
