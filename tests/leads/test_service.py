"""submit_quote end to end: trap, validation, rate limit, storage and the mail to sales."""

from __future__ import annotations

import logging
import re
from datetime import date

import pytest
import redis

from rcxsite.mail import send_mail, wait_for_outgoing_mail
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings
from rcxsite.platform.settings import keyed_hash as client_ip_hash
from tests.support.fixtures import Configure
from tests.support.quotes import next_weekday, quote_fields, stored_requests
from tests.support.rate_limits import forget_storage_connections
from tests.support.service_calls import submit_quote
from tests.support.site import SITE_URL, jobs_of_kind, outbox_messages
from tests.support.smtp import Mailbox, free_port

RECEIVED = "Thank you! Your request has been received."
TOO_MANY = re.compile(r"Too many requests\. Try again in (\d+) minutes?\.")


def expected_next_steps(day: date, time: str) -> str:
    return (
        "A senior consultant will email you within one working day to confirm your call "
        f"on {day:%A}, {day.day} {day:%B %Y} at {time} UK time."
    )


def test_a_filled_trap_field_looks_accepted_keeps_it_as_spam_and_sends_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="rcxsite.leads"):
        result = submit_quote(
            fields=quote_fields(website="http://cheap-pills.example"), client_ip="10.0.0.1"
        )

    assert result.ok is True
    assert result.message == RECEIVED
    assert result.next_steps == "A senior consultant will email you within one working day."
    assert result.errors == {}
    assert result.request_id is None
    [row] = stored_requests()
    assert (row.status, row.name, row.mailed_at) == ("spam", "Alice Smith", None)
    assert wait_for_outgoing_mail(10)
    assert outbox_messages() == []
    assert "trap field" in caplog.text
    assert "10.0.0.1" not in caplog.text


def test_invalid_fields_are_answered_per_field_and_nothing_is_stored() -> None:
    result = submit_quote(fields=quote_fields(name="", message="short"), client_ip="10.0.0.1")

    assert result.ok is False
    assert result.status == 422
    assert result.message == "Please correct the highlighted fields."
    assert result.errors == {
        "name": "Name is required",
        "message": "Please tell us a little more (at least 20 characters)",
    }
    assert stored_requests() == []
    assert outbox_messages() == []


def test_the_sixth_request_in_an_hour_from_one_address_is_refused() -> None:
    # Refused forms do not count: only accepted requests use up the allowance.
    for _ in range(3):
        assert submit_quote(fields=quote_fields(email=""), client_ip="10.0.0.7").status == 422
    for _ in range(5):
        assert submit_quote(fields=quote_fields(), client_ip="10.0.0.7").ok

    refused = submit_quote(fields=quote_fields(), client_ip="10.0.0.7")

    assert refused.ok is False
    assert refused.status == 429
    match = TOO_MANY.fullmatch(refused.message)
    assert match, refused.message
    assert 1 <= int(match.group(1)) <= 60
    assert refused.retry_after is not None and 0 < refused.retry_after <= 3600
    assert refused.request_id is None
    assert len(stored_requests()) == 5

    other = submit_quote(fields=quote_fields(), client_ip="10.0.0.8")
    assert other.ok and other.message == RECEIVED
    assert len(stored_requests()) == 6


def test_the_limit_is_a_setting(configure: Configure) -> None:
    configure(quote_limit="1 per minute")
    assert submit_quote(fields=quote_fields(), client_ip="10.0.0.9").ok
    refused = submit_quote(fields=quote_fields(), client_ip="10.0.0.9")
    assert refused.message == "Too many requests. Try again in 1 minute."


def test_a_request_is_stored_and_mailed_to_sales(leads_address: str, mailbox: Mailbox) -> None:
    day = next_weekday(days=10)
    fields = quote_fields(
        name="Alice Smith",
        email="Alice@Client.EXAMPLE",
        company="Smith & Sons <Ltd>",
        service="ai-machine-learning",
        budget="under-25k",
        timeline="asap",
        message="We want to sort 10,000 invoices a month.\nCan AI help?",
        call_date=day.isoformat(),
        call_time="14:00",
    )

    result = submit_quote(fields=fields, client_ip="203.0.113.5")

    assert result.ok is True
    assert result.status == 201
    assert result.message == RECEIVED
    assert result.next_steps == expected_next_steps(day, "14:00")
    [row] = stored_requests()
    assert row.id == result.request_id
    assert (row.name, row.email, row.company) == (
        "Alice Smith",
        "Alice@client.example",
        "Smith & Sons <Ltd>",
    )
    assert (row.phone, row.service, row.budget, row.timeline) == (
        "+49 30 1234567",
        "ai-machine-learning",
        "under-25k",
        "asap",
    )
    assert (row.call_date, row.call_time) == (day, "14:00")
    assert row.message == "We want to sort 10,000 invoices a month.\nCan AI help?"
    assert row.client_ip_hash == client_ip_hash("203.0.113.5")
    assert re.fullmatch(r"[0-9a-f]{64}", row.client_ip_hash)

    mail = mailbox.wait_for(leads_address)
    assert mail["Subject"] == "Quote request from Alice Smith, Smith & Sons <Ltd>"
    assert mail["To"] == "leads@rcx.test"
    assert mail["Reply-To"] == "Alice Smith <Alice@client.example>"
    plain = mail.get_body(("plain",))
    html = mail.get_body(("html",))
    assert plain is not None and html is not None
    text = plain.get_content().replace("\r\n", "\n")  # SMTP line endings
    for detail in (
        f"#{row.id}",
        "Alice Smith",
        "Alice@client.example",
        "Smith & Sons <Ltd>",
        "+49 30 1234567",
        "AI & Machine Learning",
        "Under £25,000",
        "As soon as possible",
        f"{day:%A}, {day.day} {day:%B %Y} at 14:00 UK time",
        "We want to sort 10,000 invoices a month.\nCan AI help?",
    ):
        assert detail in text, detail
    markup = html.get_content()
    assert "Smith &amp; Sons &lt;Ltd&gt;" in markup
    assert "<Ltd>" not in markup
    assert 'href="mailto:Alice@client.example"' in markup
    # The request's page in the staff inbox.
    link = f"{SITE_URL}/staff/quotes/{row.id}"
    assert f"Open it in the staff inbox\n\n{link}\n" in text
    assert f'<a href="{link}">Open it in the staff inbox</a>' in markup

    assert wait_for_outgoing_mail(10)
    [row] = stored_requests()
    assert row.mailed_at is not None
    assert row.mailed_at >= row.created_at


