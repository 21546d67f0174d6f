from __future__ import annotations

from collections.abc import Iterator

import pytest
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
from tests.support.fixtures import configure, fresh_state, mailbox, redis_limits, site_root

__all__ = ["configure", "empty_staff_tables", "fresh_state", "mailbox", "redis_limits",
           "site_root"]


@pytest.fixture(autouse=True)
def empty_staff_tables(fresh_state: None) -> Iterator[None]:
    with Session(get_engine()) as session:
        for table in (AuditEntry, QuoteNote, QuoteChange, StaffSession, StaffInvitation,
                      StaffMember):
            session.exec(delete(table))  # type: ignore[call-overload]
        session.commit()
    yield
