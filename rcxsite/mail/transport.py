"""Turning a message into an SMTP delivery, or into an .eml file when no server is set."""

from __future__ import annotations

import logging
import os
import smtplib
import ssl
import uuid
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import lru_cache
from pathlib import Path

from rcxsite.platform.settings import Settings

logger = logging.getLogger(__name__)

_IMPLICIT_TLS_PORT = 465


def build_message(
    settings: Settings,
    *,
    to: str,
    subject: str,
    text: str,
    html: str | None,
    reply_to: str | None = None,
    sender: str = "",
    date: str = "",
    message_id: str = "",
    calendar: tuple[str, str] | None = None,
) -> EmailMessage:
    """The message; `sender`, `date` and `message_id` as fixed when it was queued (a retry
    sends the same message), else now's. `calendar`: (iTIP method, .ics text) of an
    invitation, sent the way calendar clients look for it: as a `text/calendar` alternative
    of the text (Outlook, Apple Mail and Gmail offer to accept it from there) and as an
    `invite.ics` attachment (for the clients that only import files)."""
    message = EmailMessage()
    message["From"] = sender or settings.smtp_from
    message["To"] = to
    if reply_to:
        message["Reply-To"] = reply_to
    message["Subject"] = subject
    message["Date"] = date or formatdate(localtime=False)
    message["Message-ID"] = message_id or new_message_id(settings)
    message.set_content(text)
    if html is not None:
        message.add_alternative(html, subtype="html")
    if calendar is not None:
        method, ics = calendar
        message.add_alternative(ics, subtype="calendar", params={"method": method})
        message.add_attachment(
            ics.encode(), maintype="application", subtype="ics", filename="invite.ics"
        )
    return message


def new_message_id(settings: Settings) -> str:
    return make_msgid(domain=_sender_domain(settings.smtp_from))


def _sender_domain(sender: str) -> str | None:
    _, _, domain = sender.rstrip(">").rpartition("@")
    return domain or None


def deliver(settings: Settings, message: EmailMessage) -> Path | None:
    """Send one message; returns the .eml path in outbox mode. Errors propagate."""
    if not settings.smtp_host:
        return _write_to_outbox(settings.outbox_dir, message)
    _send_smtp(settings, message)
    return None


def _write_to_outbox(outbox: Path, message: EmailMessage) -> Path:
    outbox.mkdir(parents=True, exist_ok=True)
    # Time first so a directory listing reads in sending order.
    path = outbox / f"{datetime.now(UTC):%Y%m%dT%H%M%S%f}-{uuid.uuid4().hex[:8]}.eml"
    # Owner-only from creation: a message may hold a reset link.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(message.as_bytes())
    logger.info("Mail to %s written to %s (no SMTP_HOST configured)", message["To"], path)
    return path


@lru_cache(maxsize=1)
def _tls_context() -> ssl.SSLContext:
    # Loading the system's certificates takes tens of milliseconds: once per process.
    return ssl.create_default_context()


def _send_smtp(settings: Settings, message: EmailMessage) -> None:
    implicit_tls = settings.smtp_port == _IMPLICIT_TLS_PORT
    timeout = settings.smtp_timeout_seconds
    # The server's certificate is checked (Python's own default for SMTP does not): a reset
    # link must not go to whoever sits between us and the mail server.
    context = _tls_context()
    client: smtplib.SMTP = (
        smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=timeout, context=context)
        if implicit_tls
        else smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout)
    )
    with client:
        if settings.smtp_starttls and not implicit_tls:
            client.starttls(context=context)
        if settings.smtp_user:
            client.login(settings.smtp_user, settings.smtp_password)
        client.send_message(message)
    logger.info("Mail to %s sent via %s:%s", message["To"], settings.smtp_host, settings.smtp_port)
