"""Several quote requests changed at once: the inbox list's "Assign to" and "Set status".

Each request is changed by the function that changes a request alone
(`inbox_changes.change_owner`, then `change_status`), one request after the other, so each
gets its own history line and audit entry exactly as if the member had made the changes
one by one, and each call checks the permission, that the request still exists and that
the new owner may own requests. The result says how many changed and names those that
could not be. No Reflex or HTTP imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field, ValidationInfo, field_validator, model_validator
from sqlmodel import col, select

from rcxsite.core.forms import FormInput, problem, text_only
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.core.validation import MAX_DB_INTEGER
from rcxsite.leads.statuses import STATUS_LABELS
from rcxsite.models import QuoteRequest, StaffMember
from rcxsite.models.types import LOST_REASON_MAX, STATUS_MAX
from rcxsite.platform.db import session_scope
from rcxsite.staff.inbox_changes import NOTHING_CHANGED, change_owner, change_status
from rcxsite.staff.inbox_inputs import (
    OWNER_INVALID,
    OWNER_MAX,
    STATUS_INVALID,
    OwnerInput,
    StatusInput,
)
from rcxsite.staff.inbox_query import UNASSIGNED

# At most one page of the list (PAGE_SIZE is 50), with room to spare.
SELECTION_MAX = 100
# A quote id as a checkbox sends it: more digits than any table will reach.
_ID_MAX_DIGITS = 12
# The selects' first option: leave the owner (or the status) as each request has it.
KEEP = ""
SELECT_REQUESTS = "Please select at least one request."
TOO_MANY = f"Please select at most {SELECTION_MAX} requests at a time."
CHOOSE_CHANGE = "Please choose an owner or a status."
# Refusals named one by one before the rest are only counted.
_NAMED_MAX = 5


def _quote_id(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and value.isascii() and value.isdigit():
        if len(value) > _ID_MAX_DIGITS:
            return None
        number = int(value)
    else:
        return None
    return number if 0 < number <= MAX_DB_INTEGER else None


def _first_message(errors: Mapping[str, str], name: str) -> str:
    return errors.get(name) or next(iter(errors.values()))


class SelectionInput(FormInput):
    """The requests chosen in the list (their ids, 1 to SELECTION_MAX) and what to do to
    each: `owner` "" (no change), "unassigned" or a member's id; `status` "" (no change) or
    a status, with `reason` where the single-request form asks for one (Lost). Owner,
    status and reason are checked by the single-request inputs, so they are refused with
    the same texts."""

    ids: tuple[int, ...] = Field((), alias="ids")
    owner: str = Field(KEEP, alias="owner", max_length=OWNER_MAX)
    status: str = Field(KEEP, alias="status", max_length=STATUS_MAX)
    reason: str = Field("", alias="reason", max_length=LOST_REASON_MAX)

    too_long_messages = {"owner": OWNER_INVALID, "status": STATUS_INVALID}

    _text_only = text_only("owner", "status", "reason")

    @field_validator("ids", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> tuple[int, ...]:
        if not isinstance(value, list | tuple) or not value:
            raise problem(SELECT_REQUESTS)
        # The count first: nothing looks at each of a forged million ids.
        if len(value) > SELECTION_MAX:
            raise problem(TOO_MANY)
        ids = [_quote_id(each) for each in value]
        if any(each is None for each in ids):
            raise problem(SELECT_REQUESTS)
        return tuple(dict.fromkeys(each for each in ids if each is not None))

    @field_validator("owner")
    @classmethod
    def _owner(cls, value: str) -> str:
        value = value.strip()
        if value in (KEEP, UNASSIGNED):
            return value
        checked, errors = OwnerInput.read({"owner": value})
        if checked is None:
            raise problem(_first_message(errors, "owner"))
        return checked.owner

    @field_validator("status")
    @classmethod
    def _status(cls, value: str) -> str:
        value = value.strip()
        if value == KEEP:
            return value
        _, errors = StatusInput.read({"status": value})
        if "status" in errors:
            raise problem(errors["status"])
        return value

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str, info: ValidationInfo) -> str:
        # `status` is declared first, so it is in `data` once it was valid.
        status = info.data.get("status")
        if not status:
            return ""
        checked, errors = StatusInput.read({"status": status, "reason": value})
        if checked is None:
            raise problem(_first_message(errors, "reason"))
        return checked.reason

    @model_validator(mode="after")
    def _something_to_do(self) -> SelectionInput:
        if self.owner == KEEP and self.status == KEEP:
            raise problem(CHOOSE_CHANGE)
        return self

    @property
    def owner_change(self) -> OwnerInput | None:
        """The single-request owner input, None when the owner stays."""
        if self.owner == KEEP:
            return None
        return OwnerInput.parse({"owner": "" if self.owner == UNASSIGNED else self.owner})

    @property
    def status_change(self) -> StatusInput | None:
        """The single-request status input, None when the status stays."""
        if self.status == KEEP:
            return None
        return StatusInput.parse({"status": self.status, "reason": self.reason})


@dataclass(frozen=True, slots=True)
class NotChanged:
    quote_id: int
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class SelectionResult:
    # Requests something was written for; those that already were as asked; refusals.
    changed: tuple[int, ...]
    unchanged: tuple[int, ...]
    refused: tuple[NotChanged, ...]
    # "3 requests assigned to Sam Sales; 1 could not be changed: ...".
    message: str


def _requests(count: int) -> str:
    return f"{count} request" if count == 1 else f"{count} requests"


def _what(owner_name: str | None, status: str) -> str:
    """What was done to each: "assigned to Sam Sales and set to Contacted"; `owner_name`
    None when the owner stays, "" when the requests were unassigned."""
    parts = []
    if owner_name is not None:
        parts.append(f"assigned to {owner_name}" if owner_name else "unassigned")
    if status:
        parts.append(f"set to {STATUS_LABELS.get(status, status)}")
    return " and ".join(parts)


def _named(refusals: Sequence[NotChanged]) -> str:
    """ "#12 Alice Smith, #13 (this quote request does not exist)", one group per reason."""
    by_reason: dict[str, list[str]] = {}
    for refusal in refusals:
        reason = refusal.reason.rstrip(".")
        who = f"#{refusal.quote_id} {refusal.name}" if refusal.name else f"#{refusal.quote_id}"
        by_reason.setdefault(reason[:1].lower() + reason[1:], []).append(who)
    groups = []
    for reason, names in by_reason.items():
        listed = ", ".join(names[:_NAMED_MAX])
        if len(names) > _NAMED_MAX:
            listed += f" and {len(names) - _NAMED_MAX} more"
        groups.append(f"{listed} ({reason})")
    return "; ".join(groups)


def _message(what: str, changed: int, unchanged: int, refused: Sequence[NotChanged]) -> str:
    clauses = []
    if changed:
        clauses.append(f"{_requests(changed)} {what}")
    if unchanged:
        noun = _requests(unchanged) if not clauses else str(unchanged)
        clauses.append(f"{noun} needed no change")
    if refused:
        noun = _requests(len(refused)) if not clauses else str(len(refused))
        clauses.append(f"{noun} could not be changed: {_named(refused)}")
    return "; ".join(clauses) + "."


def _names(ids: Iterable[int], owner: OwnerInput | None) -> tuple[dict[int, str], str | None]:
    """The chosen requests' names (for the refusals), and the new owner's (None: the
    owner stays; "": no one)."""
    chosen = select(QuoteRequest.id, QuoteRequest.name).where(col(QuoteRequest.id).in_(list(ids)))
    with session_scope() as session:
        names = {quote_id: name for quote_id, name in session.exec(chosen) if quote_id is not None}
        if owner is None:
            return names, None
        new_id = owner.member_id
        member = session.get(StaffMember, new_id) if new_id is not None else None
        return names, member.name if member is not None else ""


def change_selection(form: SelectionInput, *, actor: StaffActor | None) -> SelectionResult:
    """Apply the owner and status chosen to each selected request, in the order given,
    through the single-request changes (each checks `Permission.WORK_QUOTES` again and
    writes its own history line and audit entry). A request that cannot be changed (it
    no longer exists) is named in the result and the others go on; an owner who may not
    own requests is refused as the single-request form refuses it (ServiceError 422 on
    "owner"), before anything was changed."""
    member = require(actor, Permission.WORK_QUOTES)
    owner, status = form.owner_change, form.status_change
    names, owner_name = _names(form.ids, owner)
    changed: list[int] = []
    unchanged: list[int] = []
    refused: list[NotChanged] = []
    for quote_id in form.ids:
        answers = []
        try:
            if owner is not None:
                answers.append(change_owner(owner, actor=member, quote_id=quote_id))
            if status is not None:
                answers.append(change_status(status, actor=member, quote_id=quote_id))
        except ServiceError as refusal:
            if refusal.fields and not changed:
                # The choice itself is refused (the same for every request): say so as
                # the single-request form does.
                raise
            refused.append(NotChanged(quote_id, names.get(quote_id, ""), refusal.message))
            continue
        if any(answer != NOTHING_CHANGED for answer in answers):
            changed.append(quote_id)
        else:
            unchanged.append(quote_id)
    what = _what(owner_name, status.status if status is not None else "")
    return SelectionResult(
        changed=tuple(changed),
        unchanged=tuple(unchanged),
        refused=tuple(refused),
        message=_message(what, len(changed), len(unchanged), refused),
    )


__all__ = [
    "CHOOSE_CHANGE",
    "KEEP",
    "SELECTION_MAX",
    "SELECT_REQUESTS",
    "TOO_MANY",
    "NotChanged",
    "SelectionInput",
    "SelectionResult",
    "change_selection",
]
