"""Quote requests for the inbox tests, inserted directly with the times and states a test
needs (the form's own path is tested in test_service.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from rcxsite.db import get_engine
from rcxsite.leads.validation import HONEYPOT_FIELD
from rcxsite.models import AuditEntry, QuoteChange, QuoteNote, QuoteRequest
from tests.leads.forms import quote_fields

BASE_TIME = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def quote_row(**overrides: Any) -> QuoteRequest:
    """The form's usual request (tests/leads/forms.py) as stored, at BASE_TIME."""
    values: dict[str, Any] = {
        **quote_fields(), "call_date": date(2026, 3, 10), "client_ip_hash": "0" * 64,
        "created_at": BASE_TIME,
    }
    del values[HONEYPOT_FIELD]
    values.update(overrides)
    return QuoteRequest(**values)


def add_quote(**overrides: Any) -> int:
    """One stored request; its id."""
    return add_quotes([overrides])[0]


def add_quotes(rows: list[dict[str, Any]]) -> list[int]:
    with Session(get_engine()) as session:
        quotes = [quote_row(**row) for row in rows]
        session.add_all(quotes)
        session.commit()
        return [quote.id for quote in quotes if quote.id is not None]


def add_numbered(count: int, **overrides: Any) -> list[int]:
    """`count` requests named "Client 0".., each a minute newer than the one before."""
    return add_quotes([
        {"name": f"Client {n}", "created_at": BASE_TIME + timedelta(minutes=n), **overrides}
        for n in range(count)
    ])


def stored(quote_id: int) -> QuoteRequest:
    with Session(get_engine()) as session:
        quote = session.get(QuoteRequest, quote_id)
        assert quote is not None, f"quote #{quote_id} is not stored"
        return quote


def ids_stored() -> list[int]:
    with Session(get_engine()) as session:
        return [i for i in session.exec(select(QuoteRequest.id).order_by(col(QuoteRequest.id)))
                if i is not None]


def audit_entries() -> list[AuditEntry]:
    with Session(get_engine()) as session:
        return list(session.exec(select(AuditEntry).order_by(col(AuditEntry.id))))


def changes(quote_id: int) -> list[QuoteChange]:
    with Session(get_engine()) as session:
        return list(session.exec(
            select(QuoteChange).where(col(QuoteChange.quote_request_id) == quote_id)
            .order_by(col(QuoteChange.id))
        ))


def notes(quote_id: int) -> list[QuoteNote]:
    with Session(get_engine()) as session:
        return list(session.exec(
            select(QuoteNote).where(col(QuoteNote.quote_request_id) == quote_id)
            .order_by(col(QuoteNote.id))
        ))
