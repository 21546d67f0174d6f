"""Every input of the accounts service, each defined once with its limits and field texts.

The REST API takes these as request bodies, the screens `read` their forms with them and
the services `parse` what they are given, so all three refuse the same input the same way.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Annotated

from pydantic import AfterValidator, Field, ValidationInfo, field_validator

from rcxsite.content.pricing import DURATIONS, PLANS
from rcxsite.core.common_passwords import COMMON_PASSWORD, is_common_password
from rcxsite.core.forms import BLANK, FormInput, documented, parsed_by, problem, text_rule
from rcxsite.core.validation import (
    DELIVERABLE_EMAIL,
    EMAIL,
    MAX_DB_INTEGER,
    MAX_PASSWORD,
    MAX_TOKEN_LENGTH,
    MIN_PASSWORD,
    MIN_USER_NAME,
    MOBILE_INPUT_MAX,
    NEW_PASSWORD_REQUIRED,
    NEW_PASSWORD_TOO_SHORT,
    PASSWORD_REQUIRED,
    PASSWORD_TOO_LONG,
    RESET_EMAIL_INVALID,
    is_mobile_number,
    looks_like_email,
    normalize_email,
    required_email,
    required_text,
)
from rcxsite.models import (
    COMPANY_NAME_MAX,
    EMAIL_MAX,
    LOCATION_MAX,
    MOBILE_NUMBER_LENGTH,
    USER_NAME_MAX,
)

LINK_INVALID = (
    "This password reset link has expired or is invalid. Please request a new password reset."
)
# An email verification link that cannot be used (unknown, expired, used or replaced by a
# newer one), and how to get a new one; the page shows them as two lines.
VERIFY_LINK_USED = "This link has expired or was already used."
VERIFY_LINK_HELP = 'Log in and choose "Send the link again" on My account to get a new one.'
VERIFY_LINK_INVALID = f"{VERIFY_LINK_USED} {VERIFY_LINK_HELP}"


def _new_password(value: str, *, required: str, too_short: str) -> str:
    if not value:
        raise problem(required)
    if len(value) < MIN_PASSWORD:
        raise problem(too_short)
    if is_common_password(value):
        raise problem(COMMON_PASSWORD)
    return value


def _given_password(value: str, *, required: str = PASSWORD_REQUIRED) -> str:
    """A password that is only compared with the stored hash: present, nothing more."""
    if not value:
        raise problem(required)
    return value


def _optional_id(value: object) -> object:
    if value is None:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DB_INTEGER:
        raise problem(f"Must be a whole number from 0 to {MAX_DB_INTEGER}")
    return value


def _user_name(value: str) -> str:
    return required_text(
        value,
        required="Username is required",
        minimum=MIN_USER_NAME,
        too_short=f"Min {MIN_USER_NAME} characters",
    )


# What people type between the digits of a phone number ("98765 43210", "(987) 654-3210");
# the number is stored as its digits alone. The hyphen comes last: the documented pattern's
# character class then reads it as itself.
MOBILE_SEPARATORS = " ()-"
_NO_SEPARATORS = str.maketrans("", "", MOBILE_SEPARATORS)


# At most two in a row ("(020) 7946-0000" has ") "): the documented pattern and this check
# are one rule, and a bounded one lets a generator of the document's examples find them.
_SEPARATOR_RUN = f"[{MOBILE_SEPARATORS}]{{0,2}}"
_TYPED_MOBILE = f"{_SEPARATOR_RUN}(?:[0-9]{_SEPARATOR_RUN}){{{MOBILE_NUMBER_LENGTH}}}"


def _mobile(value: str) -> str:
    value = value.strip()
    if not value:
        raise problem("Mobile number is required")
    if not re.fullmatch(_TYPED_MOBILE, value):
        raise problem("Invalid mobile number")
    digits = value.translate(_NO_SEPARATORS)
    if not is_mobile_number(digits):
        raise problem("Invalid mobile number")
    return digits


def _company(value: str) -> str:
    return required_text(value, required="Company name is required")


def _location(value: str) -> str:
    return required_text(value, required="Location is required")


# What the API's OpenAPI document says of the fields (rcxsite.core.forms.Documented), from the
# limits the validators above use; the validators alone decide. EMAIL and DELIVERABLE_EMAIL
# are rcxsite.core.validation's.
GIVEN_PASSWORD = documented(minLength=1)
NEW_PASSWORD = documented(
    minLength=MIN_PASSWORD,
    description=f"At least {MIN_PASSWORD} characters, and none of the most common passwords "
    "(zxcvbn's list, compared case-blind)",
)
MOBILE = documented(
    minLength=MOBILE_NUMBER_LENGTH,
    pattern=f"^{BLANK}*{_TYPED_MOBILE}{BLANK}*$",
    description=f"{MOBILE_NUMBER_LENGTH} digits; spaces, hyphens and brackets between them "
    "(at most two in a row) are ignored (the number is kept as its digits)",
)
OPTIONAL_ID = documented(required=False, minimum=0, maximum=MAX_DB_INTEGER)

# Rules shared by several inputs, attached to the field's type.
TypedEmail = Annotated[str, AfterValidator(required_email), EMAIL]
GivenPassword = Annotated[str, AfterValidator(_given_password), GIVEN_PASSWORD]
NewPassword = Annotated[
    str,
    AfterValidator(
        partial(_new_password, required=NEW_PASSWORD_REQUIRED, too_short=NEW_PASSWORD_TOO_SHORT)
    ),
    NEW_PASSWORD,
]

# The details a customer gives at registration and may correct later, declared once for
# both models, so both refuse the same value with the same text.
UserName = Annotated[
    str, Field(alias="UserName", max_length=USER_NAME_MAX), text_rule(MIN_USER_NAME)
]
MobileNumber = Annotated[str, Field(alias="MobileNumber", max_length=MOBILE_INPUT_MAX), MOBILE]
CompanyName = Annotated[str, Field(alias="CompanyName", max_length=COMPANY_NAME_MAX), text_rule()]
Location = Annotated[str, Field(alias="Location", max_length=LOCATION_MAX), text_rule()]
OptionalId = Annotated[int | None, OPTIONAL_ID]
_DETAIL_RULES = {
    "user_name": _user_name,
    "mobile_number": _mobile,
    "company_name": _company,
    "location": _location,
}


class _DetailRules(FormInput):
    too_long_messages = {"mobile_number": "Invalid mobile number"}

    @field_validator("user_name", "mobile_number", "company_name", "location", check_fields=False)
    @classmethod
    def _detail(cls, value: str, info: ValidationInfo) -> str:
        return _DETAIL_RULES[info.field_name or ""](value)


class RegistrationInput(_DetailRules):
    too_long_messages = {"password": PASSWORD_TOO_LONG, "mobile_number": "Invalid mobile number"}

    user_name: UserName = ""
    email: Annotated[str, DELIVERABLE_EMAIL] = Field("", alias="EmailAddress", max_length=EMAIL_MAX)
    mobile_number: MobileNumber = ""
    password: Annotated[str, NEW_PASSWORD] = Field("", alias="Password", max_length=MAX_PASSWORD)
    company_name: CompanyName = ""
    location: Location = ""
    project_id: OptionalId = Field(None, alias="ProjectId", strict=True)
    subscription_plan_id: OptionalId = Field(None, alias="SubscriptionPlanId", strict=True)
    plan_duration_id: OptionalId = Field(None, alias="PlanDurationId", strict=True)
    is_trial: bool = Field(False, alias="IsTrial", strict=True)

    _email = parsed_by(required_email, "email", invalid="Invalid email")

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        return _new_password(
            value, required=PASSWORD_REQUIRED, too_short=f"Min {MIN_PASSWORD} characters"
        )

    _ids = parsed_by(
        _optional_id, "project_id", "subscription_plan_id", "plan_duration_id", before=True
    )


class ProfileInput(_DetailRules):
    """My account's "Edit details": registration's rules; the email stays as it is."""

    user_name: UserName = ""
    mobile_number: MobileNumber = ""
    company_name: CompanyName = ""
    location: Location = ""


class LoginInput(FormInput):
    too_long_messages = {"password": PASSWORD_TOO_LONG}

    email: TypedEmail = Field(
        "",
        alias="UserName",
        max_length=EMAIL_MAX,
        description="The email address (the field keeps its old name)",
    )
    password: GivenPassword = Field("", alias="Password", max_length=MAX_PASSWORD)


class ForgotPasswordInput(FormInput):
    email: Annotated[str, DELIVERABLE_EMAIL] = Field("", alias="email", max_length=EMAIL_MAX)

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        value = required_email(value)
        # The address shape every email field accepts first (a linear scan), then the full
        # syntax check.
        normalized = normalize_email(value) if looks_like_email(value) else None
        if normalized is None:
            raise problem(RESET_EMAIL_INVALID)
        return normalized


class ResetPasswordInput(FormInput):
    too_long_messages = {"new_password": PASSWORD_TOO_LONG, "token": LINK_INVALID}

    # The password comes first: its message is the one shown when several fields fail.
    new_password: NewPassword = Field("", alias="NewPassword", max_length=MAX_PASSWORD)
    email: TypedEmail = Field("", alias="email", max_length=EMAIL_MAX)
    token: Annotated[str, documented(minLength=1)] = Field(
        "", alias="ResetToken", max_length=MAX_TOKEN_LENGTH
    )


class VerifyEmailInput(FormInput):
    """The token of an emailed verification link (the API's; the screens see its digest)."""

    too_long_messages = {"token": VERIFY_LINK_INVALID}

    token: Annotated[str, documented(minLength=1)] = Field(
        "",
        alias="Token",
        max_length=MAX_TOKEN_LENGTH,
        description="The last part of the link's path: /verify-email/<Token>",
    )


CURRENT_PASSWORD_WRONG = "Your current password is incorrect."
PASSWORD_WRONG = "The password is incorrect."
CONFIRM_NEW_PASSWORD_REQUIRED = "Please confirm your new password."
# The reset screen's confirmation field; the API's reset takes no confirmation.
CONFIRM_PASSWORD_REQUIRED = "Please confirm your password."
NEW_PASSWORDS_DIFFER = "Passwords do not match."


class ChangePasswordInput(FormInput):
    too_long_messages = {
        "current_password": PASSWORD_TOO_LONG,
        "new_password": PASSWORD_TOO_LONG,
        "confirm_password": PASSWORD_TOO_LONG,
    }

    current_password: Annotated[
        str,
        AfterValidator(partial(_given_password, required="Please enter your current password.")),
        GIVEN_PASSWORD,
    ] = Field("", alias="CurrentPassword", max_length=MAX_PASSWORD)
    new_password: NewPassword = Field("", alias="NewPassword", max_length=MAX_PASSWORD)
    confirm_password: Annotated[
        str, documented(minLength=1, description="NewPassword again, exactly")
    ] = Field("", alias="ConfirmPassword", max_length=MAX_PASSWORD)

    @field_validator("confirm_password")
    @classmethod
    def _confirm(cls, value: str, info: ValidationInfo) -> str:
        if not value:
            raise problem(CONFIRM_NEW_PASSWORD_REQUIRED)
        new_password = info.data.get("new_password")
        if new_password is not None and value != new_password:
            raise problem(NEW_PASSWORDS_DIFFER)
        return value


class DeleteAccountInput(FormInput):
    too_long_messages = {"password": PASSWORD_TOO_LONG}

    password: GivenPassword = Field("", alias="Password", max_length=MAX_PASSWORD)
    confirm: Annotated[bool, documented(const=True)] = Field(False, alias="Confirm", strict=True)

    @field_validator("confirm")
    @classmethod
    def _confirm(cls, value: bool) -> bool:
        if not value:
            raise problem("Please confirm that the account should be deleted.")
        return value


PLAN_UNKNOWN = "Please choose one of our plans."
DURATION_UNKNOWN = "Please choose monthly or yearly billing."


def _one_of(value: object, ids: frozenset[int], message: str) -> int:
    # A bool is an int to Python, never a plan.
    if isinstance(value, bool) or not isinstance(value, int) or value not in ids:
        raise problem(message)
    return value


class PlanChoiceInput(FormInput):
    """A signed-in customer's choice on the pricing page: a plan, how it is billed, and
    whether it starts with the free trial."""

    plan_id: int = Field(0, alias="SubscriptionPlanId")
    duration_id: int = Field(0, alias="PlanDurationId")
    is_trial: bool = Field(False, alias="IsTrial", strict=True)

    @field_validator("plan_id", mode="before")
    @classmethod
    def _plan(cls, value: object) -> int:
        return _one_of(value, frozenset(plan.id for plan in PLANS), PLAN_UNKNOWN)

    @field_validator("duration_id", mode="before")
    @classmethod
    def _duration(cls, value: object) -> int:
        return _one_of(value, frozenset(duration.id for duration in DURATIONS), DURATION_UNKNOWN)
