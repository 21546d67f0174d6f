"""Every input of the staff accounts service, each defined once with its limits and texts."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from rcxsite.core.common_passwords import COMMON_PASSWORD, is_common_password
from rcxsite.core.forms import FormInput, parsed_by, problem
from rcxsite.core.permissions import ROLES
from rcxsite.core.time_zones import canonical_zone
from rcxsite.core.validation import MAX_PASSWORD, PASSWORD_TOO_LONG, required_text
from rcxsite.models import EMAIL_MAX
from rcxsite.models.staff import STAFF_NAME_MAX, TIME_ZONE_MAX

STAFF_PASSWORD_MIN = 12
# A 6-digit code, or a recovery code typed with or without hyphens and blanks.
CODE_MAX = 32
PASSWORD_TOO_SHORT = f"Password must be at least {STAFF_PASSWORD_MIN} characters long."
PASSWORDS_DIFFER = "Passwords do not match."
CODE_REQUIRED = "Please enter the code from your authenticator app."
ROLE_INVALID = "Please choose a role: admin, sales or support."


def _present(message: str):  # type: ignore[no-untyped-def]
    def check(value: str) -> str:
        if not value.strip():
            raise problem(message)
        return value

    return AfterValidator(check)


def _staff_email(value: str) -> str:
    from rcxsite.core.validation import normalize_email

    value = value.strip()
    if not value:
        raise problem("Email is required")
    normalized = normalize_email(value)
    if normalized is None:
        raise problem("Invalid email address")
    return normalized


def _role(value: str) -> str:
    value = value.strip().lower()
    if value not in ROLES:
        raise problem(ROLE_INVALID)
    return value


class StaffSignInInput(FormInput):
    too_long_messages = {"password": PASSWORD_TOO_LONG}

    email: Annotated[str, _present("Email is required")] = Field(
        "", alias="email", max_length=EMAIL_MAX
    )
    password: Annotated[str, _present("Password is required")] = Field(
        "", alias="password", max_length=MAX_PASSWORD
    )
    code: Annotated[str, _present(CODE_REQUIRED)] = Field("", alias="code", max_length=CODE_MAX)
    # The browser's own zone (Intl), so call slots show in the member's time too.
    time_zone: str = Field("", alias="time_zone", max_length=TIME_ZONE_MAX)

    @field_validator("time_zone")
    @classmethod
    def _zone(cls, value: str) -> str:
        return canonical_zone(value) or ""


class StaffPasswordInput(FormInput):
    """The invitation's first step: the member's own password."""

    too_long_messages = {"new_password": PASSWORD_TOO_LONG, "confirm_password": PASSWORD_TOO_LONG}

    new_password: str = Field("", alias="new_password", max_length=MAX_PASSWORD)
    confirm_password: str = Field("", alias="confirm_new_password", max_length=MAX_PASSWORD)

    @field_validator("new_password")
    @classmethod
    def _strong(cls, value: str) -> str:
        if not value:
            raise problem("Please enter a new password.")
        if len(value) < STAFF_PASSWORD_MIN:
            raise problem(PASSWORD_TOO_SHORT)
        if is_common_password(value):
            raise problem(COMMON_PASSWORD)
        return value

    @field_validator("confirm_password")
    @classmethod
    def _same(cls, value: str, info: ValidationInfo) -> str:
        if not value:
            raise problem("Please confirm your new password.")
        if info.data.get("new_password") is not None and value != info.data["new_password"]:
            raise problem(PASSWORDS_DIFFER)
        return value


class EnrolmentCodeInput(FormInput):
    code: Annotated[str, _present(CODE_REQUIRED)] = Field("", alias="code", max_length=CODE_MAX)


class InviteInput(FormInput):
    email: str = Field("", alias="email", max_length=EMAIL_MAX)
    name: str = Field("", alias="name", max_length=STAFF_NAME_MAX)
    role: str = Field("", alias="role", max_length=16)

    _email = parsed_by(_staff_email, "email")

    _name = parsed_by(required_text, "name", required="Name is required")

    _valid_role = parsed_by(_role, "role")


class RoleInput(FormInput):
    role: str = Field("", alias="role", max_length=16)

    _valid_role = parsed_by(_role, "role")
