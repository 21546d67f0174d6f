"""The team: inviting members, roles, disabling, resetting two-factor sign-in.

Admins do this on the Team page, the server's operator with `python -m rcxsite.staff`
(as `permissions.OPERATOR`). Disabling a member, changing their role or resetting their
two-factor sign-in ends their sessions at once; disabling, resetting and a new role
without calls also end their calendar feed's URL for good. The last enabled admin who can
sign in (password and authenticator app enrolled) can be neither disabled nor demoted, nor
have their two-factor sign-in reset, so the company never locks itself out of its own back
office; an invited admin who has not enrolled yet does not count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from rcxsite.booking.calls import end_feed
from rcxsite.core import audit
from rcxsite.core.permissions import GRANTS, ROLE_LABELS, Permission, StaffActor, require
from rcxsite.core.service_errors import ServiceError
from rcxsite.models import StaffMember, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.staff import invitations, sessions
from rcxsite.staff.inputs import InviteInput, RoleInput

LAST_ADMIN = "The last enabled admin can be neither disabled nor demoted."
LAST_ADMIN_TWO_FACTOR = "The last enabled admin's two-factor sign-in cannot be reset."
ALREADY_MEMBER = "A member with this email already exists."
NO_MEMBER = "This member does not exist."


@dataclass(frozen=True, slots=True)
class MemberRow:
    id: int
    name: str
    email: str
    role: str
    role_label: str
    two_factor: bool
    disabled: bool
    last_sign_in_at: datetime | None


@dataclass(frozen=True, slots=True)
class Invited:
    member_id: int
    link: str


def _row(member: StaffMember) -> MemberRow:
    assert member.id is not None
    return MemberRow(
        id=member.id,
        name=member.name,
        email=member.email,
        role=member.role,
        role_label=ROLE_LABELS.get(member.role, member.role),
        two_factor=bool(member.totp_secret),
        disabled=member.disabled_at is not None,
        last_sign_in_at=member.last_sign_in_at,
    )


def list_members(*, actor: StaffActor | None) -> Sequence[MemberRow]:
    require(actor, Permission.MANAGE_TEAM)
    with session_scope() as session:
        members = session.exec(select(StaffMember).order_by(col(StaffMember.name))).all()
        return [_row(member) for member in members]


def member_by_email(email: str) -> int:
    """The id of the member with this address (the command line names members so)."""
    with session_scope() as session:
        member = session.exec(
            select(StaffMember).where(StaffMember.email_key == email.strip().lower())
        ).first()
        if member is None or member.id is None:
            raise ServiceError(404, NO_MEMBER)
        return member.id


def invite(form: InviteInput, *, actor: StaffActor | None) -> Invited:
    """A new member (or a new link for one who never finished enrolling), mailed."""
    actor = require(actor, Permission.MANAGE_TEAM)
    with session_scope() as session:
        member = session.exec(
            select(StaffMember).where(StaffMember.email_key == form.email.lower())
        ).first()
        if member is not None and (member.totp_secret or member.disabled_at is not None):
            raise ServiceError(409, ALREADY_MEMBER, fields={"email": ALREADY_MEMBER})
        if member is None:
            member = StaffMember(
                name=form.name,
                email=form.email,
                email_key=form.email.lower(),
                role=form.role,
                takes_calls=form.role == "sales",
            )
        else:
            member.name, member.role = form.name, form.role
        session.add(member)
        session.flush()
        link = invitations.issue_invitation(session, member)
        audit.record(
            session,
            action="member_invited",
            actor=actor,
            target=f"member {member.email}",
            detail=f"role {form.role}",
        )
        assert member.id is not None
        invited = Invited(member_id=member.id, link=link)
    return invited


@dataclass(frozen=True, slots=True)
class _Locked:
    """The member acted on and the admins who can sign in, read so that no other change
    made through `_locked` can come in between until the transaction ends."""

    member: StaffMember
    admins: frozenset[int]

    def guard_last_admin(self, message: str = LAST_ADMIN) -> None:
        """409 `message` when the change would leave no admin who can sign in."""
        if self.member.id in self.admins and len(self.admins) <= 1:
            raise ServiceError(409, message)


def _locked(session: Session, member_id: int) -> _Locked:
    """In a `session_scope(for_update=True)` transaction (SQLite serialises it whole): on
    PostgreSQL the admins' rows are locked first, always in id order, then the member's,
    so two admins removing each other at once cannot both count the other as remaining,
    and never wait on each other crosswise. FOR NO KEY UPDATE: the audit entries other
    admins write meanwhile (a foreign key to their row) need not wait."""
    admins = session.exec(
        select(StaffMember.id)
        .where(
            StaffMember.role == "admin",
            col(StaffMember.disabled_at).is_(None),
            StaffMember.password_hash != "",
            StaffMember.totp_secret != "",
        )
        .order_by(col(StaffMember.id))
        .with_for_update(key_share=True)
    ).all()
    member = session.get(StaffMember, member_id, with_for_update={"key_share": True})
    if member is None:
        raise ServiceError(404, NO_MEMBER)
    return _Locked(member=member, admins=frozenset(id_ for id_ in admins if id_ is not None))


def change_role(form: RoleInput, *, actor: StaffActor | None, member_id: int) -> str:
    actor = require(actor, Permission.MANAGE_TEAM)
    with session_scope(for_update=True) as session:
        locked = _locked(session, member_id)
        member = locked.member
        if member.role == form.role:
            return f"{member.name} is already {ROLE_LABELS[form.role]}."
        if form.role != "admin":
            locked.guard_last_admin()
        old = member.role
        member.role = form.role
        if form.role not in GRANTS[Permission.TAKE_CALLS]:
            end_feed(member)
        session.add(member)
        sessions.end_member_sessions(session, member_id)
        audit.record(
            session,
            action="member_role_changed",
            actor=actor,
            target=f"member {member.email}",
            detail=f"{old} -> {form.role}",
        )
        return f"{member.name} is now {ROLE_LABELS[form.role]}."


def set_disabled(*, actor: StaffActor | None, member_id: int, disabled: bool) -> str:
    actor = require(actor, Permission.MANAGE_TEAM)
    with session_scope(for_update=True) as session:
        locked = _locked(session, member_id)
        member = locked.member
        if disabled and member.disabled_at is None:
            locked.guard_last_admin()
            member.disabled_at = utcnow()
            end_feed(member)
            sessions.end_member_sessions(session, member_id)
        elif not disabled:
            member.disabled_at = None
        session.add(member)
        audit.record(
            session,
            action="member_disabled" if disabled else "member_enabled",
            actor=actor,
            target=f"member {member.email}",
        )
        return f"{member.name} is {'disabled' if disabled else 'enabled'}."


def reset_two_factor(*, actor: StaffActor | None, member_id: int) -> Invited:
    """Clears the member's app and recovery codes, ends their sessions and issues a new
    invitation link, through which they choose a password and enrol again."""
    actor = require(actor, Permission.MANAGE_TEAM)
    with session_scope(for_update=True) as session:
        locked = _locked(session, member_id)
        member = locked.member
        if member.disabled_at is not None:
            raise ServiceError(409, "Enable this member first.")
        # Until they enrol again they cannot sign in: as good as disabled meanwhile.
        locked.guard_last_admin(LAST_ADMIN_TWO_FACTOR)
        member.totp_secret, member.totp_last_step, member.recovery_code_hashes = "", 0, "[]"
        member.password_hash = ""
        # The staff's only password reset: whoever had their sign-in may have the feed's URL.
        end_feed(member)
        session.add(member)
        sessions.end_member_sessions(session, member_id)
        link = invitations.issue_invitation(session, member)
        audit.record(
            session, action="member_two_factor_reset", actor=actor, target=f"member {member.email}"
        )
    return Invited(member_id=member_id, link=link)
