"""Database tables. Every change here needs a matching Alembic migration in alembic/versions/.

The staff back office's tables are in rcxsite/staff_models.py, loaded at the end of this
module so that one import of rcxsite.models registers every table.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from rcxsite.model_types import (
    CALL_TIME_LENGTH,
    CHOICE_MAX,
    COMPANY_NAME_MAX,
    EMAIL_MAX,
    LOCATION_MAX,
    LOST_REASON_MAX,
    MOBILE_NUMBER_LENGTH,
    PHONE_MAX,
    QUOTE_MESSAGE_MAX,
    QUOTE_NAME_MAX,
    SHA256_HEX_LENGTH,
    STATUS_MAX,
    USER_NAME_MAX,
    UTCDateTime,
    utcnow,
)


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
    # Set by staff ("Lock account"): no login and no reset until unlocked.
    locked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # Set once the customer opened a link mailed to `email` (rcxsite.accounts.verification).
    # Registration alone proves nothing: until then no quote request sent from the address
    # is shown as the customer's.
    email_verified_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


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


class EmailVerificationToken(SQLModel, table=True):
    """A link mailed to prove that a customer's address is theirs; a newer link voids it."""

    __tablename__ = "email_verification_token"

    id: int | None = Field(default=None, primary_key=True)
    customer_id: int = Field(foreign_key="customer.id", ondelete="CASCADE", index=True)
    # Only the SHA-256 of the emailed token is kept, as for reset links.
    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True, index=True)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


# The staff inbox's search (`ILIKE '%word%'` on these columns) is served on PostgreSQL by
# a pg_trgm GIN index per column (migration 0006); SQLite has no such index. alembic
# compares them on PostgreSQL only (`include_in_schema`, used by alembic/env.py).
SEARCH_COLUMNS = ("name", "email", "company", "message")
POSTGRESQL_ONLY_INDEXES = frozenset(f"ix_quote_request_{column}_trgm" for column in SEARCH_COLUMNS)


def _trigram_index(column: str) -> Index:
    return Index(f"ix_quote_request_{column}_trgm", column, postgresql_using="gin",
                 postgresql_ops={column: "gin_trgm_ops"}).ddl_if(dialect="postgresql")


def include_in_schema(dialect: str) -> Callable[[object, str | None, str, bool, object], bool]:
    """alembic's `include_object` on a `dialect` database: the PostgreSQL-only indexes are
    neither expected nor proposed anywhere else."""

    def include(_item: object, name: str | None, type_: str, _reflected: bool,
                _compare_to: object) -> bool:
        return dialect == "postgresql" or not (type_ == "index"
                                               and name in POSTGRESQL_ONLY_INDEXES)

    return include


class QuoteRequest(SQLModel, table=True):
    """A visitor's "request a quote / book a call" form, kept whatever happens to the mail."""

    __tablename__ = "quote_request"
    # The staff inbox lists one status newest first, 50 at a time, over 100,000 requests.
    __table_args__ = (Index("ix_quote_request_status_created_at", "status", "created_at"),
                      *(_trigram_index(column) for column in SEARCH_COLUMNS))

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
    # Worked by sales in the staff inbox (rcxsite.leads.inbox): one of QUOTE_STATUSES.
    status: str = Field(default="new", max_length=STATUS_MAX)
    owner_id: int | None = Field(
        default=None, foreign_key="staff_member.id", ondelete="SET NULL", index=True
    )
    lost_reason: str = Field(default="", max_length=LOST_REASON_MAX)


# Import at the end: the staff tables refer to the tables above by name.
from rcxsite.job_models import Job, PeriodicRun  # noqa: E402
from rcxsite.staff_models import (  # noqa: E402
    AuditEntry,
    QuoteChange,
    QuoteNote,
    StaffInvitation,
    StaffMember,
    StaffSession,
)

__all__ = [
    "CALL_TIME_LENGTH",
    "CHOICE_MAX",
    "COMPANY_NAME_MAX",
    "EMAIL_MAX",
    "LOCATION_MAX",
    "LOST_REASON_MAX",
    "MOBILE_NUMBER_LENGTH",
    "PHONE_MAX",
    "QUOTE_MESSAGE_MAX",
    "QUOTE_NAME_MAX",
    "SHA256_HEX_LENGTH",
    "STATUS_MAX",
    "USER_NAME_MAX",
    "AuditEntry",
    "Customer",
    "EmailVerificationToken",
    "Job",
    "LoginSession",
    "PasswordResetToken",
    "PeriodicRun",
    "QuoteChange",
    "QuoteNote",
    "QuoteRequest",
    "StaffInvitation",
    "StaffMember",
    "StaffSession",
    "UTCDateTime",
    "utcnow",
]
