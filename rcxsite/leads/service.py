"""Taking a quote request: rate limit, storage, then the mail to sales.

Framework-free and synchronous (the database blocks): the Reflex state calls it through
`asyncio.to_thread`. `submit_quote` takes the validated `QuoteInput` and returns a
`QuoteReceipt` or raises `ServiceError` (429 rate limit, 503 not stored). A form whose
bot trap is filled is never validated: `note_trapped_quote` stores it in the spam folder
(rcxsite.leads.spam), mails no one, and answers exactly as an accepted request is
answered, rate limit and storage failure included, so a bot learns nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import update
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import col

from rcxsite.core.attribution import Attribution, stamped
from rcxsite.core.forms import HONEYPOT_FIELD
from rcxsite.core.ratelimit import Limit, client_key, hit
from rcxsite.core.service_errors import ServiceError
from rcxsite.leads.notification import QUOTE_MAILED, call_slot, send_quote_mail
from rcxsite.leads.spam import trapped_request
from rcxsite.leads.validation import (
    QuoteInput,
    QuoteWithoutCallInput,
    wants_no_call,
)
from rcxsite.mail.outgoing import after_sent
from rcxsite.models import QuoteRequest, utcnow
from rcxsite.platform.db import session_scope
from rcxsite.platform.settings import get_settings, keyed_hash

logger = logging.getLogger(__name__)

RECEIVED = "Thank you! Your request has been received."
# Shown when the bot trap fired or no call slot is known; bots must not notice a difference.
GENERIC_NEXT_STEPS = "A senior consultant will email you within one working day."
NO_CALL_NEXT_STEPS = (
    "A senior consultant will reply by email within one working day, with any questions "
    "and the next steps towards your proposal."
)
_LIMIT_SCOPE = "quote-request"


@dataclass(frozen=True, slots=True)
class QuoteReceipt:
    """What the visitor is told; `request_id` is None for a trapped form (stored as spam,
    but nothing tells its sender so)."""

    message: str
    next_steps: str
    request_id: int | None = None


def next_steps_for(quote: QuoteInput | QuoteWithoutCallInput) -> str:
    if not isinstance(quote, QuoteInput):
        return NO_CALL_NEXT_STEPS
    return (
        "A senior consultant will email you within one working day to confirm your call "
        f"on {call_slot(quote.call_date, quote.call_time)}."
    )


def note_trapped_quote(fields: Mapping[str, object], *, client_ip: str) -> QuoteReceipt:
    """A form whose bot trap is filled: kept as spam, no mail, answered like an accepted
    request (same limit, same texts); spam older than 30 days is purged by a periodic job
    (rcxsite/leads/spam.py)."""
    hit(Limit(get_settings().quote_limit, _LIMIT_SCOPE, client_key(client_ip)))
    logger.info(
        "Quote form trap field filled by client %s; stored as spam, no mail sent",
        keyed_hash(client_ip)[:12],
    )
    try:
        with session_scope() as session:
            session.add(trapped_request(fields, client_ip=client_ip))
    except SQLAlchemyError:
        logger.exception("Could not store a quote request")
        raise _not_stored() from None
    # As an accepted request of the same kind is answered.
    next_steps = NO_CALL_NEXT_STEPS if wants_no_call(fields) else GENERIC_NEXT_STEPS
    return QuoteReceipt(message=RECEIVED, next_steps=next_steps)


def _not_stored() -> ServiceError:
    return ServiceError(
        503,
        "Sorry, your request could not be saved. Please try again in a few minutes "
        f"or email us at {get_settings().sales_email}.",
    )


def submit_quote(
    quote: QuoteInput | QuoteWithoutCallInput,
    *,
    client_ip: str,
    attribution: Attribution | None = None,
) -> QuoteReceipt:
    """Store a visitor's request and queue the mail to sales; see the module docstring."""
    hit(Limit(get_settings().quote_limit, _LIMIT_SCOPE, client_key(client_ip)))

    try:
        request_id = _store(quote, client_ip, attribution)
    except SQLAlchemyError:
        logger.exception("Could not store a quote request")
        raise _not_stored() from None
    return QuoteReceipt(message=RECEIVED, next_steps=next_steps_for(quote), request_id=request_id)


def _store(
    quote: QuoteInput | QuoteWithoutCallInput, client_ip: str, attribution: Attribution | None
) -> int:
    # The model's fields are the table's columns, but the bot trap, which is always empty.
    row = stamped(
        QuoteRequest(
            **quote.model_dump(exclude={HONEYPOT_FIELD}), client_ip_hash=keyed_hash(client_ip)
        ),
        attribution,
    )
    # The request and its mail to sales in one transaction: stored means sales will hear
    # of it, whatever happens to this process (the outbox, rcxsite/mail/outgoing.py).
    with session_scope() as session:
        session.add(row)
        session.flush()
        assert row.id is not None
        send_quote_mail(quote, request_id=row.id, session=session)
        return row.id


@after_sent(QUOTE_MAILED)
def _mark_mailed(request_id: int) -> None:
    with session_scope() as session:
        mark = update(QuoteRequest).where(col(QuoteRequest.id) == request_id)
        session.exec(mark.values(mailed_at=utcnow()))
