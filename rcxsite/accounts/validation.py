"""Input rules of spec §5, shared by the Reflex forms and the REST API."""

from __future__ import annotations

import re
import unicodedata

from email_validator import EmailNotValidError, validate_email

from rcxsite.accounts.errors import AccountError
from rcxsite.models import COMPANY_NAME_MAX, EMAIL_MAX, LOCATION_MAX, USER_NAME_MAX

MIN_USER_NAME = 3
MIN_PASSWORD = 4
# Hashing is not length-bound, but a cap keeps hashing cost predictable; longer input is
# refused outright rather than silently cut, so nobody ends up with a shorter password.
MAX_PASSWORD = 128
MAX_DB_INTEGER = 2**31 - 1

EMAIL_REQUIRED = "Email is required"
PASSWORD_REQUIRED = "Password is required"
PASSWORD_TOO_LONG = f"Password must be at most {MAX_PASSWORD} characters long."
NEW_PASSWORD_REQUIRED = "Please enter a new password."
NEW_PASSWORD_TOO_SHORT = f"Password must be at least {MIN_PASSWORD} characters long."
RESET_EMAIL_INVALID = "Invalid email address"
INVALID_CHARACTERS = "Contains characters that are not allowed"

_MOBILE_NUMBER = re.compile(r"[0-9]{10}")


def text(value: object) -> str:
    """A form value without surrounding blanks; `None` counts as empty."""
    return value.strip() if isinstance(value, str) else ""


def has_forbidden_characters(value: str) -> bool:
    """Control characters (NUL breaks PostgreSQL) and lone surrogates (not encodable)."""
    return any(unicodedata.category(char) in ("Cc", "Cs") for char in value)


def normalize_email(value: str) -> str | None:
    """The canonical spelling of an address (domain lower-cased), or None if invalid."""
    try:
        normalized = validate_email(value, check_deliverability=False).normalized
    except EmailNotValidError:
        return None
    return normalized if len(normalized) <= EMAIL_MAX else None


def email_key(normalized_email: str) -> str:
    """The case-blind form under which an address is unique."""
    return normalized_email.lower()


def _required_text(
    value: str, *, required: str, minimum: int = 1, too_short: str = "", maximum: int
) -> str | None:
    if not value:
        return required
    if has_forbidden_characters(value):
        return INVALID_CHARACTERS
    if len(value) < minimum:
        return too_short
    if len(value) > maximum:
        return f"Max {maximum} characters"
    return None


def _optional_id(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DB_INTEGER:
        return f"Must be a whole number from 0 to {MAX_DB_INTEGER}"
    return None


def validate_registration(
    *,
    user_name: str,
    email: str,
    mobile_number: str,
    password: str,
    company_name: str,
    location: str,
    project_id: int | None = None,
    subscription_plan_id: int | None = None,
    plan_duration_id: int | None = None,
    is_trial: bool = False,
) -> dict[str, str]:
    """Per-field messages keyed by the payload's field names; empty when all is valid."""
    errors: dict[str, str | None] = {}
    errors["UserName"] = _required_text(
        text(user_name),
        required="Username is required",
        minimum=MIN_USER_NAME,
        too_short=f"Min {MIN_USER_NAME} characters",
        maximum=USER_NAME_MAX,
    )
    email_value = text(email)
    if not email_value:
        errors["EmailAddress"] = EMAIL_REQUIRED
    elif normalize_email(email_value) is None:
        errors["EmailAddress"] = "Invalid email"
    mobile = text(mobile_number)
    if not mobile:
        errors["MobileNumber"] = "Mobile number is required"
    elif not _MOBILE_NUMBER.fullmatch(mobile):
        errors["MobileNumber"] = "Invalid mobile number"
    errors["Password"] = password_problem(
        password if isinstance(password, str) else "",
        required=PASSWORD_REQUIRED,
        too_short=f"Min {MIN_PASSWORD} characters",
    )
    errors["CompanyName"] = _required_text(
        text(company_name), required="Company name is required", maximum=COMPANY_NAME_MAX
    )
    errors["Location"] = _required_text(
        text(location), required="Location is required", maximum=LOCATION_MAX
    )
    errors["ProjectId"] = _optional_id(project_id)
    errors["SubscriptionPlanId"] = _optional_id(subscription_plan_id)
    errors["PlanDurationId"] = _optional_id(plan_duration_id)
    if not isinstance(is_trial, bool):
        errors["IsTrial"] = "Must be true or false"
    return {field: message for field, message in errors.items() if message}


def password_problem(password: str, *, required: str, too_short: str) -> str | None:
    if not password:
        return required
    if len(password) < MIN_PASSWORD:
        return too_short
    if len(password) > MAX_PASSWORD:
        return PASSWORD_TOO_LONG
    return None


def require_valid(errors: dict[str, str]) -> None:
    """Raise the first message of a failed validation, keeping all of them for the caller."""
    if errors:
        raise AccountError(422, next(iter(errors.values())), fields=errors)