def test_an_smtp_failure_keeps_the_request_and_the_visitors_answer(
    configure: Configure, caplog: pytest.LogCaptureFixture
) -> None:
    configure(
        smtp_host="127.0.0.1",
        smtp_port=free_port("127.0.0.1"),
        job_retry_seconds="0.1",
        job_give_up_hours=0.5 / 3600,
    )

    with caplog.at_level(logging.ERROR):
        result = submit_quote(fields=quote_fields(), client_ip="10.0.0.1")
        assert wait_for_outgoing_mail(30)

    assert result.ok is True
    assert result.message == RECEIVED
    assert result.next_steps.startswith("A senior consultant will email you")
    [row] = stored_requests()
    assert row.id == result.request_id
    assert row.mailed_at is None
    [job] = jobs_of_kind("mail")
    assert job.state == "failed" and f"Gave up on job {job.id} (mail)" in caplog.text


def test_the_request_and_its_mail_are_one_transaction() -> None:
    """A request that is stored has its mail queued with it; one that is not, has none."""
    result = submit_quote(fields=quote_fields(), client_ip="10.0.0.1")
    [job] = jobs_of_kind("mail")
    assert job.state == "queued" and result.request_id
    with pytest.raises(RuntimeError), session_scope() as session:
        send_mail(to="x@example.com", subject="rolled back", text="t", session=session)
        raise RuntimeError("the change fails after its mail was queued")
    assert len(jobs_of_kind("mail")) == 1


def test_without_smtp_the_mail_goes_to_the_outbox_and_counts_as_sent() -> None:
    result = submit_quote(fields=quote_fields(), client_ip="10.0.0.1")

    [mail] = outbox_messages()
    assert mail["To"] == get_settings().sales_email
    assert mail["Subject"] == "Quote request from Alice Smith, ACME GmbH"
    assert wait_for_outgoing_mail(10)
    [row] = stored_requests()
    assert row.id == result.request_id and row.mailed_at is not None


def test_the_staff_link_follows_the_site_url(configure: Configure) -> None:
    configure(site_url="https://www.rcx.example/")
    result = submit_quote(fields=quote_fields(), client_ip="10.0.0.1")

    [mail] = outbox_messages()
    plain = mail.get_body(("plain",))
    assert plain is not None
    assert (
        f"Open it in the staff inbox\n\nhttps://www.rcx.example/staff/quotes/{result.request_id}"
        in plain.get_content()
    )


def test_a_database_failure_is_answered_not_raised(
    configure: Configure, tmp_path, caplog: pytest.LogCaptureFixture
) -> None:
    # An unmigrated database has no quote_request table.
    configure(database_url=f"sqlite:///{tmp_path / 'unmigrated.db'}")

    with caplog.at_level(logging.ERROR):
        result = submit_quote(fields=quote_fields(), client_ip="10.0.0.1")

    assert result.ok is False
    assert result.status == 503
    assert result.message.startswith("Sorry, your request could not be saved.")
    assert get_settings().sales_email in result.message
    assert list(get_settings().outbox_dir.glob("*.eml")) == []
    assert "Could not store a quote request" in caplog.text


def test_the_limit_is_shared_by_workers_through_redis(redis_limits: redis.Redis) -> None:
    for _ in range(5):
        assert submit_quote(fields=quote_fields(), client_ip="10.0.1.1").ok
    prefix = get_settings().rate_limit_key_prefix
    keys = [key.decode() for key in redis_limits.scan_iter(f"{prefix}*")]
    assert keys and not any("10.0.1.1" in key for key in keys)

    forget_storage_connections()  # as if the next request reached another worker
    assert submit_quote(fields=quote_fields(), client_ip="10.0.1.1").status == 429
    assert submit_quote(fields=quote_fields(), client_ip="10.0.1.2").ok
