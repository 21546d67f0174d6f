"""The spam folder: forms the bot trap caught, kept for 30 days instead of dropped.

A person whose browser filled the hidden field (autofill does) would otherwise be lost,
so a trapped form is stored as it came, status "spam", without the mail to sales; sales
can rescue it in the inbox ("Not spam"). The form was never validated, so its values are
only made storable: cut to the columns' limits, stripped of the characters no column
takes, unknown choices kept as sent and an unreadable call slot replaced.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Mapping
from datetime import date, datetime, timedelta

from sqlalchemy import delete
from sqlmodel import col, select

from rcxsite.content.quote import CALL_TIMES
from rcxsite.core.validation import normalize_email
from rcxsite.jobs import periodic
from rcxsite.leads.statuses import SPAM
from rcxsite.models import QuoteChange, QuoteRequest
from rcxsite.models.types import (
    CALL_TIME_LENGTH,
    CHOICE_MAX,
    COMPANY_NAME_MAX,
    EMAIL_MAX,
    PHONE_MAX,
    QUOTE_MESSAGE_MAX,
    QUOTE_NAME_MAX,
    utcnow,
)
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import keyed_hash

logger = logging.getLogger(__name__)

SPAM_KEPT_DAYS = 30
# What no column should hold: control characters (NUL breaks PostgreSQL), lone surrogates
# (not UTF-8) and line separators.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def _storable(value: object, limit: int, *, lines: bool = False) -> str:
    """A form value as a column can keep it; anything but a string counts as empty."""
    if not isinstance(value, str):
        return ""
    # Cut generously first, so a huge value costs no more than a long one.
    value = value[: limit * 4]
    if lines:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    kept = "\n\t" if lines else ""
    value = "".join(
        char
        for char in value
        if char in kept or unicodedata.category(char) not in _DROPPED_CATEGORIES
    )
    return value.strip()[:limit]


def _call_date(value: object) -> date | None:
    """The date sent, when it is one; else none (as a request without a call)."""
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            pass
    return None


def trapped_request(fields: Mapping[str, object], *, client_ip: str) -> QuoteRequest:
    """A trapped form as a spam row: nothing refused, everything bounded."""
    email = _storable(fields.get("email"), EMAIL_MAX)
    call_time = _storable(fields.get("call_time"), CALL_TIME_LENGTH)
    return QuoteRequest(
        name=_storable(fields.get("name"), QUOTE_NAME_MAX),
        email=normalize_email(email) or email,
        company=_storable(fields.get("company"), COMPANY_NAME_MAX),
        phone=_storable(fields.get("phone"), PHONE_MAX),
        service=_storable(fields.get("service"), CHOICE_MAX),
        budget=_storable(fields.get("budget"), CHOICE_MAX),
        timeline=_storable(fields.get("timeline"), CHOICE_MAX),
        message=_storable(fields.get("message"), QUOTE_MESSAGE_MAX, lines=True),
        call_date=_call_date(fields.get("call_date")),
        call_time=call_time if call_time in dict(CALL_TIMES) else "",
        client_ip_hash=keyed_hash(client_ip),
        status=SPAM,
    )


@periodic("purge_old_spam", every_seconds=3600)
def purge_old_spam(*, now: datetime | None = None) -> int:
    """Delete spam older than SPAM_KEPT_DAYS; returns how many requests went.

    Both the request and its last history line must be that old: a request sales marked
    as spam today stays in the folder for the full 30 days, however old it is, so it can
    still be rescued. Notes and history go with the request (foreign keys cascade).
    """
    cutoff = (now or utcnow()) - timedelta(days=SPAM_KEPT_DAYS)
    changed_since = (
        select(QuoteChange.id)
        .where(
            col(QuoteChange.quote_request_id) == col(QuoteRequest.id),
            col(QuoteChange.created_at) >= cutoff,
        )
        .exists()
    )
    with session_scope() as session:
        result = session.exec(
            delete(QuoteRequest).where(
                col(QuoteRequest.status) == SPAM,
                col(QuoteRequest.created_at) < cutoff,
                ~changed_since,
            )
        )
        purged = int(result.rowcount or 0)
    if purged:
        logger.info("Purged %d spam quote request(s) older than %d days", purged, SPAM_KEPT_DAYS)
    return purged
