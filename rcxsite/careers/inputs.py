"""The careers forms' inputs, each field once with its limit and message: the application
a job seeker sends (its CV comes beside it, checked by rcxsite/careers/cv.py), and the
hiring team's stage move and note."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from pydantic import Field, field_validator

from rcxsite.careers.stages import STAGES
from rcxsite.content.careers import opening_of_slug
from rcxsite.core.forms import (
    HONEYPOT,
    HONEYPOT_FIELD,
    HONEYPOT_FILLED,
    HONEYPOT_MAX,
    FormInput,
    empty_trap,
    multiline_text,
    parsed_by,
    problem,
    text_only,
    text_rule,
)
from rcxsite.core.validation import (
    DELIVERABLE_EMAIL,
    optional_phone,
    required_email,
    required_text,
)
from rcxsite.models.careers import (
    APPLICATION_LINK_MAX,
    APPLICATION_NOTE_MAX,
    CHANGE_TEXT_MAX,
    OPENING_SLUG_MAX,
)
from rcxsite.models.types import EMAIL_MAX, LOCATION_MAX, PHONE_MAX, QUOTE_NAME_MAX

CONSENT_FIELD = "consent"

OPENING_CLOSED = "This opening is no longer taking applications"
NAME_REQUIRED = "Name is required"
EMAIL_REQUIRED = "Email is required"
EMAIL_INVALID = "Invalid email"
PHONE_INVALID = "Invalid phone number"
LOCATION_REQUIRED = "Please tell us where you are based"
LINK_INVALID = "Please enter a full web address, starting with https://"
CONSENT_REQUIRED = "Please agree that we keep your application for 12 months"
CORRECT_FIELDS = "Please correct the highlighted fields."
STAGE_UNKNOWN = "Please choose a stage"
NOTE_REQUIRED = "Please write a note"
APPLICATION_UNKNOWN = "This application no longer exists."


def _link(value: str) -> str:
    value = value.strip()
    if not value:
        return value
    parts = urlsplit(value) if " " not in value else None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or "." not in (parts.hostname or "")
        or parts.username is not None
        or not value.isprintable()
    ):
        raise problem(LINK_INVALID)
    return value


def _opening(value: str) -> str:
    opening = opening_of_slug(value.strip())
    if opening is None:
        raise problem(OPENING_CLOSED)
    return opening.slug


def _consent(value: object) -> bool:
    # A checkbox sends "on" when ticked and nothing otherwise; a client may send true.
    if value is True or (isinstance(value, str) and value.strip().lower() in ("on", "true", "yes")):
        return True
    raise problem(CONSENT_REQUIRED)


class ApplicationInput(FormInput):
    """A job seeker's application, in the form's order; the CV is checked on its own."""

    opening: str = Field("", max_length=OPENING_SLUG_MAX)
    name: Annotated[str, text_rule()] = Field("", max_length=QUOTE_NAME_MAX)
    email: Annotated[str, DELIVERABLE_EMAIL] = Field("", max_length=EMAIL_MAX)
    phone: str = Field("", max_length=PHONE_MAX)
    location: Annotated[str, text_rule()] = Field("", max_length=LOCATION_MAX)
    link: str = Field("", max_length=APPLICATION_LINK_MAX)
    note: str = Field("", max_length=APPLICATION_NOTE_MAX)
    consent: bool = False
    website: Annotated[str, HONEYPOT] = Field("", max_length=HONEYPOT_MAX)

    invalid_message = CORRECT_FIELDS
    too_long_messages = {
        "opening": OPENING_CLOSED,
        "email": EMAIL_INVALID,
        "phone": PHONE_INVALID,
        "link": LINK_INVALID,
        HONEYPOT_FIELD: HONEYPOT_FILLED,
    }

    _text_only = text_only(
        "opening", "name", "email", "phone", "location", "link", "note", HONEYPOT_FIELD
    )
    _opening = parsed_by(_opening, "opening")
    _name = parsed_by(required_text, "name", required=NAME_REQUIRED)
    _email = parsed_by(required_email, "email", required=EMAIL_REQUIRED, invalid=EMAIL_INVALID)
    _phone = parsed_by(optional_phone, "phone", invalid=PHONE_INVALID)
    _location = parsed_by(required_text, "location", required=LOCATION_REQUIRED)
    _link = parsed_by(_link, "link")
    _consent = parsed_by(_consent, CONSENT_FIELD, before=True)

    @field_validator("note")
    @classmethod
    def _note(cls, value: str) -> str:
        return multiline_text(value, required="") if value.strip() else ""

    _honeypot = parsed_by(empty_trap, HONEYPOT_FIELD)


def _stage(value: str) -> str:
    value = value.strip()
    if value not in STAGES:
        raise problem(STAGE_UNKNOWN)
    return value


def row_id(value: object, *, unknown: str = APPLICATION_UNKNOWN) -> int:
    """A row id as a form or client sends it: digits (at most 9), or an int."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise problem(unknown)
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise problem(unknown)
    return int(text)


class StageInput(FormInput):
    """A move of one application to a stage."""

    application_id: int = Field(0)
    stage: str = Field("", max_length=16)

    too_long_messages = {"stage": STAGE_UNKNOWN}
    _id = parsed_by(row_id, "application_id", before=True)
    _stage_text = text_only("stage")
    _stage = parsed_by(_stage, "stage")


class NoteInput(FormInput):
    """A hiring team member's note on one application."""

    application_id: int = Field(0)
    text: str = Field("", max_length=CHANGE_TEXT_MAX)

    _id = parsed_by(row_id, "application_id", before=True)
    _text_only = text_only("text")

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        return multiline_text(value, required=NOTE_REQUIRED)


# The fields people fill in, top to bottom (the CV comes after the note).
FORM_FIELDS = tuple(
    name for name in ApplicationInput.model_fields if name not in (HONEYPOT_FIELD, "opening")
)
