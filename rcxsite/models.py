"""Database tables. Every change here needs a matching Alembic migration in alembic/versions/."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

# Named constraints keep Alembic's batch mode (SQLite) able to alter them later.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

USER_NAME_MAX = 100
EMAIL_MAX = 254
MOBILE_NUMBER_LENGTH = 10
COMPANY_NAME_MAX = 200
LOCATION_MAX = 200
SHA256_HEX_LENGTH = 64
QUOTE_NAME_MAX = 100
PHONE_MAX = 32
# Option values of the quote form (service slugs, budget and timeline keys).
CHOICE_MAX = 64
QUOTE_MESSAGE_MAX = 5000
CALL_TIME_LENGTH = 5


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC datetime on every database.

    SQLite keeps no zone and hands back naive values; comparing those with aware ones
    raises, so values are stored as UTC and always come back aware.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are ambiguous; pass an aware UTC datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Customer(SQLModel, table=True):
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
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class LoginSession(SQLModel, table=True):
    """One login: the `userSession` cookie's Token names it (see rcxsite.accounts.sessions)."""

    __tablename__ = "login_session"

    id: int | None = Field(default=None, primary_key=True)
    customer_id: int = Field(foreign_key="customer.id", ondelete="CASCADE", index=True)
    # Only the SHA-256 of the random token is kept, so a database leak signs nobody in.
    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True, index=True)
    # A login made on the screens: SHA-256 of the one-time ticket the browser trades for
    # its HttpOnly cookie (rcxsite/api/login_cookie.py); cleared once traded.
    cookie_ticket_hash: str | None = Field(
        default=None, max_length=SHA256_HEX_LENGTH, unique=True, index=True
    )
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_seen_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class PasswordResetToken(SQLModel, table=True):
    __tablename__ = "password_reset_token"

    id: int | None = Field(default=None, primary_key=True)
    customer_id: int = Field(foreign_key="customer.id", ondelete="CASCADE", index=True)
    # Only the SHA-256 of the emailed token is kept, so a database leak grants no resets.
    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True, index=True)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class QuoteRequest(SQLModel, table=True):
    """A visitor's "request a quote / book a call" form, kept whatever happens to the mail."""

    __tablename__ = "quote_request"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=QUOTE_NAME_MAX)
    email: str = Field(max_length=EMAIL_MAX)
    company: str = Field(max_length=COMPANY_NAME_MAX)
    # Optional on the form; stored as "" rather than NULL so exports need no special case.
    phone: str = Field(default="", max_length=PHONE_MAX)
    service: str = Field(max_length=CHOICE_MAX)
    budget: str = Field(max_length=CHOICE_MAX)
    timeline: str = Field(max_length=CHOICE_MAX)
    message: str = Field(max_length=QUOTE_MESSAGE_MAX)
    call_date: date
    # "HH:MM" in CALL_TIMEZONE (rcxsite.content.quote): the slot as the visitor picked it.
    call_time: str = Field(max_length=CALL_TIME_LENGTH)
    # Keyed hash of the sender's address: enough to spot abuse, useless as personal data.
    client_ip_hash: str = Field(max_length=SHA256_HEX_LENGTH)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    # Set once the mail to sales was delivered; NULL means sales may not know about it yet.
    mailed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
