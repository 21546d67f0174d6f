"""Export CSV: exactly the rows the inbox's filter and search select, every page, with
formula-like cells defused, recorded in the audit log."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

from rcxsite.core.permissions import StaffActor
from rcxsite.leads.export import HEADER
from rcxsite.staff.inbox import PAGE_SIZE, InboxFilter, export_csv, inbox_page
from tests.support.quotes import BASE_TIME, add_numbered, add_quote
from tests.support.staff import add_member, audit_entries


def parsed(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    return header, [dict(zip(header, line, strict=True)) for line in reader]


def every_page(actor: StaffActor, where: InboxFilter) -> list[int]:
    first = inbox_page(actor=actor, where=where, page=1)
    ids = [row.id for row in first.rows]
    for number in range(2, first.pages + 1):
        ids += [row.id for row in inbox_page(actor=actor, where=where, page=number).rows]
    return ids


def test_the_export_is_the_filtered_view_across_pages() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    add_numbered(PAGE_SIZE + 10, owner_id=sales.member_id, message="Needs a portal, soon.")
    add_numbered(5, owner_id=sales.member_id, status="spam", message="Needs a portal, spam.")
    add_numbered(7, message="Needs a portal, nobody's.")
    add_numbered(3, owner_id=sales.member_id, message="Needs a shop instead.")
    where = InboxFilter(status="new", owner="mine", search="portal")

    header, rows = parsed(export_csv(actor=sales, where=where))

    assert header == [*HEADER, "status", "owner", "lost_reason"]
    assert [int(row["id"]) for row in rows] == every_page(sales, where)
    assert len(rows) == PAGE_SIZE + 10
    assert {(row["status"], row["owner"]) for row in rows} == {("New", "Sam Sales")}


def test_every_column_and_formula_cells_defused() -> None:
    sales = add_member("=Sam Sales", "sam@rcx.example", "sales")
    quote_id = add_quote(
        name='=cmd|" /C calc"!A0',
        email="alice@client.example",
        company="@SUM(A1:A9)",
        phone="+49 30 1234567",
        service="ai-machine-learning",
        budget="under-25k",
        timeline="asap",
        message="-2+3 is our budget maths.\nSecond line.",
        call_date=date(2026, 3, 10),
        call_time="10:30",
        status="lost",
        lost_reason='=HYPERLINK("http://evil.example")',
        owner_id=sales.member_id,
        mailed_at=BASE_TIME + timedelta(seconds=5),
        source="=newsletter",
        campaign="autumn",
        landing_page="/insights",
    )

    _, [row] = parsed(export_csv(actor=sales, where=InboxFilter(status="lost")))

    assert row == {
        "id": str(quote_id),
        "created_at": "2026-03-02T09:00:00+00:00",
        "name": '\'=cmd|" /C calc"!A0',
        "email": "alice@client.example",
        "company": "'@SUM(A1:A9)",
        "phone": "'+49 30 1234567",
        "service": "AI & Machine Learning",
        "budget": "Under £25,000",
        "timeline": "As soon as possible",
        "call_date": "2026-03-10",
        "call_time": "10:30",
        "message": "'-2+3 is our budget maths.\nSecond line.",
        "mailed": "2026-03-02T09:00:05+00:00",
        "source": "'=newsletter",
        "campaign": "autumn",
        "landing_page": "/insights",
        "status": "Lost",
        "owner": "'=Sam Sales",
        "lost_reason": '\'=HYPERLINK("http://evil.example")',
    }


def test_dates_bound_the_export_like_the_page() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    inside = add_quote(created_at=datetime(2026, 3, 2, 23, 59, tzinfo=UTC))
    add_quote(created_at=datetime(2026, 3, 3, 0, 0, tzinfo=UTC))
    add_quote(created_at=datetime(2026, 3, 1, 23, 59, tzinfo=UTC))

    where = InboxFilter(status="all", since=date(2026, 3, 2), until=date(2026, 3, 2))
    _, rows = parsed(export_csv(actor=sales, where=where))

    assert [int(row["id"]) for row in rows] == [inside]


def test_an_export_is_one_audit_entry_with_its_count_and_filter() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    add_numbered(3)

    export_csv(actor=sales, where=InboxFilter(status="all", search="client"))
    export_csv(actor=sales, where=InboxFilter(status="won"))

    assert [(e.actor_name, e.action, e.detail) for e in audit_entries()] == [
        (
            "Sam Sales",
            "quotes_exported",
            "3 quote requests (status all, owner any, search 'client')",
        ),
        ("Sam Sales", "quotes_exported", "0 quote requests (status won, owner any)"),
    ]


def test_an_empty_export_is_the_header_alone() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    header, rows = parsed(export_csv(actor=sales, where=InboxFilter(status="won")))
    assert header[-3:] == ["status", "owner", "lost_reason"] and rows == []
