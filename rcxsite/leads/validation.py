"""The quote form's input, defined once: `QuoteInput` carries every field's limit and message;
`QuoteFields`, all of them but the call's time, is what the booking form shares.

Messages are keyed by the form's field names so any UI can place them. The screen parses
raw form values with `QuoteInput.parse` (after `trap_filled`), the page takes its
`maxLength`s from it (`rcxsite.core.forms.max_length`), and the state its field list
(`FORM_FIELDS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Annotated, Any, cast
from zoneinfo import ZoneInfo

from pydantic import Field, ValidationInfo, field_validator

from rcxsite.content.quote import (
    BUDGETS,
    CALL_BOOKING_DAYS,
    CALL_TIMES,
    CALL_TIMEZONE,
    SERVICE_CHOICES,
    TIMELINES,
    Choice,
)
from rcxsite.core.forms import (
    BLANK,
    HONEYPOT,
    HONEYPOT_FIELD,
    HONEYPOT_FILLED,
    HONEYPOT_MAX,
    Documented,
    FormInput,
    documented,
    empty_trap,
    iso_date,
    multiline_pattern,
    multiline_text,
    parsed_by,
    problem,
    text_only,
    text_rule,
)
from rcxsite.core.validation import (
    DELIVERABLE_EMAIL,
    PHONE_DIGITS_MAX,
    PHONE_DIGITS_MIN,
    optional_phone,
    required_email,
    required_text,
    text,
)
from rcxsite.models import (
    CHOICE_MAX,
    COMPANY_NAME_MAX,
    EMAIL_MAX,
    PHONE_MAX,
    QUOTE_MESSAGE_MAX,
    QUOTE_NAME_MAX,
)

MESSAGE_MIN = 20

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


def business_today() -> date:
    """Today where the calls take place, which decides what "from tomorrow on" means."""
    return datetime.now(ZoneInfo(CALL_TIMEZONE)).date()


def _choice(value: str, choices: tuple[Choice, ...], message: str) -> str:
    value = value.strip()
    if value not in {choice for choice, _ in choices}:
        raise problem(message)
    return value


# Fields whose value must be one of the form's options, and the message when it is not.
_CHOICE_FIELDS: dict[str, tuple[tuple[Choice, ...], str]] = {
    "service": (SERVICE_CHOICES, SERVICE_REQUIRED),
    "budget": (BUDGETS, BUDGET_REQUIRED),
    "timeline": (TIMELINES, TIMELINE_REQUIRED),
}


CORRECT_FIELDS = "Please correct the highlighted fields."

# What the API's OpenAPI document says of the fields (rcxsite.core.forms.Documented), from the
# limits the validators below use; the validators alone decide.
_PHONE_NUMBER = f"\\+?[ ()-]*(?:[0-9][ ()-]*){{{PHONE_DIGITS_MIN},{PHONE_DIGITS_MAX}}}"
# A phone number that must be given (a phone call's), as a JSON Schema pattern.
PHONE_GIVEN_PATTERN = f"^{BLANK}*{_PHONE_NUMBER}{BLANK}*$"
PHONE = documented(
    required=False,
    pattern=f"^{BLANK}*(?:{_PHONE_NUMBER})?{BLANK}*$",
    description=f"Optional: {PHONE_DIGITS_MIN} to {PHONE_DIGITS_MAX} digits, with an optional "
    'leading "+" and spaces, brackets or hyphens between them',
)
MESSAGE = documented(
    minLength=MESSAGE_MIN,
    pattern=multiline_pattern(MESSAGE_MIN),
    description=f"At least {MESSAGE_MIN} characters once trimmed; line breaks allowed",
)


def _one_of(choices: tuple[Choice, ...]) -> Documented:
    return documented(enum=[choice for choice, _ in choices])


# The fields that the quote form and the booking form (rcxsite.booking.inputs) share,
# with their messages when too long.
_SHARED_TOO_LONG = {
    "name": NAME_TOO_LONG,
    "email": EMAIL_INVALID,
    "company": COMPANY_TOO_LONG,
    "phone": PHONE_INVALID,
    "service": SERVICE_REQUIRED,
    "budget": BUDGET_REQUIRED,
    "timeline": TIMELINE_REQUIRED,
    "message": MESSAGE_TOO_LONG,
    HONEYPOT_FIELD: HONEYPOT_FILLED,
}


# Pydantic orders a model's fields by its bases, the last in the MRO first. The shared
# fields come in two parts, the contact and choices above the time of the call and the
# message below it, so that a form's own fields (the call's time) sit between them:
# `class Form(QuoteFields, TimeFields)` with `TimeFields(QuoteContactFields)` lists
# contact, time, message. The order is the form's, so a UI that focuses the first
# invalid field picks the topmost one.
class QuoteContactFields(FormInput):
    """Who asks and for what: name, email, company, phone, service, budget, timeline."""

    name: Annotated[str, text_rule()] = Field("", max_length=QUOTE_NAME_MAX)
    email: Annotated[str, DELIVERABLE_EMAIL] = Field("", max_length=EMAIL_MAX)
    company: Annotated[str, text_rule()] = Field("", max_length=COMPANY_NAME_MAX)
    phone: Annotated[str, PHONE] = Field("", max_length=PHONE_MAX)
    service: Annotated[str, _one_of(SERVICE_CHOICES)] = Field("", max_length=CHOICE_MAX)
    budget: Annotated[str, _one_of(BUDGETS)] = Field("", max_length=CHOICE_MAX)
    timeline: Annotated[str, _one_of(TIMELINES)] = Field("", max_length=CHOICE_MAX)

    # Validators are known by attribute name: each part names its own.
    _contact_text_only = text_only(
        "name", "email", "company", "phone", "service", "budget", "timeline"
    )

    _name = parsed_by(required_text, "name", required=NAME_REQUIRED)

    _email = parsed_by(required_email, "email", required=EMAIL_REQUIRED, invalid=EMAIL_INVALID)

    _company = parsed_by(required_text, "company", required=COMPANY_REQUIRED)

    _phone = parsed_by(optional_phone, "phone", invalid=PHONE_INVALID)

    @field_validator("service", "budget", "timeline")
    @classmethod
    def _one_of_the_options(cls, value: str, info: ValidationInfo) -> str:
        choices, message = _CHOICE_FIELDS[info.field_name or ""]
        return _choice(value, choices, message)


class QuoteMessageFields(FormInput):
    """What the visitor writes, and the bot trap."""

    message: Annotated[str, MESSAGE] = Field("", max_length=QUOTE_MESSAGE_MAX)
    website: Annotated[str, HONEYPOT] = Field("", max_length=HONEYPOT_MAX)

    _message_text_only = text_only("message", HONEYPOT_FIELD)

    @field_validator("message")
    @classmethod
    def _message(cls, value: str) -> str:
        message = multiline_text(value, required=MESSAGE_REQUIRED)
        # Counted as typed, a CRLF as two characters: as the documented pattern counts.
        if len(value.strip()) < MESSAGE_MIN:
            raise problem(MESSAGE_TOO_SHORT)
        return message

    _honeypot = parsed_by(empty_trap, HONEYPOT_FIELD)


class QuoteFields(QuoteMessageFields, QuoteContactFields):
    """A visitor's request without the time of the call: stripped text, a normalized email
    and known option values, as the quote form and the booking form (rcxsite.booking)
    both take them.

    Missing keys and non-string values count as empty, so a partial or hostile payload
    gets messages rather than an exception.
    """

    invalid_message = CORRECT_FIELDS
    too_long_messages = _SHARED_TOO_LONG


class QuoteCallFields(QuoteContactFields):
    """The call's preferred date and time, on the company's wall clock."""

    # A date, so its length (that of yyyy-mm-dd) is checked by its own validator, which
    # also refuses the missing default (so no instance ever holds None).
    call_date: date = Field(cast(date, None))
    call_time: str = Field("", max_length=CHOICE_MAX)

    _call_time_text_only = text_only("call_time")

    @field_validator("call_time")
    @classmethod
    def _call_time(cls, value: str) -> str:
        return _choice(value, CALL_TIMES, CALL_TIME_REQUIRED)

    @field_validator("call_date", mode="before")
    @classmethod
    def _call_date(cls, value: Any, info: ValidationInfo) -> date:
        chosen = iso_date(value, invalid=CALL_DATE_REQUIRED)
        if chosen is None:
            raise problem(CALL_DATE_REQUIRED)
        today = (info.context or {}).get("today") or business_today()
        if chosen <= today:
            raise problem(CALL_DATE_TOO_EARLY)
        if chosen > today + timedelta(days=CALL_BOOKING_DAYS):
            raise problem(CALL_DATE_TOO_LATE)
        if chosen.weekday() >= 5:
            raise problem(CALL_DATE_WEEKEND)
        return chosen


class QuoteInput(QuoteFields, QuoteCallFields):
    """A validated quote request with a preferred call date and time.

    Fields in form order: contact, call date and time, message, trap.
    `read(fields, today=...)` fixes the day the call date is judged against (default:
    `business_today()`).
    """

    too_long_messages = {**_SHARED_TOO_LONG, "call_time": CALL_TIME_REQUIRED}


class QuoteWithoutCallInput(QuoteFields):
    """A validated quote request whose sender asked for a written reply, not a call."""


# How the visitor wants to hear back: the form's (and the API's) `call_kind`, a call
# (video, recommended and the default, or phone: rcxsite.booking) or this, none: a reply
# by email.
FOLLOW_UP_FIELD = "call_kind"
WITHOUT_CALL = "none"
NO_CALL = "No call: reply by email"


def wants_no_call(raw: Mapping[str, object]) -> bool:
    return text(raw.get(FOLLOW_UP_FIELD)) == WITHOUT_CALL


# The fields people fill in, top to bottom as the form shows them.
FORM_FIELDS = tuple(name for name in QuoteInput.model_fields if name != HONEYPOT_FIELD)
