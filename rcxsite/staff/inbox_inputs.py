"""The inputs of the sales inbox's changes, each defined once with its limits and texts.

The screens `read` the quote page's forms with these (aliases are the form field names:
"status", "reason", "owner", "note") and the inbox service takes the parsed model, so a
refusal says the same thing wherever it is shown; the page's one form of status, reason
and owner (`WorkInput`) checks each field as `StatusInput` and `OwnerInput` do. Whether
a chosen owner may own quotes is the service's question (it needs the database); the
model only checks the spelling.
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator

from rcxsite.core.forms import (
    INVALID_CHARACTERS,
    FormInput,
    has_forbidden_characters,
    multiline_text,
    parsed_by,
    problem,
    text_only,
)
from rcxsite.core.validation import MAX_DB_INTEGER
from rcxsite.leads.statuses import QUOTE_STATUSES
from rcxsite.models.staff import NOTE_MAX
from rcxsite.models.types import LOST_REASON_MAX, STATUS_MAX

STATUS_INVALID = "Please choose a status."
REASON_REQUIRED = "Please give a reason for Lost"
OWNER_INVALID = "Please choose an owner from the list."
NOTE_REQUIRED = "Please write a note."
CONTACT_INVALID = "Please choose a call or an email."
# A contact with the buyer, as the request's history names it.
CONTACTS = {"call": "Phone call", "email": "Email sent"}
# A member id as a select sends it; far more digits than any table will reach.
OWNER_MAX = 12


def member_id(value: str) -> int | None:
    """A member id as a select or filter spells it, None when it cannot be one."""
    if not (value.isascii() and value.isdigit()) or len(value) > OWNER_MAX:
        return None
    number = int(value)
    return number if 0 < number <= MAX_DB_INTEGER else None


def _one_line(value: str) -> str:
    value = value.strip()
    if has_forbidden_characters(value):
        raise problem(INVALID_CHARACTERS)
    return value


def _valid_status(value: str) -> str:
    value = value.strip()
    if value not in QUOTE_STATUSES:
        raise problem(STATUS_INVALID)
    return value


def _valid_reason(value: str, info: ValidationInfo) -> str:
    """Lost's reason, required; "" for any other status. `status` is declared before
    `reason`, so it is in `data` once it was valid."""
    if info.data.get("status") != "lost":
        return ""
    value = _one_line(value)
    if not value:
        raise problem(REASON_REQUIRED)
    return value


def _valid_owner(value: str) -> str:
    value = value.strip()
    if value and member_id(value) is None:
        raise problem(OWNER_INVALID)
    return value


class StatusInput(FormInput):
    """A new status; Lost needs a reason (kept on the request and in its history), any
    other status ignores the reason field."""

    too_long_messages = {"status": STATUS_INVALID}

    status: str = Field("", alias="status", max_length=STATUS_MAX)
    reason: str = Field("", alias="reason", max_length=LOST_REASON_MAX)

    _text_only = text_only("status", "reason")

    _status = parsed_by(_valid_status, "status")

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str, info: ValidationInfo) -> str:
        return _valid_reason(value, info)


class OwnerInput(FormInput):
    """The owner select: "" for unassigned, else a member's id (checked by the service)."""

    too_long_messages = {"owner": OWNER_INVALID}

    owner: str = Field("", alias="owner", max_length=OWNER_MAX)

    _text_only = text_only("owner")

    _owner = parsed_by(_valid_owner, "owner")

    @property
    def member_id(self) -> int | None:
        """The chosen member's id, None for unassigned."""
        return member_id(self.owner)


class WorkInput(FormInput):
    """The request page's one form: status, reason (for Lost) and owner, each with the
    limits and messages of `StatusInput` and `OwnerInput`."""

    too_long_messages = {"status": STATUS_INVALID, "owner": OWNER_INVALID}

    status: str = Field("", alias="status", max_length=STATUS_MAX)
    reason: str = Field("", alias="reason", max_length=LOST_REASON_MAX)
    owner: str = Field("", alias="owner", max_length=OWNER_MAX)

    _text_only = text_only("status", "reason", "owner")

    _status = parsed_by(_valid_status, "status")

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str, info: ValidationInfo) -> str:
        return _valid_reason(value, info)

    _owner = parsed_by(_valid_owner, "owner")

    @property
    def member_id(self) -> int | None:
        """The chosen member's id, None for unassigned."""
        return member_id(self.owner)


class NoteInput(FormInput):
    """An internal note: several lines allowed (tabs too), nothing else invisible."""

    body: str = Field("", alias="note", max_length=NOTE_MAX)

    _text_only = text_only("body")

    _body = parsed_by(multiline_text, "body", required=NOTE_REQUIRED)


def _valid_contact(value: str) -> str:
    value = value.strip()
    if value not in CONTACTS:
        raise problem(CONTACT_INVALID)
    return value


class ContactInput(FormInput):
    """A contact with the buyer made outside the site (a call, an email): logged."""

    too_long_messages = {"kind": CONTACT_INVALID}

    kind: str = Field("", alias="kind", max_length=8)

    _text_only = text_only("kind")

    _kind = parsed_by(_valid_contact, "kind")
