"""The quote table and service on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from alembic.command import downgrade, upgrade
from sqlalchemy import inspect
from sqlmodel import Session

from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import QuoteNote
from rcxsite.platform.db import get_engine
from rcxsite.staff.inbox import (
    InboxFilter,
    NoteInput,
    StatusInput,
    add_note,
    change_status,
    export_csv,
    inbox_page,
    purge_old_spam,
    quote_detail,
)
from tests.support.fixtures import Configure
from tests.support.postgres import scratch_postgres
from tests.support.quotes import add_quote, ids_stored, quote_fields, stored_requests
from tests.support.schema import assert_schema_matches_models
from tests.support.service_calls import submit_quote
from tests.support.site import alembic_config
from tests.support.staff import add_member


@pytest.fixture
def postgres(configure: Configure) -> Iterator[None]:
    """A scratch database, migrated to head, dropped afterwards."""
    with scratch_postgres(configure, before_drop=lambda: wait_for_outgoing_mail(30)):
        yield


@pytest.mark.usefixtures("postgres")
def test_migration_0002_on_postgresql() -> None:
    assert get_engine().dialect.name == "postgresql"
    assert_schema_matches_models()
    downgrade(alembic_config(), "0001")
    with get_engine().connect() as connection:
        assert "quote_request" not in inspect(connection).get_table_names()
    upgrade(alembic_config(), "head")
    assert_schema_matches_models()


@pytest.mark.usefixtures("postgres")
def test_quote_requests_on_postgresql() -> None:
    longest = "ü" * 5000  # limits count characters, not bytes
    result = submit_quote(
        fields=quote_fields(name="Zoë " + "x" * 96, message=longest), client_ip="10.0.0.1"
    )
    assert result.ok, result.errors
    assert wait_for_outgoing_mail(10)
    [row] = stored_requests()
    assert row.message == longest and len(row.name) == 100
    assert row.mailed_at is not None and row.created_at.tzinfo is not None

    refused = submit_quote(fields=quote_fields(company="bad\x00value"), client_ip="10.0.0.1")
    assert refused.status == 422 and "company" in refused.errors
    assert len(stored_requests()) == 1


@pytest.mark.usefixtures("postgres")
def test_the_inbox_on_postgresql() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    percent = add_quote(name="ZOË Discount", message="We want 50% off the whole project.")
    add_quote(name="Fifty", message="We want 50 people on the whole project.")
    snake = add_quote(name="Snake", company="user_accounts Ltd")
    add_quote(name="Spaces", company="user accounts Ltd")

    def found(search: str) -> list[int]:
        page = inbox_page(actor=sales, where=InboxFilter(status="all", search=search))
        return [row.id for row in page.rows]

    # ILIKE here: case-blind beyond ASCII, and % and _ still literal.
    assert found("zoë") == [percent]
    assert found("50%") == [percent]
    assert found("USER_A") == [snake]

    change_status(
        StatusInput.parse({"status": "lost", "reason": "Too dear"}), actor=sales, quote_id=percent
    )
    add_note(NoteInput.parse({"note": "Asked twice."}), actor=sales, quote_id=percent)
    detail = quote_detail(actor=sales, quote_id=percent)
    assert (detail.status_label, detail.lost_reason) == ("Lost", "Too dear")
    assert [h.new_value for h in detail.history] == ["Lost: Too dear"]
    assert "Too dear" in export_csv(actor=sales, where=InboxFilter(status="lost"))

    old_spam = add_quote(status="spam", created_at=datetime.now(UTC) - timedelta(days=31))
    with_note = add_quote(status="spam", created_at=datetime.now(UTC) - timedelta(days=31))
    with Session(get_engine()) as session:
        session.add(
            QuoteNote(
                quote_request_id=with_note,
                author_name="Sam",
                body="Bot.",
                created_at=datetime.now(UTC) - timedelta(days=31),
            )
        )
        session.commit()
    assert purge_old_spam() == 2
    assert old_spam not in ids_stored() and with_note not in ids_stored()
