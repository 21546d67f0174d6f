"""The daily clean-up: a sign-in's row goes KEEP_DAYS after it ended (signed out, or past
its lifetime), never before."""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlmodel import Session

from rcxsite.accounts.prune import prune_accounts
from rcxsite.core.pruning import KEEP_DAYS
from rcxsite.models import StaffSession
from rcxsite.models.types import utcnow
from rcxsite.platform.db import get_engine
from rcxsite.platform.settings import get_settings
from rcxsite.staff.prune import prune_staff
from tests.support.customers import add_customer, add_session, sessions_of
from tests.support.fixtures import Configure
from tests.support.staff import add_member


def _staff_session(member_id: int, *, revoked: bool) -> None:
    now = utcnow()
    with Session(get_engine()) as session:
        session.add(
            StaffSession(
                staff_member_id=member_id,
                token_hash=secrets.token_hex(32),
                created_at=now,
                last_seen_at=now,
                revoked_at=now if revoked else None,
            )
        )
        session.commit()


def test_sessions_go_keep_days_after_they_ended_and_not_before(configure: Configure) -> None:
    configure(login_token_days=7, staff_session_hours=12)
    customer_id = add_customer("dana@example.com")
    add_session(customer_id, age=timedelta(0), idle=timedelta(0), revoked=True)
    add_session(customer_id, age=timedelta(0), idle=timedelta(0))
    member = add_member("Sam Sales", "sam@rcx.example", "sales")
    _staff_session(member.member_id, revoked=True)
    _staff_session(member.member_id, revoked=False)
    now, keep = utcnow(), timedelta(days=KEEP_DAYS)

    def prune(at: timedelta) -> tuple[int, int]:
        return (
            prune_accounts(now=now + at)["login_session"],
            prune_staff(now=now + at)["staff_session"],
        )

    assert prune(keep - timedelta(hours=1)) == (0, 0)

    # The signed-out ones, and the staff session past its 12 hours; the customer's login
    # lasts 7 days.
    assert prune(keep + timedelta(hours=13)) == (1, 2)
    assert [row.revoked_at for row in sessions_of(customer_id)] == [None]

    days = get_settings().login_token_days
    assert prune(keep + timedelta(days=days, hours=1)) == (1, 0)
    assert sessions_of(customer_id) == []
