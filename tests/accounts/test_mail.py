from __future__ import annotations

import logging
import smtplib
from email.message import EmailMessage
from pathlib import Path

import pytest

from rcxsite import mail
from rcxsite.content import routes
from rcxsite.mail import outgoing
from rcxsite.platform.settings import Settings, get_settings
from tests.support.fixtures import Configure
from tests.support.site import jobs_of_kind, outbox_messages
from tests.support.smtp import Mailbox, free_port


def test_without_smtp_host_mail_is_written_to_the_outbox_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="rcxsite.mail")

    mail.send_mail(to="bob@example.com", subject="Hi", text="plain body", html="<b>x</b>")

    [message] = outbox_messages()
    assert (message["To"], message["Subject"]) == ("bob@example.com", "Hi")
    assert message["From"] == get_settings().smtp_from
    assert message.get_body(("plain",)).get_content().strip() == "plain body"  # type: ignore[union-attr]
    assert message.get_body(("html",)).get_content().strip() == "<b>x</b>"  # type: ignore[union-attr]
    [path] = get_settings().outbox_dir.glob("*.eml")
    assert str(path) in caplog.text
    assert path.stat().st_mode & 0o777 == 0o600  # a message may hold a reset link


def test_smtp_delivery_reaches_a_real_server(mailbox: Mailbox) -> None:
    mail.send_mail(to="bob@example.com", subject="Über", text="Grüße", html=None)

    received = mailbox.wait_for("bob@example.com")

    assert received["Subject"] == "Über"
    assert received.get_content().strip() == "Grüße"
    assert not received.is_multipart()
    assert list(get_settings().outbox_dir.glob("*.eml")) == []


def test_send_mail_queues_a_sealed_job_and_returns_before_delivery() -> None:
    mail.send_mail(to="bob@example.com", subject="s", text="reset link: https://x/abc123")

    [job] = jobs_of_kind("mail")
    assert (job.state, job.attempts) == ("queued", 0)
    # The queued message is sealed at rest (it may hold a reset link).
    assert "abc123" not in job.payload and "bob@example.com" not in job.payload
    assert list(get_settings().outbox_dir.glob("*.eml")) == []
    assert mail.wait_for_outgoing_mail(timeout=10) is True
    [job] = jobs_of_kind("mail")
    assert (job.state, job.attempts, job.payload) == ("done", 1, "")
    assert len(list(get_settings().outbox_dir.glob("*.eml"))) == 1


def test_a_down_server_is_retried_on_schedule_then_marked_failed_and_logged(
    configure: Configure, caplog: pytest.LogCaptureFixture
) -> None:
    configure(
        smtp_host="127.0.0.1",
        smtp_port=free_port("127.0.0.1"),
        job_retry_seconds="0.2,0.4",
        job_give_up_hours=1.5 / 3600,
    )

    mail.send_mail(to="bob@example.com", subject="s", text="t")

    with caplog.at_level(logging.INFO):
        assert mail.wait_for_outgoing_mail(timeout=30) is True
    [job] = jobs_of_kind("mail")
    assert job.state == "failed" and job.attempts >= 3
    assert job.last_error.startswith(("ConnectionRefusedError", "OSError"))
    assert job.payload  # kept, so an admin's "Retry" can send it
    assert caplog.text.count("failed (attempt") == job.attempts - 1
    assert f"Gave up on job {job.id} (mail) after {job.attempts} attempt(s)" in caplog.text
    assert '"event": "mail_failed"' in caplog.text or "mail_failed failed" in caplog.text


def test_a_permanent_refusal_is_not_retried(
    monkeypatch: pytest.MonkeyPatch, configure: Configure
) -> None:
    calls: list[str] = []

    def refuse(settings: Settings, message: EmailMessage) -> Path:
        calls.append(message["To"])
        raise smtplib.SMTPRecipientsRefused({message["To"]: (550, b"no such user")})

    monkeypatch.setattr(outgoing, "deliver", refuse)

    mail.send_mail(to="bob@example.com", subject="s", text="t")

    assert mail.wait_for_outgoing_mail(timeout=10) is True
    assert calls == ["bob@example.com"]
    [job] = jobs_of_kind("mail")
    assert (job.state, job.attempts) == ("failed", 1)
    assert "no such user" in job.last_error


def test_names_in_the_html_part_are_escaped(mailbox: Mailbox) -> None:
    mail.send_password_changed_mail(to="eve@example.com", user_name="<script>x</script>")

    received = mailbox.wait_for("eve@example.com")

    html = received.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<script>x</script>" in received.get_body(("plain",)).get_content()  # type: ignore[union-attr]


def test_the_password_changed_mail_links_to_the_forgot_password_page(mailbox: Mailbox) -> None:
    mail.send_password_changed_mail(to="ann@example.com", user_name="Ann")

    text = mailbox.wait_for("ann@example.com").get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert get_settings().site_url + routes.FORGOT_PASSWORD.path in text
