"""Customer accounts' tables: customers, their login sessions, reset and verification links."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel

from rcxsite.models.analytics import Attributed
from rcxsite.models.types import (
    COMPANY_NAME_MAX,
    EMAIL_MAX,
    LOCATION_MAX,
    MOBILE_NUMBER_LENGTH,
    SHA256_HEX_LENGTH,
    USER_NAME_MAX,
    SessionColumns,
    UTCDateTime,
    utcnow,
)


class Customer(Attributed, table=True):
    __tablename__ = "customer"

    id: int | None = Field(default=None, primary_key=True)
    user_name: str = Field(max_length=USER_NAME_MAX)
    email: str = Field(max_length=EMAIL_MAX)
    # Lower-cased `email`, computed in Python so uniqueness ignores case the same way on
    # SQLite and PostgreSQL (their lower() functions disagree outside ASCII).
    email_key: str = Field(max_length=EMAIL_MAX, unique=True, index=True)
    mobile_number: str = Field(max_length=MOBILE_NUMBER_LENGTH)
    password_hash: str = Field(max_length=255)
    company_name: str = Field(max_length=COMPANY_NAME_MAX)
    location: str = Field(max_length=LOCATION_MAX)
    project_id: int | None = None
    subscription_plan_id: int | None = None
    plan_duration_id: int | None = None
    is_trial: bool = False
    # When the account's free trial ends (or ended). Set when a trial is first chosen, at
    # registration or on the pricing page, and never moved after: one trial per account.
    trial_ends_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    # Set by staff ("Lock account"): no login and no reset until unlocked.
    locked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # Set once the customer opened a link mailed to `email` (rcxsite.accounts.verification).
    # Registration alone proves nothing: until then no quote request sent from the address
    # is shown as the customer's.
    email_verified_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class LoginSession(SessionColumns, table=True):
    """One login: the `userSession` cookie's Token names it (see rcxsite.accounts.sessions)."""

    __tablename__ = "login_session"

    id: int | None = Field(default=None, primary_key=True)
    customer_id: int = Field(foreign_key="customer.id", ondelete="CASCADE", index=True)


class MailedLinkColumns(SQLModel):
    """What a link mailed to a customer keeps. Only the SHA-256 of the emailed token is
    stored, so a database leak grants no resets and verifies no address."""

    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True, index=True)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class PasswordResetToken(MailedLinkColumns, table=True):
    __tablename__ = "password_reset_token"

    id: int | None = Field(default=None, primary_key=True)
    customer_id: int = Field(foreign_key="customer.id", ondelete="CASCADE", index=True)


class EmailVerificationToken(MailedLinkColumns, table=True):
    """A link mailed to prove that a customer's address is theirs; a newer link voids it."""

    __tablename__ = "email_verification_token"

    id: int | None = Field(default=None, primary_key=True)
    customer_id: int = Field(foreign_key="customer.id", ondelete="CASCADE", index=True)
