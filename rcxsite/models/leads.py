"""Leads' table: the quote requests visitors send, as the staff inbox works them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from sqlalchemy import Index
from sqlmodel import Field

from rcxsite.models.analytics import Attributed
from rcxsite.models.types import (
    CALL_TIME_LENGTH,
    CHOICE_MAX,
    COMPANY_NAME_MAX,
    EMAIL_MAX,
    LOST_REASON_MAX,
    PHONE_MAX,
    QUOTE_MESSAGE_MAX,
    QUOTE_NAME_MAX,
    SHA256_HEX_LENGTH,
    STATUS_MAX,
    UTCDateTime,
    utcnow,
)

# The staff inbox's search (`ILIKE '%word%'` on these columns) is served on PostgreSQL by
# a pg_trgm GIN index per column (migration 0006); SQLite has no such index. alembic
# compares them on PostgreSQL only (`include_in_schema`, used by alembic/env.py).
SEARCH_COLUMNS = ("name", "email", "company", "message")
POSTGRESQL_ONLY_INDEXES = frozenset(f"ix_quote_request_{column}_trgm" for column in SEARCH_COLUMNS)


def _trigram_index(column: str) -> Index:
    return Index(
        f"ix_quote_request_{column}_trgm",
        column,
        postgresql_using="gin",
        postgresql_ops={column: "gin_trgm_ops"},
    ).ddl_if(dialect="postgresql")


def include_in_schema(dialect: str) -> Callable[[object, str | None, str, bool, object], bool]:
    """alembic's `include_object` on a `dialect` database: the PostgreSQL-only indexes are
    neither expected nor proposed anywhere else."""

    def include(
        _item: object, name: str | None, type_: str, _reflected: bool, _compare_to: object
    ) -> bool:
        return dialect == "postgresql" or not (type_ == "index" and name in POSTGRESQL_ONLY_INDEXES)

    return include


class QuoteRequest(Attributed, table=True):
    """A visitor's "request a quote / book a call" form, kept whatever happens to the mail."""

    __tablename__ = "quote_request"
    # The staff inbox lists one status newest first, 50 at a time, over 100,000 requests.
    __table_args__ = (
        Index("ix_quote_request_status_created_at", "status", "created_at"),
        *(_trigram_index(column) for column in SEARCH_COLUMNS),
    )

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
    # None for a request sent without a call (a written reply is asked for).
    call_date: date | None = None
    # "HH:MM" in CALL_TIMEZONE (rcxsite.content.quote): the slot as the visitor picked it;
    # "" without a call.
    call_time: str = Field(default="", max_length=CALL_TIME_LENGTH)
    # Keyed hash of the sender's address: enough to spot abuse, useless as personal data.
    client_ip_hash: str = Field(max_length=SHA256_HEX_LENGTH)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    # Set once the mail to sales was delivered; NULL means sales may not know about it yet.
    mailed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # Worked by sales in the staff inbox (rcxsite.staff.inbox): one of QUOTE_STATUSES.
    status: str = Field(default="new", max_length=STATUS_MAX)
    owner_id: int | None = Field(
        default=None, foreign_key="staff_member.id", ondelete="SET NULL", index=True
    )
    lost_reason: str = Field(default="", max_length=LOST_REASON_MAX)
