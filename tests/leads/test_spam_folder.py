"""The spam folder: trapped forms are kept as spam without mail, answered like accepted
ones, refused like them by the rate limit, and purged after 30 days."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from rcxsite.jobs.runner import Runner
from rcxsite.leads.export import write_csv
from rcxsite.mail import wait_for_outgoing_mail
from rcxsite.models import QuoteChange, QuoteNote
from rcxsite.platform.db import get_engine
from rcxsite.staff.inbox import InboxFilter, inbox_page, not_spam, purge_old_spam
from tests.support.fixtures import Configure
from tests.support.quotes import (
    add_quote,
    changes,
    ids_stored,
    notes,
    quote_fields,
    stored_requests,
)
from tests.support.service_calls import submit_quote
from tests.support.site import outbox_messages
from tests.support.staff import add_member

TRAP = {"website": "http://cheap-pills.example"}
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def test_a_trapped_form_is_answered_as_an_accepted_one_but_only_stored_as_spam() -> None:
    accepted = submit_quote(fields=quote_fields(), client_ip="10.0.0.1")
    trapped = submit_quote(fields=quote_fields(**TRAP, name="Bot Bob"), client_ip="10.0.0.2")

    assert (trapped.ok, trapped.status, trapped.message, trapped.errors) == (
        accepted.ok,
        accepted.status,
        accepted.message,
        accepted.errors,
    )
    assert trapped.message == "Thank you! Your request has been received."
    assert trapped.next_steps == "A senior consultant will email you within one working day."
    assert wait_for_outgoing_mail(10)
    [mail] = outbox_messages()  # the accepted request's, none for the trapped one
    assert "Alice Smith" in mail["Subject"]
    real, spam = stored_requests()
    assert (real.status, spam.status) == ("new", "spam")
    assert (spam.name, spam.mailed_at) == ("Bot Bob", None)
    assert (spam.service, spam.call_time) == ("web-development", "10:30")


def test_a_trapped_form_is_kept_however_broken_its_values() -> None:
    fields = {
        **TRAP,
        "name": "N\x00o\u2028 name " + "x" * 500,
        "email": "NOT AN EMAIL",
        "company": "",
        "phone": "call me maybe " * 10,
        "service": "<script>alert(1)</script>" * 5,
        "budget": "a lot",
        "message": "Line\r\none\x07\r\n" + "m" * 6000,
        "call_date": "next tuesday",
        "call_time": "25:99",
    }
    assert submit_quote(fields=fields, client_ip="10.0.0.3").ok

    [row] = stored_requests()
    assert row.status == "spam"
    assert row.name == "No name " + "x" * 92 and len(row.name) == 100
    assert (row.email, row.company, row.budget, row.timeline) == ("NOT AN EMAIL", "", "a lot", "")
    assert len(row.phone) == 32 and len(row.service) == 64
    assert row.message.startswith("Line\none\n") and len(row.message) == 5000
    # A date that is none: kept as a request without a call.
    assert (row.call_date, row.call_time) == (None, "")


def test_the_rate_limit_refuses_trapped_forms_as_it_does_real_ones(
    configure: Configure,
) -> None:
    configure(quote_limit="2 per minute")
    assert submit_quote(fields=quote_fields(**TRAP), client_ip="10.0.0.4").ok
    assert submit_quote(fields=quote_fields(), client_ip="10.0.0.4").ok

    refused_trap = submit_quote(fields=quote_fields(**TRAP), client_ip="10.0.0.4")
    refused_real = submit_quote(fields=quote_fields(), client_ip="10.0.0.4")

    assert (refused_trap.status, refused_trap.message) == (
        refused_real.status,
        refused_real.message,
    )
    assert refused_trap.status == 429
    assert [row.status for row in stored_requests()] == ["spam", "new"]


def test_trapped_forms_show_in_the_spam_folder_only_and_can_be_rescued() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    submit_quote(fields=quote_fields(**TRAP, name="Human Autofill"), client_ip="10.0.0.5")

    assert inbox_page(actor=sales, where=InboxFilter(status="all")).rows == []
    [row] = inbox_page(actor=sales, where=InboxFilter(status="spam")).rows
    assert (row.name, row.status_label) == ("Human Autofill", "Spam")

    not_spam(actor=sales, quote_id=row.id)

    [rescued] = inbox_page(actor=sales, where=InboxFilter(status="new")).rows
    assert rescued.id == row.id


def test_the_command_line_export_leaves_spam_out() -> None:
    submit_quote(fields=quote_fields(name="Real Person"), client_ip="10.0.0.6")
    submit_quote(fields=quote_fields(**TRAP, name="Bot Bob"), client_ip="10.0.0.7")
    out = io.StringIO()

    assert write_csv(out) == 1
    assert "Real Person" in out.getvalue() and "Bot Bob" not in out.getvalue()


def test_spam_older_than_30_days_is_purged_with_its_notes_and_history() -> None:
    member = add_member("Sam Sales", "sam@rcx.example", "sales")
    old_spam = add_quote(status="spam", created_at=NOW - timedelta(days=30, seconds=1))
    young_spam = add_quote(status="spam", created_at=NOW - timedelta(days=29, hours=23))
    old_lead = add_quote(status="lost", created_at=NOW - timedelta(days=400))
    with Session(get_engine()) as session:
        session.add(
            QuoteNote(
                quote_request_id=old_spam,
                author_id=member.member_id,
                author_name="Sam Sales",
                body="Looks like a bot.",
                created_at=NOW - timedelta(days=31),
            )
        )
        session.add(
            QuoteChange(
                quote_request_id=old_spam,
                actor_name="Sam Sales",
                field="status",
                old_value="New",
                new_value="Spam",
                created_at=NOW - timedelta(days=31),
            )
        )
        session.commit()

    assert purge_old_spam(now=NOW) == 1

    assert ids_stored() == [young_spam, old_lead]
    assert notes(old_spam) == [] and changes(old_spam) == []
    assert purge_old_spam(now=NOW) == 0


def test_an_old_request_marked_spam_lately_stays_30_days_for_rescue() -> None:
    marked = add_quote(status="spam", created_at=NOW - timedelta(days=90))
    with Session(get_engine()) as session:
        session.add(
            QuoteChange(
                quote_request_id=marked,
                actor_name="Sam Sales",
                field="status",
                old_value="New",
                new_value="Spam",
                created_at=NOW - timedelta(days=2),
            )
        )
        session.commit()

    assert purge_old_spam(now=NOW) == 0
    assert purge_old_spam(now=NOW + timedelta(days=27, hours=23)) == 0
    assert purge_old_spam(now=NOW + timedelta(days=28, seconds=1)) == 1
    assert ids_stored() == []


def test_the_periodic_job_purges_the_old_spam_once_an_hour() -> None:
    expired = add_quote(status="spam", created_at=datetime.now(UTC) - timedelta(days=31))
    kept = add_quote(status="new", created_at=datetime.now(UTC) - timedelta(days=31))

    submit_quote(fields=quote_fields(**TRAP), client_ip="10.0.0.8")
    [new_spam] = [i for i in ids_stored() if i not in (expired, kept)]
    assert sorted(ids_stored()) == sorted([kept, expired, new_spam])  # no purge on the way

    Runner().run_periodic()
    assert ids_stored() == [kept, new_spam]
    again = add_quote(status="spam", created_at=datetime.now(UTC) - timedelta(days=31))
    Runner().run_periodic()  # the same hour: another runner does not run it again
    assert again in ids_stored()
