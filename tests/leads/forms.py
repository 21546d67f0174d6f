"""Form payloads for the quote tests."""

from __future__ import annotations

from datetime import date, timedelta

from sqlmodel import Session, col, select

from rcxsite.db import get_engine
from rcxsite.leads.validation import business_today
from rcxsite.models import QuoteRequest


def next_weekday(after: date | None = None, days: int = 7) -> date:
    """The first Monday-to-Friday date at least `days` after `after` (default: today)."""
    day = (after or business_today()) + timedelta(days=days)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def quote_fields(**overrides: str) -> dict[str, str]:
    fields = {
        "name": "Alice Smith",
        "email": "alice@client.example",
        "company": "ACME GmbH",
        "phone": "+49 30 1234567",
        "service": "web-development",
        "budget": "25k-75k",
        "timeline": "1-3-months",
        "message": "We need a new customer portal with single sign-on.",
        "call_date": next_weekday().isoformat(),
        "call_time": "10:30",
        "website": "",
    }
    fields.update(overrides)
    return fields


def stored_requests() -> list[QuoteRequest]:
    with Session(get_engine()) as session:
        return list(session.exec(select(QuoteRequest).order_by(col(QuoteRequest.id))))
