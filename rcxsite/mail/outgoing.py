"""The background sender: callers queue a message and carry on; delivery retries off-thread."""

from __future__ import annotations

import logging
import smtplib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from email.message import EmailMessage

from rcxsite.mail.transport import build_message, deliver
from rcxsite.settings import Settings, get_settings

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None
_pending: set[Future[None]] = set()


def _get_executor() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            # Executor threads are joined at interpreter exit, so queued mail still leaves.
            _executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mail")
        return _executor


# Told the outcome of a delivery: None once delivered, else the last error.
OutcomeHook = Callable[[BaseException | None], None]


def send_mail(
    *, to: str, subject: str, text: str, html: str | None = None, reply_to: str | None = None,
    on_outcome: OutcomeHook | None = None,
) -> Future[None]:
    """Queue a message and return at once.

    The returned future completes when the message is delivered, or fails with the last
    error once all attempts are used up. `on_outcome` (say, recording that sales were
    mailed) runs on the sending thread before the future completes, so whoever waits for
    the queue to drain (`wait_for_outgoing_mail`) also waits for it.
    """
    settings = get_settings()  # captured now: the configuration at queueing time applies
    message = build_message(
        settings, to=to, subject=subject, text=text, html=html, reply_to=reply_to
    )
    future = _get_executor().submit(_send, settings, message, on_outcome)
    with _lock:
        _pending.add(future)
    future.add_done_callback(_forget)
    return future


def _forget(future: Future[None]) -> None:
    with _lock:
        _pending.discard(future)


def _is_permanent(error: Exception) -> bool:
    # A 5xx reply (bad recipient, refused sender) will not change on a retry.
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(500 <= code < 600 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and 500 <= error.smtp_code < 600


def _send(settings: Settings, message: EmailMessage, on_outcome: OutcomeHook | None) -> None:
    outcome: BaseException | None = None
    try:
        _deliver_with_retries(settings, message)
    except BaseException as error:
        outcome = error
        raise
    finally:
        if on_outcome is not None:
            try:
                on_outcome(outcome)
            except Exception:
                logger.exception("Could not record the outcome of mail to %s", message["To"])


def _deliver_with_retries(settings: Settings, message: EmailMessage) -> None:
    attempts = settings.mail_send_attempts
    for attempt in range(1, attempts + 1):
        try:
            deliver(settings, message)
            return
        except (smtplib.SMTPException, OSError) as error:
            if attempt == attempts or _is_permanent(error):
                logger.error(
                    "Giving up on mail to %s (%r) after %d attempt(s): %s",
                    message["To"],
                    message["Subject"],
                    attempt,
                    error,
                )
                raise
            delay = settings.mail_retry_delay_seconds * 2 ** (attempt - 1)
            logger.warning(
                "Mail to %s failed (attempt %d of %d): %s; retrying in %.1f s",
                message["To"],
                attempt,
                attempts,
                error,
                delay,
            )
            time.sleep(delay)


def wait_for_outgoing_mail(timeout: float = 10.0) -> bool:
    """Block until every queued message is delivered or given up; False on timeout."""
    return wait_for_all(_pending, _lock, timeout)


def wait_for_all(futures: set[Future[None]], lock: threading.Lock, timeout: float) -> bool:
    """Block until every future in `futures` is done, including ones added while waiting.

    `futures` is a set that other threads add to under `lock`. False on timeout.
    """
    deadline = time.monotonic() + timeout
    while True:
        with lock:
            pending = [future for future in futures if not future.done()]
        if not pending:
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        wait(pending, timeout=remaining)
