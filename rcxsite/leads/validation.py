"""Rules of the quote form, keyed by the form's field names so any UI can place the messages."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from rcxsite.accounts.validation import (
    INVALID_CHARACTERS,
    has_forbidden_characters,
    normalize_email,
    text,
)
from rcxsite.content.quote import (
    BUDGETS,
    CALL_BOOKING_DAYS,
    CALL_TIMES,
    CALL_TIMEZONE,
    SERVICE_CHOICES,
    TIMELINES,
    Choice,
)
from rcxsite.models import COMPANY_NAME_MAX, PHONE_MAX, QUOTE_MESSAGE_MAX, QUOTE_NAME_MAX

HONEYPOT_FIELD = "website"
MESSAGE_MIN = 20
PHONE_DIGITS_MIN = 7
PHONE_DIGITS_MAX = 15  # E.164

NAME_REQUIRED = "Name is required"
NAME_TOO_LONG = f"Name must be at most {QUOTE_NAME_MAX} characters"
EMAIL_REQUIRED = "Work email is required"
EMAIL_INVALID = "Invalid email"
COMPANY_REQUIRED = "Company is required"
COMPANY_TOO_LONG = f"Company must be at most {COMPANY_NAME_MAX} characters"
PHONE_INVALID = "Invalid phone number"
SERVICE_REQUIRED = "Please choose a service"
BUDGET_REQUIRED = "Please choose a budget range"
TIMELINE_REQUIRED = "Please choose a timeline"
MESSAGE_REQUIRED = "Message is required"
MESSAGE_TOO_SHORT = f"Please tell us a little more (at least {MESSAGE_MIN} characters)"
MESSAGE_TOO_LONG = f"Message must be at most {QUOTE_MESSAGE_MAX} characters"
CALL_DATE_REQUIRED = "Please choose a date for the call"
CALL_DATE_TOO_EARLY = "Please choose a date from tomorrow on"
CALL_DATE_TOO_LATE = f"Please choose a date within the next {CALL_BOOKING_DAYS} days"
CALL_DATE_WEEKEND = "Please choose a weekday"
CALL_TIME_REQUIRED = "Please choose a time for the call"
HONEYPOT_FILLED = "Leave this field empty"

_PHONE = re.compile(r"\+?[0-9 ()-]+")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# Newlines and tabs are how people format a message; every other control character is not.
_MESSAGE_WHITESPACE = str.maketrans("", "", "\n\t")


@dataclass(frozen=True)
class QuoteInput:
    """A validated request: stripped text, a normalized email and known option values."""

    name: str
    email: str
    company: str
    phone: str
    service: str
    budget: str
    timeline: str
    message: str
    call_date: date
    call_time: str


def business_today() -> date:
    """Today where the calls take place, which decides what "from tomorrow on" means."""
    return datetime.now(ZoneInfo(CALL_TIMEZONE)).date()


def validate_quote(
    fields: Mapping[str, object], *, today: date | None = None
) -> tuple[QuoteInput | None, dict[str, str]]:
    """The validated request and no errors, or None and a message per invalid field.

    Missing keys and non-string values count as empty, so a partial or hostile payload
    gets messages rather than an exception.
    """
    values = {name: text(fields.get(name)) for name in (*FORM_FIELDS, HONEYPOT_FIELD)}
    message = _normalize_newlines(values["message"])
    call_date, call_date_problem = _call_date(values["call_date"], today or business_today())
    # In form order, so a UI that focuses the first invalid field picks the topmost one.
    errors: dict[str, str | None] = {
        "name": _plain(values["name"], NAME_REQUIRED, QUOTE_NAME_MAX, NAME_TOO_LONG),
        "email": _email_problem(values["email"]),
        "company": _plain(values["company"], COMPANY_REQUIRED, COMPANY_NAME_MAX, COMPANY_TOO_LONG),
        "phone": _phone_problem(values["phone"]),
        "service": _choice_problem(values["service"], SERVICE_CHOICES, SERVICE_REQUIRED),
        "budget": _choice_problem(values["budget"], BUDGETS, BUDGET_REQUIRED),
        "timeline": _choice_problem(values["timeline"], TIMELINES, TIMELINE_REQUIRED),
        "call_date": call_date_problem,
        "call_time": _choice_problem(values["call_time"], CALL_TIMES, CALL_TIME_REQUIRED),
        "message": _message_problem(message),
        HONEYPOT_FIELD: HONEYPOT_FILLED if values[HONEYPOT_FIELD] else None,
    }
    found = {name: problem for name, problem in errors.items() if problem}
    if found or call_date is None:
        return None, found
    return (
        QuoteInput(
            name=values["name"],
            email=normalize_email(values["email"]) or values["email"],
            company=values["company"],
            phone=values["phone"],
            service=values["service"],
            budget=values["budget"],
            timeline=values["timeline"],
            message=message,
            call_date=call_date,
            call_time=values["call_time"],
        ),
        {},
    )


# The fields people fill in, top to bottom as the form shows them.
FORM_FIELDS = (
    "name",
    "email",
    "company",
    "phone",
    "service",
    "budget",
    "timeline",
    "call_date",
    "call_time",
    "message",
)


def _plain(value: str, required: str, maximum: int, too_long: str) -> str | None:
    if not value:
        return required
    if has_forbidden_characters(value):
        return INVALID_CHARACTERS
    if len(value) > maximum:
        return too_long
    return None


def _email_problem(value: str) -> str | None:
    if not value:
        return EMAIL_REQUIRED
    return EMAIL_INVALID if normalize_email(value) is None else None


def _phone_problem(value: str) -> str | None:
    if not value:
        return None
    digits = sum(char.isdigit() for char in value)
    valid = (
        len(value) <= PHONE_MAX
        and _PHONE.fullmatch(value) is not None
        and PHONE_DIGITS_MIN <= digits <= PHONE_DIGITS_MAX
    )
    return None if valid else PHONE_INVALID


def _choice_problem(value: str, choices: tuple[Choice, ...], message: str) -> str | None:
    return None if value in {choice for choice, _ in choices} else message


def _normalize_newlines(value: str) -> str:
    # Browsers submit textarea line breaks as CRLF; keep one spelling in the database.
    return value.replace("\r\n", "\n").replace("\r", "\n")


def _message_problem(message: str) -> str | None:
    if not message:
        return MESSAGE_REQUIRED
    if has_forbidden_characters(message.translate(_MESSAGE_WHITESPACE)):
        return INVALID_CHARACTERS
    if len(message) < MESSAGE_MIN:
        return MESSAGE_TOO_SHORT
    if len(message) > QUOTE_MESSAGE_MAX:
        return MESSAGE_TOO_LONG
    return None


def _call_date(value: str, today: date) -> tuple[date | None, str | None]:
    # fromisoformat alone would also take "20270105" and week dates; the form sends yyyy-mm-dd.
    if not _ISO_DATE.fullmatch(value):
        return None, CALL_DATE_REQUIRED
    try:
        chosen = date.fromisoformat(value)
    except ValueError:
        return None, CALL_DATE_REQUIRED
    if chosen <= today:
        return None, CALL_DATE_TOO_EARLY
    if chosen > today + timedelta(days=CALL_BOOKING_DAYS):
        return None, CALL_DATE_TOO_LATE
    if chosen.weekday() >= 5:
        return None, CALL_DATE_WEEKEND
    return chosen, None
