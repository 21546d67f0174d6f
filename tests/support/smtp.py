"""A real SMTP server (aiosmtpd) on a free local port, collecting what it receives."""

from __future__ import annotations

import threading
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

from aiosmtpd.controller import Controller

# aiosmtpd probes its own port once started, so it cannot be given port 0 itself.
from rcxsite.tools.processes import free_port


class Mailbox:
    """Start it, point SMTP_HOST/SMTP_PORT at `host`/`port`, then `wait_for` a recipient.

    `messages` holds every message received, oldest first. `wait_for` hands out each
    message only once, so a second call for the same recipient waits for the next mail.
    """

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = 0
        self.messages: list[EmailMessage] = []
        self._recipients: list[list[str]] = []
        self._claimed: set[int] = set()
        self._arrived = threading.Condition()
        self._controller: Controller | None = None

    def start(self) -> Mailbox:
        self.port = free_port(self.host)
        self._controller = Controller(self, hostname=self.host, port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        assert isinstance(message, EmailMessage)
        with self._arrived:
            self.messages.append(message)
            self._recipients.append([address.lower() for address in envelope.rcpt_tos])
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, to: str, timeout: float = 10) -> EmailMessage:
        """The oldest message to `to` not yet handed out; AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for index, recipients in enumerate(self._recipients):
                    if index not in self._claimed and to.lower() in recipients:
                        self._claimed.add(index)
                        return self.messages[index]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no mail to {to} within {timeout} s")
                self._arrived.wait(remaining)
