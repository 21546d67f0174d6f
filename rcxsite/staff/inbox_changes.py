"""What sales change on a quote request: status, owner, notes, spam.

Each function checks `Permission.WORK_QUOTES`, makes its change, adds the history line
(`QuoteChange`, for status and owner) and the audit entry in one transaction, and returns
the sentence the screen confirms it with. A change to what is already there writes
nothing. Notes are append-only: there is no way here to edit or delete one.
"""

from __future__ import annotations

from sqlmodel import Session

from rcxsite.core import audit
from rcxsite.core.permissions import Permission, StaffActor, require
from rcxsite.db import session_scope
from rcxsite.leads.statuses import STATUS_LABELS
from rcxsite.models import QuoteChange, QuoteNote, QuoteRequest, StaffMember
from rcxsite.models.staff import CHANGE_VALUE_MAX, STAFF_NAME_MAX
from rcxsite.service_errors import ServiceError
from rcxsite.staff.inbox_detail import quote_or_404
from rcxsite.staff.inbox_inputs import OWNER_INVALID, NoteInput, OwnerInput, StatusInput
from rcxsite.staff.inbox_query import OWNER_ROLES

UNASSIGNED_LABEL = "Unassigned"
NOTHING_CHANGED = "Nothing to change."


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
    action: str,
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
        changed = _set_status(
            session,
            quote,
            member,
            status=form.status,
            reason=form.reason,
            action="quote_status_changed",
        )
    return f"Status changed to {status_text(form.status)}." if changed else NOTHING_CHANGED


def _owner_name(session: Session, owner_id: int | None) -> str:
    owner = session.get(StaffMember, owner_id) if owner_id else None
    return owner.name if owner else UNASSIGNED_LABEL


def _may_own(member: StaffMember | None) -> bool:
    return member is not None and member.disabled_at is None and member.role in OWNER_ROLES


def change_owner(form: OwnerInput, *, actor: StaffActor | None, quote_id: int) -> str:
    """Give the request to an enabled admin or sales member, or to no one; any other
    choice is refused on the "owner" field."""
    member = require(actor, Permission.WORK_QUOTES)
    new_id = form.member_id
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        assert quote.id is not None
        new_owner = session.get(StaffMember, new_id) if new_id is not None else None
        if new_id is not None and not _may_own(new_owner):
            raise ServiceError(422, OWNER_INVALID, fields={"owner": OWNER_INVALID})
        if quote.owner_id == new_id:
            return NOTHING_CHANGED
        old = _owner_name(session, quote.owner_id)
        new = new_owner.name if new_owner else UNASSIGNED_LABEL
        quote.owner_id = new_id
        session.add(quote)
        _add_change(session, quote.id, member, "owner", old, new)
        audit.record(
            session,
            action="quote_owner_changed",
            actor=member,
            target=target(quote.id),
            detail=f"{old} → {new}",
        )
    return f"Owner changed to {new}."


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
            session, quote, member, status="spam", reason="", action="quote_marked_spam"
        )
    return "Marked as spam." if changed else NOTHING_CHANGED


def not_spam(*, actor: StaffActor | None, quote_id: int) -> str:
    """Rescue a request from the spam folder: it becomes New again."""
    member = require(actor, Permission.WORK_QUOTES)
    with session_scope() as session:
        quote = quote_or_404(session, quote_id, for_update=True)
        if quote.status != "spam":
            return NOTHING_CHANGED
        _set_status(session, quote, member, status="new", reason="", action="quote_not_spam")
    return "Moved back to New."
