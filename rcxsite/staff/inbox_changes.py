"""What sales change on a quote request: status, owner (or "Assign to me"), both at once
from the request page's one form, notes, spam.

Each function checks `Permission.WORK_QUOTES`, makes its change, adds the history line
(`QuoteChange`, for status and owner) and the audit entry in one transaction, and returns
the sentence the screen confirms it with. A change to what is already there writes
nothing. Notes are append-only: there is no way here to edit or delete one.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from rcxsite.core import audit
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.leads.statuses import NEW, SPAM, STATUS_LABELS
from rcxsite.models import QuoteChange, QuoteNote, QuoteRequest, StaffMember
from rcxsite.models.staff import CHANGE_VALUE_MAX, STAFF_NAME_MAX
from rcxsite.platform.db import session_scope
from rcxsite.staff.inbox_detail import quote_or_404
from rcxsite.staff.inbox_inputs import (
    CONTACTS,
    OWNER_INVALID,
    ContactInput,
    NoteInput,
    OwnerInput,
    StatusInput,
    WorkInput,
)
from rcxsite.staff.inbox_query import OWNER_ROLES

UNASSIGNED_LABEL = "Unassigned"
NOTHING_CHANGED = "Nothing to change."
ASSIGNED_TO_YOU = "Assigned to you."
NOT_AN_OWNER = "Only admin and sales members can own quote requests."


@dataclass(frozen=True, slots=True)
class Seen:
    """What the member's form showed when they filled it in: the request page's one form
    changes only the fields the member changed, so saving the owner does not put back a
    status someone else has changed since."""

    status: str
    lost_reason: str
    owner_id: int | None


def target(quote_id: int) -> str:
    """How the audit log names a quote request."""
    return f"quote #{quote_id}"


def status_text(status: str, lost_reason: str = "") -> str:
    """A status as the history shows it: its label, and for Lost the reason."""
    label = STATUS_LABELS.get(status, status)
    return f"{label}: {lost_reason}" if status == "lost" and lost_reason else label


def _actor_id(actor: StaffActor) -> int | None:
    # 0 is the command line (permissions.OPERATOR), which is no member row.
    return actor.member_id or None


def _add_change(
    session: Session, quote_id: int, actor: StaffActor, field: str, old: str, new: str
) -> None:
    session.add(
        QuoteChange(
            quote_request_id=quote_id,
            actor_id=_actor_id(actor),
            actor_name=actor.name[:STAFF_NAME_MAX],
            field=field,
            old_value=old[:CHANGE_VALUE_MAX],
            new_value=new[:CHANGE_VALUE_MAX],
        )
    )


def _set_status(
    session: Session,
    quote: QuoteRequest,
    actor: StaffActor,
    *,
    status: str,
    reason: str,
    action: str = "quote_status_changed",
) -> bool:
    """Change the status (and lost reason), with its history line and audit entry; False
    when both are already so."""
    reason = reason if status == "lost" else ""
    if (quote.status, quote.lost_reason) == (status, reason):
        return False
    assert quote.id is not None
    old, new = status_text(quote.status, quote.lost_reason), status_text(status, reason)
    quote.status, quote.lost_reason = status, reason
    session.add(quote)
    _add_change(session, quote.id, actor, "status", old, new)
    audit.record(
        session, action=action, actor=actor, target=target(quote.id), detail=f"{old} → {new}"
    )
    return True


def change_status(form: StatusInput, *, actor: StaffActor | None, quote_id: int) -> str:
    """Set the status; Lost keeps its reason (StatusInput requires one)."""
    member = require(actor, Permission.WORK_QUOTES)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        changed = _set_status(session, quote, member, status=form.status, reason=form.reason)
    return f"Status changed to {status_text(form.status)}." if changed else NOTHING_CHANGED


def _owner_name(session: Session, owner_id: int | None) -> str:
    owner = session.get(StaffMember, owner_id) if owner_id else None
    return owner.name if owner else UNASSIGNED_LABEL


def _may_own(member: StaffMember | None) -> bool:
    return member is not None and member.disabled_at is None and member.role in OWNER_ROLES


def _new_owner(session: Session, new_id: int | None) -> StaffMember | None:
    """The member `new_id` names (None: no one), refused on the "owner" field unless they
    may own requests."""
    new_owner = session.get(StaffMember, new_id) if new_id is not None else None
    if new_id is not None and not _may_own(new_owner):
        raise ServiceError(422, OWNER_INVALID, fields={"owner": OWNER_INVALID})
    return new_owner


def _set_owner(
    session: Session, quote: QuoteRequest, actor: StaffActor, new_id: int | None
) -> str | None:
    """Give the request to `new_id` (None: to no one), with its history line and audit
    entry; the new owner's name, or None when they already own it. An owner who may not
    own requests is refused on the "owner" field."""
    assert quote.id is not None
    new_owner = _new_owner(session, new_id)
    if quote.owner_id == new_id:
        return None
    old = _owner_name(session, quote.owner_id)
    new = new_owner.name if new_owner else UNASSIGNED_LABEL
    quote.owner_id = new_id
    session.add(quote)
    _add_change(session, quote.id, actor, "owner", old, new)
    audit.record(
        session,
        action="quote_owner_changed",
        actor=actor,
        target=target(quote.id),
        detail=f"{old} → {new}",
    )
    return new


def change_owner(form: OwnerInput, *, actor: StaffActor | None, quote_id: int) -> str:
    """Give the request to an enabled admin or sales member, or to no one; any other
    choice is refused on the "owner" field."""
    member = require(actor, Permission.WORK_QUOTES)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        new = _set_owner(session, quote, member, form.member_id)
    return NOTHING_CHANGED if new is None else f"Owner changed to {new}."


def assign_to_me(*, actor: StaffActor | None, quote_id: int) -> str:
    """Make the acting member the owner: one click for a member who may own requests (an
    enabled admin or sales member); anyone else is refused."""
    member = require(actor, Permission.WORK_QUOTES)
    with session_scope() as session:
        me = session.get(StaffMember, member.member_id) if member.member_id else None
        if not _may_own(me):
            raise ServiceError(403, NOT_AN_OWNER)
        quote = quote_or_404(session, quote_id, for_update=True)
        new = _set_owner(session, quote, member, member.member_id)
    return NOTHING_CHANGED if new is None else ASSIGNED_TO_YOU


def save_work(form: WorkInput, *, actor: StaffActor | None, quote_id: int, seen: Seen) -> str:
    """The request page's one form: of status (with Lost's reason) and owner, apply what
    the member changed from what they were shown (`seen`), each change with its own
    history line and audit entry as `change_status` and `change_owner` write them, all in
    one transaction (a refused owner changes nothing)."""
    member = require(actor, Permission.WORK_QUOTES)
    said = []
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        owner_changed = form.member_id != seen.owner_id
        if owner_changed:
            _new_owner(session, form.member_id)  # refused before anything is written
        if (form.status, form.reason) != (seen.status, seen.lost_reason) and _set_status(
            session, quote, member, status=form.status, reason=form.reason
        ):
            said.append(f"Status changed to {status_text(form.status)}.")
        new_owner = _set_owner(session, quote, member, form.member_id) if owner_changed else None
        if new_owner is not None:
            said.append(f"Owner changed to {new_owner}.")
    return " ".join(said) or NOTHING_CHANGED


def add_note(form: NoteInput, *, actor: StaffActor | None, quote_id: int) -> str:
    """Append an internal note, signed with the member's name as it is today."""
    member = require(actor, Permission.WORK_QUOTES)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        assert quote.id is not None
        note = QuoteNote(
            quote_request_id=quote.id,
            author_id=_actor_id(member),
            author_name=member.name[:STAFF_NAME_MAX],
            body=form.body,
        )
        session.add(note)
        session.flush()
        audit.record(
            session,
            action="quote_note_added",
            actor=member,
            target=target(quote.id),
            detail=f"note #{note.id}",
        )
    return "Note added."


