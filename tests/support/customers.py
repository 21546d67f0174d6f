"""Customers for the tests: registered through the service, or rows put in place directly
(the slow password hash skipped) with the sessions, lock and reset links a test needs."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import create_engine
from sqlmodel import Session, col, select, update

from rcxsite.models import Customer, LoginSession, PasswordResetToken, utcnow
from rcxsite.platform.db import get_engine
from tests.support import service_calls as calls
from tests.support.rows import change_row

if TYPE_CHECKING:
    from tests.support.live_server import LiveServer
    from tests.support.scaled_site import ScaledSite

PASSWORD = "s3cret-pass"


def register_customer(
    email: str = "alice@example.com",
    password: str = PASSWORD,
    *,
    verified: bool = False,
    **fields: object,
) -> int | None:
    """The new customer's id; None when the address already had an account. `verified`:
    as if the customer had then opened the link registration mailed (`mark_verified`)."""
    values: dict[str, object] = {
        "user_name": "Alice",
        "mobile_number": "9876543210",
        "company_name": "ACME",
        "location": "Pune",
    }
    values.update(fields)
    customer_id = calls.register(  # type: ignore[arg-type]
        # A client of its own each time: these are fixtures, not tests of the limit.
        email=email,
        password=password,
        client_ip=f"2001:db8:{secrets.token_hex(2)}::1",
        **values,
    ).id
    if verified and customer_id is not None:
        mark_verified(customer_id)
    return customer_id


def add_customer(
    email: str,
    *,
    name: str = "Dana",
    company: str = "Initech",
    created_at: datetime | None = None,
    verified: bool = False,
) -> int:
    """A customer row without the slow registration (its hash matches no password);
    `verified`: one who opened the link registration mailed."""
    now = utcnow()
    with Session(get_engine()) as session:
        customer = Customer(
            user_name=name,
            email=email,
            email_key=email.lower(),
            mobile_number="9876543210",
            password_hash="not-a-hash",
            company_name=company,
            location="Pune",
            created_at=created_at or now,
            email_verified_at=now if verified else None,
        )
        session.add(customer)
        session.commit()
        assert customer.id is not None
        return customer.id


def mark_verified(customer_id: int) -> None:
    """The customer's address counts as verified, for tests of what verification unlocks;
    the link itself is tested in tests/accounts/test_email_verification.py."""
    with Session(get_engine()) as session:
        session.exec(
            update(Customer)
            .where(col(Customer.id) == customer_id)
            .values(email_verified_at=utcnow())
        )
        session.commit()


def mark_verified_on(site: LiveServer | ScaledSite, email: str) -> None:
    """`mark_verified` on a running site's database, for the customer with `email`
    (tests/browser/accounts/test_verify_email.py opens the link itself)."""
    engine = create_engine(site.database_url)
    with Session(engine) as session:
        session.exec(
            update(Customer)
            .where(col(Customer.email_key) == email.lower())
            .values(email_verified_at=utcnow())
        )
        session.commit()
    engine.dispose()


def add_session(
    customer_id: int, *, age: timedelta, idle: timedelta, revoked: bool = False
) -> datetime:
    """A session started `age` ago and last used `idle` ago; its last use."""
    now = utcnow()
    with Session(get_engine()) as session:
        row = LoginSession(
            customer_id=customer_id,
            token_hash=secrets.token_hex(32),
            created_at=now - age,
            last_seen_at=now - idle,
            revoked_at=now if revoked else None,
        )
        session.add(row)
        session.commit()
        return row.last_seen_at


def customer_row(customer_id: int) -> Customer | None:
    with Session(get_engine()) as session:
        return session.get(Customer, customer_id)


def set_locked(customer_id: int, when: datetime | None) -> None:
    """Lock or unlock behind the service's back (a lock racing with something else)."""
    change_row(Customer, customer_id, locked_at=when)


def sessions_of(customer_id: int) -> list[LoginSession]:
    with Session(get_engine()) as session:
        return list(
            session.exec(select(LoginSession).where(LoginSession.customer_id == customer_id))
        )


def reset_tokens_of(customer_id: int) -> list[PasswordResetToken]:
    with Session(get_engine()) as session:
        return list(
            session.exec(
                select(PasswordResetToken).where(PasswordResetToken.customer_id == customer_id)
            )
        )
