"""Stored quote requests as CSV, for sales' spreadsheets and CRM imports."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import UTC, date, datetime, time
from typing import TextIO

from sqlmodel import Session, col, select

from rcxsite.content.quote import BUDGETS, SERVICE_CHOICES, TIMELINES, label_of
from rcxsite.core.csv_cells import defuse
from rcxsite.leads.statuses import SPAM
from rcxsite.models import QuoteRequest
from rcxsite.platform.db import get_engine

HEADER = (
    "id",
    "created_at",
    "name",
    "email",
    "company",
    "phone",
    "service",
    "budget",
    "timeline",
    "call_date",
    "call_time",
    "message",
    "mailed",
    "source",
    "campaign",
    "landing_page",
)


def request_cells(row: QuoteRequest) -> list[str]:
    """One request's cells in HEADER's order (the inbox's export adds its own after)."""
    cells = [
        str(row.id),
        row.created_at.isoformat(),
        row.name,
        row.email,
        row.company,
        row.phone,
        # Labels read better in a spreadsheet; a value no longer offered stays as it is.
        label_of(SERVICE_CHOICES, row.service),
        label_of(BUDGETS, row.budget),
        label_of(TIMELINES, row.timeline),
        # Both empty for a request sent without a call.
        row.call_date.isoformat() if row.call_date else "",
        row.call_time,
        row.message,
        # When sales was mailed; empty means the mail never went out.
        row.mailed_at.isoformat() if row.mailed_at else "",
        row.source,
        row.campaign,
        row.landing_page,
    ]
    return [defuse(cell) for cell in cells]


def stored_requests(*, since: date | None = None) -> Iterator[QuoteRequest]:
    """Every stored request but spam, oldest first; with `since`, from that UTC day on.

    Forms caught by the bot trap are kept (status "spam") so sales can rescue a person the
    trap took for a bot; they are no leads, so the command line's export leaves them out
    until sales mark one "Not spam" in the inbox.
    """
    query = (
        select(QuoteRequest)
        .where(col(QuoteRequest.status) != SPAM)
        .order_by(col(QuoteRequest.created_at), col(QuoteRequest.id))
    )
    if since is not None:
        start = datetime.combine(since, time.min, tzinfo=UTC)
        query = query.where(col(QuoteRequest.created_at) >= start)
    with Session(get_engine()) as session:
        yield from session.exec(query)


def write_csv(out: TextIO, *, since: date | None = None) -> int:
    """Write the header and one line per request to `out`; returns the number of requests."""
    writer = csv.writer(out)
    writer.writerow(HEADER)
    count = 0
    for row in stored_requests(since=since):
        writer.writerow(request_cells(row))
        count += 1
    return count