def mark_spam(*, actor: StaffActor | None, quote_id: int) -> str:
    """Move the request to the spam folder (purged 30 days later unless rescued)."""
    member = require(actor, Permission.WORK_QUOTES)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        changed = _set_status(
            session, quote, member, status=SPAM, reason="", action="quote_marked_spam"
        )
    return "Marked as spam." if changed else NOTHING_CHANGED


def not_spam(*, actor: StaffActor | None, quote_id: int) -> str:
    """Rescue a request from the spam folder: it becomes New again."""
    member = require(actor, Permission.WORK_QUOTES)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        if quote.status != SPAM:
            return NOTHING_CHANGED
        _set_status(session, quote, member, status=NEW, reason="", action="quote_not_spam")
    return "Moved back to New."


def log_contact(form: ContactInput, *, actor: StaffActor | None, quote_id: int) -> str:
    """A call or an email to the buyer, made outside the site, in the request's history
    with who and when (the member's name as it is today)."""
    member = require(actor, Permission.WORK_QUOTES)
    what = CONTACTS[form.kind]
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        assert quote.id is not None
        _add_change(session, quote.id, member, "contact", "", what)
        audit.record(
            session,
            action="quote_contact_logged",
            actor=member,
            target=target(quote.id),
            detail=what,
        )
    return f"{what} logged."
