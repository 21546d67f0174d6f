"""Outgoing mail through a durable outbox: a message is a job in the site's database.

`send_mail` builds the message (its Message-ID fixed from then on) and adds it as a job of
kind "mail", in the caller's transaction when one is given: the mail exists exactly when
the change that causes it does, and survives the process that wrote it. A runner
(rcxsite/jobs) delivers it, retrying on the JOB_RETRY_SECONDS schedule for
JOB_GIVE_UP_HOURS, then marks it failed with its last error (the staff office's Mail and
jobs page shows it, with "Retry"). The message is sealed at rest (it may hold a reset
link) and erased once delivered.

One claim at a time per mail: a duplicate can only happen when a runner dies after the mail
server accepted a message and before the job was marked done; it then carries the same
Message-ID.
"""

from __future__ import annotations

import json
import logging
import smtplib
from collections.abc import Callable
from datetime import datetime
from email.utils import formatdate

from sqlmodel import Session

from rcxsite import jobs
from rcxsite.jobs.runner import drain
from rcxsite.mail.transport import build_message, deliver, new_message_id
from rcxsite.platform.at_rest import seal, unseal
from rcxsite.platform.db import session_scope
from rcxsite.platform.metrics import MAIL_FAILURES
from rcxsite.platform.settings import get_settings

logger = logging.getLogger(__name__)

MAIL = "mail"
_AT_REST = "outbox-mail"
# iTIP methods (RFC 5546) an invitation may carry: a new or changed call, a cancelled one.
CALENDAR_METHODS = frozenset({"REQUEST", "CANCEL"})

# Kinds of jobs, due as soon as they are queued, whose work is to queue mail (a new
# booking's invitations): waiting for outgoing mail runs them too.
COMPOSERS: set[str] = set()


def composes_mail(kind: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(function: Callable[..., None]) -> Callable[..., None]:
        COMPOSERS.add(kind)
        return function

    return register


# Run once a mail has been delivered (say, recording that sales were mailed), given the
# number the sender named; registered by the feature that needs it.
AFTER_SENT: dict[str, Callable[[int], None]] = {}


def after_sent(name: str) -> Callable[[Callable[[int], None]], Callable[[int], None]]:
    def register(function: Callable[[int], None]) -> Callable[[int], None]:
        AFTER_SENT[name] = function
        return function

    return register


def send_mail(
    *,
    to: str,
    subject: str,
    text: str,
    html: str | None = None,
    reply_to: str | None = None,
    session: Session | None = None,
    after: str = "",
    after_ref: int = 0,
    ref: str = "",
    calendar: tuple[str, str] | None = None,
    due_at: datetime | None = None,
) -> None:
    """Queue a message: in `session`'s transaction when given, else in one of its own.
    `after`/`after_ref`: the AFTER_SENT hook to run once it is delivered; `ref`: what the
    mail is about, so that cancelling that (a call) cancels the mail if still queued;
    `calendar`: (method, .ics text) of an invitation it carries (see `build_message`);
    `due_at`: not sent before then (a rejection held so it can be undone)."""
    if calendar is not None and calendar[0] not in CALENDAR_METHODS:
        # It becomes a header parameter: only the methods this site sends.
        raise ValueError(f"unknown calendar method {calendar[0]!r}")
    settings = get_settings()
    # The message's parts, not the MIME text: the email package's formatting costs a few
    # milliseconds that the runner pays, not the request. What identifies the message is
    # fixed now, so every attempt sends the same one.
    parts = {
        "to": to,
        "subject": subject,
        "text": text,
        "html": html,
        "reply_to": reply_to,
        "sender": settings.smtp_from,
        "date": formatdate(localtime=False),
        "message_id": new_message_id(settings),
        "calendar": list(calendar) if calendar is not None else None,
    }
    payload = {"message": seal(_AT_REST, json.dumps(parts)), "after": after, "after_ref": after_ref}
    if session is not None:
        jobs.add(session, kind=MAIL, payload=payload, ref=ref, due_at=due_at)
        return
    with session_scope() as own:
        jobs.add(own, kind=MAIL, payload=payload, ref=ref, due_at=due_at)


def _is_permanent(error: Exception) -> bool:
    # A 5xx reply (bad recipient, refused sender) will not change on a retry.
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(500 <= code < 600 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and 500 <= error.smtp_code < 600


@jobs.handler(MAIL)
def deliver_mail(payload: dict[str, object]) -> None:
    parts = json.loads(unseal(_AT_REST, str(payload.get("message", ""))))
    if parts.get("calendar"):
        parts["calendar"] = tuple(parts["calendar"])
    message = build_message(get_settings(), **parts)
    try:
        deliver(get_settings(), message)
    except (smtplib.SMTPException, OSError) as error:
        permanent = _is_permanent(error)
        MAIL_FAILURES.labels(outcome="refused" if permanent else "will_retry").inc()
        if permanent:
            raise jobs.Permanent(str(error)) from error
        raise
    hook = AFTER_SENT.get(str(payload.get("after") or ""))
    if hook is not None:
        # Delivered is delivered: a failing hook is logged, never a reason to send again.
        try:
            hook(int(str(payload.get("after_ref") or 0)))
        except Exception:
            logger.exception("mail to %s was sent, but its after-sent step failed", message["To"])


def wait_for_outgoing_mail(timeout: float = 10.0, *, since: datetime | None = None) -> bool:
    """Deliver the queued mail from this thread until none (queued at or after `since`) is
    left or `timeout` passes (a command-line tool that must not exit before its mail
    left); False on timeout."""
    return drain(timeout=timeout, kinds=(*sorted(COMPOSERS), MAIL), since=since)
