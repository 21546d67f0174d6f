"""A quote request sent without a call: stored with no call time, mailed to sales as a
request for a written reply, answered with what happens next, and read as "No call" in
the inbox, on the request's page and in the export."""

from __future__ import annotations

import csv
import io

from rcxsite.leads import NO_CALL, QuoteWithoutCallInput, submit_quote
from rcxsite.leads.export import write_csv
from rcxsite.leads.service import NO_CALL_NEXT_STEPS
from rcxsite.staff.inbox import InboxFilter, inbox_page, quote_detail
from tests.support.quotes import next_weekday, quote_fields, stored_requests
from tests.support.service_calls import submit_quote as submit_form
from tests.support.smtp import Mailbox
from tests.support.staff import add_member

WITHOUT_CALL = {"call_kind": "none"}


def test_a_request_without_a_call_is_stored_mailed_and_answered(
    leads_address: str, mailbox: Mailbox
) -> None:
    # A date and time the form no longer showed are not kept.
    fields = quote_fields(**WITHOUT_CALL, call_date=next_weekday().isoformat(), call_time="10:30")

    answer = submit_form(fields=fields, client_ip="203.0.113.7")

    assert answer.ok, answer.message
    assert answer.next_steps == NO_CALL_NEXT_STEPS
    [row] = stored_requests()
    assert (row.call_date, row.call_time) == (None, "")
    text = mailbox.wait_for(leads_address).get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert any(line.split() == ["Call:", *NO_CALL.split()] for line in text.splitlines())
    assert "Please reply by email to Alice Smith at alice@client.example" in text
    assert "confirm the call" not in text


def test_every_other_field_is_still_checked() -> None:
    fields = quote_fields(**WITHOUT_CALL, message="Too short", email="not an email")
    answer = submit_form(fields=fields, client_ip="203.0.113.8")
    assert not answer.ok
    assert answer.errors["message"].startswith("Please tell us a little more")
    assert answer.errors["email"] == "Invalid email"
    assert stored_requests() == []


def test_a_trapped_form_without_a_call_is_answered_as_an_accepted_one() -> None:
    answer = submit_form(fields=quote_fields(**WITHOUT_CALL, website="x"), client_ip="203.0.113.9")
    assert (answer.ok, answer.next_steps) == (True, NO_CALL_NEXT_STEPS)


def test_sales_read_no_call_in_the_inbox_the_request_and_the_export() -> None:
    sales = add_member("Sam Sales", "sam@rcx.example", "sales")
    receipt = submit_quote(
        QuoteWithoutCallInput.parse(quote_fields(**WITHOUT_CALL)), client_ip="203.0.113.10"
    )
    assert receipt.request_id is not None

    [row] = inbox_page(actor=sales, where=InboxFilter(status="all")).rows
    assert (row.call, row.call_status) == ("No call", "")
    detail = quote_detail(actor=sales, quote_id=receipt.request_id)
    assert (detail.call_company, detail.call_member) == (NO_CALL, NO_CALL)

    exported = io.StringIO()
    write_csv(exported)
    [record] = list(csv.DictReader(io.StringIO(exported.getvalue())))
    assert (record["call_date"], record["call_time"]) == ("", "")
