"""Quote requests for the tests: the form's usual payload, and rows inserted directly with
the times and states a test needs (the form's own path is tested in
tests/leads/test_service.py)."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine
from sqlmodel import Session, col, select

from rcxsite.content.quote import BUDGETS, TIMELINES
from rcxsite.core.forms import HONEYPOT_FIELD
from rcxsite.leads.validation import business_today
from rcxsite.models import QuoteChange, QuoteNote, QuoteRequest, utcnow
from rcxsite.platform.db import get_engine

if TYPE_CHECKING:
    from tests.support.live_server import LiveServer
    from tests.support.scaled_site import ScaledSite

BASE_TIME = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def next_weekday(after: date | None = None, days: int = 7) -> date:
    """The first Monday-to-Friday date at least `days` after `after` (default: today)."""
    day = (after or business_today()) + timedelta(days=days)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def quote_fields(**overrides: str) -> dict[str, str]:
    """The quote form's fields as a visitor fills them in (the trap field left empty)."""
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


def quote_row(**overrides: Any) -> QuoteRequest:
    """The form's usual request as stored, at BASE_TIME; `overrides` by column name."""
    values: dict[str, Any] = {
        **quote_fields(),
        "call_date": date(2026, 3, 10),
        "client_ip_hash": "0" * 64,
        "created_at": BASE_TIME,
    }
    del values[HONEYPOT_FIELD]
    values.update(overrides)
    return QuoteRequest(**values)


def add_quote(**overrides: Any) -> int:
    """One stored request; its id."""
    return add_quotes([overrides])[0]


def add_quotes(rows: list[dict[str, Any]], *, database_url: str = "") -> list[int]:
    """One stored request per dict of overrides, in order; their ids. `database_url`: a
    database other than the configured one (a live site's)."""
    engine = create_engine(database_url) if database_url else get_engine()
    try:
        with Session(engine) as session:
            quotes = [quote_row(**row) for row in rows]
            session.add_all(quotes)
            session.commit()
            return [quote.id for quote in quotes if quote.id is not None]
    finally:
        if database_url:
            engine.dispose()


def add_quotes_on(
    site: LiveServer | ScaledSite,
    count: int,
    *,
    company: str,
    status: str = "new",
    email: str = "",
    message: str = "We need a new booking site.",
) -> list[int]:
    """`count` requests stored on a running site as its quote form stores them (received
    now, a call next week), newest last."""
    return add_quotes(
        [
            {
                "name": f"Lead {number:03d}",
                "email": email or f"lead{number}.{uuid.uuid4().hex[:6]}@example.com",
                "company": company,
                "phone": "",
                "timeline": "asap",
                "message": message,
                "call_date": date.today() + timedelta(days=7),
                "status": status,
                "created_at": utcnow(),
            }
            for number in range(count)
        ],
        database_url=site.database_url,
    )


def add_numbered(count: int, **overrides: Any) -> list[int]:
    """`count` requests named "Client 0".., each a minute newer than the one before."""
    return add_quotes(
        [
            {"name": f"Client {n}", "created_at": BASE_TIME + timedelta(minutes=n), **overrides}
            for n in range(count)
        ]
    )


def stored(quote_id: int) -> QuoteRequest:
    with Session(get_engine()) as session:
        quote = session.get(QuoteRequest, quote_id)
        assert quote is not None, f"quote #{quote_id} is not stored"
        return quote


def stored_requests() -> list[QuoteRequest]:
    """Every stored request, oldest id first."""
    with Session(get_engine()) as session:
        return list(session.exec(select(QuoteRequest).order_by(col(QuoteRequest.id))))


def ids_stored() -> list[int]:
    return [quote.id for quote in stored_requests() if quote.id is not None]


def changes(quote_id: int) -> list[QuoteChange]:
    with Session(get_engine()) as session:
        return list(
            session.exec(
                select(QuoteChange)
                .where(col(QuoteChange.quote_request_id) == quote_id)
                .order_by(col(QuoteChange.id))
            )
        )


def notes(quote_id: int) -> list[QuoteNote]:
    with Session(get_engine()) as session:
        return list(
            session.exec(
                select(QuoteNote)
                .where(col(QuoteNote.quote_request_id) == quote_id)
                .order_by(col(QuoteNote.id))
            )
        )


def fill_quote_form(form: Any, *, name: str, email: str, message: str, day: str | None) -> None:
    """Fill in the quote form (a Playwright locator) as a visitor does, preferred call time
    10:30 on `day` (no call time for None: the visitor chose a reply by email)."""
    form.get_by_label("Name").fill(name)
    form.get_by_label("Work email").fill(email)
    form.get_by_label("Company").fill("Northway Clinics")
    form.get_by_label("Phone (optional)").fill("+44 161 496 0000")
    form.get_by_label("Service of interest").select_option(label="Web Development")
    form.get_by_label("Budget range").select_option(BUDGETS[1][0])
    form.get_by_label("Timeline").select_option(TIMELINES[0][0])
    if day is not None:
        form.get_by_label("Preferred call date").fill(day)
        form.get_by_label("Preferred call time").select_option("10:30")
    form.get_by_label("Tell us about your project").fill(message)
