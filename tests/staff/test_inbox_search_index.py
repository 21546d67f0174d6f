"""The inbox search on PostgreSQL: migration 0006's trigram indexes exist, the planner
serves the inbox's own statements from them, and the results stay ILIKE's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlmodel import Session, select

from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import POSTGRESQL_ONLY_INDEXES, QuoteRequest
from rcxsite.platform.db import get_engine
from rcxsite.staff.inbox import PAGE_SIZE, InboxFilter, inbox_page
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.quotes import BASE_TIME, add_quote, add_quotes
from tests.support.staff import add_member


@pytest.fixture
def postgres(configure: Configure) -> Iterator[None]:
    """A scratch database, migrated to head, dropped afterwards."""
    with scratch_postgres(configure, before_drop=lambda: wait_for_outgoing_mail(30)):
        yield


def _filler(count: int) -> None:
    """`count` unremarkable requests, so that the planner has a table worth indexing."""
    add_quotes(
        [
            {
                "name": f"Client {n}",
                "email": f"client{n}@example.com",
                "company": f"Firm {n % 97}",
                "message": f"Request number {n}: a new website with a booking form, please.",
                "created_at": BASE_TIME - timedelta(minutes=n),
            }
            for n in range(count)
        ]
    )
    with get_engine().connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
            "VACUUM ANALYZE quote_request"
        )


def _statements(search: str) -> list[tuple[str, Any]]:
    """The statements on quote_request that one inbox page with `search` runs (not the
    one reading the page's calls by their quote_request_id)."""
    seen: list[tuple[str, Any]] = []

    def before(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if re.search(r"\bquote_request\b", statement):
            seen.append((statement, parameters))

    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    event.listen(get_engine(), "before_cursor_execute", before)
    try:
        inbox_page(actor=sales, where=InboxFilter(status="all", search=search))
    finally:
        event.remove(get_engine(), "before_cursor_execute", before)
    return seen


def _indexes_read(plan: dict[str, Any]) -> set[str]:
    found = {plan["Index Name"]} if "Index Name" in plan else set()
    for child in plan.get("Plans", ()):
        found |= _indexes_read(child)
    return found


@pytest.mark.usefixtures("postgres")
def test_the_migrated_database_has_the_trigram_indexes() -> None:
    with get_engine().connect() as connection:
        assert connection.execute(
            text("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'")
        ).scalar_one()
        indexes = dict(
            connection.execute(
                text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'quote_request'")
            ).all()
        )
    assert set(indexes) >= POSTGRESQL_ONLY_INDEXES
    for column in ("name", "email", "company", "message"):
        assert f"USING gin ({column} gin_trgm_ops)" in indexes[f"ix_quote_request_{column}_trgm"]


@pytest.mark.usefixtures("postgres")
def test_the_planner_searches_through_the_trigram_indexes() -> None:
    _filler(2_000)
    add_quote(message="We keep a quokka in the office.")
    statements = _statements("Quokka")
    # The total, the page of rows, the counts per status; then the calls today, which
    # start from the day's bookings (a handful) and look their requests up by id.
    assert len(statements) == 4
    with get_engine().connect() as connection:
        connection.exec_driver_sql("SET enable_seqscan = off")
        for n, (statement, parameters) in enumerate(statements):
            [[plan]] = connection.exec_driver_sql(
                "EXPLAIN (FORMAT JSON) " + statement, parameters
            ).all()
            plan = json.loads(plan) if isinstance(plan, str) else plan
            read = _indexes_read(plan[0]["Plan"])
            if n < 3:
                assert read >= POSTGRESQL_ONLY_INDEXES, statement
            else:
                assert any(name.startswith("ix_booking") for name in read), (read, statement)


@pytest.mark.usefixtures("postgres")
def test_a_search_finds_a_word_in_each_column_and_pages_newest_first() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    by_column = {
        "name": add_quote(name="Ödön Kowalczyk"),
        "email": add_quote(email="procurement@zebrafish.example"),
        "company": add_quote(company="Marmalade Works GmbH"),
        "message": add_quote(message="Our warehouse robots need a dashboard."),
    }
    _filler(300)

    def found(search: str, page: int = 1) -> list[int]:
        listed = inbox_page(actor=sales, where=InboxFilter(status="all", search=search), page=page)
        return [row.id for row in listed.rows]

    assert found("öDÖN kowal") == [by_column["name"]]
    assert found("ZEBRAFISH.EX") == [by_column["email"]]
    assert found("malade wo") == [by_column["company"]]
    assert found("Warehouse Robot") == [by_column["message"]]
    assert found("no such words") == []

    # A search's pages keep the inbox's order: newest first, the higher id first on a tie
    # (three requests share the newest filler's time).
    add_quotes([{"message": "Tied booking", "created_at": BASE_TIME}] * 3)
    with Session(get_engine()) as session:
        stored = session.exec(select(QuoteRequest)).all()
    expected = [
        quote.id
        for quote in sorted(stored, key=lambda q: (q.created_at, q.id or 0), reverse=True)
        if "booking" in quote.message.lower()
    ]
    assert len(expected) == 303
    pages = -(-len(expected) // PAGE_SIZE)
    assert [i for page in range(1, pages + 1) for i in found("BOOKING", page)] == expected
