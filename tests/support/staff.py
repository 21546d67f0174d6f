"""Staff members for service tests, inserted directly (no invitation, password or 2FA)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, delete

from rcxsite.db import get_engine
from rcxsite.models import (
    AuditEntry,
    QuoteChange,
    QuoteNote,
    StaffInvitation,
    StaffMember,
    StaffSession,
)
from rcxsite.staff.permissions import StaffActor


def add_member(
    name: str, email: str, role: str, *, time_zone: str = "", disabled_at: datetime | None = None,
    client_address: str = "",
) -> StaffActor:
    """A member row with this role, returned as the actor a live session would name."""
    with Session(get_engine()) as session:
        member = StaffMember(name=name, email=email, email_key=email.lower(), role=role,
                             time_zone=time_zone, disabled_at=disabled_at)
        session.add(member)
        session.commit()
        assert member.id is not None
        return StaffActor(member_id=member.id, name=name, email=email, role=role,
                          time_zone=time_zone, client_address=client_address)


def empty_staff_tables() -> None:
    """Members and everything that hangs on them: audit log, notes, history, sessions."""
    with Session(get_engine()) as session:
        for table in (QuoteNote, QuoteChange, AuditEntry, StaffSession, StaffInvitation,
                      StaffMember):
            session.exec(delete(table))
        session.commit()
