"""Taking a quote request: honeypot, validation, rate limit, storage, then the mail to sales.

Framework-free and synchronous (the database blocks): the Reflex state calls it through
`asyncio.to_thread`, an HTTP adapter through its thread pool. It never raises for
anything the visitor did; the answer is always a `QuoteResult`.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field

from sqlalchemy import update
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import col

from rcxsite.accounts.validation import text
from rcxsite.db import session_scope
from rcxsite.leads.notification import call_slot, send_quote_mail
from rcxsite.leads.validation import HONEYPOT_FIELD, QuoteInput
from rcxsite.mail.outgoing import wait_for_all
from rcxsite.models import QuoteRequest, utcnow
from rcxsite.ratelimit import Limit, RateLimited, client_key, hit
from rcxsite.settings import get_settings

logger = logging.getLogger(__name__)

RECEIVED = "Thank you! Your request has been received."
CORRECT_FIELDS = "Please correct the highlighted fields."
# Shown when the bot trap fired or no call slot is known; bots must not notice a difference.
GENERIC_NEXT_STEPS = "A senior consultant will email you within one working day."
_LIMIT_SCOPE = "quote-request"

_lock = threading.Lock()
_recording: set[Future[None]] = set()


@dataclass(frozen=True)
class QuoteResult:
    """The answer to show. `status` is what an HTTP adapter would answer with."""

    ok: bool
    message: str
    errors: dict[str, str] = field(default_factory=dict)
    request_id: int | None = None
    next_steps: str = ""
    status: int = 201
    retry_after: int | None = None


def next_steps_for(quote: QuoteInput) -> str:
    return (
        "A senior consultant will email you within one working day to confirm your call "
        f"on {call_slot(quote.call_date, quote.call_time)}."
    )


def submit_quote(*, fields: Mapping[str, object], client_ip: str) -> QuoteResult:
    """Store a visitor's request and queue the mail to sales; see the module docstring."""
    if text(fields.get(HONEYPOT_FIELD)):
        logger.info(
            "Quote form trap field filled by client %s; nothing stored or sent",
            client_ip_hash(client_ip)[:12],
        )
        return QuoteResult(ok=True, message=RECEIVED, next_steps=GENERIC_NEXT_STEPS)

    quote, errors = QuoteInput.read(fields)
    if quote is None:
        return QuoteResult(ok=False, message=CORRECT_FIELDS, errors=errors, status=422)

    try:
        hit(Limit(get_settings().quote_limit, _LIMIT_SCOPE, client_key(client_ip)))
    except RateLimited as refusal:
        return QuoteResult(
            ok=False, message=refusal.message, status=429, retry_after=refusal.retry_after
        )

    try:
        request_id = _store(quote, client_ip)
    except SQLAlchemyError:
        logger.exception("Could not store a quote request")
        return QuoteResult(
            ok=False,
            message=(
                "Sorry, your request could not be saved. Please try again in a few minutes "
                f"or email us at {get_settings().sales_email}."
            ),
            status=503,
        )

    _notify_sales(quote, request_id)
    return QuoteResult(
        ok=True, message=RECEIVED, request_id=request_id, next_steps=next_steps_for(quote)
    )


def client_ip_hash(client_ip: str) -> str:
    # Keyed: a plain SHA-256 of an IPv4 address is reversed by trying all 2**32 of them.
    key = get_settings().signing_key().encode()
    return hmac.new(key, client_ip.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def _store(quote: QuoteInput, client_ip: str) -> int:
    row = QuoteRequest(
        name=quote.name,
        email=quote.email,
        company=quote.company,
        phone=quote.phone,
        service=quote.service,
        budget=quote.budget,
        timeline=quote.timeline,
        message=quote.message,
        call_date=quote.call_date,
        call_time=quote.call_time,
        client_ip_hash=client_ip_hash(client_ip),
    )
    with session_scope() as session:
        session.add(row)
        session.flush()
        assert row.id is not None
        return row.id


def _notify_sales(quote: QuoteInput, request_id: int) -> None:
    """Queue the mail; its outcome is only recorded, the visitor's answer is already fixed."""
    recorded: Future[None] = Future()
    with _lock:
        _recording.add(recorded)
    try:
        mail = send_quote_mail(quote, request_id=request_id)
    except Exception:
        logger.exception("Could not queue the mail for quote request #%d", request_id)
        _finish(recorded)
        return

    def record(outcome: Future[None]) -> None:
        try:
            if outcome.cancelled() or outcome.exception() is not None:
                # The outgoing queue already logged the SMTP error itself.
                logger.error(
                    "Quote request #%d is stored but sales was not mailed; "
                    "it shows with an empty mailed_at in the export",
                    request_id,
                )
            else:
                _mark_mailed(request_id)
        except Exception:
            logger.exception("Could not record the mail of quote request #%d", request_id)
        finally:
            _finish(recorded)

    mail.add_done_callback(record)


def _finish(recorded: Future[None]) -> None:
    with _lock:
        _recording.discard(recorded)
    recorded.set_result(None)


def _mark_mailed(request_id: int) -> None:
    with session_scope() as session:
        mark = update(QuoteRequest).where(col(QuoteRequest.id) == request_id)
        session.exec(mark.values(mailed_at=utcnow()))


def wait_for_quote_mail(timeout: float = 10.0) -> bool:
    """Block until every queued sales mail is delivered or given up and its outcome recorded.

    `rcxsite.mail.wait_for_outgoing_mail` alone can return before `mailed_at` is written,
    because futures wake their waiters before running done-callbacks. False on timeout.
    """
    return wait_for_all(_recording, _lock, timeout)
