from __future__ import annotations

import logging
import smtplib
import threading
from email.message import EmailMessage
from pathlib import Path

import pytest

from rcxsite import mail
from rcxsite.mail import outgoing
from rcxsite.settings import Settings, get_settings
from tests.support.fixtures import Configure
from tests.support.site import outbox_messages
from tests.support.smtp import Mailbox, free_port


def test_without_smtp_host_mail_is_written_to_the_outbox_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="rcxsite.mail")

    future = mail.send_mail(to="bob@example.com", subject="Hi", text="plain body", html="<b>x</b>")

    assert future.result(timeout=10) is None
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


def test_send_mail_returns_before_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    delivered: list[EmailMessage] = []

    def slow_deliver(settings: Settings, message: EmailMessage) -> None:
        assert release.wait(10)
        delivered.append(message)

    monkeypatch.setattr(outgoing, "deliver", slow_deliver)

    future = mail.send_mail(to="bob@example.com", subject="s", text="t")

    assert not future.done() and delivered == []
    assert mail.wait_for_outgoing_mail(timeout=0.05) is False
    release.set()
    assert mail.wait_for_outgoing_mail(timeout=10) is True
    assert [message["To"] for message in delivered] == ["bob@example.com"]


def test_a_down_server_is_retried_then_logged_and_reported_to_the_caller(
    configure: Configure, caplog: pytest.LogCaptureFixture
) -> None:
    configure(smtp_host="127.0.0.1", smtp_port=free_port("127.0.0.1"), mail_send_attempts=3)

    future = mail.send_mail(to="bob@example.com", subject="s", text="t")

    assert isinstance(future.exception(timeout=30), OSError)
    assert caplog.text.count("Mail to bob@example.com failed (attempt") == 2
    assert "Giving up on mail to bob@example.com ('s') after 3 attempt(s)" in caplog.text


def test_a_permanent_refusal_is_not_retried(
    monkeypatch: pytest.MonkeyPatch, configure: Configure
) -> None:
    configure(mail_send_attempts=3)
    calls: list[str] = []

    def refuse(settings: Settings, message: EmailMessage) -> Path:
        calls.append(message["To"])
        raise smtplib.SMTPRecipientsRefused({message["To"]: (550, b"no such user")})

    monkeypatch.setattr(outgoing, "deliver", refuse)

    future = mail.send_mail(to="bob@example.com", subject="s", text="t")

    assert isinstance(future.exception(timeout=10), smtplib.SMTPRecipientsRefused)
    assert calls == ["bob@example.com"]


def test_names_in_the_html_part_are_escaped(mailbox: Mailbox) -> None:
    mail.send_password_changed_mail(to="eve@example.com", user_name="<script>x</script>")

    received = mailbox.wait_for("eve@example.com")

    html = received.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<script>x</script>" in received.get_body(("plain",)).get_content()  # type: ignore[union-attr]
