"""A real SMTP server (aiosmtpd) on a free local port, collecting what it receives."""

from __future__ import annotations

import re
import threading
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

from aiosmtpd.controller import Controller

# aiosmtpd probes its own port once started, so it cannot be given port 0 itself.
from rcxsite.tools.processes import free_port

# The link every registration mails to verify the address (rcxsite.accounts.verification).
VERIFY_LINK = re.compile(r"https?://[^\s\"'<>]+/verify-email/([A-Za-z0-9_\-]+)")


def is_address_verification(message: EmailMessage) -> bool:
    """Whether `message` is the mail with a link that verifies an address."""
    body = message.get_body(("plain",))
    return body is not None and VERIFY_LINK.search(body.get_content()) is not None


class Mailbox:
    """Start it, point SMTP_HOST/SMTP_PORT at `host`/`port`, then `wait_for` a recipient.

    `messages` holds every message received, oldest first, but the address-verification
    mails (`verification_messages`): every registration sends one, and tests of other mails
    need not step over it. `wait_for` hands out each message only once, so a second call
    for the same recipient waits for the next mail; `verification=True` waits for the next
    verification mail instead.
    """

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = 0
        self.messages: list[EmailMessage] = []
        self.verification_messages: list[EmailMessage] = []
        self._received: list[tuple[EmailMessage, list[str]]] = []
        self._claimed: set[int] = set()
        self._arrived = threading.Condition()
        self._controller: Controller | None = None

    def start(self, port: int = 0) -> Mailbox:
        """On a free port, or on `port` (a server that comes back where it was)."""
        self.port = port or free_port(self.host)
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
        verification = is_address_verification(message)
        with self._arrived:
            (self.verification_messages if verification else self.messages).append(message)
            self._received.append((message, [address.lower() for address in envelope.rcpt_tos]))
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def sent_to(self, to: str) -> int:
        """How many messages (of every kind) have reached `to` so far."""
        with self._arrived:
            return sum(to.lower() in recipients for _, recipients in self._received)

    def wait_for(self, to: str, timeout: float = 30, *, verification: bool = False) -> EmailMessage:
        """The oldest message to `to` not yet handed out (of the address-verification mails
        if `verification`, else of the others); AssertionError after `timeout`. The mail
        leaves with a job runner's next round, which on a loaded 2-core machine (the other
        half of the suite beside it, at a lower priority) took more than 10 s once."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for index, (message, recipients) in enumerate(self._received):
                    if (
                        index not in self._claimed
                        and to.lower() in recipients
                        and is_address_verification(message) == verification
                    ):
                        self._claimed.add(index)
                        return message
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no mail to {to} within {timeout} s")
                self._arrived.wait(remaining)
