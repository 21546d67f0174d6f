"""Helpers for the customer support service's tests: staff actors, rows put in place
directly (quote requests with a status, sessions of a given age) and the audit log."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from rcxsite.db import get_engine
from rcxsite.models import (
    AuditEntry,
    Customer,
    LoginSession,
    PasswordResetToken,
    QuoteRequest,
    utcnow,
)
from rcxsite.staff.permissions import StaffActor
from tests.support import staff

STAFF_IP = "192.0.2.50"


def add_member(name: str, email: str, role: str) -> StaffActor:
    """A member row (audit entries point to it) and the actor a live session would give."""
    return staff.add_member(name, email, role, client_address=STAFF_IP)


def support_actor() -> StaffActor:
    return add_member("Sue Support", "sue@rcx.example", "support")


def add_quote(email: str, *, status: str = "new", service: str = "web-development",
              created_at: datetime | None = None) -> int:
    with Session(get_engine()) as session:
        quote = QuoteRequest(
            name="Alice", email=email, company="ACME", service=service, budget="25k-75k",
            timeline="1-3-months", message="A portal.", call_date=utcnow().date(),
            call_time="10:30", client_ip_hash="0" * 64, status=status,
            created_at=created_at or utcnow(),
        )
        session.add(quote)
        session.commit()
        assert quote.id is not None
        return quote.id


def add_customer(email: str, *, name: str = "Dana", company: str = "Initech",
                 created_at: datetime | None = None) -> int:
    """A customer row without the slow registration (its hash matches no password)."""
    with Session(get_engine()) as session:
        customer = Customer(
            user_name=name, email=email, email_key=email.lower(), mobile_number="9876543210",
            password_hash="not-a-hash", company_name=company, location="Pune",
            created_at=created_at or utcnow(),
        )
        session.add(customer)
        session.commit()
        assert customer.id is not None
        return customer.id


def add_session(customer_id: int, *, age: timedelta, idle: timedelta,
                revoked: bool = False) -> datetime:
    """A session started `age` ago and last used `idle` ago; its last use."""
    now = utcnow()
    with Session(get_engine()) as session:
        row = LoginSession(
            customer_id=customer_id, token_hash=secrets.token_hex(32),
            created_at=now - age, last_seen_at=now - idle,
            revoked_at=now if revoked else None,
        )
        session.add(row)
        session.commit()
        return row.last_seen_at


def audit_entries() -> list[AuditEntry]:
    with Session(get_engine()) as session:
        return list(session.exec(select(AuditEntry).order_by(col(AuditEntry.id))))


def customer_row(customer_id: int) -> Customer | None:
    with Session(get_engine()) as session:
        return session.get(Customer, customer_id)


def set_locked(customer_id: int, when: datetime | None) -> None:
    """Lock or unlock behind the service's back (a lock racing with something else)."""
    with Session(get_engine()) as session:
        customer = session.get(Customer, customer_id)
        assert customer is not None
        customer.locked_at = when
        session.add(customer)
        session.commit()


def sessions_of(customer_id: int) -> list[LoginSession]:
    with Session(get_engine()) as session:
        return list(session.exec(
            select(LoginSession).where(LoginSession.customer_id == customer_id)
        ))


def reset_tokens_of(customer_id: int) -> list[PasswordResetToken]:
    with Session(get_engine()) as session:
        return list(session.exec(
            select(PasswordResetToken).where(PasswordResetToken.customer_id == customer_id)
        ))


def quotes_stored() -> list[QuoteRequest]:
    with Session(get_engine()) as session:
        return list(session.exec(select(QuoteRequest)))
