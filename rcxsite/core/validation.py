"""Input rules that the accounts, leads and staff input models build on: required texts,
email addresses, mobile numbers and the bounds of passwords and ids."""

from __future__ import annotations

import re

from email_validator import SPECIAL_USE_DOMAIN_NAMES, EmailNotValidError, validate_email

from rcxsite.core.forms import (
    INVALID_CHARACTERS,
    Documented,
    documented,
    has_forbidden_characters,
    problem,
    too_long,
)
from rcxsite.models import EMAIL_MAX, MOBILE_NUMBER_LENGTH

MIN_USER_NAME = 3
MIN_PASSWORD = 4
# Hashing is not length-bound, but a cap keeps hashing cost predictable; longer input is
# refused outright rather than silently cut, so nobody ends up with a shorter password.
MAX_PASSWORD = 128
MAX_DB_INTEGER = 2**31 - 1
# Room for blanks around the ten digits, which are stripped before the digits are checked.
MOBILE_INPUT_MAX = 4 * MOBILE_NUMBER_LENGTH
MAX_TOKEN_LENGTH = 256

EMAIL_REQUIRED = "Email is required"
PASSWORD_REQUIRED = "Password is required"
PASSWORD_TOO_LONG = f"Password must be at most {MAX_PASSWORD} characters long."
NEW_PASSWORD_REQUIRED = "Please enter a new password."
NEW_PASSWORD_TOO_SHORT = f"Password must be at least {MIN_PASSWORD} characters long."
RESET_EMAIL_INVALID = "Invalid email address"

__all__ = ["INVALID_CHARACTERS", "has_forbidden_characters", "too_long"]


def _any_case(name: str) -> str:
    return "".join(f"[{char.lower()}{char.upper()}]" if char.isalpha() else char for char in name)


# What the API's OpenAPI document says of email fields (rcxsite.core.forms.Documented); the
# validators below alone decide.
EMAIL = documented(format="email")
# An address `normalize_email` (email_validator) accepts, which also refuses a special-use
# domain (RFC 6761) such as a.test.
DELIVERABLE_EMAIL = Documented(
    keywords=(
        ("format", "email"),
        ("not", {"pattern": f"[.@](?:{'|'.join(map(_any_case, SPECIAL_USE_DOMAIN_NAMES))})$"}),
    )
)


def text(value: object) -> str:
    """A form value without surrounding blanks; `None` counts as empty."""
    return value.strip() if isinstance(value, str) else ""


def required_text(value: str, *, required: str, minimum: int = 1, too_short: str = "") -> str:
    """A stripped single-line text; the caller's model has already bounded its length."""
    value = value.strip()
    if not value:
        raise problem(required)
    if has_forbidden_characters(value):
        raise problem(INVALID_CHARACTERS)
    if len(value) < minimum:
        raise problem(too_short)
    return value


def required_email(
    value: str, *, required: str = EMAIL_REQUIRED, invalid: str | None = None
) -> str:
    """A stripped email address; normalized (and refused with `invalid`) when `invalid` is
    given, else returned as typed (a login looks the address up as it was registered)."""
    value = value.strip()
    if not value:
        raise problem(required)
    if invalid is None:
        return value
    normalized = normalize_email(value)
    if normalized is None:
        raise problem(invalid)
    return normalized


PHONE_DIGITS_MIN = 7
PHONE_DIGITS_MAX = 15  # E.164
_PHONE = re.compile(r"\+?[0-9 ()-]+")


def optional_phone(value: str, *, invalid: str) -> str:
    """An optional international phone number, stripped: 7 to 15 digits, an optional
    leading "+", and spaces, brackets or hyphens between them; "" when blank."""
    value = value.strip()
    if not value:
        return value
    digits = sum(char.isdigit() for char in value)
    if _PHONE.fullmatch(value) is None or not PHONE_DIGITS_MIN <= digits <= PHONE_DIGITS_MAX:
        raise problem(invalid)
    return value


def looks_like_email(value: str) -> bool:
    """The address shape every email field accepts, `^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$`, as one
    linear scan.

    The regular expression backtracks quadratically on a long domain without a dot.
    """
    if any(char.isspace() for char in value) or value.count("@") != 1:
        return False
    local, domain = value.split("@")
    return bool(local) and "." in domain[1:-1]


def is_mobile_number(value: str) -> bool:
    """Exactly ten ASCII digits."""
    return len(value) == MOBILE_NUMBER_LENGTH and value.isascii() and value.isdigit()


def normalize_email(value: str) -> str | None:
    """The canonical spelling of an address (domain lower-cased), or None if invalid."""
    if len(value) > EMAIL_MAX:
        return None
    try:
        normalized = validate_email(value, check_deliverability=False).normalized
    except EmailNotValidError:
        return None
    return normalized if len(normalized) <= EMAIL_MAX else None


def email_key(normalized_email: str) -> str:
    """The case-blind form under which an address is unique."""
    return normalized_email.lower()
