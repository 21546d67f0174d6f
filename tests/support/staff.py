"""Staff members for service tests: rows inserted directly (no invitation, password or 2FA),
or made through the real invitation flow; and what they did (the audit log)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from rcxsite.core import tokens
from rcxsite.core.permissions import OPERATOR, StaffActor
from rcxsite.models import (
    AuditEntry,
    StaffMember,
)
from rcxsite.platform.db import get_engine
from rcxsite.staff import invitations, members, two_factor
from rcxsite.staff.inputs import EnrolmentCodeInput, InviteInput, StaffPasswordInput
from tests.support.site import empty_tables

STAFF_PASSWORD = "a long staff password 1"
# The password hash of a member row a test adds as if its invitation had been accepted:
# no password matches it, but the member counts as enrolled (hosts calls, for one).
ENROLLED = "(enrolled in a test)"
# Where the staff of these tests enrol, sign in and act from.
STAFF_IP = "198.51.100.20"


def member_row(name: str, email: str, role: str, **columns: Any) -> StaffMember:
    """A member as if their invitation had been accepted (`ENROLLED`), not yet added to a
    session."""
    return StaffMember(
        name=name,
        email=email,
        email_key=email.lower(),
        role=role,
        password_hash=ENROLLED,
        **columns,
    )


def add_member(
    name: str,
    email: str,
    role: str,
    *,
    time_zone: str = "",
    disabled_at: datetime | None = None,
    client_address: str = "",
) -> StaffActor:
    """A member row with this role, returned as the actor a live session would name."""
    with Session(get_engine()) as session:
        member = member_row(name, email, role, time_zone=time_zone, disabled_at=disabled_at)
        session.add(member)
        session.commit()
        assert member.id is not None
        return StaffActor(
            member_id=member.id,
            name=name,
            email=email,
            role=role,
            time_zone=time_zone,
            client_address=client_address,
        )


def support_actor() -> StaffActor:
    """A support member acting from STAFF_IP."""
    return add_member("Sue Support", "sue@rcx.example", "support", client_address=STAFF_IP)


@dataclass(frozen=True)
class Enrolled:
    actor: StaffActor
    secret: str
    recovery_codes: tuple[str, ...]
    session_digest: str
    cookie_ticket: str


def invite(email: str, role: str = "sales", name: str = "Sam Seller") -> str:
    """The invitation's token (the link's last segment)."""
    form = InviteInput.parse({"email": email, "name": name, "role": role})
    return members.invite(form, actor=OPERATOR).link.rsplit("/", 1)[-1]


def enrol(token: str, *, password: str = STAFF_PASSWORD, client_ip: str = STAFF_IP) -> Enrolled:
    """The invitation accepted: password chosen, authenticator app confirmed."""
    digest = tokens.token_digest(token)
    enrolment = invitations.choose_password(
        StaffPasswordInput.parse({"new_password": password, "confirm_new_password": password}),
        link_digest=digest,
        client_ip=client_ip,
    )
    # One step back: the member's first sign-in in a test may use the current step.
    code = two_factor.current_code(enrolment.secret, now=time.time() - 30)
    done = invitations.finish_enrolment(
        EnrolmentCodeInput.parse({"code": code}), link_digest=digest, client_ip=client_ip
    )
    return Enrolled(
        actor=done.actor,
        secret=enrolment.secret,
        recovery_codes=done.recovery_codes,
        session_digest=done.session_digest,
        cookie_ticket=done.cookie_ticket,
    )


def member(email: str, role: str = "sales", name: str = "Sam Seller") -> Enrolled:
    """A member invited and enrolled (and so signed in, from STAFF_IP)."""
    return enrol(invite(email, role, name))


def audit_entries() -> list[AuditEntry]:
    with Session(get_engine()) as session:
        return list(session.exec(select(AuditEntry).order_by(col(AuditEntry.id))))


def empty_staff_tables() -> None:
    """Members and everything that hangs on them: audit log, notes, history, sessions."""
    empty_tables(StaffMember)
