"""What every table module shares: the naming convention, UTC datetimes and common sizes."""

from __future__ import annotations

from datetime import UTC, datetime

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
STATUS_MAX = 16
LOST_REASON_MAX = 500
# A meeting link (Zoom, Meet, Teams, a Jitsi room): long enough for their longest.
MEETING_URL_MAX = 500


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


class SessionColumns(SQLModel):
    """What a customer's login and a staff sign-in keep. Only the SHA-256 of the cookie's
    random token is stored, so a database leak signs nobody in; a login made on the screens
    also has the SHA-256 of the one-time ticket the browser trades for its HttpOnly cookie
    (rcxsite/web/login_cookie.py), cleared once traded."""

    token_hash: str = Field(max_length=SHA256_HEX_LENGTH, unique=True, index=True)
    cookie_ticket_hash: str | None = Field(
        default=None, max_length=SHA256_HEX_LENGTH, unique=True, index=True
    )
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    last_seen_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
