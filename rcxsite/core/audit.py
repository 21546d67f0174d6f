"""Writing the back office's audit log: append-only rows, also written as security log
events. Any service that staff act through records here; the log's screen is
rcxsite.staff.audit.

Every staff sign-in (and failed attempt) and every change staff make in the inbox, to
customers and to the team is one `AuditEntry`, written in the same transaction as the
change itself, so the log cannot miss a change that happened nor show one that did not.

Refusals anyone can repeat at will (failed and locked sign-ins, whose target text the
sender chooses, and members' denied actions) are counted instead: one row per kind,
actor, client address (as rate limits count it), target and quarter hour, its `count`
raised in one atomic statement. A flood adds to a handful of rows; the security log
still has one line per refusal.
"""

from __future__ import annotations

import hashlib

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col

from rcxsite.core.permissions import Permission, StaffActor
from rcxsite.core.ratelimit import client_key
from rcxsite.models import AuditEntry, utcnow
from rcxsite.models.staff import ACTION_MAX, CLIENT_ADDRESS_MAX, DETAIL_MAX, TARGET_MAX
from rcxsite.platform.db import session_scope
from rcxsite.platform.logs import security_event

DENIED = "denied"

# What the log's screen says for each action (its filter and rows); an action not listed
# reads as its words ("call_marked": "Call marked").
ACTION_LABELS = {
    "audit_exported": "Audit log exported",
    "calendar_feed_regenerated": "Calendar feed renewed",
    "call_day_removed": "Call day removed",
    "call_day_set": "Call day set",
    "call_hours_changed": "Call hours changed",
    "call_marked": "Call outcome recorded",
    "candidate_cv_downloaded": "CV downloaded",
    "candidate_note_added": "Candidate note added",
    "candidate_stage_changed": "Candidate stage changed",
    "customer_deleted": "Customer deleted",
    "customer_locked": "Customer locked",
    "customer_password_reset_sent": "Password reset sent to customer",
    "customer_signed_out_everywhere": "Customer signed out everywhere",
    "customer_unlocked": "Customer unlocked",
    DENIED: "Denied",
    "invitation_accepted": "Invitation accepted",
    "job_retried": "Job retried",
    "member_disabled": "Member disabled",
    "member_enabled": "Member enabled",
    "member_invited": "Member invited",
    "member_role_changed": "Role changed",
    "member_two_factor_reset": "Two-factor reset",
    "quote_contact_logged": "Contact logged",
    "quote_marked_spam": "Marked as spam",
    "quote_not_spam": "Marked as not spam",
    "quote_note_added": "Note added",
    "quote_owner_changed": "Owner changed",
    "quote_status_changed": "Status changed",
    "quotes_exported": "Requests exported",
    "sign_in_failed": "Sign-in failed",
    "sign_in_locked": "Sign-in locked",
    "sign_in_slowed": "Sign-in slowed",
    "signed_in": "Signed in",
    "signed_out": "Signed out",
    "time_off_added": "Time off added",
    "time_off_removed": "Time off removed",
}


def action_label(action: str) -> str:
    return ACTION_LABELS.get(action) or action.replace("_", " ").capitalize()


# A repeated refusal adds to its row for this long (the sign-in limits' window), then
# starts a new one: the log still shows when an attack went on.
REPEAT_WINDOW_SECONDS = 15 * 60


def record(
    session: Session,
    *,
    action: str,
    actor: StaffActor | None = None,
    actor_name: str = "",
    target: str = "",
    detail: str = "",
    client_address: str = "",
) -> None:
    """Add one entry in the caller's transaction (and one security log line)."""
    session.add(
        AuditEntry(
            # 0: the command line (rcxsite.core.permissions.OPERATOR), not a member.
            actor_id=(actor.member_id or None) if actor else None,
            actor_name=(actor.name if actor else actor_name)[:100],
            action=action[:ACTION_MAX],
            target=target[:TARGET_MAX],
            detail=detail[:DETAIL_MAX],
            client_address=(client_address or (actor.client_address if actor else ""))[:64],
        )
    )
    security_event(
        f"staff_{action}",
        "recorded",
        client_ip=client_address or (actor.client_address if actor else None) or None,
        actor=actor.member_id if actor else None,
    )


def record_now(**entry: str | StaffActor | None) -> None:
    """`record` in a transaction of its own."""
    with session_scope() as session:
        record(session, **entry)  # type: ignore[arg-type]


def _count_repeat(
    *,
    action: str,
    actor: StaffActor | None,
    actor_name: str,
    target: str,
    detail: str,
    client_address: str,
) -> None:
    """Add one to the row of this refusal's kind and quarter hour, or start it, in one
    statement (INSERT ... ON CONFLICT DO UPDATE): parallel refusals never make two rows
    of one key nor lose a count, on SQLite and PostgreSQL alike."""
    now = utcnow()
    actor_id = (actor.member_id or None) if actor else None
    action, target = action[:ACTION_MAX], target[:TARGET_MAX]
    place = client_key(client_address)[:CLIENT_ADDRESS_MAX]
    window = int(now.timestamp()) // REPEAT_WINDOW_SECONDS
    key = hashlib.sha256(
        "\n".join((action, str(actor_id or ""), place, target, str(window))).encode()
    ).hexdigest()
    with session_scope() as session:
        dialect = session.get_bind().dialect.name
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        statement = insert(AuditEntry).values(
            actor_id=actor_id,
            actor_name=(actor.name if actor else actor_name)[:100],
            action=action,
            target=target,
            detail=detail[:DETAIL_MAX],
            client_address=place,
            created_at=now,
            count=1,
            last_at=now,
            repeat_key=key,
        )
        session.exec(
            statement.on_conflict_do_update(
                index_elements=[col(AuditEntry.repeat_key)],
                set_={"count": col(AuditEntry.count) + 1, "last_at": statement.excluded.last_at},
            )
        )


def record_repeat(
    *,
    action: str,
    actor_name: str = "",
    target: str = "",
    detail: str = "",
    client_address: str = "",
) -> None:
    """A refused sign-in (`action` "sign_in_failed", "sign_in_locked", ...), counted on
    its row (see the module's docstring), and one security log line."""
    _count_repeat(
        action=action,
        actor=None,
        actor_name=actor_name,
        target=target,
        detail=detail,
        client_address=client_address,
    )
    security_event(f"staff_{action}", "recorded", client_ip=client_address or None)


def record_denied(actor: StaffActor, *, handler: str, permission: Permission) -> None:
    """A member's call of `handler`, which needs `permission` their role lacks: counted on
    its row (one per member, address, handler and quarter hour) and one security log
    line."""
    _count_repeat(
        action=DENIED,
        actor=actor,
        actor_name="",
        target=handler,
        detail=f"needs {permission.value}",
        client_address=actor.client_address,
    )
    security_event(
        "staff_denied",
        "refused",
        client_ip=actor.client_address or None,
        actor=actor.member_id,
        handler=handler,
        permission=permission.value,
    )
