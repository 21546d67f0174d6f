"""The staff back office's tables: members, their invitations and sessions, the inbox's
notes and history, and the audit log."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, false
from sqlmodel import Field, SQLModel

from rcxsite.models.types import (
    EMAIL_MAX,
    MEETING_URL_MAX,
    SHA256_HEX_LENGTH,
    SessionColumns,
    UTCDateTime,
    utcnow,
)

STAFF_NAME_MAX = 100
ROLE_MAX = 16
# An IANA zone name ("Europe/London", "America/Argentina/Buenos_Aires").
TIME_ZONE_MAX = 64
# Base32 key of the authenticator app: 32 characters (160 bits).
TOTP_SECRET_MAX = 128  # a sealed key (rcxsite/platform/at_rest.py)
# JSON list of ten SHA-256 hex digests, with room to spare.
RECOVERY_HASHES_MAX = 1000
NOTE_MAX = 5000
CHANGE_VALUE_MAX = 500
ACTION_MAX = 64
TARGET_MAX = 200
CLIENT_ADDRESS_MAX = 64
DETAIL_MAX = 1000


class StaffMember(SQLModel, table=True):
    """Someone of the company who works the back office; never a customer account."""

    __tablename__ = "staff_member"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=STAFF_NAME_MAX)
    email: str = Field(max_length=EMAIL_MAX)
    # Lower-cased `email`, as Customer.email_key.
    email_key: str = Field(max_length=EMAIL_MAX, unique=True, index=True)
    role: str = Field(max_length=ROLE_MAX)
    # "" until the invitation is accepted: no password can match it.
    password_hash: str = Field(default="", max_length=255)
    # "" until an authenticator app is enrolled.
    totp_secret: str = Field(default="", max_length=TOTP_SECRET_MAX)
    # The last accepted code's 30-second time step: a code is good once.
    totp_last_step: int = 0
    recovery_code_hashes: str = Field(default="[]", max_length=RECOVERY_HASHES_MAX)
    # "" = the company's zone (rcxsite.content.quote.CALL_TIMEZONE).
    time_zone: str = Field(default="", max_length=TIME_ZONE_MAX)
    # Offered to visitors as a host of booked calls (sales and admins only); new sales
    # members take calls.
    takes_calls: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # SHA-256 of the secret token of the member's calendar feed; "" = no feed yet.
    calendar_feed_hash: str = Field(
        default="", max_length=SHA256_HEX_LENGTH, sa_column_kwargs={"server_default": ""}
    )
    # The member's own video meeting link for their calls; "" = a room made per call
    # (MEETING_URL_TEMPLATE).
    meeting_url: str = Field(
        default="", max_length=MEETING_URL_MAX, sa_column_kwargs={"server_default": ""}
    )
    disabled_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_sign_in_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class StaffInvitation(SQLModel, table=True):
    """A link that lets a member choose a password and enrol two-factor sign-in, once."""

    __tablename__ = "staff_invitation"

    id: int | None = Field(default=None, primary_key=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="CASCADE", index=True)
    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True, index=True)
    # Kept between the password step and the code step of the same invitation.
    pending_password_hash: str = Field(default="", max_length=255)
    pending_totp_secret: str = Field(default="", max_length=TOTP_SECRET_MAX)
    expires_at: datetime = Field(sa_type=UTCDateTime)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class StaffSession(SessionColumns, table=True):
    """A staff sign-in; the `staffSession` cookie holds the token whose digest is here."""

    __tablename__ = "staff_session"

    id: int | None = Field(default=None, primary_key=True)
    staff_member_id: int = Field(foreign_key="staff_member.id", ondelete="CASCADE", index=True)


class QuoteNote(SQLModel, table=True):
    """An internal note on a quote request; append-only."""

    __tablename__ = "quote_note"

    id: int | None = Field(default=None, primary_key=True)
    quote_request_id: int = Field(foreign_key="quote_request.id", ondelete="CASCADE", index=True)
    # The name is kept as written: the note still says who wrote it after they leave.
    author_id: int | None = Field(default=None, foreign_key="staff_member.id", ondelete="SET NULL")
    author_name: str = Field(max_length=STAFF_NAME_MAX)
    body: str = Field(max_length=NOTE_MAX)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class QuoteChange(SQLModel, table=True):
    """One change of a quote request's status or owner: its history."""

    __tablename__ = "quote_change"

    id: int | None = Field(default=None, primary_key=True)
    quote_request_id: int = Field(foreign_key="quote_request.id", ondelete="CASCADE", index=True)
    actor_id: int | None = Field(default=None, foreign_key="staff_member.id", ondelete="SET NULL")
    actor_name: str = Field(max_length=STAFF_NAME_MAX)
    # "status" or "owner"; values as people read them ("Lost: went with a competitor").
    field: str = Field(max_length=ACTION_MAX)
    old_value: str = Field(default="", max_length=CHANGE_VALUE_MAX)
    new_value: str = Field(default="", max_length=CHANGE_VALUE_MAX)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)


class AuditEntry(SQLModel, table=True):
    """Append-only: every staff sign-in (and failed attempt) and every change staff made.

    Refusals (failed or locked sign-ins, denied actions) that repeat are one row per kind,
    place and quarter hour, counted in `count`: whoever can send them cannot flood the log.
    """

    __tablename__ = "audit_entry"
    __table_args__ = (Index("ix_audit_entry_action_created_at", "action", "created_at"),)

    id: int | None = Field(default=None, primary_key=True)
    # None for a failed sign-in by an unknown address, or a member since deleted.
    actor_id: int | None = Field(default=None, foreign_key="staff_member.id", ondelete="SET NULL")
    actor_name: str = Field(default="", max_length=STAFF_NAME_MAX)
    action: str = Field(max_length=ACTION_MAX)
    target: str = Field(default="", max_length=TARGET_MAX)
    detail: str = Field(default="", max_length=DETAIL_MAX)
    client_address: str = Field(default="", max_length=CLIENT_ADDRESS_MAX)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, index=True)
    # How many times it happened: 1, or more for a repeated refusal, the last at `last_at`.
    count: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    last_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # A repeated refusal's kind, place and quarter hour (SHA-256 hex): the row that counts
    # the next one alike. None for every other entry.
    repeat_key: str | None = Field(
        default=None, max_length=SHA256_HEX_LENGTH, unique=True, index=True
    )
